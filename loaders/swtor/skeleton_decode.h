#pragma once
// The skeleton section of a skeleton file (type 2) and the attachment table any GAWB file may
// carry, decoded into plain records; swtor_load.cpp turns them into nodes and sockets.
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "swtor/swtor.h"

namespace horde::swtor {

struct Bone {
    std::string name;
    int32_t parent = -1;        // precedes the bone (checked)
    glm::mat4 boneToParent{1};  // rest local transform
    glm::mat4 rootToBone{1};    // inverse bind: model space -> bone space
};

struct Attachment {
    std::string name;
    std::string bone;
    glm::mat4 transform{1};     // relative to the bone
};

// Check r.ok() after each.
std::vector<Bone> readBones(Reader& r, const Header& h);
std::vector<Attachment> readAttachments(Reader& r, const Header& h);

} // namespace horde::swtor
