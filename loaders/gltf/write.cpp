// Model -> glTF 2.0 through tinygltf: one buffer, one bufferView per accessor, data converted into
// glTF's right-handed Y-up metre frame (Frame, gltf.h), key times written as they are.
#include "gltf/gltf.h"
#include "texture/texture.h"

#include <algorithm>
#include <cmath>
#include <map>

#include <tiny_gltf.h>

namespace horde::gltf {

namespace {
constexpr int kArrayBuffer = 34962, kElementArrayBuffer = 34963;

class Builder {
  public:
    tinygltf::Model out;

    Builder() {
        out.asset.version = "2.0";
        out.asset.generator = "horde";
        out.buffers.emplace_back();
    }

    // Appends `count` elements of `type` (TINYGLTF_TYPE_*) in their own bufferView.
    int accessor(const void* data, size_t bytes, int componentType, int type, size_t count, int target,
                 std::vector<double> min = {}, std::vector<double> max = {}) {
        std::vector<unsigned char>& buffer = out.buffers[0].data;
        tinygltf::BufferView view;
        view.buffer = 0;
        view.byteOffset = buffer.size();
        view.byteLength = bytes;
        view.target = target;
        const auto* raw = static_cast<const unsigned char*>(data);
        buffer.insert(buffer.end(), raw, raw + bytes);
        buffer.resize((buffer.size() + 3) & ~size_t(3), 0); // every view starts 4-byte aligned
        out.bufferViews.push_back(view);
        tinygltf::Accessor a;
        a.bufferView = int(out.bufferViews.size() - 1);
        a.componentType = componentType;
        a.type = type;
        a.count = count;
        a.minValues = std::move(min);
        a.maxValues = std::move(max);
        out.accessors.push_back(std::move(a));
        return int(out.accessors.size() - 1);
    }

    template <int N> int floats(const std::vector<glm::vec<N, float>>& v, int type, int target, bool bounds) {
        std::vector<double> lo, hi;
        if (bounds && !v.empty()) {
            lo.assign(N, 1e300);
            hi.assign(N, -1e300);
            for (const auto& e : v)
                for (int c = 0; c < N; ++c) {
                    lo[c] = std::min(lo[c], double(e[c]));
                    hi[c] = std::max(hi[c], double(e[c]));
                }
        }
        return accessor(v.data(), v.size() * sizeof(v[0]), TINYGLTF_COMPONENT_TYPE_FLOAT, type, v.size(),
                        target, std::move(lo), std::move(hi));
    }

    // Key times shared by every channel keyed at the same instants (the monster's 30 fps keys).
    int times(const std::vector<float>& t) {
        auto [it, added] = timeAccessors_.try_emplace(t, 0);
        if (added) {
            auto [lo, hi] = std::minmax_element(t.begin(), t.end());
            it->second = accessor(t.data(), t.size() * sizeof(float), TINYGLTF_COMPONENT_TYPE_FLOAT,
                                  TINYGLTF_TYPE_SCALAR, t.size(), 0, {double(*lo)}, {double(*hi)});
        }
        return it->second;
    }

