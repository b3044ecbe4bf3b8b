#include "swtor/swtor.h"

#include <cmath>

#include "model/validate.h"

namespace horde::swtor {

namespace {
glm::mat4 readFiniteMatrix(Reader& r, std::string_view field) {
    size_t at = r.offset();
    glm::mat4 m = readMatrix(r, field);
    if (r.ok() && !finite(m)) r.failAt(at, field, "holds a NaN or infinite value");
    return m;
}
} // namespace

std::vector<Bone> readBones(Reader& r, const Header& h) {
    std::vector<Bone> bones;
    if (!seekTable(r, h.offsetBones, h.numBones, kBoneSize, "offsetBoneStructure")) return bones;
    bones.resize(h.numBones);
    Budget copies = copyBudget(r);
    for (uint32_t i = 0; i < h.numBones && r.ok(); ++i) {
        Bone& b = bones[i];
        b.name = readName(r, "bone.offsetBoneName", copies);
        size_t parentAt = r.offset();
        b.parent = r.i32("bone.parentBoneIndex");
        if (r.ok() && (b.parent < -1 || b.parent >= int32_t(i)))
            r.failAt(parentAt, "bone.parentBoneIndex", "bone " + std::to_string(i) + " '" + b.name + "' names parent " +
                                                           std::to_string(b.parent) + ", which does not precede it");
        b.boneToParent = readFiniteMatrix(r, "bone.boneToParent");
        b.rootToBone = readFiniteMatrix(r, "bone.rootToBone");
    }
    if (!r.ok()) bones.clear();
    return bones;
}

std::vector<Attachment> readAttachments(Reader& r, const Header& h) {
    std::vector<Attachment> out;
    if (!seekTable(r, h.offsetAttachments, h.numAttachments, kAttachmentSize, "offsetAttachments")) return out;
    out.resize(h.numAttachments);
    Budget copies = copyBudget(r);
    for (Attachment& a : out) {
        a.name = readName(r, "attachment.offsetName", copies);
        a.bone = readName(r, "attachment.offsetBoneName", copies);
        a.transform = readFiniteMatrix(r, "attachment.matrix");
    }
    if (!r.ok()) out.clear();
    return out;
}

} // namespace horde::swtor
