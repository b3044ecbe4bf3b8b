// Writes a model as mesh.meshb, mesh.sklb and one mesh_<clip>.animb per clip. EMI is Y-up and
// left-handed: a right-handed model is mirrored through z (positions, normals, translations;
// quaternions (x, y, z, w) -> (-x, -y, z, w)) and its triangles turned back over, so the files
// load back as the same creature. Scale keys have no EMI operation and are dropped with a
// note; step keys are written as pairs of linear keys.
#include "emi/emi.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

#include <glm/gtc/matrix_transform.hpp>

#include "model/axes.h"
#include "byte_writer.h"

namespace horde::emi {

namespace {
// EMI's strings (a uint32 length counting the terminator) and fixed-width names.
struct Out : ByteWriter {
    void string(const std::string& s) {
        u32(uint32_t(s.size() + 1));
        fixed(s, s.size() + 1);
    }
    void fixed(const std::string& s, size_t width) {
        for (size_t i = 0; i < width; ++i) bytes.push_back(i < s.size() ? std::byte(s[i]) : std::byte{0});
    }
};

// From the model's own axes to EMI's (fileAxes): into horde's world (right-handed, Y-up), then
// out of it into the file's, a signed permutation whose inverse is its transpose (the z mirror
// that makes it left-handed). For a right-handed Y-up model that is the plain mirror; for a
// model read from EMI files, nothing.
struct Frame {
    explicit Frame(const Axes& source, const Axes& file = fileAxes())
        : m(glm::dmat3(glm::transpose(axesToWorld(file))) * glm::dmat3(glm::dmat4(axesToWorld(source)))),
          units(double(source.metresPerUnit) / double(file.metresPerUnit)),
          reverse(frontFaceClockwise(source) != frontFaceClockwise(file)) {}
    glm::vec3 point(glm::vec3 p) const { return glm::vec3(m * glm::dvec3(p) * units); }
    glm::vec3 vector(glm::vec3 v) const { return glm::vec3(m * glm::dvec3(v)); }
    glm::vec4 rotation(glm::vec4 q) const {
        glm::dmat3 r = m * glm::mat3_cast(glm::dquat(q.w, q.x, q.y, q.z)) * glm::transpose(m);
        glm::dquat out = glm::normalize(glm::quat_cast(r));
        return glm::vec4(out.x, out.y, out.z, out.w);
    }
    glm::dmat3 m;
    double units; // source units -> file units
    bool reverse; // the source's fronts would wind the other way in the file: turn them over
};

glm::dmat4 restModel(const Model& model, uint32_t node) {
    glm::dmat4 out(1.0);
    for (int32_t n = int32_t(node); n >= 0; n = model.nodes[n].parent) {
        const Node& x = model.nodes[n];
        glm::dquat q(x.rotation.w, x.rotation.x, x.rotation.y, x.rotation.z);
        out = glm::translate(glm::dmat4(1.0), glm::dvec3(x.translation)) * glm::mat4_cast(q) *
              glm::scale(glm::dmat4(1.0), glm::dvec3(x.scale)) * out;
    }
    return out;
}

Error cannot(const std::filesystem::path& path, const std::string& why) { return Error{path.string() + ": cannot write EMI: " + why}; }

Status checkNodes(const Model& model, const std::filesystem::path& path) {
    NameIndex names;
    for (size_t n = 0; n < model.nodes.size(); ++n) {
        const Node& node = model.nodes[n];
        if (node.name.empty() || node.name.size() > 31)
            return cannot(path, "node " + std::to_string(n) + " name '" + node.name + "' must be 1 to 31 bytes (.sklb names are 32-byte fields)");
        if (!names.add(node.name, int32_t(n)))
            return cannot(path, "node name '" + node.name + "' repeats (EMI finds joints by name, ignoring case)");
        if (glm::any(glm::greaterThan(glm::abs(node.scale - glm::vec3(1.0f)), glm::vec3(1e-6f))))
            return cannot(path, "node '" + node.name + "' has a rest scale; EMI joints have none");
    }
    return Ok{};
}

Out skeletonFile(const Model& model, const Frame& frame) {
    Out out;
    out.u32(uint32_t(model.nodes.size()));
    for (const Node& node : model.nodes) {
        out.fixed(node.name, 32);
        out.fixed(node.parent >= 0 ? model.nodes[node.parent].name : std::string(), 32);
        out.vec3(frame.point(node.translation));
        out.vec4(frame.rotation(glm::vec4(node.rotation.x, node.rotation.y, node.rotation.z, node.rotation.w)));
    }
    return out;
}

// EMI binds a mesh at the skeleton's rest pose: a skin bound elsewhere cannot be expressed.
Status checkBind(const Model& model, const Skin& skin, const std::filesystem::path& path) {
    for (size_t j = 0; j < skin.joints.size(); ++j) {
        glm::dmat4 m = restModel(model, skin.joints[j]) * glm::dmat4(skin.inverseBind[j]);
        for (int c = 0; c < 4; ++c)
            for (int r = 0; r < 4; ++r)
                if (std::abs(m[c][r] - (c == r ? 1.0 : 0.0)) > 1e-4)
                    return cannot(path, "joint '" + model.nodes[skin.joints[j]].name +
                                            "' is bound away from its rest pose; EMI binds at the skeleton's rest pose");
    }
    return Ok{};
}

void writeBounds(Out& out, const Mesh& mesh, const glm::mat4& place, const Frame& frame) {
    glm::vec3 lo(0.0f), hi(0.0f);
    for (size_t v = 0; v < mesh.vertexCount(); ++v) {
        glm::vec3 p = frame.point(glm::vec3(place * glm::vec4(mesh.arrays().positions[v], 1.0f)));
        lo = v == 0 ? p : glm::min(lo, p);
        hi = v == 0 ? p : glm::max(hi, p);
    }
    glm::vec3 centre = (lo + hi) * 0.5f;
    float radius = 0.0f;
    for (size_t v = 0; v < mesh.vertexCount(); ++v)
        radius = std::max(radius, glm::distance(centre, frame.point(glm::vec3(place * glm::vec4(mesh.arrays().positions[v], 1.0f)))));
    out.f32(radius);
    out.vec3(centre);
    out.vec3(lo);
    out.vec3(hi);
}

Result<Out> meshFile(const Model& model, const std::filesystem::path& path, const Frame& frame) {
    if (model.meshes.size() != 1)
        return cannot(path, "a .meshb holds one mesh; the model has " + std::to_string(model.meshes.size()));
    const Mesh& mesh = model.meshes[0];
    const MeshArrays& a = mesh.arrays();
    if (mesh.vertexCount() > 65536) return cannot(path, "EMI indices are 16-bit; the mesh has " + std::to_string(mesh.vertexCount()) + " vertices");
    // A static mesh is placed by its node; EMI meshes are not, so the placement is baked in.
    glm::mat4 place = mesh.skinned() ? glm::mat4(1.0f) : glm::mat4(restModel(model, mesh.node));
    glm::mat3 turn = glm::transpose(glm::inverse(glm::mat3(place)));
    if (mesh.skinned())
        if (Status st = checkBind(model, model.skins[mesh.skin], path); !st) return st.error();

    std::vector<Submesh> groups = mesh.submeshes;
    if (groups.empty()) groups.push_back({"", 0, mesh.indexCount()});
    for (const Submesh& s : groups)
        if (s.indexCount % 3 != 0) return cannot(path, "submesh '" + s.material + "' index count is not a multiple of 3");
    std::vector<std::string> textures;
    for (const Submesh& s : groups)
        if (!s.material.empty() && std::find(textures.begin(), textures.end(), s.material) == textures.end()) textures.push_back(s.material);

    Out out;
    out.string(mesh.name.empty() ? path.stem().string() : mesh.name);
    writeBounds(out, mesh, place, frame);
    out.u32(1); // texture set count
    out.u32(0); // texture set type
    out.u32(uint32_t(textures.size()));
    for (const std::string& t : textures) {
        out.string(t);
        out.u32(0); // texture flags: no additive blend
    }
    bool uvs = mesh.layout().uvSets > 0;
    out.u32(uvs ? 19 : 3);
    out.u32(mesh.vertexCount());
    for (glm::vec3 p : a.positions) out.vec3(frame.point(glm::vec3(place * glm::vec4(p, 1.0f))));
    for (glm::vec3 n : a.normals) {
        glm::vec3 m = turn * n;
        float length = glm::length(m);
        out.vec3(frame.vector(length > 0.0f ? m / length : m));
    }
    for (size_t v = 0; v < mesh.vertexCount(); ++v) out.u32(0xFFFFFFFFu); // white, opaque
    if (uvs)
        for (glm::vec2 uv : a.uv0) out.put(uv);
    out.u32(uint32_t(groups.size()));
    for (const Submesh& s : groups) {
        out.u32(0); // face flags
        out.u32(s.material.empty() ? 0 : 1);
        if (!s.material.empty()) out.u32(uint32_t(std::find(textures.begin(), textures.end(), s.material) - textures.begin()));
        out.u32(s.indexCount);
        uint32_t second = frame.reverse ? 2 : 1; // swapping two corners turns a triangle over
        for (uint32_t i = s.firstIndex; i + 3 <= s.firstIndex + s.indexCount; i += 3) {
            out.put(uint16_t(a.index(i)));
            out.put(uint16_t(a.index(i + second)));
            out.put(uint16_t(a.index(i + 3 - second)));
        }
    }
    out.u32(mesh.skinned() ? 1 : 0);
    if (mesh.skinned()) {
        const Skin& skin = model.skins[mesh.skin];
        out.u32(uint32_t(skin.joints.size()));
        for (uint32_t node : skin.joints) out.string(model.nodes[node].name);
        // One entry per influence; the first of each vertex moves to it (increment 1).
        Out entries;
        uint32_t count = 0;
        for (size_t v = 0; v < mesh.vertexCount(); ++v) {
            uint32_t written = 0;
            for (int k = 0; k < 4; ++k) {
                if (!(a.weights[v][k] > 0.0f)) continue;
                entries.u32(written++ == 0 ? 1 : 0);
                entries.u32(a.joints[v][k]);
                entries.f32(a.weights[v][k]);
            }
            if (written == 0) { // weightless: still step onto the vertex
                entries.u32(1);
                entries.u32(0);
                entries.f32(0.0f);
                written = 1;
            }
            count += written;
        }
        out.u32(count);
        out.bytes.insert(out.bytes.end(), entries.bytes.begin(), entries.bytes.end());
    }
    return out;
}

void key(Out& out, const Frame& frame, ChannelPath path, glm::vec4 value, float time) {
    if (path == ChannelPath::Translation) out.vec3(frame.point(glm::vec3(value)));
    else out.vec4(frame.rotation(value));
    out.f32(time);
}

Result<Out> clipFile(const Model& model, const Clip& clip, const std::filesystem::path& path, const Frame& frame,
                     uint32_t& droppedScale) {
    if (clip.priority < 0 || clip.priority > 7)
        return cannot(path, "clip '" + clip.name + "' priority " + std::to_string(clip.priority) + " is outside EMI's layers 0 to 7");
    Out body;
    uint32_t entries = 0;
    for (const Channel& c : clip.channels) {
        if (c.path == ChannelPath::Scale) {
            ++droppedScale;
            continue;
        }
        if (c.interpolation == Interpolation::CubicSpline)
            return cannot(path, "clip '" + clip.name + "' has cubic-spline keys; EMI keys are linear");
        body.string(model.nodes[c.node].name);
        body.u32(c.path == ChannelPath::Translation ? 3 : 4);
        body.u32(uint32_t(clip.priority));
        body.u32(0);
        size_t n = c.times.size();
        bool step = c.interpolation == Interpolation::Step;
        // Linear keys hold after the last one; a clip that wraps gets the first key again at its end.
        bool wrap = !step && clip.end == ClipEnd::WrapToFirst && c.times.back() < clip.duration;
        body.u32(uint32_t(step ? 2 * n - 1 : n + (wrap ? 1 : 0)));
        for (size_t k = 0; k < n; ++k) {
            if (step && k > 0) key(body, frame, c.path, c.values[k - 1], c.times[k]); // hold until the next key's time
            key(body, frame, c.path, c.values[k], c.times[k]);
        }
        if (wrap) key(body, frame, c.path, c.values[0], clip.duration);
        ++entries;
    }
    Out out;
    out.string(clip.name);
    out.f32(clip.duration);
    out.u32(entries);
    out.bytes.insert(out.bytes.end(), body.bytes.begin(), body.bytes.end());
    return out;
}

std::string fileSafe(const std::string& name) {
    std::string out;
    for (char c : name) out += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' ? c : '_';
    return out;
}

} // namespace

std::filesystem::path skeletonPathFor(const std::filesystem::path& meshPath) {
    return std::filesystem::path(meshPath).replace_extension(".sklb");
}

Result<Companions> write(const Model& model, const std::filesystem::path& path) {
    if (Status st = checkNodes(model, path); !st) return st.error();
    const Frame frame(model.axes);
    Result<Out> mesh = meshFile(model, path, frame);
    if (!mesh) return mesh.error();
    std::vector<std::pair<std::filesystem::path, Out>> files;
    files.emplace_back(path, std::move(*mesh));
    Companions written;
    written.skeleton = skeletonPathFor(path);
    files.emplace_back(written.skeleton, skeletonFile(model, frame));
    uint32_t droppedScale = 0;
    for (const Clip& clip : model.clips) {
        Result<Out> anim = clipFile(model, clip, path, frame, droppedScale);
        if (!anim) return anim.error();
        written.anims.push_back(path.parent_path() / (path.stem().string() + "_" + fileSafe(clip.name) + ".animb"));
        files.emplace_back(written.anims.back(), std::move(*anim));
    }
    for (const auto& [file, out] : files)
        if (Status st = saveBytes(out.bytes, file); !st) return st.error();
    if (droppedScale > 0)
        std::fprintf(stderr, "horde: note: %u scale channels not written (EMI animations key translation and rotation only)\n", droppedScale);
    return written;
}

} // namespace horde::emi