    // The glTF material for a submesh's material name: factors, alpha and sidedness from the
    // model's Material, and its textures as PNG images in the buffer (each texture once).
    int material(const Model& model, const std::string& name) {
        auto [it, added] = materials_.try_emplace(name, int(out.materials.size()));
        if (!added) return it->second;
        tinygltf::Material m;
        m.name = name;
        m.doubleSided = false;
        if (int32_t index = findMaterial(model, name); index >= 0) {
            const Material& source = model.materials[size_t(index)];
            const glm::vec4 c = source.baseColor;
            m.pbrMetallicRoughness.baseColorFactor = {c.r, c.g, c.b, c.a};
            m.alphaMode = source.alpha == AlphaMode::Mask ? "MASK" : source.alpha == AlphaMode::Blend ? "BLEND" : "OPAQUE";
            if (source.alpha == AlphaMode::Mask) m.alphaCutoff = source.alphaCutoff;
            m.doubleSided = source.doubleSided;
            for (const TextureRef& ref : source.textures) {
                const int texture = ref.texture ? image(*ref.texture) : -1;
                if (texture < 0) continue;
                switch (ref.slot) {
                case TextureSlot::Base: m.pbrMetallicRoughness.baseColorTexture.index = texture; break;
                case TextureSlot::Normal: m.normalTexture.index = texture; break;
                case TextureSlot::MetalRough: m.pbrMetallicRoughness.metallicRoughnessTexture.index = texture; break;
                case TextureSlot::Emissive:
                    m.emissiveTexture.index = texture;
                    m.emissiveFactor = {1.0, 1.0, 1.0};
                    break;
                case TextureSlot::Specular: break; // core glTF has no specular map
                }
            }
        }
        out.materials.push_back(std::move(m));
        return it->second;
    }

    // A glTF texture of `t`'s base level as PNG; -1 when the level does not decode (it does not
    // lie in the texture's bytes).
    int image(const Texture& t) {
        auto [it, added] = textures_.try_emplace(&t, -1);
        if (!added) return it->second;
        Result<std::vector<uint8_t>> png = encodePng(t);
        if (!png) return -1;
        std::vector<unsigned char>& buffer = out.buffers[0].data;
        tinygltf::BufferView view;
        view.buffer = 0;
        view.byteOffset = buffer.size();
        view.byteLength = png->size();
        buffer.insert(buffer.end(), png->begin(), png->end());
        buffer.resize((buffer.size() + 3) & ~size_t(3), 0);
        out.bufferViews.push_back(view);
        tinygltf::Image img;
        img.bufferView = int(out.bufferViews.size() - 1);
        img.mimeType = "image/png";
        out.images.push_back(std::move(img));
        tinygltf::Texture texture;
        texture.source = int(out.images.size() - 1);
        out.textures.push_back(texture);
        return it->second = int(out.textures.size() - 1);
    }

