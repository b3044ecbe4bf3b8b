#include <cmath>
#include <map>
#include <tuple>

#include "gltf/gltf.h"
#include "texture/texture.h"

namespace horde::gltf {

std::string materialName(const tinygltf::Model& gltf, int material) {
    if (material < 0 || size_t(material) >= gltf.materials.size()) return "default";
    const std::string& name = gltf.materials[material].name;
    return name.empty() ? "material" + std::to_string(material) : name;
}

namespace {
class Images {
  public:
    Images(const tinygltf::Model& gltf, const std::filesystem::path& path, Model& model, TextureAllocator& allocator)
        : gltf_(gltf), path_(path), model_(model), allocator_(allocator) {}

    // The reference for glTF texture `index`; its data when the image's bytes are at hand.
    TextureRef ref(TextureSlot slot, int index) {
        TextureRef out{slot, {}, {}, nullptr};
        if (index < 0 || size_t(index) >= gltf_.textures.size()) return out;
        const int source = gltf_.textures[index].source;
        if (source < 0 || size_t(source) >= gltf_.images.size()) return out;
        const tinygltf::Image& image = gltf_.images[source];
        out.path = !image.uri.empty() && image.uri.rfind("data:", 0) != 0 ? image.uri : "image" + std::to_string(source);
        if (image.image.empty()) return out;
        out.file = path_.string();
        auto [it, fresh] = decoded_.try_emplace(source);
        if (fresh) {
            const std::string name = path_.string() + ": image " + std::to_string(source) + (image.uri.empty() ? "" : " (" + image.uri + ")");
            Result<Texture> t = readImage(name, std::as_bytes(std::span(image.image)), allocator_);
            if (t) it->second = std::make_shared<const Texture>(std::move(*t));
            else model_.warnings.push_back(t.error().message);
        }
        out.texture = it->second;
        return out;
    }

  private:
    const tinygltf::Model& gltf_;
    const std::filesystem::path& path_;
    Model& model_;
    TextureAllocator& allocator_;
    std::map<int, std::shared_ptr<const Texture>> decoded_;
};

float finite(double v, float fallback) { return std::isfinite(v) ? float(v) : fallback; }
} // namespace

void decodeMaterials(const tinygltf::Model& gltf, const std::filesystem::path& path, Model& model, TextureAllocator& allocator) {
    Images images(gltf, path, model, allocator);
    for (size_t i = 0; i < gltf.materials.size(); ++i) {
        const tinygltf::Material& g = gltf.materials[i];
        const std::string name = materialName(gltf, int(i));
        if (findMaterial(model, name) >= 0) continue;
        Material m{.name = name};
        const std::vector<double>& f = g.pbrMetallicRoughness.baseColorFactor;
        if (f.size() == 4)
            m.baseColor = glm::vec4(finite(f[0], 1), finite(f[1], 1), finite(f[2], 1), finite(f[3], 1));
        m.alpha = g.alphaMode == "MASK" ? AlphaMode::Mask : g.alphaMode == "BLEND" ? AlphaMode::Blend : AlphaMode::Opaque;
        m.alphaCutoff = finite(g.alphaCutoff, 0.5f);
        m.doubleSided = g.doubleSided;
        const std::tuple<TextureSlot, int, const tinygltf::ExtensionMap&> slots[] = {
            {TextureSlot::Base, g.pbrMetallicRoughness.baseColorTexture.index,
             g.pbrMetallicRoughness.baseColorTexture.extensions},
            {TextureSlot::Normal, g.normalTexture.index, g.normalTexture.extensions},
            {TextureSlot::MetalRough, g.pbrMetallicRoughness.metallicRoughnessTexture.index,
             g.pbrMetallicRoughness.metallicRoughnessTexture.extensions},
            {TextureSlot::Emissive, g.emissiveTexture.index, g.emissiveTexture.extensions}};
        for (const auto& [slot, index, extensions] : slots) {
            if (index < 0) continue;
            m.textures.push_back(images.ref(slot, index));
            // An extension the file only uses: read without it, as the file allows, but said.
            if (extensions.count("KHR_texture_transform"))
                model.warnings.push_back(
                    "material '" + name + "' " + textureSlotName(slot) +
                    " texture: its KHR_texture_transform (UV offset, rotation, scale) is not "
                    "applied");
        }
        model.materials.push_back(std::move(m));
    }
    // A primitive without a material has glTF's default one (white, opaque, one-sided): it is
    // defined by the specification, not missing.
    const std::string fallback = materialName(gltf, -1);
    if (findMaterial(model, fallback) < 0)
        for (const Mesh& mesh : model.meshes)
            for (const Submesh& s : mesh.submeshes)
                if (s.material == fallback && findMaterial(model, fallback) < 0)
                    model.materials.push_back({.name = fallback});
}

} // namespace horde::gltf
