#include "validate_compare.h"

#include <algorithm>
#include <cmath>
#include <map>

#include <glm/gtc/matrix_transform.hpp>

#include "anim/reference.h"
#include "render/view.h"
#include "validate_nwn.h"

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
    const NwnChanges nwn = nwnChanges(a, b);
    const std::vector<bool>& mapped = nwn.mapped;
    auto parentInB = [&](const Node& n) {
        return n.parent < 0 || n.parent == nwn.root ? std::string("(root)") : b.nodes[size_t(n.parent)].name;
    };
    std::map<std::string, const Node*> byName;
    size_t bNodes = 0;
    for (size_t i = 0; i < b.nodes.size(); ++i)
        if (!mapped[i]) {
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
    if (nwn.root >= 0 || !nwn.pieces.empty()) {
        detail += "; NWN mapping:";
        if (nwn.root >= 0) detail += " root '" + b.nodes[size_t(nwn.root)].name + "' (the model's name) added above";
        if (!nwn.pieces.empty()) {
            detail += std::string(nwn.root >= 0 ? "," : "") + " " + std::to_string(nwn.pieces.size()) +
                      " further mesh piece(s) as child nodes";
            for (size_t i = 0; i < std::min<size_t>(nwn.pieces.size(), 4); ++i)
                detail += " '" + b.nodes[nwn.pieces[i]].name + "'";
        }
    }
    return f.check("hierarchy", detail);
}

Check joints(const Model& a, const Model& b) {
    Findings f;
    if (a.skins.size() != b.skins.size())
        f.add(std::to_string(a.skins.size()) + " skins vs " + std::to_string(b.skins.size()));
    size_t total = 0;
    for (size_t s = 0; s < std::min(a.skins.size(), b.skins.size()); ++s) {
        const Skin &sa = a.skins[s], &sb = b.skins[s];
        total += sa.joints.size();
        if (sa.joints.size() != sb.joints.size())
            f.add("skin " + std::to_string(s) + ": " + std::to_string(sa.joints.size()) + " joints vs " +
                  std::to_string(sb.joints.size()));
        for (size_t j = 0; j < std::min(sa.joints.size(), sb.joints.size()); ++j)
            if (a.nodes[sa.joints[j]].name != b.nodes[sb.joints[j]].name)
                f.add("skin " + std::to_string(s) + " joint " + std::to_string(j) + ": '" +
                      a.nodes[sa.joints[j]].name + "' vs '" + b.nodes[sb.joints[j]].name + "'");
    }
    return f.check("joints", std::to_string(total) + " joints in " + std::to_string(a.skins.size()) +
                                 " skins, same names in order");
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

std::vector<Check> compareStructure(const Model& a, const Model& b) {
    return {hierarchy(a, b), joints(a, b), vertices(a, b)};
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
