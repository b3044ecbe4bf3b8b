#pragma once
// A model's warnings less those saying a texture its materials name was not found: round trips
// of the monster name textures (its material names) that no test writes beside the model.
#include <algorithm>
#include <string>
#include <vector>

namespace horde::test {

inline std::vector<std::string> withoutMissingTextures(std::vector<std::string> warnings) {
    std::erase_if(warnings, [](const std::string& w) { return w.find("' not found beside the model or on the search paths") != std::string::npos; });
    return warnings;
}

// A model's warnings less those saying that materials its submeshes name are defined nowhere
// horde read: Grimrock models decoded without their mod's Lua, and round trips through formats
// that keep material names but not their definitions.
inline std::vector<std::string> withoutUndefinedMaterials(std::vector<std::string> warnings) {
    std::erase_if(warnings, [](const std::string& w) {
        return w.find("' is defined nowhere horde read") != std::string::npos ||
               w.rfind("no Grimrock material definitions were read", 0) == 0;
    });
    return warnings;
}

} // namespace horde::test
