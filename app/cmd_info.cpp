// horde info MODEL [--json] [--lod]: what a file holds, as text or as the JSON users script against.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include <nlohmann/json.hpp>

#include "anim/reference.h"
#include "anim/root_motion.h"
#include "anim/stride.h"
#include "commands.h"
#include "crowd/clip_roles.h"
#include "folder_commands.h"
#include "model/lod.h"
#include "model_options.h"
#include "shaders/gpu_types.h"
#include "texture/texture.h"

namespace horde {

namespace {

nlohmann::json materialJson(const Material& m) {
    using nlohmann::json;
    json textures = json::array();
    for (const TextureRef& t : m.textures) {
        json entry{{"slot", textureSlotName(t.slot)}, {"path", t.path}, {"found", bool(t.texture)}};
        if (t.texture)
            entry.update({{"format", pixelFormatName(t.texture->format)}, {"width", t.texture->width},
                          {"height", t.texture->height}, {"mips", t.texture->levels.size()}});
        else
            entry.update({{"format", nullptr}, {"width", nullptr}, {"height", nullptr}, {"mips", nullptr}});
        textures.push_back(entry);
    }
    const glm::vec4 c = m.baseColor;
    return {{"name", m.name},
            {"defined", m.defined},
            {"base_color", {c.r, c.g, c.b, c.a}},
            {"alpha", alphaModeName(m.alpha)},
            {"double_sided", m.doubleSided},
            {"textures", textures}};
}

// How a crowd plays each clip: its role, its root's travel, and for a walk or run its speed across
// the ground and how still its planted foot stays at that speed (anim/stride.h), measured on the
// clip played in place as the crowd draws it.
struct ClipWalk {
    ClipRole role = ClipRole::Other;
    RootMotion root;
    Stride stride;
};

std::vector<ClipWalk> clipWalks(const Model& model) {
    std::vector<ClipWalk> out;
    const std::vector<ClipRole> roles = clipRoles(model);
    for (size_t c = 0; c < model.clips.size(); ++c) {
        const Clip& clip = model.clips[c];
        ClipWalk w;
        w.role = roles[c];
        w.root = rootMotionOf(model, clip);
        if (w.role == ClipRole::Walk || w.role == ClipRole::Run) {
            Clip inPlace = clip;
            playInPlace(model, inPlace, w.root);
            if (w.root.node >= 0) {
                const glm::vec3 velocity = w.root.travel / clip.duration;
                w.stride = measureStride(model, inPlace, &velocity);
            } else {
                w.stride = measureStride(model, inPlace);
            }
        }
        out.push_back(w);
    }
    return out;
}

nlohmann::json toJson(const Model& model) {
    using nlohmann::json;
    json out;
    out["format"] = model.format;
    out["nodes"] = json::array();
    for (const Node& n : model.nodes) out["nodes"].push_back({{"name", n.name}, {"parent", n.parent}});
    out["meshes"] = json::array();
    for (const Mesh& m : model.meshes) {
        json submeshes = json::array();
        for (const Submesh& s : m.submeshes)
            submeshes.push_back({{"material", s.material}, {"first_index", s.firstIndex}, {"index_count", s.indexCount}});
        json mesh = {{"name", m.name},
                     {"vertices", m.vertexCount()},
                     {"indices", m.indexCount()},
                     {"skinned", m.skinned()},
                     {"joints", m.skinned() ? model.skins[m.skin].joints.size() : 0},
                     {"node", model.nodes[m.node].name},
                     {"submeshes", submeshes},
                     {"colors", m.layout().colors},
                     {"morph_targets", m.morphTargets()}};
        if (m.dangly) {
            const Dangly& d = *m.dangly;
            auto [lo, hi] = std::minmax_element(d.constraints.begin(), d.constraints.end());
            mesh["dangly"] = {{"constraints", d.constraints.size()},
                              {"constraint_min", lo == d.constraints.end() ? 0.0f : *lo},
                              {"constraint_max", hi == d.constraints.end() ? 0.0f : *hi},
                              {"displacement", d.displacement},
                              {"tightness", d.tightness},
                              {"period", d.period}};
        }
        out["meshes"].push_back(mesh);
    }
    out["materials"] = json::array();
    for (const Material& m : model.materials) out["materials"].push_back(materialJson(m));
    out["clips"] = json::array();
    const std::vector<ClipWalk> walks = clipWalks(model);
    for (size_t k = 0; k < model.clips.size(); ++k) {
        const Clip& c = model.clips[k];
        const ClipWalk& w = walks[k];
        json clip = {{"name", c.name},
                     {"duration", c.duration},
                     {"channels", c.channels.size()},
                     {"morph_channels", c.morphs.size()},
                     {"role", nameOf(w.role)},
                     {"root_motion", {{"distance", glm::length(w.root.travel)}, {"duration", w.root.duration}}}};
        if (w.role == ClipRole::Walk || w.role == ClipRole::Run) {
            clip["speed"] = glm::length(w.stride.velocity);
            clip["stride"] = w.stride.length;
            clip["planted_drift"] = w.stride.length > 0.0f ? w.stride.drift / w.stride.length : 0.0f;
        }
        if (c.transition >= 0.0f) clip["transition"] = c.transition;
        if (!c.source.empty()) clip["source"] = c.source;
        if (!c.absentNodes.empty()) clip["absent_nodes"] = c.absentNodes;
        out["clips"].push_back(clip);
    }
    Bounds b = bindPoseBounds(model);
    out["bounds"] = {{"min", {b.min.x, b.min.y, b.min.z}}, {"max", {b.max.x, b.max.y, b.max.z}}};
    out["axes"] = {{"up", model.axes.up == Axes::Up::Z ? "z" : "y"},
                   {"handedness", model.axes.leftHanded ? "left" : "right"},
                   {"metres_per_unit", model.axes.metresPerUnit}};
    out["extras"] = json::array();
    for (const Extra& e : model.extras) out["extras"].push_back({{"kind", e.kind}, {"node", e.node}, {"detail", e.detail}});
    out["warnings"] = model.warnings;
    return out;
}

struct MeshChain {
    const Mesh* mesh;
    LodChain chain;
    float radius; // half the diagonal of the box around the mesh as the rest pose draws it
};

// Each mesh's chain as a crowd builds it (CrowdModelOptions::lod), in the units it is drawn in.
std::vector<MeshChain> lodChains(const Model& model) {
    std::vector<MeshChain> out;
    const std::vector<std::vector<glm::vec3>> rest = restPoseVertices(model);
    std::vector<LodChain> chains = buildLodChains(model, rest, {.maxLevels = HORDE_MAX_LEVELS});
    for (size_t m = 0; m < model.meshes.size(); ++m) {
        glm::vec3 lo(INFINITY), hi(-INFINITY);
        for (const glm::vec3& p : rest[m]) {
            lo = glm::min(lo, p);
            hi = glm::max(hi, p);
        }
        const float radius = rest[m].empty() ? 0.0f : 0.5f * glm::length(hi - lo);
        out.push_back({&model.meshes[m], std::move(chains[m]), radius});
    }
    return out;
}

nlohmann::json lodJson(const std::vector<MeshChain>& chains) {
    nlohmann::json out = nlohmann::json::array();
    for (const MeshChain& c : chains) {
        nlohmann::json levels = nlohmann::json::array();
        for (const LodLevel& level : c.chain.levels)
            levels.push_back({{"triangles", level.triangleCount()}, {"error", level.error}});
        out.push_back({{"mesh", c.mesh->name}, {"radius", c.radius}, {"levels", levels}});
    }
    return out;
}

void printLod(const std::vector<MeshChain>& chains) {
    for (const MeshChain& c : chains) {
        const float radius = c.radius;
        std::printf("lod      %s: radius %.4g\n           level  triangles  error       of radius  made by\n",
                    c.mesh->name.c_str(), radius);
        for (size_t k = 0; k < c.chain.levels.size(); ++k) {
            const LodLevel& level = c.chain.levels[k];
            const char* how = k == 0 ? "source" : level.clustered ? "clustering" : "collapses";
            std::printf("           %5zu  %9u  %-10.4g  %-9.4f  %s%s\n", k, level.triangleCount(),
                        double(level.error), radius > 0.0f ? double(level.error / radius) : 0.0, how,
                        level.boneRegions ? " in bone regions" : "");
        }
    }
}

void printSummary(const Model& model) {
    Bounds b = bindPoseBounds(model);
    std::printf("format   %s\n", model.format.c_str());
    std::printf("nodes    %zu\n", model.nodes.size());
    for (const Mesh& m : model.meshes) {
        std::printf("mesh     %s: %u vertices, %u indices, %s", m.name.c_str(), m.vertexCount(), m.indexCount(),
                    m.skinned() ? "skinned" : "static");
        if (m.skinned()) std::printf(" by %zu joints", model.skins[m.skin].joints.size());
        if (m.morphTargets() > 0) std::printf(", %u morph targets", m.morphTargets());
        std::printf("\n");
        if (m.dangly) {
            const Dangly& d = *m.dangly;
            auto [lo, hi] = std::minmax_element(d.constraints.begin(), d.constraints.end());
            std::printf("           dangly %zu constraints %g..%g, displacement %g, tightness %g, period %g\n",
                        d.constraints.size(), lo == d.constraints.end() ? 0.0 : double(*lo),
                        hi == d.constraints.end() ? 0.0 : double(*hi), double(d.displacement), double(d.tightness),
                        double(d.period));
        }
        for (const Submesh& s : m.submeshes)
            std::printf("           material %-20s indices %u..%u\n", s.material.c_str(), s.firstIndex, s.firstIndex + s.indexCount);
    }
    for (const Material& m : model.materials) {
        if (!m.defined) {
            std::printf("material %s: defined nowhere horde read\n", m.name.c_str());
            continue;
        }
        std::printf("material %s: %s, base color (%.3g, %.3g, %.3g, %.3g)%s\n", m.name.c_str(), alphaModeName(m.alpha),
                    m.baseColor.r, m.baseColor.g, m.baseColor.b, m.baseColor.a, m.doubleSided ? ", double-sided" : "");
        for (const TextureRef& t : m.textures) {
            if (t.texture)
                std::printf("           %-11s %s: %s %ux%u, %zu mips\n", textureSlotName(t.slot), t.file.c_str(),
                            pixelFormatName(t.texture->format), t.texture->width, t.texture->height, t.texture->levels.size());
            else
                std::printf("           %-11s %s: %s\n", textureSlotName(t.slot), t.path.c_str(), t.file.empty() ? "not found" : "unreadable");
        }
    }
    const std::vector<ClipWalk> walks = clipWalks(model);
    for (size_t k = 0; k < model.clips.size(); ++k) {
        const Clip& c = model.clips[k];
        const ClipWalk& w = walks[k];
        std::printf("clip     %s: %.3f s, %zu channels, ", c.name.c_str(), c.duration, c.channels.size());
        if (!c.morphs.empty()) std::printf("%zu morph weight channel%s, ", c.morphs.size(), c.morphs.size() == 1 ? "" : "s");
        std::printf("%s", nameOf(w.role).data());
        if (w.root.node >= 0)
            std::printf(", travels %.4g in %.3g s", double(glm::length(w.root.travel)), double(w.root.duration));
        if (w.role == ClipRole::Walk || w.role == ClipRole::Run)
            std::printf(", walks %.4g a second (stride %.4g, planted foot drifts %.1f%% of it)",
                        double(glm::length(w.stride.velocity)), double(w.stride.length),
                        w.stride.length > 0.0f ? 100.0 * double(w.stride.drift / w.stride.length) : 0.0);
        std::printf("%s%s", c.source.empty() ? "" : ", from ", c.source.c_str());
        for (size_t n = 0; n < c.absentNodes.size(); ++n)
            std::printf("%s%s", n == 0 ? ", keys nodes the model lacks: " : ", ", c.absentNodes[n].c_str());
        std::printf("\n");
    }
    for (const Extra& e : model.extras) std::printf("extra    %s on %s: %s\n", e.kind.c_str(), e.node.c_str(), e.detail.c_str());
    std::printf("bounds   (%.4g, %.4g, %.4g) .. (%.4g, %.4g, %.4g)\n", b.min.x, b.min.y, b.min.z, b.max.x, b.max.y, b.max.z);
    for (const std::string& w : model.warnings) std::printf("warning  %s\n", w.c_str());
}

} // namespace

Command addInfoCommand(CLI::App& app) {
    CLI::App* cmd = app.add_subcommand(
        "info", "summarize a model, or a folder: every model with its paired files, and a summary (no GPU needed)");
    auto input = std::make_shared<ModelInput>();
    auto json = std::make_shared<bool>(false);
    auto lod = std::make_shared<bool>(false);
    auto jobs = std::make_shared<FolderJobs>();
    addModelOptions(*cmd, *input);
    cmd->add_flag("--json", *json, "print JSON (format, nodes, meshes, clips, bounds; for a folder, one record per file)");
    cmd->add_flag("--lod", *lod,
                  "also build each mesh's LOD chain as a crowd does and print it: each level's triangles and "
                  "measured error, in model units and as a fraction of the mesh's radius (model files only)");
    addFolderJobOptions(*cmd, *jobs);
    return {cmd, [=] {
                if (std::filesystem::is_directory(input->model)) {
                    if (!input->skeleton.empty() || !input->anims.empty()) {
                        std::fprintf(stderr, "horde: a folder pairs its own files: --skeleton and --anim take a model file\n");
                        return int(kExitUsage);
                    }
                    if (*lod) {
                        std::fprintf(stderr, "horde: --lod takes a model file, not a folder\n");
                        return int(kExitUsage);
                    }
                    return runInfoFolder(*input, *json, *jobs);
                }
                HeapMeshAllocator allocator;
                Result<Model> model = input->load(allocator);
                if (!model) {
                    std::fprintf(stderr, "horde: %s\n", model.error().message.c_str());
                    return int(kExitBadInput);
                }
                if (*json) {
                    nlohmann::json out = toJson(*model);
                    if (*lod) out["lod"] = lodJson(lodChains(*model));
                    std::cout << out.dump(2) << "\n";
                } else {
                    printSummary(*model);
                    if (*lod) printLod(lodChains(*model));
                }
                return int(kExitOk);
            }};
}

} // namespace horde
