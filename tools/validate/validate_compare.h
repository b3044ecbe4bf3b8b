#pragma once
// What `horde validate` measures without a GPU: structure (hierarchy, joints, vertex counts,
// clips) and CPU reference poses, in one right-handed, Y-up, metre frame for both models.
#include <span>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "anim/reference.h"
#include "model/model.h"
#include "validate_match.h"

namespace horde {

// What a check, figure, pose or whole model says. One that compared nothing (no vertex pair, no
// clip found on both sides) passed nothing either: it says so, and is not counted as a pass.
enum class Verdict { Pass, Fail, NothingCompared };
inline Verdict verdictOf(bool passed, bool compared) {
    return !passed ? Verdict::Fail : compared ? Verdict::Pass : Verdict::NothingCompared;
}
// "pass", "fail", "nothing compared": report.json's words (the pages and the CLI shout "FAIL").
const char* verdictName(Verdict verdict);

struct Check {
    std::string name;
    bool passed = true;
    std::string detail;
    bool compared = true; // false: there was nothing to compare
    Verdict verdict() const { return verdictOf(passed, compared); }
};

// Node names and parents, skin joint names (a joint no vertex weighs may be missing from one side:
// reported by the side's name), mesh counts (and vertex counts, which may differ where seams are
// split or welded: validate_match.h pairs the vertices), morph target counts and resting weights.
std::vector<Check> compareStructure(const Model& a, const Model& b, const std::string& aName,
                                    const std::string& bName);

// Morph weights agree within this (structure: the resting ones; compareMorphWeights: the curves).
inline constexpr double kMorphWeightTolerance = 1e-4;

// Over each pair of clips (A's, B's) and each pair of meshes with morph targets, the weights
// sampleMorphWeights gives at every key of either side's morph channels and between A's keys.
Check compareMorphWeights(const Model& a, const Model& b, std::span<const std::pair<int, int>> clips);

// One pose both models are evaluated at: a clip of each (-1: bind pose) and a time.
struct PoseSpec {
    std::string label;
    int clipA = -1, clipB = -1;
    double time = 0.0;
    bool pictured = true; // drawn and compared as pictures too, not by its positions alone
};

// Pictures only `budget` of `poses` (the first, the bind pose, always), the rest spread evenly
// over the list: a picture costs ~0.1 s on lavapipe whatever the model, an NWN creature has ~770
// poses, and what a pose changes (where the vertices go) its positions show at every pose.
void choosePictured(std::span<PoseSpec> poses, size_t budget);

struct PoseError {
    bool comparable = false;                     // mesh counts agree
    double maxRelative = 0.0, rmsRelative = 0.0; // of the distance, over the bounding radius
};

// A model's own axes and units -> right-handed, Y-up metres.
glm::dmat4 metresFrame(const Axes& axes);
// Every mesh posed by the CPU reference (clip -1: bind pose), positions and normals in metres.
std::vector<PosedMesh> metresPose(const Model& model, int clip, double time);
// Radius of the model's bind pose in metres.
double metresRadius(const Model& model);
// The bounds of posed meshes (the validate camera frames the source's pose).
Bounds posedBounds(const std::vector<PosedMesh>& posed);

// Over the matched vertex pairs of each mesh, A's and B's meshes posed alike (metresPose).
PoseError comparePose(const std::vector<PosedMesh>& a, const std::vector<PosedMesh>& b, double radius,
                      const std::vector<MeshMatch>& matches);

} // namespace horde
