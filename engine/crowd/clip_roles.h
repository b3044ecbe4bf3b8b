#pragma once
// What each clip does in a crowd, and which clips a crowd plays. A clip's role comes from its
// name where the formats name clips for what they do (NWN `walk`, `pause1`; glTF `Walk`, `Idle`;
// Grimrock `<model>_walk`), else from what it does: a clip that travels is a walk. The rule, word
// by word, is in README's "Behaviours".
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/words.h"
#include "model/model.h"

namespace horde {

enum class ClipRole : uint8_t {
    Idle,  // stands about: idle, pause, stand, breath, wait
    Walk,  // walks: walk (and a clip that travels, whatever its name)
    Run,   // runs: run
    Turn,  // turns about: turn
    Other, // anything else a creature does (attacks, emotes, casts)
    Left,  // left out of crowds unless asked for: T-poses, deaths, appear and disappear
};
template <> struct Words<ClipRole> {
    static constexpr std::array<std::string_view, 6> list{"idle", "walk", "run", "turn", "other", "left"};
};

// The role a clip's name gives it (Other when the name says nothing the rule knows).
ClipRole roleByName(std::string_view clipName);

// Each clip's role as a crowd plays it: by name, else by what it does. A clip whose root travels
// (anim/root_motion.h; Clip::travel once taken out) is a walk; in a model with no walk or run by
// name, so is a clip whose feet keep a stride (anim/stride.h): one at least kStrideShare of the
// model's height a cycle, its planted foot drifting at most kStrideShare of it.
constexpr float kStrideShare = 0.25f;
std::vector<ClipRole> clipRoles(const Model& model);

// `text` against a pattern of literal characters, `*` (any run) and `?` (any one), ignoring ASCII
// case; a pattern "@ROLE" (a word of Words<ClipRole>) matches by role instead (roleMatches).
bool globMatches(std::string_view pattern, std::string_view text);

// Which clips a crowd plays: those any of `patterns` matches (by name, or "@role"); with no
// patterns, every clip whose role is not Left. `roles` per clip.
std::vector<bool> playedClips(const Model& model, std::span<const ClipRole> roles,
                              std::span<const std::string> patterns);
// Whether `pattern` picks the clip `name` of role `role`.
bool clipMatches(std::string_view pattern, std::string_view name, ClipRole role);

} // namespace horde
