#include "validate_materials.h"

#include <algorithm>
#include <array>
#include <map>
#include <set>

namespace horde {

namespace {
using Triangle = std::array<int32_t, 3>;

Triangle sorted(Triangle t) {
    std::sort(t.begin(), t.end());
    return t;
}

// Each triangle's material, in A's vertex numbering when `toA` is given (B's triangles mapped
// through it), keyed by its sorted corners.
std::map<Triangle, std::string> triangleMaterials(const Mesh& mesh, const std::vector<int32_t>* toA) {
    std::map<Triangle, std::string> out;
    for (const Submesh& s : mesh.submeshes)
        for (uint32_t t = 0; t + 2 < s.indexCount; t += 3) {
            Triangle tri;
            for (int c = 0; c < 3; ++c) {
                uint32_t v = mesh.arrays().index(s.firstIndex + t + uint32_t(c));
                tri[c] = toA ? (*toA)[v] : int32_t(v);
            }
            out.emplace(sorted(tri), s.material);
        }
    return out;
}

} // namespace

MaterialMatch compareMaterials(const Model& a, const Model& b, const std::vector<MeshMatch>& matches) {
    std::map<std::pair<std::string, std::string>, size_t> pairs;
    std::set<std::string> namesA;
    size_t triangles = 0, unmatched = 0;
    for (size_t m = 0; m < matches.size(); ++m) {
        std::map<Triangle, std::string> inB = triangleMaterials(b.meshes[m], &matches[m].aOfB);
        std::map<Triangle, std::string> inA = triangleMaterials(a.meshes[m], nullptr);
        for (const auto& [tri, material] : inA) {
            namesA.insert(material);
            ++triangles;
            auto it = inB.find(tri);
            if (it == inB.end()) {
                ++unmatched;
                continue;
            }
            ++pairs[{material, it->second}];
        }
    }
    std::map<std::string, std::set<std::string>> toB, toA;
    for (const auto& [p, count] : pairs) {
        toB[p.first].insert(p.second);
        toA[p.second].insert(p.first);
    }
    bool sameNames = true, oneToOne = true;
    for (const auto& [p, count] : pairs) {
        sameNames = sameNames && p.first == p.second;
        // A renaming, not a permutation: a name A uses elsewhere cannot stand for another material.
        oneToOne = oneToOne && toB[p.first].size() == 1 && toA[p.second].size() == 1 &&
                   (p.first == p.second || !namesA.count(p.second));
    }
    Check c{"materials", unmatched == 0 && oneToOne, ""};
    c.compared = triangles > 0;
    if (sameNames) {
        c.detail = std::to_string(triangles - unmatched) + " triangles, same material names";
    } else if (oneToOne) {
        c.detail = "one-to-one mapping:";
        for (const auto& [from, to] : toB)
            c.detail += " '" + from + "' -> '" + *to.begin() + "'";
    } else {
        size_t shown = 0;
        for (const auto& [p, count] : pairs)
            if (p.first != p.second && shown++ < 4)
                c.detail += std::string(c.detail.empty() ? "" : "; ") + std::to_string(count) +
                            " triangles of material '" + p.first + "' are '" + p.second + "' in B";
    }
    if (unmatched)
        c.detail += std::string(c.detail.empty() ? "" : "; ") + std::to_string(unmatched) + " of " +
                    std::to_string(triangles) + " triangles of A have no counterpart in B";
    MaterialMatch out{c, {}};
    if (oneToOne)
        for (const auto& [from, to] : toB)
            out.toB[from] = *to.begin();
    return out;
}

void nameMaterialsAsA(const Model& a, Model& b, const std::map<std::string, std::string>& toB) {
    std::map<std::string, std::string> toA;
    for (const auto& [from, to] : toB)
        toA[to] = from;
    for (Mesh& mesh : b.meshes)
        for (Submesh& s : mesh.submeshes)
            if (auto it = toA.find(s.material); it != toA.end()) s.material = it->second;
    for (Material& m : b.materials) {
        auto it = toA.find(m.name);
        if (it == toA.end()) continue;
        m.name = it->second;
        const int32_t inA = findMaterial(a, m.name);
        if (inA < 0) continue;
        const Material& source = a.materials[size_t(inA)];
        if (!source.defined) m.defined = false;
        // A base texture A names but could not find is drawn as the checker there; B, which
        // cannot hold what its source lacked, is drawn so too. (A texture B has and A lacks is
        // no such case: the texture check fails it.)
        const TextureRef* want = source.find(TextureSlot::Base);
        const TextureRef* have = m.find(TextureSlot::Base);
        if (want && !want->texture && !(have && have->texture)) {
            std::erase_if(m.textures, [](const TextureRef& t) { return t.slot == TextureSlot::Base; });
            m.textures.push_back(*want);
        }
    }
}

} // namespace horde
