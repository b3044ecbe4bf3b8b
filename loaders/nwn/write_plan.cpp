#include "nwn/nwn.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <set>
#include <unordered_map>

#include <glm/gtc/matrix_transform.hpp>

#include "model/axes.h"

namespace horde::nwn {

AxisChange toNwnAxes(const Axes& source) {
    const Axes file = fileAxes();
    AxisChange c;
    c.axes = glm::inverse(glm::mat3(axesToWorld(file))) * glm::mat3(axesToWorld(source));
    c.units = source.metresPerUnit / file.metresPerUnit;
    c.determinant = glm::determinant(c.axes) < 0.0f ? -1.0f : 1.0f;
    c.flipWinding = frontFaceClockwise(source) != frontFaceClockwise(file);
    return c;
}

namespace {
constexpr size_t kMaxName = 31;         // node names are char[32]
constexpr size_t kMaxPieceVertices = 65535;

struct Draft {
    std::vector<PlannedNode> nodes; // index 0: the root the writer adds
    std::vector<MeshPiece> pieces;
    std::vector<std::vector<uint32_t>> pieceBones; // model nodes, before the file order is known
};

std::vector<uint32_t> boneNodes(const Model& model, const Mesh& mesh, uint32_t v) {
    std::vector<uint32_t> out;
    const Skin& skin = model.skins[size_t(mesh.skin)];
    for (int k = 0; k < 4; ++k)
        if (mesh.arrays().weights[v][k] > 0.0f) out.push_back(skin.joints[mesh.arrays().joints[v][k]]);
    return out;
}

// Cuts a submesh into pieces in triangle order, starting a new piece when the next triangle
// would take it past the vertex limit or (skinned) past the 17-entry bone table.
void cutSubmesh(const Model& model, const Mesh& mesh, const Submesh& sub, bool flip, Draft& d,
                std::vector<uint32_t>& pieceIds) {
    const MeshArrays& a = mesh.arrays();
    std::unordered_map<uint32_t, uint16_t> local;
    std::vector<uint32_t> bones;
    auto open = [&] {
        d.pieces.push_back(MeshPiece{});
        d.pieces.back().material = sub.material;
        d.pieceBones.emplace_back();
        pieceIds.push_back(uint32_t(d.pieces.size() - 1));
        local.clear();
        bones.clear();
    };
    open();
    for (uint32_t i = sub.firstIndex; i + 2 < sub.firstIndex + sub.indexCount; i += 3) {
        uint32_t tri[3] = {a.index(i), a.index(i + 1), a.index(i + 2)};
        size_t newVertices = 0;
        std::set<uint32_t> newBones;
        for (uint32_t v : tri) {
            if (local.count(v)) continue;
            ++newVertices;
            if (mesh.skinned())
                for (uint32_t b : boneNodes(model, mesh, v))
                    if (std::find(bones.begin(), bones.end(), b) == bones.end()) newBones.insert(b);
        }
        MeshPiece* piece = &d.pieces.back();
        if (piece->vertices.size() + newVertices > kMaxPieceVertices || bones.size() + newBones.size() > kSkinBones) {
            open();
            piece = &d.pieces.back();
        }
        uint16_t corner[3];
        for (int k = 0; k < 3; ++k) {
            auto [it, added] = local.emplace(tri[k], uint16_t(piece->vertices.size()));
            if (added) {
                piece->vertices.push_back(tri[k]);
                if (mesh.skinned())
                    for (uint32_t b : boneNodes(model, mesh, tri[k]))
                        if (std::find(bones.begin(), bones.end(), b) == bones.end()) bones.push_back(b);
            }
            corner[k] = it->second;
        }
        piece->indices.insert(piece->indices.end(), {corner[0], flip ? corner[2] : corner[1], flip ? corner[1] : corner[2]});
        d.pieceBones.back() = bones;
    }
}

// Names may repeat, as in the game's own files (c_mindflayer hangs a skin mesh named 'head' from a
// dummy named 'head'). A node the writer adds may not take a name the model has: the reader and
// validate recognise the added ones by name (addedNodes).
Status checkNames(const std::vector<PlannedNode>& nodes) {
    std::set<std::string> source;
    for (const PlannedNode& n : nodes) {
        if (n.name.empty() || n.name.size() > kMaxName)
            return Error{"nwn: node name '" + n.name + "' must be 1 to 31 characters (the format's name field is 32 bytes)"};
        if (n.source >= 0) source.insert(asciiLower(n.name));
    }
    for (const PlannedNode& n : nodes)
        if (n.source < 0 && source.count(asciiLower(n.name)))
            return Error{"nwn: the node '" + n.name +
                         "' the writer adds takes the name of a node of the model"};
    return Ok{};
}

glm::mat4 localMatrix(const PlannedNode& n) {
    glm::quat q(n.rotation.w, n.rotation.x, n.rotation.y, n.rotation.z);
    return glm::translate(glm::mat4(1.0f), n.translation) * glm::mat4_cast(q) * glm::scale(glm::mat4(1.0f), glm::vec3(n.scale));
}
} // namespace

std::string pieceNodeName(const std::string& node, size_t k) {
    return node.substr(0, kMaxName - 5) + "_" + std::to_string(k);
}

glm::mat4 pieceSpace(const Model& model, const Plan& plan, size_t node) {
    const PlannedNode& n = plan.nodes[node];
    return model.meshes[size_t(n.mesh)].skinned() ? glm::inverse(plan.restModel[node]) : glm::mat4(1.0f);
}

glm::vec3 turnNormal(const glm::mat4& space, glm::vec3 normal) {
    if (space == glm::mat4(1.0f)) return normal;
    glm::vec3 n = glm::transpose(glm::inverse(glm::mat3(space))) * normal;
    return glm::length(n) > 0.0f ? glm::normalize(n) : n;
}

Result<Plan> planModel(const Model& model, const std::filesystem::path& path) {
    const std::string name = asciiLower(path.stem().string()).substr(0, kMaxName);
    Plan plan;
    plan.change = toNwnAxes(model.axes);
    plan.name = name.empty() ? "model" : name;
    const AxisChange& c = plan.change;
    Draft d;
    PlannedNode root;
    root.name = plan.name;
    d.nodes.push_back(root);
    for (size_t n = 0; n < model.nodes.size(); ++n) {
        const Node& src = model.nodes[n];
        glm::vec3 s = src.scale;
        if (std::abs(s.x - s.y) > 1e-5f * std::abs(s.x) || std::abs(s.x - s.z) > 1e-5f * std::abs(s.x))
            return Error{path.string() + ": nwn: node '" + src.name +
                         "' has a non-uniform rest scale, which the format cannot hold"};
        PlannedNode p;
        p.name = src.name;
        p.parent = src.parent < 0 ? 0 : src.parent + 1;
        p.translation = c.point(src.translation);
        p.rotation = c.rotation(glm::vec4(src.rotation.x, src.rotation.y, src.rotation.z, src.rotation.w));
        p.scale = s.x;
        p.source = int32_t(n);
        d.nodes.push_back(p);
    }
    // A node holding one mesh piece carries it itself, so the file keeps the source's names and
    // tree; the format holds one material (and at most 65535 vertices, 17 bones) per mesh node, so
    // a node's further pieces become children named "<node>_<k>" (pieceNodeName).
    std::vector<std::vector<std::pair<uint32_t, uint32_t>>> piecesOf(model.nodes.size()); // (mesh, piece)
    for (size_t m = 0; m < model.meshes.size(); ++m) {
        const Mesh& mesh = model.meshes[m];
        std::vector<uint32_t> pieceIds;
        for (const Submesh& sub : mesh.submeshes) cutSubmesh(model, mesh, sub, c.flipWinding, d, pieceIds);
        for (uint32_t id : pieceIds)
            if (!d.pieces[id].indices.empty()) piecesOf[mesh.node].emplace_back(uint32_t(m), id);
    }
    for (size_t n = 0; n < model.nodes.size(); ++n)
        for (size_t k = 0; k < piecesOf[n].size(); ++k) {
            auto [m, id] = piecesOf[n][k];
            if (k == 0) {
                d.nodes[n + 1].mesh = int32_t(m);
                d.nodes[n + 1].piece = int32_t(id);
                continue;
            }
            PlannedNode p;
            p.name = pieceNodeName(model.nodes[n].name, k);
            p.parent = int32_t(n) + 1;
            p.mesh = int32_t(m);
            p.piece = int32_t(id);
            d.nodes.push_back(p);
        }
    if (Status st = checkNames(d.nodes); !st) return Error{path.string() + ": " + st.error().message};
    for (size_t i = 1; i < d.nodes.size(); ++i) d.nodes[size_t(d.nodes[i].parent)].children.push_back(uint32_t(i));

    // Pre-order: the order the skin's bone table counts nodes in.
    std::vector<uint32_t> fileOf(d.nodes.size());
    std::vector<uint32_t> stack{0};
    while (!stack.empty()) {
        uint32_t at = stack.back();
        stack.pop_back();
        fileOf[at] = uint32_t(plan.nodes.size());
        plan.nodes.push_back(d.nodes[at]);
        for (auto it = d.nodes[at].children.rbegin(); it != d.nodes[at].children.rend(); ++it) stack.push_back(*it);
    }
    for (PlannedNode& n : plan.nodes) {
        if (n.parent >= 0) n.parent = int32_t(fileOf[size_t(n.parent)]);
        for (uint32_t& child : n.children) child = fileOf[child];
    }
    plan.fileIndex.resize(model.nodes.size());
    for (size_t n = 0; n < model.nodes.size(); ++n) plan.fileIndex[n] = fileOf[n + 1];
    plan.restModel.resize(plan.nodes.size());
    for (size_t n = 0; n < plan.nodes.size(); ++n) {
        glm::mat4 l = localMatrix(plan.nodes[n]);
        plan.restModel[n] = plan.nodes[n].parent < 0 ? l : plan.restModel[size_t(plan.nodes[n].parent)] * l;
    }

    for (size_t id = 0; id < d.pieces.size(); ++id) {
        MeshPiece& piece = d.pieces[id];
        for (uint32_t b : d.pieceBones[id]) piece.bones.push_back(plan.fileIndex[b]);
        plan.pieces.push_back(std::move(piece));
    }
    for (const PlannedNode& n : plan.nodes) {
        if (n.piece < 0) continue;
        const Mesh& mesh = model.meshes[size_t(n.mesh)];
        if (!mesh.skinned()) continue;
        MeshPiece& piece = plan.pieces[size_t(n.piece)];
        const std::vector<uint32_t>& modelBones = d.pieceBones[size_t(n.piece)];
        const Skin& skin = model.skins[size_t(mesh.skin)];
        for (uint32_t v : piece.vertices) {
            glm::i16vec4 refs(-1);
            glm::vec4 w(0.0f);
            for (int k = 0; k < 4; ++k) {
                float weight = mesh.arrays().weights[v][k];
                if (!(weight > 0.0f)) continue;
                uint32_t node = skin.joints[mesh.arrays().joints[v][k]];
                refs[k] = int16_t(std::find(modelBones.begin(), modelBones.end(), node) - modelBones.begin());
                w[k] = weight;
            }
            piece.boneRefs.push_back(refs);
            piece.weights.push_back(w);
        }
    }
    return plan;
}

Status checkNameBinding(const Model& model, const Plan& plan, bool namesBind) {
    // The game binds by name, ignoring case, to the first node of each name in the file (xoreos:
    // Model_NWN::addState keeps the first node of a name in the state's node map, which an
    // animation's nodes are looked up in); horde's readers do the same.
    std::map<std::string, uint32_t> first;
    for (uint32_t i = 0; i < plan.nodes.size(); ++i)
        first.emplace(asciiLower(plan.nodes[i].name), i);
    auto bindsTo = [&](uint32_t fileNode) { return first.at(asciiLower(plan.nodes[fileNode].name)) == fileNode; };
    for (const Clip& clip : model.clips)
        for (const Channel& c : clip.channels)
            if (!bindsTo(plan.fileIndex[c.node]))
                return Error{
                    "nwn: clip '" + clip.name + "' keys a node named '" + model.nodes[c.node].name +
                    "' that is not the first of that name: NWN binds an animation's nodes by name, to the "
                    "first node of each name"};
    if (!namesBind) return Ok{};
    for (const PlannedNode& n : plan.nodes)
        if (n.parent >= 0 && !bindsTo(uint32_t(n.parent)))
            return Error{
                "nwn: node '" + n.name + "' hangs from a node named '" + plan.nodes[size_t(n.parent)].name +
                "' that is not the first of that name: an ASCII MDL names a node's parent, and a name means "
                "the first node defined with it"};
    for (const MeshPiece& piece : plan.pieces)
        for (uint32_t bone : piece.bones)
            if (!bindsTo(bone))
                return Error{
                    "nwn: a skin weighs a bone named '" + plan.nodes[bone].name +
                    "' that is not the first of that name: an ASCII MDL names a skin's bones, and a name "
                    "means the first node defined with it"};
    return Ok{};
}

namespace {
// Whether `name` is what pieceNodeName gives `parent` for some k from 1.
bool isPieceName(const std::string& name, const std::string& parent) {
    const size_t digits = name.find_last_not_of("0123456789") + 1; // 0 when every character is one
    size_t k = 0;
    const char* end = name.data() + name.size();
    auto [at, failed] = std::from_chars(name.data() + digits, end, k);
    return failed == std::errc() && at == end && k >= 1 && name == pieceNodeName(parent, k);
}

bool isIdentity(const Node& n) {
    return n.translation == glm::vec3(0.0f) && n.rotation == glm::quat(1.0f, 0.0f, 0.0f, 0.0f) &&
           n.scale == glm::vec3(1.0f);
}

std::string describe(const Model& read, const AddedNodes& added) {
    if (added.root < 0 && added.pieces.empty()) return {};
    std::string note = "NWN mapping:";
    if (added.root >= 0)
        note += " root '" + read.nodes[size_t(added.root)].name + "' (the model's name) added above";
    if (!added.pieces.empty()) {
        note += std::string(added.root >= 0 ? "," : "") + " " + std::to_string(added.pieces.size()) +
                " further mesh piece(s) as child nodes";
        for (size_t i = 0; i < std::min<size_t>(added.pieces.size(), 4); ++i)
            note += " '" + read.nodes[added.pieces[i]].name + "'";
    }
    return note;
}
} // namespace

AddedNodes addedNodes(const Model& source, const Model& read) {
    AddedNodes c;
    c.added.assign(read.nodes.size(), false);
    c.joinPieces = true;
    std::set<std::string> inSource;
    for (const Node& n : source.nodes)
        inSource.insert(n.name);
    std::vector<int32_t> roots;
    std::vector<uint32_t> children(read.nodes.size(), 0);
    for (size_t i = 0; i < read.nodes.size(); ++i) {
        if (read.nodes[i].parent < 0)
            roots.push_back(int32_t(i));
        else
            ++children[size_t(read.nodes[i].parent)];
    }
    // The root planModel adds, named after the file.
    if (roots.size() == 1 && !inSource.count(read.nodes[size_t(roots[0])].name)) {
        c.root = roots[0];
        c.added[size_t(c.root)] = true;
    }
    // A node's further pieces: childless, identity, named by pieceNodeName after their parent.
    for (size_t i = 0; i < read.nodes.size(); ++i) {
        const Node& n = read.nodes[i];
        if (n.parent < 0 || inSource.count(n.name) || children[i] != 0 || !isIdentity(n)) continue;
        const std::string& parent = read.nodes[size_t(n.parent)].name;
        if (inSource.count(parent) && isPieceName(n.name, parent)) {
            c.pieces.push_back(uint32_t(i));
            c.added[i] = true;
        }
    }
    c.note = describe(read, c);
    return c;
}

} // namespace horde::nwn
