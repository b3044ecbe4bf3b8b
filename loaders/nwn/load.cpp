#include "nwn/nwn.h"

#include <cstdlib>

#include <glm/gtc/matrix_transform.hpp>

namespace horde::nwn {

namespace {
bool buildNodes(File& file, const std::vector<RawNode>& raw, Model& model) {
    size_t keyed = 0;
    for (const RawNode& r : raw) {
        Node node;
        node.name = r.name;
        node.parent = r.parent;
        std::vector<Track> tracks;
        if (!readTracks(file, r, tracks)) return false;
        for (const Track& t : tracks) {
            if (t.times.size() > 1) ++keyed;
            glm::vec4 v = t.first();
            switch (t.path) {
            case ChannelPath::Translation: node.translation = glm::vec3(v); break;
            case ChannelPath::Rotation: {
                glm::quat q(v.w, v.x, v.y, v.z);
                node.rotation = glm::length(q) > 0.0f ? glm::normalize(q) : glm::quat(1, 0, 0, 0);
                break;
            }
            case ChannelPath::Scale: node.scale = glm::vec3(v.x); break;
            }
        }
        model.nodes.push_back(std::move(node));
    }
    if (keyed > 0)
        model.warnings.push_back(std::to_string(keyed) + " controllers of the model geometry have several keys; the first key is the rest value");
    return true;
}

} // namespace

std::vector<glm::mat4> restTransforms(const Model& model) {
    std::vector<glm::mat4> rest(model.nodes.size());
    for (size_t i = 0; i < model.nodes.size(); ++i) {
        const Node& n = model.nodes[i];
        glm::mat4 local = glm::translate(glm::mat4(1.0f), n.translation) * glm::mat4_cast(n.rotation) *
                          glm::scale(glm::mat4(1.0f), n.scale);
        rest[i] = n.parent < 0 ? local : rest[size_t(n.parent)] * local;
    }
    return rest;
}

void reportNode(uint32_t flags, const std::string& name, Model& model) {
    if (flags & kHasLight) model.extras.push_back({"light", name, "point light (not lit by horde)"});
    if (flags & kHasEmitter) model.extras.push_back({"emitter", name, "particle emitter (not simulated)"});
    if (flags & kHasReference) model.extras.push_back({"reference", name, "attaches another model (not loaded)"});
    if (flags & kHasCamera) model.extras.push_back({"camera", name, "camera node"});
    if (flags & kHasDangly) model.extras.push_back({"dangly", name, "danglymesh drawn rigid (no dangle physics)"});
    if (flags & kHasAnim) model.extras.push_back({"animmesh", name, "vertex animation not played"});
    if (flags & kHasUnknown) model.extras.push_back({"unknown", name, "node flag 0x400: drawn as a trimesh"});
}

Result<Model> readModel(const std::filesystem::path& path, std::span<const std::byte> bytes, const LoadOptions& options,
                        MeshAllocator& allocator) {
    if (isAscii(bytes)) return readAsciiModel(path, bytes, options, allocator);
    File file(bytes, path);
    ModelHeader header;
    std::vector<RawNode> raw;
    if (!file.open() || !readModelHeader(file, header) || !walkTree(file, header.root, raw)) return file.error();
    Model model;
    model.format = "nwn";
    model.axes = fileAxes();
    if (!buildNodes(file, raw, model)) return file.error();
    const std::vector<glm::mat4> restModel = restTransforms(model);
    for (uint32_t n = 0; n < raw.size(); ++n) {
        reportNode(raw[n].flags, raw[n].name, model);
        if ((raw[n].flags & kHasMesh) && !decodeMesh(file, raw, n, restModel, model, allocator)) return file.error();
    }
    char scale[32];
    std::snprintf(scale, sizeof scale, "%.9g", header.animationScale);
    model.extras.push_back({kAnimationScaleExtra, "", scale});
    if (!decodeClips(file, header, 1.0f, model, model.clips)) return file.error();
    if (Status st = inheritClips(path, header, options, model); !st) return st.error();
    if (std::string absent = absentNodesWarning(model.clips); !absent.empty()) model.warnings.push_back(absent);
    return model;
}

Result<std::vector<Clip>> readClips(const std::filesystem::path& path, std::span<const std::byte> bytes,
                                    Model& target) {
    // Positions are played at the target's animation scale when it is an NWN model.
    float scale = 1.0f;
    for (const Extra& e : target.extras)
        if (e.kind == kAnimationScaleExtra) scale = std::strtof(e.detail.c_str(), nullptr);
    ModelHeader header;
    std::vector<Clip> clips;
    if (isAscii(bytes)) {
        Text text(bytes, path.string());
        if (!readAsciiClips(text, scale, target, header, clips)) return text.error();
    } else {
        File file(bytes, path);
        if (!file.open() || !readModelHeader(file, header) || !decodeClips(file, header, scale, target, clips))
            return file.error();
    }
    if (std::string absent = absentNodesWarning(clips); !absent.empty())
        target.warnings.push_back(path.filename().string() + ": " + absent);
    return clips;
}

} // namespace horde::nwn

namespace horde::nwn {

bool readClipsOf(const std::filesystem::path& path, std::span<const std::byte> bytes, float positionScale, Model& target,
                 ModelHeader& header, std::vector<Clip>& clips, Error& error) {
    if (isAscii(bytes)) {
        Text text(bytes, path.string());
        if (readAsciiClips(text, positionScale, target, header, clips)) return true;
        error = text.error();
        return false;
    }
    File file(bytes, path);
    if (file.open() && readModelHeader(file, header) &&
        decodeClips(file, header, positionScale, target, clips))
        return true;
    error = file.error();
    return false;
}

} // namespace horde::nwn
