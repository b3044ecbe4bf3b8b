#include "render/crowd_pipelines.h"

#include <cstddef>
#include <iterator>
#include <string>

#include "render/impostor_atlas.h"
#include "shaders/spirv.h"

namespace horde {

namespace {

// skinning.glsl's constants (ids 2 to 5), between draw_fragment.glsl's (0, 1 and 6): one map
// serves every stage.
struct Specialization {
    VkBool32 sample;
    uint32_t alphaMode;
    uint32_t skinning;
    VkBool32 half;
    uint32_t influences;
    VkBool32 stretch;
    uint32_t samples; // the target's per pixel: a fading mesh takes its share of them
};
constexpr VkSpecializationMapEntry kEntries[] = {{0, offsetof(Specialization, sample), 4},
                                                 {1, offsetof(Specialization, alphaMode), 4},
                                                 {2, offsetof(Specialization, skinning), 4},
                                                 {3, offsetof(Specialization, half), 4},
                                                 {4, offsetof(Specialization, influences), 4},
                                                 {5, offsetof(Specialization, stretch), 4},
                                                 {6, offsetof(Specialization, samples), 4}};

Specialization specialization(const SkinVariant& skin) {
    Specialization s{};
    s.skinning = skin.options.skinning == Skinning::Dqs ? HORDE_SKIN_DQS : HORDE_SKIN_LBS;
    s.half = skin.options.precision == Precision::Fp16 ? VK_TRUE : VK_FALSE;
    s.influences = skin.options.influences > 4 ? 8u : 4u;
    s.stretch = skin.stretch ? VK_TRUE : VK_FALSE;
    return s;
}

} // namespace

CrowdPipelines createCrowdPipelines(Device& device, const CrowdPipelineInfo& info) {
    const bool pool = info.pool, textures = info.textures;
    Specialization values = specialization(info.skin);
    values.samples = uint32_t(info.samples); // VkSampleCountFlagBits values are the counts
    const VkSpecializationInfo constants{std::size(kEntries), kEntries, sizeof(values), &values};
    CrowdPipelines p;
    p.cull = createComputePipeline(device, spirv::cull_comp(), pushBlock<gpu::CullPush>(), "cull");
    p.budget = createComputePipeline(device, spirv::budget_comp(), pushBlock<gpu::PlanPush>(), "budget");
    p.assign = createComputePipeline(device, spirv::assign_comp(), pushBlock<gpu::CullPush>(), "assign");
    p.lists = createComputePipeline(device, spirv::lists_comp(), pushBlock<gpu::PlanPush>(), "lists");
    p.plan = createComputePipeline(device, spirv::plan_comp(), pushBlock<gpu::PlanPush>(), "plan");
    p.sample = createComputePipeline(device, spirv::sample_comp(), pushBlock<gpu::SamplePush>(), "sample");
    p.behaviour =
        createComputePipeline(device, spirv::behaviour_comp(), pushBlock<gpu::BehaviourPush>(), "behaviour");
    p.pose = createComputePipeline(device, spirv::pose_comp(), pushBlock<gpu::PosePush>(), "pose", &constants);
    p.skin = createComputePipeline(device, spirv::skin_comp(), pushBlock<gpu::SkinPush>(), "skin", &constants);

    GraphicsPipelineInfo draw;
    draw.vertex = pool ? spirv::draw_skinned_vert() : spirv::draw_palette_vert();
    draw.fragment = spirv::draw_frag();
    draw.push = pushBlock<gpu::DrawPush>();
    draw.colorFormat = info.colorFormat;
    draw.depthFormat = kDepthFormat;
    draw.samples = info.samples;
    draw.setLayout = info.materials;
    static constexpr const char* kinds[] = {"opaque", "mask", "blend"};
    auto drawPipelines = [&](GraphicsPipelineInfo pipeline, std::span<const uint32_t> fragment,
                             const std::string& name, std::array<Pipeline, 3>& out) {
        pipeline.fragment = fragment;
        for (uint32_t alpha = 0; alpha < 3; ++alpha) {
            values.sample = textures ? VK_TRUE : VK_FALSE;
            values.alphaMode = alpha;
            pipeline.specialization = &constants;
            pipeline.blend = alpha == HORDE_ALPHA_BLEND;
            out[alpha] = createGraphicsPipeline(device, pipeline, name + kinds[alpha]);
        }
    };
    drawPipelines(draw, spirv::draw_frag(), pool ? "draw skinned " : "draw palette ", p.draw);
    GraphicsPipelineInfo ground = draw;
    ground.setLayout = VK_NULL_HANDLE;
    ground.specialization = nullptr;
    ground.blend = false;
    ground.vertex = spirv::ground_vert();
    ground.fragment = spirv::ground_frag();
    ground.push = pushBlock<gpu::GroundPush>();
    p.ground = createGraphicsPipeline(device, ground, "ground");
    if (info.impostors == VK_NULL_HANDLE) return p;
    drawPipelines(draw, spirv::draw_fade_frag(), pool ? "draw skinned fading " : "draw palette fading ",
                  p.drawFade);

    GraphicsPipelineInfo bake;
    bake.vertex = spirv::impostor_bake_vert();
    bake.fragment = spirv::impostor_bake_frag();
    bake.push = pushBlock<gpu::ImpostorBakePush>();
    bake.colorFormat = kImpostorColorFormat;
    bake.secondColorFormat = kImpostorNormalFormat;
    bake.depthFormat = kDepthFormat;
    bake.samples = VK_SAMPLE_COUNT_1_BIT;
    bake.setLayout = info.materials;
    const VkBool32 sample = textures ? VK_TRUE : VK_FALSE;
    const VkSpecializationInfo sampling{1, kEntries, sizeof(sample), &sample};
    bake.specialization = &sampling;
    p.impostorBake = createGraphicsPipeline(device, bake, "impostor bake");
    GraphicsPipelineInfo impostor = ground;
    impostor.vertex = spirv::impostor_vert();
    impostor.fragment = spirv::impostor_frag();
    impostor.push = pushBlock<gpu::ImpostorPush>();
    impostor.setLayout = info.impostors;
    // Coverage becomes that share of the samples (impostor.frag's sample mask): the shader needs
    // their number. VkSampleCountFlagBits values are the counts.
    const uint32_t samples = uint32_t(info.samples);
    const VkSpecializationInfo sampleCount{1, kEntries, sizeof(samples), &samples};
    impostor.specialization = &sampleCount;
    impostor.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
    p.impostor = createGraphicsPipeline(device, impostor, "impostor");
    return p;
}

} // namespace horde
