#include "validate_compare.h"

#include <algorithm>
#include <cmath>
#include <map>

#include <glm/gtc/matrix_transform.hpp>

#include "anim/reference.h"
#include "crowd/view.h"
#include "loader.h"

namespace horde {

const char* verdictName(Verdict verdict) {
    return verdict == Verdict::Pass ? "pass" : verdict == Verdict::Fail ? "fail" : "nothing compared";
}

namespace {
std::string parentName(const Model& m, const Node& n) {
    return n.parent < 0 ? "(root)" : m.nodes[n.parent].name;
}

// The first few differences, and how many more there were.
struct Findings {
    std::vector<std::string> lines;
    size_t total = 0;
    void add(std::string line) {
        if (lines.size() < 5) lines.push_back(std::move(line));
        ++total;
    }
    Check check(std::string name, std::string okDetail) const {
        Check c{std::move(name), total == 0, std::move(okDetail)};
        if (total == 0) return c;
        c.detail.clear();
        for (const std::string& l : lines)
            c.detail += (c.detail.empty() ? "" : "; ") + l;
        if (total > lines.size()) c.detail += "; and " + std::to_string(total - lines.size()) + " more";
        return c;
    }
};

// Each node of A paired with the node of B at the same place in the tree: the roots (below B's
// added root, if its format adds one), then, under each pair, children by name, in order among
// children of one name. Names that repeat (an NWN dummy named after the skin mesh hanging from
// it) are told apart by where they hang, so no node stands for another of its name.
std::vector<int32_t> pairNodes(const Model& a, const Model& b, const AddedNodes& added) {
    auto childrenOf = [](const Model& m, auto parentOf, auto keep) {
        std::vector<std::vector<uint32_t>> children(m.nodes.size() + 1); // the last: the roots
        for (uint32_t i = 0; i < m.nodes.size(); ++i)
            if (keep(i)) {
                const int32_t parent = parentOf(i);
                children[parent < 0 ? m.nodes.size() : size_t(parent)].push_back(i);
            }
        return children;
    };
    const auto inA = childrenOf(
        a, [&](uint32_t i) { return a.nodes[i].parent; }, [](uint32_t) { return true; });
    const auto inB = childrenOf(
        b,
        [&](uint32_t i) {
            const int32_t p = b.nodes[i].parent;
            return p == added.root ? -1 : p;
        },
        [&](uint32_t i) { return !added.added[i]; });
    std::vector<int32_t> bOf(a.nodes.size(), -1);
    std::vector<bool> taken(b.nodes.size(), false);
    std::vector<std::pair<size_t, size_t>> open{{a.nodes.size(), b.nodes.size()}}; // (A parent, B parent)
    while (!open.empty()) {
        const auto [pa, pb] = open.back();
        open.pop_back();
        for (uint32_t ca : inA[pa])
            for (uint32_t cb : inB[pb])
                if (!taken[cb] && b.nodes[cb].name == a.nodes[ca].name) {
                    taken[cb] = true;
                    bOf[ca] = int32_t(cb);
                    open.emplace_back(ca, cb);
                    break;
                }
    }
    return bOf;
}

Check hierarchy(const Model& a, const Model& b) {
    Findings f;
    // What B's format adds (an NWN writer's root and mesh pieces, the EMI reader's mesh root) is a
    // mapping, not a difference.
    const AddedNodes added = addedNodes(a, b);
    auto parentInB = [&](const Node& n) {
        return n.parent < 0 || n.parent == added.root ? std::string("(root)")
                                                      : b.nodes[size_t(n.parent)].name;
    };
    size_t bNodes = 0;
    std::map<std::string, const Node*> firstByName;
    for (size_t i = 0; i < b.nodes.size(); ++i)
        if (!added.added[i]) {
            firstByName.emplace(b.nodes[i].name, &b.nodes[i]);
            ++bNodes;
        }
    if (a.nodes.size() != bNodes) f.add(std::to_string(a.nodes.size()) + " nodes vs " + std::to_string(bNodes));
    const std::vector<int32_t> bOf = pairNodes(a, b, added);
    std::map<std::string, size_t> uses;
    for (const Node& n : a.nodes)
        ++uses[n.name];
    size_t repeated = 0;
    for (size_t i = 0; i < a.nodes.size(); ++i) {
        const Node& n = a.nodes[i];
        repeated += uses[n.name] > 1;
        // A subtree that is not where A has it is reported at its top.
        if (bOf[i] >= 0 || (n.parent >= 0 && bOf[size_t(n.parent)] < 0)) continue;
        // Not where A has it: say where B has a node of that name, if anywhere.
        auto it = firstByName.find(n.name);
        if (it == firstByName.end())
            f.add("node '" + n.name + "' missing");
        else
            f.add("node '" + n.name + "' has parent '" + parentName(a, n) + "' vs '" +
                  parentInB(*it->second) + "'");
    }
    std::string detail = std::to_string(a.nodes.size()) + " nodes, same names and parents";
    if (repeated)
        detail += " (" + std::to_string(repeated) +
                  " nodes share a name with another: told apart by where they hang)";
    if (!added.note.empty()) detail += "; " + added.note;
    return f.check("hierarchy", detail);
}

// Which of the skin's joints some vertex of its meshes weighs.
std::vector<bool> weightedJoints(const Model& m, size_t skin) {
    std::vector<bool> weighted(m.skins[skin].joints.size(), false);
    for (const Mesh& mesh : m.meshes) {
        if (mesh.skin != int32_t(skin)) continue;
        const MeshArrays& v = mesh.arrays();
        for (size_t i = 0; i < v.weights.size(); ++i)
            for (int k = 0; k < 4; ++k)
                if (v.weights[i][k] > 0.0f && v.joints[i][k] < weighted.size())
                    weighted[v.joints[i][k]] = true;
    }
    return weighted;
}

// The skin's joint names in order, less those no vertex weighs that the other side lacks: a
// format may list only the joints its vertices use (SWTOR meshes do), which skins the same.
std::vector<std::string> comparableJoints(const Model& m, size_t skin, const Model& other, size_t otherSkin,
                                          std::vector<std::string>& dropped) {
    std::vector<std::string> names;
    for (uint32_t j : other.skins[otherSkin].joints)
        names.push_back(other.nodes[j].name);
    std::sort(names.begin(), names.end());
    const std::vector<bool> weighted = weightedJoints(m, skin);
    std::vector<std::string> kept;
    for (size_t j = 0; j < m.skins[skin].joints.size(); ++j) {
        const std::string& name = m.nodes[m.skins[skin].joints[j]].name;
        if (!weighted[j] && !std::binary_search(names.begin(), names.end(), name))
            dropped.push_back(name);
        else
            kept.push_back(name);
    }
    return kept;
}

Check joints(const Model& a, const Model& b, const std::string& aName, const std::string& bName) {
    Findings f;
    if (a.skins.size() != b.skins.size())
        f.add(std::to_string(a.skins.size()) + " skins vs " + std::to_string(b.skins.size()));
    size_t total = 0;
    std::vector<std::string> onlyA, onlyB;
    for (size_t s = 0; s < std::min(a.skins.size(), b.skins.size()); ++s) {
        const std::vector<std::string> ja = comparableJoints(a, s, b, s, onlyA),
                                       jb = comparableJoints(b, s, a, s, onlyB);
        total += ja.size();
        if (ja.size() != jb.size())
            f.add("skin " + std::to_string(s) + ": " + std::to_string(ja.size()) + " joints vs " +
                  std::to_string(jb.size()));
        for (size_t j = 0; j < std::min(ja.size(), jb.size()); ++j)
            if (ja[j] != jb[j])
                f.add("skin " + std::to_string(s) + " joint " + std::to_string(j) + ": '" + ja[j] + "' vs '" +
                      jb[j] + "'");
    }
    std::string detail = std::to_string(total) + " joints in " + std::to_string(a.skins.size()) +
                         " skins, same names in order";
    auto unweighted = [&](const std::vector<std::string>& names, const std::string& side) {
        if (names.empty()) return;
        detail += "; " + std::to_string(names.size()) + " joint(s) no vertex weighs only in " + side + ":";
        for (size_t i = 0; i < std::min<size_t>(names.size(), 4); ++i)
            detail += " '" + names[i] + "'";
        if (names.size() > 4) detail += " ...";
    };
    unweighted(onlyA, aName);
    unweighted(onlyB, bName);
    Check c = f.check("joints", detail);
    c.compared = total > 0 || !a.skins.empty() || !b.skins.empty();
    return c;
}

Check vertices(const Model& a, const Model& b) {
    Findings f;
    if (a.meshes.size() != b.meshes.size())
        f.add(std::to_string(a.meshes.size()) + " meshes vs " + std::to_string(b.meshes.size()));
    uint64_t total = 0;
    std::string differ;
    for (size_t m = 0; m < std::min(a.meshes.size(), b.meshes.size()); ++m) {
        total += a.meshes[m].vertexCount();
        if (a.meshes[m].vertexCount() != b.meshes[m].vertexCount())
            differ += "; mesh '" + a.meshes[m].name + "': " + std::to_string(a.meshes[m].vertexCount()) +
                      " vs " + std::to_string(b.meshes[m].vertexCount()) + " (seams split or welded)";
    }
    Check c = f.check("vertex counts",
                      std::to_string(total) + " vertices in " + std::to_string(a.meshes.size()) + " meshes" + differ);
    c.compared = !a.meshes.empty() || !b.meshes.empty();
    return c;
}

// Each pair of meshes (in order) has as many morph targets, resting at the same weights.
Check morphTargets(const Model& a, const Model& b) {
    Findings f;
    size_t targets = 0, meshes = 0;
    for (size_t m = 0; m < std::min(a.meshes.size(), b.meshes.size()); ++m) {
        const Mesh &ma = a.meshes[m], &mb = b.meshes[m];
        targets += ma.morphTargets();
        meshes += ma.morphTargets() > 0;
        if (ma.morphTargets() != mb.morphTargets()) {
            f.add("mesh '" + ma.name + "': " + std::to_string(ma.morphTargets()) + " morph targets vs " +
                  std::to_string(mb.morphTargets()));
            continue;
        }
        for (size_t t = 0; t < ma.morphWeights.size(); ++t)
            if (std::abs(double(ma.morphWeights[t]) - double(mb.morphWeights[t])) > kMorphWeightTolerance)
                f.add("mesh '" + ma.name + "' target " + std::to_string(t) + ": rests at weight " +
                      std::to_string(ma.morphWeights[t]) + " vs " + std::to_string(mb.morphWeights[t]));
    }
    Check c = f.check("morph targets", std::to_string(targets) + " targets in " + std::to_string(meshes) +
                                           " meshes, the same counts and resting weights");
    c.compared = targets > 0 || !c.passed;
    if (!c.compared) c.detail = "no morph targets on either side";
    return c;
}

} // namespace

std::vector<Check> compareStructure(const Model& a, const Model& b, const std::string& aName,
                                    const std::string& bName) {
    return {hierarchy(a, b), joints(a, b, aName, bName), vertices(a, b), morphTargets(a, b)};
}

Check compareMorphWeights(const Model& a, const Model& b, std::span<const std::pair<int, int>> clips) {
    Findings f;
    size_t curves = 0, samples = 0;
    for (auto [ca, cb] : clips) {
        const Clip &clipA = a.clips[size_t(ca)], &clipB = b.clips[size_t(cb)];
        // Every key of both sides' morph channels and the middles between A's keys.
        std::vector<double> times;
        for (const Clip* clip : {&clipA, &clipB})
            for (const MorphChannel& c : clip->morphs)
                for (size_t k = 0; k < c.times.size(); ++k) {
                    times.push_back(c.times[k]);
                    if (k + 1 < c.times.size()) times.push_back(0.5 * (double(c.times[k]) + c.times[k + 1]));
                }
        if (times.empty()) continue;
        for (size_t m = 0; m < std::min(a.meshes.size(), b.meshes.size()); ++m) {
            const Mesh &ma = a.meshes[m], &mb = b.meshes[m];
            if (ma.morphTargets() == 0 || ma.morphTargets() != mb.morphTargets()) continue;
            curves += ma.morphTargets();
            double worst = 0.0, at = 0.0;
            for (double t : times) {
                const std::vector<double> wa = sampleMorphWeights(a, ma, &clipA, t),
                                          wb = sampleMorphWeights(b, mb, &clipB, t);
                for (size_t k = 0; k < wa.size(); ++k)
                    if (std::abs(wa[k] - wb[k]) > worst) worst = std::abs(wa[k] - wb[k]), at = t;
                ++samples;
            }
            if (worst > kMorphWeightTolerance)
                f.add("clip '" + clipA.name + "' mesh '" + ma.name + "': weights differ by " + std::to_string(worst) +
                      " at " + std::to_string(at) + " s");
        }
    }
    Check c = f.check("morph weights", std::to_string(curves) + " weight curves agree within " +
                                           std::to_string(kMorphWeightTolerance) + " at " +
                                           std::to_string(samples) + " times of their keys and between them");
    c.compared = curves > 0;
    if (!c.compared && c.passed) c.detail = "no weight curves of morph targets both sides have";
    return c;
}

void choosePictured(std::span<PoseSpec> poses, size_t budget) {
    if (poses.size() <= std::max<size_t>(budget, 1)) return;
    const size_t rest = poses.size() - 1, drawn = std::max<size_t>(budget, 1) - 1;
    for (size_t i = 1; i < poses.size(); ++i) poses[i].pictured = false;
    // The middle of each of `drawn` equal runs of the poses after the bind pose.
    for (size_t k = 0; k < drawn; ++k) poses[1 + (2 * k + 1) * rest / (2 * drawn)].pictured = true;
}

glm::dmat4 metresFrame(const Axes& axes) {
    return glm::scale(glm::dmat4(1.0), glm::dvec3(axes.metresPerUnit)) * glm::dmat4(axesToWorld(axes));
}

std::vector<PosedMesh> metresPose(const Model& model, int clip, double time) {
    glm::dmat4 frame = metresFrame(model.axes);
    glm::dmat3 turn = glm::dmat3(axesToWorld(model.axes));
    std::vector<PosedMesh> meshes = poseModel(model, Playback{clip, 0.0, 1.0, true}, time);
    for (PosedMesh& mesh : meshes) {
        for (glm::dvec3& p : mesh.positions)
            p = glm::dvec3(frame * glm::dvec4(p, 1.0));
        for (glm::dvec3& n : mesh.normals)
            n = turn * n;
    }
    return meshes;
}

double metresRadius(const Model& model) {
    return double(toWorld(bindPoseBounds(model), glm::mat4(metresFrame(model.axes))).radius());
}

Bounds posedBounds(const std::vector<PosedMesh>& posed) {
    Bounds b{glm::vec3(1e30f), glm::vec3(-1e30f)};
    for (const PosedMesh& mesh : posed)
        for (glm::dvec3 p : mesh.positions) {
            b.min = glm::min(b.min, glm::vec3(p));
            b.max = glm::max(b.max, glm::vec3(p));
        }
    return b.min.x <= b.max.x ? b : Bounds{};
}

PoseError comparePose(const std::vector<PosedMesh>& pa, const std::vector<PosedMesh>& pb, double radius,
                      const std::vector<MeshMatch>& matches) {
    PoseError e;
    if (pa.size() != pb.size() || matches.size() != pa.size()) return e;
    e.comparable = true;
    double sum = 0.0;
    size_t pairs = 0;
    for (size_t m = 0; m < matches.size(); ++m)
        for (auto [i, j] : vertexPairs(matches[m])) {
            double d = glm::length(pa[m].positions[i] - pb[m].positions[j]);
            if (!std::isfinite(d)) d = HUGE_VAL; // a NaN vertex is as wrong as can be
            e.maxRelative = std::max(e.maxRelative, d);
            sum += d * d;
            ++pairs;
        }
    double scale = radius > 0.0 ? radius : 1.0;
    e.maxRelative /= scale;
    e.rmsRelative = pairs ? std::sqrt(sum / double(pairs)) / scale : 0.0;
    return e;
}

} // namespace horde
