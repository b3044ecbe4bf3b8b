#pragma once
// Every vertex attribute both models carry, compared per vertex after matching (validate_match.h)
// in the bind pose: UV sets (absolute difference), normals (angle), tangents (angle and
// handedness sign), vertex colours (per channel), skin influences (sets of joint name and weight)
// and, per triangle, the material it belongs to (validate_materials.h). Each attribute gets a
// max/RMS figure against its own tolerance.
#include <map>
#include <string>
#include <vector>

#include "validate_compare.h"
#include "validate_match.h"

namespace horde {

struct AttributeTolerances {
    double uv = 1e-3; // absolute, in UV units
    double normalDegrees = 1.0;
    double tangentDegrees = 1.0;
    double color = 4e-3;  // largest difference of one RGBA channel (one 8-bit step)
    double weight = 5e-3; // largest difference of one joint's weight (bytes quantize to 1/255)
};

struct AttributeFigure {
    std::string name; // "uv0", "uv1", "normals", "tangents", "vertex colors", "skin weights"
    std::string unit; // "", "degrees"
    bool passed = true;
    double max = 0.0, rms = 0.0, tolerance = 0.0;
    size_t pairs = 0;   // vertex pairs compared
    size_t over = 0;    // pairs past the tolerance (tangents: or of the other handedness)
    // Normals, tangents: pairs not compared because A's own is no direction (zero or not finite),
    // which B's writer had to replace: a repair, reported with its count, not a difference.
    size_t repaired = 0;
    std::string detail; // what differs, or why not compared
    Verdict verdict() const { return verdictOf(passed, pairs > 0); }
};

struct AttributeReport {
    Check matching;                       // how vertices were paired, and those that match nothing
    Check materials;                      // per triangle, by name or a one-to-one mapping
    std::map<std::string, std::string> materialToB; // that mapping, A's name -> B's (validate_materials.h)
    std::vector<AttributeFigure> figures; // one per attribute either side carries
    std::vector<MeshMatch> matches;       // what the poses compare too
    bool passed() const;
    size_t pairs() const; // vertex pairs the matches give: none, and nothing was compared
};

AttributeReport compareAttributes(const Model& a, const Model& b, const AttributeTolerances& tolerances,
                                  double positionTolerance);

// For the pictures, after the comparison: each normal A holds as no direction takes the one B's
// writer gave its matched vertex (turned back into A's mesh space), so the renders differ only
// where the source's normals were valid, as the figures do (the repair is reported by them).
// Returns how many normals it set; committed to the mesh's GPU copy.
size_t drawRepairedNormals(Model& a, const Model& b, const std::vector<MeshMatch>& matches);

} // namespace horde
