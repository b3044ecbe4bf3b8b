#include "crowd_options.h"

#include <cstdio>
#include <string>
#include <vector>

#include "behaviour_file.h"

namespace horde {

namespace {

// An enumeration's option: its words (core/words.h) are the choices, parsed by parseName.
template <class E>
CLI::Option* addChoice(CLI::App& command, const std::string& flag, E& value, const std::string& help) {
    std::vector<std::string> words(Words<E>::list.begin(), Words<E>::list.end());
    return command
        .add_option_function<std::string>(
            flag, [&value](const std::string& word) { value = *parseName<E>(word); }, help)
        ->check(CLI::IsMember(words));
}

CLI::Option* addSwitch(CLI::App& command, const std::string& flag, bool& value, const std::string& help) {
    return command
        .add_option_function<std::string>(
            flag, [&value](const std::string& word) { value = word == "on"; }, help)
        ->check(CLI::IsMember({"on", "off"}));
}

template <class T> CLI::Validator within(Range<T> range) {
    return CLI::Range(range.min, range.max);
}

} // namespace

void addSkinOptions(CLI::App& command, SkinOptions& skin) {
    addChoice(command, "--skinning", skin.skinning,
              "lbs: linear blend of the joints' matrices; dqs: dual quaternions (Kavan et al. 2007), which "
              "keep the volume a linear blend loses at twisted joints");
    addChoice(command, "--precision", skin.precision,
              "fp32, or fp16: palettes and skinned vertices as halves (half the bytes; about 1e-3 of the "
              "model's size off, docs/PERFORMANCE.md)");
    command
        .add_option("--influences", skin.influences,
                    "4: each vertex's four strongest joints; 8: up to eight where the file has them (glTF "
                    "JOINTS_1/WEIGHTS_1)")
        ->check(CLI::IsMember({4u, 8u}));
}

void addPictureOptions(CLI::App& command, PictureSettings& picture) {
    command
        .add_option("--msaa", picture.msaa,
                    "samples per pixel, averaged before the picture is written (default 4)")
        ->check(CLI::IsMember(std::vector<uint32_t>(kMsaaChoices.begin(), kMsaaChoices.end())));
    command.add_option("--yaw", picture.yaw,
                       "camera heading around the framed centre, degrees (0 looks along -Z)");
    command
        .add_option("--pitch", picture.pitch,
                    "camera height around the framed centre, degrees above the horizon")
        ->check(within(kPitchRange));
    command.add_option("--distance", picture.distance, "camera distance from the framed centre, world units")
        ->check(CLI::PositiveNumber);
}

void addCrowdOptions(CLI::App& command, CrowdSettings& s, bool skinning) {
    s.ground = true;
    if (skinning) {
        addChoice(command, "--technique", s.technique,
                  "compute: skin pass then draw; vertex: skin in the vertex shader");
        addSkinOptions(command, s.skin);
    }
    addSwitch(command, "--lod", s.lod, "levels of detail and shared far poses (off: every instance in full)");
    addSwitch(command, "--cull", s.cull, "frustum culling on the GPU (off: every instance drawn)");
    addSwitch(command, "--textures", s.textures,
              "base-colour textures sampled (off: base colours only, to measure what sampling costs)");
    addSwitch(command, "--impostors", s.impostors,
              "with LOD on, monsters a few pixels across drawn as one quad of an atlas baked from their "
              "shared poses (off: every instance as a mesh)");
    addSwitch(command, "--impostor-fade", s.impostorFade,
              "instances crossing the impostor threshold fade between impostor and meshes over a band of "
              "sizes (off: they switch in one frame)");
    command
        .add_option("--lod-error", s.lodErrorPixels,
                    "largest error a level or a shared pose may show, in pixels")
        ->check(within(kLodErrorRange));
    addChoice(command, "--units", s.units,
              "height: every model scaled to one common height (printed per model); file: the files' own "
              "units; auto (default): height when the crowd has more than one model");
    addChoice(command, "--view", s.view,
              "front (default): from the crowd's edge, its front row readable and the crowd filling the "
              "frame; overview: the whole crowd; street: eye height at its near edge");
    addChoice(command, "--layout", s.layout.kind,
              "scatter (default): random positions in cells no two footprints share, random headings; "
              "grid: rows facing forward, the benchmarks' crowd");
    command.add_option("--seed", s.layout.seed,
                       "the crowd's layout, clips, phases, speeds and behaviour (the same seed, the same crowd)");
    command
        .add_option("--behaviour",
                    "loop: each instance plays one clip forever, in place; wander (default): each idles, walks, "
                    "turns and does its other clips for random spans, cross-fading between them; or FILE.json: "
                    "states and transitions of your own (README, \"Behaviours\")")
        ->check([&s](const std::string& word) -> std::string {
            Result<Behaviour> b = behaviourNamed(word);
            if (!b) return b.error().message;
            s.behaviour = std::move(*b);
            return {};
        });
    command
        .add_option("--crossfade", s.crossfadeSeconds,
                    "seconds a clip fades in over the one before it, where the file gives none (NWN's transtime "
                    "does; default 0.25)")
        ->check(within(kCrossfadeRange));
    addPictureOptions(command, s.picture);
}

VkSampleCountFlagBits samplesOn(const Device& device, uint32_t msaa) {
    const VkSampleCountFlagBits taken = device.supportedSamples(msaa);
    if (uint32_t(taken) != msaa)
        std::printf("msaa: the device cannot draw %u samples a pixel; using %u\n", msaa, uint32_t(taken));
    return taken;
}

} // namespace horde
