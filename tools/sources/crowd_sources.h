#pragma once
// Where a crowd's models come from and how big each is drawn: files, each completed by the
// companions given for every model and its own, and folders, each giving its animated models with
// their pairs; every model decoded once, by the loader the caller gives (into GPU memory for a
// crowd, into the heap for a test); then one scale per model (--units).
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "crowd/crowd_settings.h"
#include "model_input.h"

namespace horde {

// One --model of a crowd and the companions given after it on the command line.
struct CrowdModelArg {
    std::string model;
    std::string skeleton;
    std::vector<std::string> anims, materials, clips;
};

// The crowd's models, each with the input it was loaded from.
struct CrowdSources {
    std::vector<ModelInput> inputs;
    std::vector<std::unique_ptr<Model>> models; // stable addresses: the crowd points at them
    std::vector<Model*> pointers() const;
};

using ModelLoader = std::function<Result<Model>(const ModelInput&)>;
// What became of one model of a folder, told as it is decided.
struct FolderModelNote {
    std::string model; // relative to the folder
    bool kept = false;
    std::string why;             // left out: why
    size_t pairedAnimations = 0; // kept: the animation files pairing gave it
};
using SourceReport = std::function<void(const FolderModelNote&)>;

// Every model of `args`, each decoded once by `load`. A file is completed by `shared` and its own
// companions, and must load. A folder gives its drawable models with what pairing found for them
// and `shared`'s search paths and material files; those without clips, or that fail to load, are
// left out (reported), and a folder left with none is an error.
Result<CrowdSources> loadCrowdSources(const ModelInput& shared, std::span<const CrowdModelArg> args,
                                      const ModelLoader& load, const SourceReport& report);

// The height every model is scaled to in a mixed crowd, in world units, and how wide its bind pose
// may be at most (the built-in monster, long and low, spans 13.5 at that height).
constexpr float kCommonHeight = 2.0f;
constexpr float kWidestAcross = 10.0f * kCommonHeight;

struct ModelScale {
    float factor = 1.0f;
    float height = 0.0f, across = 0.0f; // the bind pose in the world, in the file's units
    bool flat = false;                  // scaled to span kWidestAcross rather than stand kCommonHeight
    bool common = false;                // scaled at all (Units::File, or one model under Auto: not)
};

// Units::Height: each model scaled so its bind pose stands kCommonHeight tall, or spans
// kWidestAcross where standing that tall would make it wider (a floor tile, a flat button);
// Units::File: as the file has it; Units::Auto: Height when the crowd has more than one model.
std::vector<ModelScale> crowdScales(std::span<Model* const> models, Units units);

} // namespace horde
