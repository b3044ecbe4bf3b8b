#include "validate_attributes.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>

#include "validate_materials.h"

namespace horde {

namespace {
struct Accumulator {
    AttributeFigure figure;
    double sum = 0.0;
    explicit Accumulator(std::string name, std::string unit, double tolerance) {
        figure.name = std::move(name);
        figure.unit = std::move(unit);
        figure.tolerance = tolerance;
    }
    void add(double d) {
        if (!std::isfinite(d)) d = HUGE_VAL; // a NaN attribute is as wrong as can be
        figure.max = std::max(figure.max, d);
        sum += d * d;
        ++figure.pairs;
        figure.over += d > figure.tolerance;
    }
    AttributeFigure done() {
        figure.rms = figure.pairs ? std::sqrt(sum / double(figure.pairs)) : 0.0;
        figure.passed = figure.passed && figure.over == 0;
        return figure;
    }
};

std::string number(double v) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.3g", v);
    return buffer;
}

double degreesBetween(glm::dvec3 a, glm::dvec3 b) {
    double la = glm::length(a), lb = glm::length(b);
    if (!(la > 0.0) || !(lb > 0.0)) return la == lb ? 0.0 : 180.0;
    return glm::degrees(std::acos(std::clamp(glm::dot(a, b) / (la * lb), -1.0, 1.0)));
}

glm::dvec2 uvAt(const Mesh& mesh, uint32_t set, size_t v) {
    return glm::dvec2(set == 0 ? mesh.arrays().uv0[v] : mesh.arrays().uv1[v]);
}

// The conversion bugs a UV set usually has, named when B's set is exactly A's under one of them.
std::string uvDiagnosis(const Model& a, const Model& b, const std::vector<MeshMatch>& matches, uint32_t set,
                        double tolerance) {
    struct Suspect {
        const char* name;
        std::function<double(glm::dvec2, glm::dvec2)> error; // of A's (u, v) against B's
    };
    const Suspect suspects[] = {
        {"flipped (v -> 1 - v)",
         [](glm::dvec2 p, glm::dvec2 q) { return glm::length(glm::dvec2(p.x, 1 - p.y) - q); }},
        {"flipped (u -> 1 - u)",
         [](glm::dvec2 p, glm::dvec2 q) { return glm::length(glm::dvec2(1 - p.x, p.y) - q); }},
        {"swapped (u <-> v)",
         [](glm::dvec2 p, glm::dvec2 q) { return glm::length(glm::dvec2(p.y, p.x) - q); }},
        {"offset by half a tile in u",
         [](glm::dvec2 p, glm::dvec2 q) {
             return std::abs(std::abs(q.x - p.x) - 0.5) + std::abs(q.y - p.y);
         }},
        {"offset by half a tile in v",
         [](glm::dvec2 p, glm::dvec2 q) {
             return std::abs(q.x - p.x) + std::abs(std::abs(q.y - p.y) - 0.5);
         }},
    };
    for (const Suspect& s : suspects) {
        bool fits = true;
        for (size_t m = 0; m < matches.size() && fits; ++m)
            for (auto [i, j] : vertexPairs(matches[m]))
                if (!(s.error(uvAt(a.meshes[m], set, i), uvAt(b.meshes[m], set, j)) <= tolerance)) {
                    fits = false;
                    break;
                }
        if (fits) return std::string("B's is A's ") + s.name;
    }
    return "";
}

AttributeFigure uvSet(const Model& a, const Model& b, const std::vector<MeshMatch>& matches, uint32_t set,
                      double tolerance) {
    Accumulator acc("uv" + std::to_string(set), "", tolerance);
    std::vector<std::string> missing;
    bool dropped = false;
    for (size_t m = 0; m < matches.size(); ++m) {
        const Mesh &ma = a.meshes[m], &mb = b.meshes[m];
        bool inA = ma.layout().uvSets > set, inB = mb.layout().uvSets > set;
        dropped = dropped || (inA && !inB);
        if (inA && !inB) missing.push_back("mesh '" + ma.name + "' has it in A, not in B (dropped)");
        if (!inA && inB) missing.push_back("mesh '" + ma.name + "' has it in B only (not compared)");
        if (!inA || !inB) continue;
        for (auto [i, j] : vertexPairs(matches[m]))
            acc.add(glm::length(uvAt(ma, set, i) - uvAt(mb, set, j)));
    }
    AttributeFigure f = acc.done();
    if (!missing.empty()) {
        f.passed = f.passed && !dropped;
        for (const std::string& s : missing)
            f.detail += (f.detail.empty() ? "" : "; ") + s;
    }
    if (f.over) {
        std::string why = uvDiagnosis(a, b, matches, set, tolerance);
        f.detail += (f.detail.empty() ? "" : "; ") + std::to_string(f.over) + " vertices differ" +
                    (why.empty() ? "" : ": " + why);
    }
    return f;
}

// A direction a file may hold where it has none: zero or not finite (Grimrock's null.model is all
// zeros). A writer that needs one (glTF asks for unit normals) must put something else there.
bool isDirection(glm::dvec3 d) {
    const double length = glm::length(d);
    return std::isfinite(length) && length > 1e-12;
}

std::string repairNote(size_t repaired, const char* what) {
    return std::to_string(repaired) + " vertices of A have no valid " + what +
           " (zero or not finite): B's writer gave them one of its own; a repair, not compared";
}

AttributeFigure normals(const std::vector<MeshMatch>& matches, const std::vector<PosedMesh>& bindA,
                        const std::vector<PosedMesh>& bindB, double tolerance) {
    Accumulator acc("normals", "degrees", tolerance);
    size_t repaired = 0;
    for (size_t m = 0; m < matches.size(); ++m)
        for (auto [i, j] : vertexPairs(matches[m])) {
            if (!isDirection(bindA[m].normals[i])) {
                ++repaired;
                continue;
            }
            acc.add(degreesBetween(bindA[m].normals[i], bindB[m].normals[j]));
        }
    AttributeFigure f = acc.done();
    f.repaired = repaired;
    if (repaired) f.detail = repairNote(repaired, "normal");
    if (f.over)
        f.detail += (f.detail.empty() ? "" : "; ") + std::to_string(f.over) +
                    " vertices' normals differ, by up to " + number(f.max) + " degrees";
    return f;
}

// Each vertex's blended bind matrix turned into the common frame: what takes a direction of
// the mesh's own space there in the bind pose.
std::vector<glm::dmat3> bindTurns(const Model& model, size_t meshIndex) {
    const Mesh& mesh = model.meshes[meshIndex];
    std::vector<glm::dmat4> locals(model.nodes.size()), models(model.nodes.size()), palette;
    sampleLocals(model, nullptr, 0.0, locals);
    localToModel(model, locals, models);
    meshPalette(model, mesh, models, palette);
    glm::dmat3 turn = glm::dmat3(axesToWorld(model.axes));
    const MeshArrays& arr = mesh.arrays();
    std::vector<glm::dmat3> out(mesh.vertexCount());
    for (size_t v = 0; v < out.size(); ++v) {
        glm::dmat3 m(0.0);
        if (mesh.skinned()) {
            for (int k = 0; k < 4; ++k)
                if (arr.weights[v][k] > 0.0f)
                    m += glm::dmat3(palette[arr.joints[v][k]]) * double(arr.weights[v][k]);
        } else {
            m = glm::dmat3(palette[0]);
        }
        out[v] = turn * m;
    }
    return out;
}

// Tangents in the bind pose, in the common frame: directions turned by each vertex's blended
// bind matrix and the file's axes; the handedness sign flips where those mirror.
std::vector<glm::dvec4> metresTangents(const Model& model, size_t meshIndex) {
    const MeshArrays& arr = model.meshes[meshIndex].arrays();
    const std::vector<glm::dmat3> turns = bindTurns(model, meshIndex);
    std::vector<glm::dvec4> out(turns.size());
    for (size_t v = 0; v < out.size(); ++v) {
        double sign = arr.tangents[v].w < 0.0f ? -1.0 : 1.0;
        out[v] = glm::dvec4(turns[v] * glm::dvec3(arr.tangents[v]),
                            glm::determinant(turns[v]) < 0.0 ? -sign : sign);
    }
    return out;
}

AttributeFigure tangents(const Model& a, const Model& b, const std::vector<MeshMatch>& matches,
                         double tolerance) {
    Accumulator acc("tangents", "degrees", tolerance);
    size_t signs = 0, repaired = 0;
    std::vector<std::string> missing;
    for (size_t m = 0; m < matches.size(); ++m) {
        bool inA = a.meshes[m].layout().tangents, inB = b.meshes[m].layout().tangents;
        if (inA && !inB)
            missing.push_back("mesh '" + a.meshes[m].name + "' has them in A, not in B (dropped)");
        if (!inA || !inB) continue;
        std::vector<glm::dvec4> ta = metresTangents(a, m), tb = metresTangents(b, m);
        for (auto [i, j] : vertexPairs(matches[m])) {
            if (!isDirection(glm::dvec3(ta[i]))) {
                ++repaired;
                continue;
            }
            acc.add(degreesBetween(glm::dvec3(ta[i]), glm::dvec3(tb[j])));
            signs += ta[i].w != tb[j].w;
        }
    }
    AttributeFigure f = acc.done();
    f.repaired = repaired;
    if (repaired) f.detail = repairNote(repaired, "tangent");
    for (const std::string& s : missing)
        f.detail += (f.detail.empty() ? "" : "; ") + s;
    if (f.over)
        f.detail += (f.detail.empty() ? "" : "; ") + std::to_string(f.over) +
                    " vertices' directions differ, by up to " + number(f.max) + " degrees";
    if (signs)
        f.detail += (f.detail.empty() ? "" : "; ") + std::to_string(signs) + " handedness signs flipped";
    f.over += signs;
    f.passed = missing.empty() && f.over == 0;
    return f;
}

AttributeFigure colors(const Model& a, const Model& b, const std::vector<MeshMatch>& matches,
                       double tolerance) {
    Accumulator acc("vertex colors", "", tolerance);
    std::string missing;
    for (size_t m = 0; m < matches.size(); ++m) {
        const Mesh &ma = a.meshes[m], &mb = b.meshes[m];
        if (ma.layout().colors && !mb.layout().colors)
            missing +=
                (missing.empty() ? "" : "; ") + ("mesh '" + ma.name + "' has them in A, not in B (dropped)");
        if (!ma.layout().colors || !mb.layout().colors) continue;
        for (auto [i, j] : vertexPairs(matches[m])) {
            glm::dvec4 d = glm::abs(glm::dvec4(ma.arrays().colors[i]) - glm::dvec4(mb.arrays().colors[j]));
            acc.add(std::max(std::max(d.r, d.g), std::max(d.b, d.a)));
        }
    }
    AttributeFigure f = acc.done();
    f.detail = missing;
    if (f.over)
        f.detail += (f.detail.empty() ? "" : "; ") + std::to_string(f.over) +
                    " vertices' colours differ, by up to " + number(f.max) + " in a channel";
    f.passed = f.passed && missing.empty();
    return f;
}

// A vertex's influences as joint name -> weight: slot order and joint numbering are the file's.
std::map<std::string, double> influences(const Model& model, const Mesh& mesh, size_t v) {
    std::map<std::string, double> out;
    const Skin& skin = model.skins[mesh.skin];
    for (int k = 0; k < 4; ++k) {
        float w = mesh.arrays().weights[v][k];
        uint16_t j = mesh.arrays().joints[v][k];
        if (w > 0.0f && j < skin.joints.size()) out[model.nodes[skin.joints[j]].name] += w;
    }
    return out;
}

AttributeFigure weights(const Model& a, const Model& b, const std::vector<MeshMatch>& matches,
                        double tolerance) {
    Accumulator acc("skin weights", "", tolerance);
    std::map<std::pair<std::string, std::string>, size_t> moved; // strongest A joint -> B joint
    for (size_t m = 0; m < matches.size(); ++m) {
        const Mesh &ma = a.meshes[m], &mb = b.meshes[m];
        if (!ma.skinned() || !mb.skinned()) continue;
        for (auto [i, j] : vertexPairs(matches[m])) {
            std::map<std::string, double> wa = influences(a, ma, i), wb = influences(b, mb, j);
            double worst = 0.0;
            std::string lost, gained;
            double lostBy = 0.0, gainedBy = 0.0;
            for (auto [name, w] : wa) {
                double d = w - (wb.count(name) ? wb[name] : 0.0);
                worst = std::max(worst, std::abs(d));
                if (d > lostBy) lostBy = d, lost = name;
            }
            for (auto [name, w] : wb) {
                double d = w - (wa.count(name) ? wa[name] : 0.0);
                worst = std::max(worst, std::abs(d));
                if (d > gainedBy) gainedBy = d, gained = name;
            }
            acc.add(worst);
            if (worst > tolerance && !lost.empty() && !gained.empty()) ++moved[{lost, gained}];
        }
    }
    AttributeFigure f = acc.done();
    if (f.over) {
        f.detail = std::to_string(f.over) + " vertices weigh their joints differently";
        size_t shown = 0;
        for (auto [joints, count] : moved)
            if (shown++ < 3)
                f.detail += "; weight moved from '" + joints.first + "' to '" + joints.second + "' on " +
                            std::to_string(count) + " vertices";
    }
    bool skinnedA = false, skinnedB = false;
    for (size_t m = 0; m < matches.size(); ++m)
        skinnedA = skinnedA || a.meshes[m].skinned(), skinnedB = skinnedB || b.meshes[m].skinned();
    if (!skinnedA && !skinnedB) f.detail = "neither side is skinned";
    if (skinnedA != skinnedB) {
        f.passed = false;
        f.detail +=
            std::string(f.detail.empty() ? "" : "; ") + (skinnedA ? "A" : "B") + " is skinned, the other not";
    }
    return f;
}

Check matching(const Model& a, const std::vector<MeshMatch>& matches, double tolerance) {
    size_t byOrder = 0, unmatchedA = 0, unmatchedB = 0;
    std::string meshes;
    for (size_t m = 0; m < matches.size(); ++m) {
        byOrder += matches[m].byOrder;
        unmatchedA += matches[m].unmatchedA;
        unmatchedB += matches[m].unmatchedB;
        if (!matches[m].byOrder) meshes += (meshes.empty() ? "'" : ", '") + a.meshes[m].name + "'";
    }
    Check c{"vertex match", unmatchedA == 0 && unmatchedB == 0, ""};
    c.compared = false;
    for (const MeshMatch& m : matches)
        c.compared = c.compared || !m.bOfA.empty() || !m.aOfB.empty();
    c.detail = std::to_string(byOrder) + " meshes by source order";
    if (byOrder < matches.size())
        c.detail += ", " + std::to_string(matches.size() - byOrder) + " by position and attributes (" +
                    meshes + ": vertex counts differ, seams split or welded; within " + number(tolerance) +
                    " m)";
    if (unmatchedA) c.detail += "; " + std::to_string(unmatchedA) + " vertices of A match nothing in B";
    if (unmatchedB) c.detail += "; " + std::to_string(unmatchedB) + " vertices of B match nothing in A";
    return c;
}
} // namespace