  private:
    std::map<std::vector<float>, int> timeAccessors_;
    std::map<std::string, int> materials_;
    std::map<const Texture*, int> textures_;
};

// Vertex streams shared by all of a mesh's primitives (one primitive per submesh). A normal or
// tangent the source holds as no direction (zero or not finite) is written as a fixed unit one,
// as glTF asks, and counted in `warnings`.
std::map<std::string, int> attributes(Builder& b, const Mesh& mesh, const Frame& f,
                                      std::vector<std::string>& warnings) {
    const MeshArrays& a = mesh.arrays();
    const MeshLayout& layout = mesh.layout();
    std::map<std::string, int> attrs;
    std::vector<glm::vec3> v3(layout.vertexCount);
    for (size_t i = 0; i < v3.size(); ++i)
        v3[i] = f.point(a.positions[i]);
    attrs["POSITION"] = b.floats(v3, TINYGLTF_TYPE_VEC3, kArrayBuffer, true);
    size_t replaced = 0;
    for (size_t i = 0; i < v3.size(); ++i) {
        glm::vec3 n = f.direction(a.normals[i]);
        float len = glm::length(n);
        const bool direction = len > 0.0f && std::isfinite(len);
        replaced += !direction;
        v3[i] = direction ? n / len : glm::vec3(0, 1, 0); // glTF requires unit normals
    }
    if (replaced)
        warnings.push_back(
            "mesh '" + mesh.name + "': " + std::to_string(replaced) +
            " normals are zero or not finite, written as (0, 1, 0): glTF requires unit normals");
    attrs["NORMAL"] = b.floats(v3, TINYGLTF_TYPE_VEC3, kArrayBuffer, false);
    if (layout.tangents) {
        std::vector<glm::vec4> t(layout.vertexCount);
        replaced = 0;
        for (size_t i = 0; i < t.size(); ++i) {
            glm::vec3 d = f.direction(glm::vec3(a.tangents[i]));
            float len = glm::length(d);
            const bool direction = len > 0.0f && std::isfinite(len);
            replaced += !direction;
            t[i] = glm::vec4(direction ? d / len : glm::vec3(1, 0, 0),
                             a.tangents[i].w < 0.0f ? -f.determinant : f.determinant);
        }
        if (replaced)
            warnings.push_back(
                "mesh '" + mesh.name + "': " + std::to_string(replaced) +
                " tangents are zero or not finite, written as (1, 0, 0): glTF requires unit tangents");
        attrs["TANGENT"] = b.floats(t, TINYGLTF_TYPE_VEC4, kArrayBuffer, false);
    }
    if (layout.uvSets >= 1)
        attrs["TEXCOORD_0"] = b.floats(std::vector<glm::vec2>(a.uv0.begin(), a.uv0.end()), TINYGLTF_TYPE_VEC2,
                                       kArrayBuffer, false);
    if (layout.uvSets >= 2)
        attrs["TEXCOORD_1"] = b.floats(std::vector<glm::vec2>(a.uv1.begin(), a.uv1.end()), TINYGLTF_TYPE_VEC2,
                                       kArrayBuffer, false);
    if (layout.colors)
        attrs["COLOR_0"] = b.floats(std::vector<glm::vec4>(a.colors.begin(), a.colors.end()),
                                    TINYGLTF_TYPE_VEC4, kArrayBuffer, false);
    if (mesh.skinned()) {
        // glTF forbids a joint twice in one vertex: its weights are summed into one slot (the
        // same blend), and unweighted slots name joint 0.
        std::vector<glm::u16vec4> joints(layout.vertexCount, glm::u16vec4(0));
        std::vector<glm::vec4> weights(layout.vertexCount, glm::vec4(0.0f));
        for (size_t i = 0; i < joints.size(); ++i) {
            int used = 0;
            for (int k = 0; k < 4; ++k) {
                if (!(a.weights[i][k] > 0.0f)) continue;
                int slot = 0;
                while (slot < used && joints[i][slot] != a.joints[i][k])
                    ++slot;
                if (slot == used) joints[i][used++] = a.joints[i][k];
                weights[i][slot] += a.weights[i][k];
            }
        }
        attrs["JOINTS_0"] = b.accessor(joints.data(), joints.size() * sizeof(joints[0]),
                                       TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT, TINYGLTF_TYPE_VEC4,
                                       joints.size(), kArrayBuffer);
        attrs["WEIGHTS_0"] = b.floats(weights, TINYGLTF_TYPE_VEC4, kArrayBuffer, false);
    }
    return attrs;
}

// A mesh's morph targets: each target's position displacements (with the bounds glTF asks of
// them) and, where the mesh has them, its normal displacements, in glTF's axes.
std::vector<std::map<std::string, int>> targets(Builder& b, const Mesh& mesh, const Frame& f) {
    const MeshArrays& a = mesh.arrays();
    const size_t n = mesh.vertexCount();
    std::vector<std::map<std::string, int>> out;
    std::vector<glm::vec3> v3(n);
    for (size_t t = 0; t < mesh.morphTargets(); ++t) {
        std::map<std::string, int>& target = out.emplace_back();
        for (size_t i = 0; i < n; ++i) v3[i] = f.point(a.morphPositions[t * n + i]);
        target["POSITION"] = b.floats(v3, TINYGLTF_TYPE_VEC3, kArrayBuffer, true);
        if (a.morphNormals.empty()) continue;
        for (size_t i = 0; i < n; ++i) v3[i] = f.direction(a.morphNormals[t * n + i]);
        target["NORMAL"] = b.floats(v3, TINYGLTF_TYPE_VEC3, kArrayBuffer, false);
    }
    return out;
}

int indices(Builder& b, const Mesh& mesh, const Submesh& s, bool flip) {
    const MeshArrays& a = mesh.arrays();
    auto at = [&](uint32_t i) {
        uint32_t corner = i % 3;
        if (flip && corner != 0) corner = 3 - corner; // swap the 2nd and 3rd corner of each triangle
        return a.index(s.firstIndex + i - i % 3 + corner);
    };
    if (mesh.layout().index16) {
        std::vector<uint16_t> v(s.indexCount);
        for (uint32_t i = 0; i < s.indexCount; ++i)
            v[i] = uint16_t(at(i));
        return b.accessor(v.data(), v.size() * 2, TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT,
                          TINYGLTF_TYPE_SCALAR, v.size(), kElementArrayBuffer);
    }
    std::vector<uint32_t> v(s.indexCount);
    for (uint32_t i = 0; i < s.indexCount; ++i)
        v[i] = at(i);
    return b.accessor(v.data(), v.size() * 4, TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT, TINYGLTF_TYPE_SCALAR,
                      v.size(), kElementArrayBuffer);
}

std::vector<double> vec(glm::vec3 v) {
    return {v.x, v.y, v.z};
}

void writeNodes(Builder& b, const Model& model, const Frame& f) {
    for (const Node& n : model.nodes) {
        tinygltf::Node node;
        node.name = n.name;
        glm::vec3 t = f.point(n.translation), s = f.scale(n.scale);
        glm::vec4 r = f.rotation(glm::vec4(n.rotation.x, n.rotation.y, n.rotation.z, n.rotation.w));
        if (t != glm::vec3(0.0f)) node.translation = vec(t);
        if (r != glm::vec4(0, 0, 0, 1)) node.rotation = {r.x, r.y, r.z, r.w};
        if (s != glm::vec3(1.0f)) node.scale = vec(s);
        b.out.nodes.push_back(std::move(node));
    }
    tinygltf::Scene scene;
    for (size_t i = 0; i < model.nodes.size(); ++i) {
        int32_t parent = model.nodes[i].parent;
        if (parent < 0)
            scene.nodes.push_back(int(i));
        else
            b.out.nodes[parent].children.push_back(int(i));
    }
    b.out.scenes.push_back(std::move(scene));
    b.out.defaultScene = 0;
}

void writeSkins(Builder& b, const Model& model, const Frame& f) {
    for (const Skin& skin : model.skins) {
        tinygltf::Skin s;
        std::vector<glm::mat4> ibm;
        for (size_t j = 0; j < skin.joints.size(); ++j) {
            s.joints.push_back(int(skin.joints[j]));
            ibm.push_back(f.matrix(skin.inverseBind[j]));
        }
        s.inverseBindMatrices = b.accessor(ibm.data(), ibm.size() * sizeof(glm::mat4),
                                           TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_MAT4, ibm.size(), 0);
        b.out.skins.push_back(std::move(s));
    }
}

// The glTF node that holds a mesh. A static mesh hangs on its own node. A skinned mesh gets a
// node of its own at the scene root without a transform, as glTF asks (the Khronos validator
// warns of skinned mesh nodes below others or with transforms, which careless readers apply on
// top of the skin); horde's reader leaves such nodes out of the hierarchy again (load.cpp).
int holderOf(Builder& b, const Model& model, const Mesh& mesh, std::map<uint32_t, int>& holders) {
    if (!mesh.skinned()) return int(mesh.node);
    auto [it, added] = holders.try_emplace(mesh.node, int(b.out.nodes.size()));
    if (added) {
        tinygltf::Node holder;
        holder.name = model.nodes[mesh.node].name + "_skinned";
        b.out.nodes.push_back(std::move(holder));
        b.out.scenes[0].nodes.push_back(it->second);
    }
    return it->second;
}

// A glTF mesh's resting morph weights and target names, as the first horde mesh on its node has them.
void restingWeights(const Mesh& mesh, tinygltf::Mesh& out) {
    out.weights.assign(mesh.morphWeights.begin(), mesh.morphWeights.end());
    if (mesh.morphNames.empty()) return;
    tinygltf::Value::Array names;
    for (const std::string& name : mesh.morphNames) names.emplace_back(name);
    tinygltf::Value::Object extras;
    extras["targetNames"] = tinygltf::Value(std::move(names));
    out.extras = tinygltf::Value(std::move(extras));
}

// `holders`: the glTF node each horde node's meshes hang on (holderOf), for the clips' morph channels.
Status writeMeshes(Builder& b, const Model& model, const Frame& f, std::map<uint32_t, int>& holders,
                   std::vector<std::string>& warnings) {
    // glTF puts one mesh on a node: horde meshes sharing a node become primitives of one glTF mesh,
    // which glTF gives one skin, one set of morph targets and one set of weights.
    std::map<int, int> meshOfNode;
    std::map<int, const Mesh*> firstOnNode;
    for (const Mesh& mesh : model.meshes) {
        int holder = holderOf(b, model, mesh, holders);
        tinygltf::Node& node = b.out.nodes[size_t(holder)];
        auto [it, added] = meshOfNode.try_emplace(holder, int(b.out.meshes.size()));
        const std::string where = "mesh '" + mesh.name + "': glTF cannot put meshes of different ";
        const std::string onNode = " on one node ('" + model.nodes[mesh.node].name + "')";
        if (added) {
            tinygltf::Mesh m;
            m.name = mesh.name;
            restingWeights(mesh, m);
            b.out.meshes.push_back(std::move(m));
            node.mesh = it->second;
            node.skin = mesh.skin;
            firstOnNode[holder] = &mesh;
        } else if (node.skin != mesh.skin) {
            return Error{where + "skins" + onNode};
        } else if (const Mesh& first = *firstOnNode[holder];
                   first.morphTargets() != mesh.morphTargets() || first.morphWeights != mesh.morphWeights ||
                   first.morphNames != mesh.morphNames) {
            return Error{where + "morph targets or resting weights" + onNode};
        }
        std::map<std::string, int> attrs = attributes(b, mesh, f, warnings);
        const std::vector<std::map<std::string, int>> morphs = targets(b, mesh, f);
        for (const Submesh& s : mesh.submeshes) {
            tinygltf::Primitive p;
            p.attributes = attrs;
            p.targets = morphs;
            p.indices = indices(b, mesh, s, f.flipWinding);
            p.material = b.material(model, s.material);
            p.mode = TINYGLTF_MODE_TRIANGLES;
            b.out.meshes[it->second].primitives.push_back(std::move(p));
        }
    }
    return Ok{};
}

glm::vec4 convert(const Frame& f, ChannelPath path, glm::vec4 v) {
    switch (path) {
    case ChannelPath::Translation:
        return glm::vec4(f.point(glm::vec3(v)), 0.0f);
    case ChannelPath::Rotation:
        return f.rotation(v);
    case ChannelPath::Scale:
        return glm::vec4(f.scale(glm::vec3(v)), 0.0f);
    }
    return v;
}

// Grimrock wraps the last key back into the first over the clip's tail; glTF holds the last key.
// One extra key at `duration` equal to the first makes glTF's hold the same motion (the tail is
// a straight blend, which for CubicSpline means tangents equal to the chord).
void appendWrapKey(const Clip& clip, Channel& c) {
    float tail = clip.duration - c.times.back();
    if (clip.end != ClipEnd::WrapToFirst || c.interpolation == Interpolation::Step || !(tail > 0.0f)) return;
    bool cubic = c.interpolation == Interpolation::CubicSpline;
    size_t stride = cubic ? 3 : 1, value = cubic ? 1 : 0;
    glm::vec4 last = c.values[(c.times.size() - 1) * stride + value], first = c.values[value];
    // The reference blends along the shorter arc; the sign-matched quaternion is the same rotation.
    if (c.path == ChannelPath::Rotation && glm::dot(last, first) < 0.0f) first = -first;
    c.times.push_back(clip.duration);
    if (!cubic) {
        c.values.push_back(first);
        return;
    }
    glm::vec4 chord = (first - last) / tail;
    c.values.back() = chord; // out-tangent of the former last key
    c.values.insert(c.values.end(), {chord, first, glm::vec4(0.0f)});
}

// glTF needs strictly increasing key times; horde allows repeats, which formats without stepped
// keys (NWN) use to jump. A linear channel that is constant between its jumps is exactly a STEP
// channel; a stepped channel never shows any but the last key of a repeat; anything else keeps
// the first and last key of each repeat and moves the first one float step earlier.
void strictTimes(Channel& c, bool wraps) {
    size_t stride = c.interpolation == Interpolation::CubicSpline ? 3 : 1, n = c.times.size();
    bool repeats = false;
    for (size_t k = 1; k < n; ++k)
        repeats = repeats || !(c.times[k] > c.times[k - 1]);
    if (!repeats) return;
    bool stepped = c.interpolation == Interpolation::Step;
    if (c.interpolation == Interpolation::Linear && !wraps) { // a wrapping tail blends: not a step
        stepped = true;
        for (size_t k = 1; k < n; ++k)
            if (c.times[k] > c.times[k - 1] && c.values[k] != c.values[k - 1]) stepped = false;
    }
    Channel out = c;
    out.times.clear();
    out.values.clear();
    for (size_t k = 0; k < n; ++k) {
        bool lastOfRun = k + 1 == n || c.times[k + 1] > c.times[k];
        bool firstOfRun = k == 0 || c.times[k] > c.times[k - 1];
        float t = c.times[k];
        if (stepped ? !lastOfRun : !(firstOfRun || lastOfRun)) continue;
        if (!stepped && firstOfRun && !lastOfRun) t = std::nextafter(t, -HUGE_VALF);
        if (!out.times.empty() && !(t > out.times.back())) continue;
        out.times.push_back(t);
        out.values.insert(out.values.end(), c.values.begin() + long(k * stride),
                          c.values.begin() + long((k + 1) * stride));
    }
    if (stepped) out.interpolation = Interpolation::Step;
    c = std::move(out);
}

const char* pathName(ChannelPath p) {
    return p == ChannelPath::Translation ? "translation" : p == ChannelPath::Rotation ? "rotation" : "scale";
}

const char* interpolationName(Interpolation i) {
    return i == Interpolation::Linear ? "LINEAR" : i == Interpolation::Step ? "STEP" : "CUBICSPLINE";
}

// A clip that keys nothing (NWN's door states, an emitter's `impact`) still has a name and a
// length that games play by. glTF asks for at least one channel, and tinygltf drops an animation
// without one, so such a clip keys the first node's rest translation, unchanged over its length,
// and says so in its extras: horde's reader drops that channel again (decode_anim.cpp).
std::vector<Channel> channelsToWrite(const Clip& clip, const Model& model) {
    if (!clip.channels.empty() || model.nodes.empty()) return clip.channels;
    Channel rest;
    rest.node = 0;
    rest.path = ChannelPath::Translation;
    rest.interpolation = Interpolation::Linear;
    rest.times = {0.0f};
    if (clip.duration > 0.0f) rest.times.push_back(clip.duration);
    rest.values.assign(rest.times.size(), glm::vec4(model.nodes[0].translation, 0.0f));
    return {rest};
}

// A morph channel as its glTF sampler: every target's weight at each key, one run of the targets
// a key (three with CUBICSPLINE), keyed on the node that holds the meshes.
void writeMorphChannel(Builder& b, const MorphChannel& c, const std::map<uint32_t, int>& holders,
                       tinygltf::Animation& anim) {
    tinygltf::AnimationSampler sampler;
    sampler.input = b.times(c.times);
    sampler.interpolation = interpolationName(c.interpolation);
    sampler.output = b.accessor(c.values.data(), c.values.size() * sizeof(float), TINYGLTF_COMPONENT_TYPE_FLOAT,
                                TINYGLTF_TYPE_SCALAR, c.values.size(), 0);
    anim.samplers.push_back(std::move(sampler));
    tinygltf::AnimationChannel channel;
    channel.sampler = int(anim.samplers.size() - 1);
    const auto holder = holders.find(c.node);
    channel.target_node = holder != holders.end() ? holder->second : int(c.node);
    channel.target_path = "weights";
    anim.channels.push_back(std::move(channel));
}

void writeClips(Builder& b, const Model& model, const Frame& f, const std::map<uint32_t, int>& holders,
                std::vector<std::string>& warnings) {
    for (const Clip& clip : model.clips) {
        tinygltf::Animation anim;
        anim.name = clip.name;
        float lastKey = 0.0f;
        for (const MorphChannel& c : clip.morphs) {
            writeMorphChannel(b, c, holders, anim);
            lastKey = std::max(lastKey, c.times.back());
        }
        const std::vector<Channel> channels = clip.morphs.empty() ? channelsToWrite(clip, model) : clip.channels;
        if (channels.empty() && clip.morphs.empty()) {
            warnings.push_back(
                "clip '" + clip.name +
                "' keys nothing and the model has no node to hold a channel: glTF cannot keep it");
            continue;
        }
        for (Channel c : channels) {
            strictTimes(c, clip.end == ClipEnd::WrapToFirst);
            appendWrapKey(clip, c);
            keepNlerpPace(clip, c);
            lastKey = std::max(lastKey, c.times.back());
            tinygltf::AnimationSampler sampler;
            sampler.input = b.times(c.times);
            sampler.interpolation = interpolationName(c.interpolation);
            bool rotation = c.path == ChannelPath::Rotation;
            if (rotation) {
                std::vector<glm::vec4> v;
                for (glm::vec4 value : c.values)
                    v.push_back(convert(f, c.path, value));
                sampler.output = b.floats(v, TINYGLTF_TYPE_VEC4, 0, false);
            } else {
                std::vector<glm::vec3> v;
                for (glm::vec4 value : c.values)
                    v.push_back(glm::vec3(convert(f, c.path, value)));
                sampler.output = b.floats(v, TINYGLTF_TYPE_VEC3, 0, false);
            }
            anim.samplers.push_back(std::move(sampler));
            tinygltf::AnimationChannel channel;
            channel.sampler = int(anim.samplers.size() - 1);
            channel.target_node = int(c.node);
            channel.target_path = pathName(c.path);
            anim.channels.push_back(std::move(channel));
        }
        // glTF's clip ends at its last key; a longer horde clip keeps its length for horde readers.
        tinygltf::Value::Object extras;
        if (clip.duration > lastKey) extras["duration"] = tinygltf::Value(double(clip.duration));
        if (clip.channels.empty() && clip.morphs.empty()) extras[kKeysNothing] = tinygltf::Value(true);
        if (!extras.empty()) anim.extras = tinygltf::Value(std::move(extras));
        b.out.animations.push_back(std::move(anim));
    }
}
} // namespace

Result<Companions> write(const Model& model, const std::filesystem::path& path) {
    Frame f = frameOf(model.axes);
    Builder b;
    writeNodes(b, model, f);
    writeSkins(b, model, f);
    Companions written; // one file holds everything (a .gltf embeds its buffer)
    std::map<uint32_t, int> holders;
    if (Status st = writeMeshes(b, model, f, holders, written.warnings); !st)
        return Error{path.string() + ": " + st.error().message};
    writeClips(b, model, f, holders, written.warnings);
    b.out.buffers[0].data.resize(std::max<size_t>(b.out.buffers[0].data.size(), 4), 0);
    bool binary = path.extension() == ".glb";
    tinygltf::TinyGLTF writer;
    if (!writer.WriteGltfSceneToFile(&b.out, path.string(), true, true, !binary, binary))
        return Error{path.string() + ": cannot write"};
    return written;
}

} // namespace horde::gltf
