#include "render/material_table.h"

#include <map>

#include "vk/check.h"
#include "vk/device.h"
#include "vk/upload.h"

namespace horde {

namespace {

glm::vec4 paletteColor(const std::string& name) {
    static constexpr glm::vec3 palette[] = {
        {0.80f, 0.42f, 0.30f}, {0.45f, 0.62f, 0.35f}, {0.85f, 0.75f, 0.45f}, {0.40f, 0.50f, 0.78f},
        {0.70f, 0.45f, 0.70f}, {0.35f, 0.70f, 0.70f}, {0.75f, 0.75f, 0.72f}, {0.55f, 0.40f, 0.30f}};
    uint32_t h = 2166136261u;
    for (char c : name)
        h = (h ^ uint8_t(c)) * 16777619u;
    return glm::vec4(palette[h % 8], 1.0f);
}

// `size`² texels in cells of `cell`, alternating a and b, with every level down to 1x1.
Texture checker(const char* file, uint32_t size, uint32_t cell, const uint8_t (&a)[4],
                const uint8_t (&b)[4]) {
    std::vector<uint8_t> texels(size_t(size) * size * 4);
    for (uint32_t y = 0; y < size; ++y)
        for (uint32_t x = 0; x < size; ++x)
            for (int c = 0; c < 4; ++c)
                texels[(size_t(y) * size + x) * 4 + c] = ((x / cell + y / cell) % 2 ? b : a)[c];
    // Averaged levels: a far-away checker fades to its mean colour instead of shimmering.
    return rgba8WithMips(file, size, std::move(texels));
}

// A material that keeps the default white and draws no texture (it names none, or textures are
// off) is given a palette colour hashed from its name, so an untextured model's parts still read
// apart; so is a slot whose material nothing defines (Material::defined false, or no Material)
// when textures are off. With textures off a model and its conversion that lost the textures then
// draw alike. With textures on, a named slot that nothing defines draws the missing-texture
// checker untinted: what it should look like is nowhere horde read.
gpu::MaterialRecord materialRecord(const Material* material, const std::string& name, uint32_t texture,
                                   bool textures) {
    gpu::MaterialRecord r{};
    r.texture = texture;
    r.alphaCutoff = 0.5f;
    const bool undefined = textures && (material ? !material->defined : !name.empty());
    const bool saysNothing = !material || (material->baseColor == glm::vec4(1.0f) &&
                                           (!textures || !material->find(TextureSlot::Base)));
    r.baseColor = undefined ? glm::vec4(1.0f) : saysNothing ? paletteColor(name) : material->baseColor;
    if (material) {
        r.alphaMode = material->alpha == AlphaMode::Mask    ? HORDE_ALPHA_MASK
                      : material->alpha == AlphaMode::Blend ? HORDE_ALPHA_BLEND
                                                            : HORDE_ALPHA_OPAQUE;
        r.alphaCutoff = material->alphaCutoff;
        r.flags = material->doubleSided ? HORDE_MATERIAL_DOUBLE_SIDED : 0u;
    }
    return r;
}

} // namespace

MaterialTable::MaterialTable(Device& device, std::span<const CrowdModel* const> models, bool textures)
    : device_(device), sampler_(device, "material sampler") {
    static constexpr uint8_t white[4] = {255, 255, 255, 255}, magenta[4] = {255, 0, 255, 255},
                             black[4] = {0, 0, 0, 255};
    const Texture builtIn[2] = {checker("built-in white", 1, 1, white, white),
                                checker("built-in missing-texture checker", 64, 8, magenta, black)};
    std::vector<const Texture*> upload = {&builtIn[0], &builtIn[1]};
    std::map<const Texture*, uint32_t> index;
    for (size_t m = 0; m < models.size(); ++m) {
        const Model& model = models[m]->model();
        firstRecord_.push_back(uint32_t(recordList_.size()));
        for (const std::string& name : models[m]->asset().materialSlots) {
            int32_t found = findMaterial(model, name);
            const Material* material = found >= 0 ? &model.materials[size_t(found)] : nullptr;
            const TextureRef* base = material ? material->find(TextureSlot::Base) : nullptr;
            uint32_t texture = HORDE_TEXTURE_WHITE;
            const bool undefined = material ? !material->defined : !name.empty();
            if (((base && !base->texture) || undefined) && textures) texture = HORDE_TEXTURE_MISSING;
            if (base && base->texture && textures) {
                const Texture* t = base->texture.get();
                auto [it, fresh] = index.try_emplace(t, uint32_t(upload.size()));
                if (fresh) {
                    std::string problem = textureProblem(device, *t, true);
                    if (problem.empty()) {
                        upload.push_back(t);
                    } else {
                        warnings_.push_back(t->file + ": drawn as the missing-texture checker: " + problem);
                        it->second = HORDE_TEXTURE_MISSING;
                    }
                }
                texture = it->second;
            }
            recordList_.push_back(materialRecord(material, name, texture, textures));
        }
    }
    images_ = uploadTextures(device, upload, true);
    records_ = uploadTable(device, recordList_, "material records");

    VkDescriptorSetLayoutBinding binding{};
    binding.binding = 0;
    binding.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    binding.descriptorCount = 1;
    binding.stageFlags = VK_SHADER_STAGE_FRAGMENT_BIT;
    VkDescriptorSetLayoutCreateInfo layoutInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    layoutInfo.bindingCount = 1;
    layoutInfo.pBindings = &binding;
    VK_CHECK(vkCreateDescriptorSetLayout(device.get(), &layoutInfo, nullptr, &layout_));
    device.setName(layout_, VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT, "base texture");
    try {
        VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, textureCount()};
        VkDescriptorPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
        poolInfo.maxSets = textureCount();
        poolInfo.poolSizeCount = 1;
        poolInfo.pPoolSizes = &size;
        VK_CHECK(vkCreateDescriptorPool(device.get(), &poolInfo, nullptr, &pool_));
        device.setName(pool_, VK_OBJECT_TYPE_DESCRIPTOR_POOL, "base textures");
        std::vector<VkDescriptorSetLayout> layouts(textureCount(), layout_);
        sets_.resize(textureCount());
        VkDescriptorSetAllocateInfo allocate{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
        allocate.descriptorPool = pool_;
        allocate.descriptorSetCount = textureCount();
        allocate.pSetLayouts = layouts.data();
        VK_CHECK(vkAllocateDescriptorSets(device.get(), &allocate, sets_.data()));
    } catch (...) {
        if (pool_) vkDestroyDescriptorPool(device.get(), pool_, nullptr);
        vkDestroyDescriptorSetLayout(device.get(), layout_, nullptr);
        throw;
    }
    std::vector<VkDescriptorImageInfo> infos;
    for (const Image& image : images_)
        infos.push_back({sampler_.get(), image.view(), VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL});
    std::vector<VkWriteDescriptorSet> writes;
    for (uint32_t i = 0; i < textureCount(); ++i) {
        device.setName(sets_[i], VK_OBJECT_TYPE_DESCRIPTOR_SET, "base texture " + upload[i]->file);
        VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
        write.dstSet = sets_[i];
        write.dstBinding = 0;
        write.descriptorCount = 1;
        write.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
        write.pImageInfo = &infos[i];
        writes.push_back(write);
    }
    vkUpdateDescriptorSets(device.get(), uint32_t(writes.size()), writes.data(), 0, nullptr);
}

MaterialTable::~MaterialTable() {
    vkDestroyDescriptorPool(device_.get(), pool_, nullptr);
    vkDestroyDescriptorSetLayout(device_.get(), layout_, nullptr);
}

} // namespace horde