size_t drawRepairedNormals(Model& a, const Model& b, const std::vector<MeshMatch>& matches) {
    const std::vector<PosedMesh> bindB = metresPose(b, -1, 0.0);
    size_t repaired = 0;
    for (size_t m = 0; m < matches.size() && m < a.meshes.size(); ++m) {
        Mesh& mesh = a.meshes[m];
        MeshArrays& arr = mesh.arrays();
        std::vector<glm::dmat3> turns;
        size_t here = 0;
        for (auto [i, j] : vertexPairs(matches[m])) {
            if (isDirection(glm::dvec3(arr.normals[i]))) continue;
            if (turns.empty()) turns = bindTurns(a, m);
            // Back from the common frame: normals go by the inverse transpose, so back by the transpose.
            const glm::dvec3 own = glm::transpose(turns[i]) * bindB[m].normals[j];
            if (!isDirection(own)) continue;
            arr.normals[i] = glm::vec3(glm::normalize(own));
            ++here;
        }
        if (here) mesh.storage->commit(); // the GPU's copy too, where it is not the CPU's
        repaired += here;
    }
    return repaired;
}

size_t AttributeReport::pairs() const {
    size_t n = 0;
    for (const MeshMatch& m : matches)
        n += vertexPairs(m).size();
    return n;
}

