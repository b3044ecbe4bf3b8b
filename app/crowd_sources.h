#pragma once
// Where a crowd's models come from and how big each is drawn: files, each completed by the
// shared --skeleton/--anim/--search-path, and folders, each giving its animated models with
// their own pairs; then one scale per model (--units).
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "model_input.h"

namespace horde {

// One --model of a crowd and the companions given after it on the command line.
struct CrowdModelArg {
    std::string model;
    std::string skeleton;
    std::vector<std::string> anims, materials;
};

// The --model values of `command` in the order given, each with the --skeleton, --anim and
// --materials values between it and the next --model. Those given before any --model stay in
// `shared` and complete every model; the rest are taken out of it. No --model: the monster.
std::vector<CrowdModelArg> modelsInOrder(const CLI::App& command, ModelInput& shared);

// Every model to load: files completed by `shared` and their own companions, folders expanded
// to their animated models. Empty (with the reason printed) when a folder has no animated model.
std::vector<ModelInput> crowdInputs(const ModelInput& shared, const std::vector<CrowdModelArg>& models);

// The height every model is scaled to in a mixed crowd, in world units, and how wide its bind pose
// may be at most (the built-in monster, long and low, spans 13.5 at that height).
constexpr float kCommonHeight = 2.0f;
constexpr float kWidestAcross = 10.0f * kCommonHeight;

// units "height": each model scaled so its bind pose stands kCommonHeight tall, or spans
// kWidestAcross where standing that tall would make it wider (a floor tile, a flat button);
// "file": as the file has it; "auto": height when the crowd has more than one model. Prints each
// factor.
std::vector<float> crowdScales(const std::vector<Model*>& models, const std::vector<ModelInput>& inputs,
                               const std::string& units);

} // namespace horde
