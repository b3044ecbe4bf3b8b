#include "validate_compare.h"

#include <algorithm>
#include <cmath>
#include <map>

#include <glm/gtc/matrix_transform.hpp>

#include "anim/reference.h"
#include "crowd/view.h"
#include "loader.h"

namespace horde {

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

Check hierarchy(const Model& a, const Model& b) {
    Findings f;
    // What B's format adds (an NWN writer's root and mesh pieces, the EMI reader's mesh root) is a
    // mapping, not a difference.
    const AddedNodes added = addedNodes(a, b);
    auto parentInB = [&](const Node& n) {
        return n.parent < 0 || n.parent == added.root ? std::string("(root)")
                                                      : b.nodes[size_t(n.parent)].name;
    };
    std::map<std::string, const Node*> byName;
    size_t bNodes = 0;
    for (size_t i = 0; i < b.nodes.size(); ++i)
        if (!added.added[i]) {
            byName.emplace(b.nodes[i].name, &b.nodes[i]);
            ++bNodes;
        }
    if (a.nodes.size() != bNodes) f.add(std::to_string(a.nodes.size()) + " nodes vs " + std::to_string(bNodes));
    for (const Node& n : a.nodes) {
        auto it = byName.find(n.name);
        if (it == byName.end())
            f.add("node '" + n.name + "' missing");
        else if (parentName(a, n) != parentInB(*it->second))
            f.add("node '" + n.name + "' has parent '" + parentName(a, n) + "' vs '" + parentInB(*it->second) +
                  "'");
    }
    std::string detail = std::to_string(a.nodes.size()) + " nodes, same names and parents";
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
    return f.check("joints", detail);
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
    return f.check("vertex counts", std::to_string(total) + " vertices in " +
                                        std::to_string(a.meshes.size()) + " meshes" + differ);
}

std::vector<glm::dvec3> metresPositions(const Model& model, const PoseSpec& pose, bool first) {
    std::vector<glm::dvec3> out;
    for (const PosedMesh& mesh : metresPose(model, first ? pose.clipA : pose.clipB, pose.time))
        out.insert(out.end(), mesh.positions.begin(), mesh.positions.end());
    return out;
}
} // namespace

std::vector<Check> compareStructure(const Model& a, const Model& b, const std::string& aName,
                                    const std::string& bName) {
    return {hierarchy(a, b), joints(a, b, aName, bName), vertices(a, b)};
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

Bounds metresBounds(const Model& model, const PoseSpec& pose, bool first) {
    Bounds b{glm::vec3(1e30f), glm::vec3(-1e30f)};
    for (glm::dvec3 p : metresPositions(model, pose, first)) {
        b.min = glm::min(b.min, glm::vec3(p));
        b.max = glm::max(b.max, glm::vec3(p));
    }
    return b.min.x <= b.max.x ? b : Bounds{};
}

PoseError comparePose(const Model& a, const Model& b, const PoseSpec& pose, double radius,
                      const std::vector<MeshMatch>& matches) {
    PoseError e;
    if (a.meshes.size() != b.meshes.size() || matches.size() != a.meshes.size()) return e;
    std::vector<PosedMesh> pa = metresPose(a, pose.clipA, pose.time),
                           pb = metresPose(b, pose.clipB, pose.time);
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