bool AttributeReport::passed() const {
    bool ok = matching.passed && materials.passed;
    for (const AttributeFigure& f : figures)
        ok = ok && f.passed;
    return ok;
}

AttributeReport compareAttributes(const Model& a, const Model& b, const AttributeTolerances& tolerances,
                                  double positionTolerance) {
    std::vector<PosedMesh> bindA = metresPose(a, -1, 0.0), bindB = metresPose(b, -1, 0.0);
    std::vector<MeshMatch> matches = matchVertices(a, b, bindA, bindB, positionTolerance);
    AttributeReport r;
    r.matching = matching(a, matches, positionTolerance);
    r.matches = matches;
    uint32_t sets = 0;
    bool anyTangents = false, anyColors = false;
    for (const Model* m : {&a, &b})
        for (const Mesh& mesh : m->meshes) {
            sets = std::max(sets, mesh.layout().uvSets);
            anyTangents = anyTangents || mesh.layout().tangents;
            anyColors = anyColors || mesh.layout().colors;
        }
    for (uint32_t s = 0; s < sets; ++s)
        r.figures.push_back(uvSet(a, b, matches, s, tolerances.uv));
    r.figures.push_back(normals(matches, bindA, bindB, tolerances.normalDegrees));
    if (anyTangents) r.figures.push_back(tangents(a, b, matches, tolerances.tangentDegrees));
    if (anyColors) r.figures.push_back(colors(a, b, matches, tolerances.color));
    r.figures.push_back(weights(a, b, matches, tolerances.weight));
    for (AttributeFigure& f : r.figures)
        if (f.verdict() == Verdict::NothingCompared && f.detail.empty())
            f.detail = "no vertex pair holds it on both sides";
    MaterialMatch materials = compareMaterials(a, b, matches);
    r.materials = std::move(materials.check);
    r.materialToB = std::move(materials.toB);
    return r;
}

} // namespace horde
