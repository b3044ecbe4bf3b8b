#include "crowd/clip_roles.h"

#include "anim/reference.h"
#include "anim/root_motion.h"
#include "anim/stride.h"
#include "core/text.h"

namespace horde {

namespace {
bool has(const std::string& name, std::string_view part) {
    return name.find(part) != std::string::npos;
}
} // namespace

ClipRole roleByName(std::string_view clipName) {
    const std::string n = asciiLower(clipName);
    // NWN's death and knock-down deaths (deadfnt, kdbckdie), appear/disappear (a 22 m rise), and
    // every format's T-pose or bind-pose clip: none is what a crowd does by default.
    for (std::string_view left :
         {"tpose", "t-pose", "t_pose", "bindpose", "bind_pose", "death", "dead", "dying", "appear"})
        if (has(n, left)) return ClipRole::Left;
    if (n.size() >= 3 && n.compare(n.size() - 3, 3, "die") == 0) return ClipRole::Left;
    // NWN's pauses include pauseturn and pausewalkl, and hturnl/hturnr turn the head alone.
    for (std::string_view idle : {"idle", "pause", "hturn", "stand", "breath", "wait"})
        if (has(n, idle)) return ClipRole::Idle;
    if (has(n, "turn")) return ClipRole::Turn;
    if (has(n, "run")) return ClipRole::Run;
    if (has(n, "walk")) return ClipRole::Walk;
    return ClipRole::Other;
}

std::vector<ClipRole> clipRoles(const Model& model) {
    std::vector<ClipRole> roles;
    bool walks = false;
    for (const Clip& clip : model.clips) {
        ClipRole role = roleByName(clip.name);
        if (role == ClipRole::Other &&
            (clip.travel != glm::vec3(0.0f) || rootMotionOf(model, clip).node >= 0))
            role = ClipRole::Walk;
        walks |= role == ClipRole::Walk || role == ClipRole::Run;
        roles.push_back(role);
    }
    if (walks) return roles;
    const Bounds bind = bindPoseBounds(model);
    const float height = model.axes.up == Axes::Up::Z ? bind.max.z - bind.min.z : bind.max.y - bind.min.y;
    for (size_t c = 0; c < model.clips.size(); ++c) {
        if (roles[c] != ClipRole::Other) continue;
        const Stride s = measureStride(model, model.clips[c]);
        if (s.length >= kStrideShare * height && s.drift <= kStrideShare * s.length)
            roles[c] = ClipRole::Walk;
    }
    return roles;
}

bool globMatches(std::string_view pattern, std::string_view text) {
    const std::string p = asciiLower(pattern), t = asciiLower(text);
    // Iterative wildcard matching: on a mismatch, the last `*` takes one more character.
    size_t i = 0, j = 0, star = std::string::npos, resume = 0;
    while (j < t.size()) {
        if (i < p.size() && (p[i] == '?' || p[i] == t[j])) {
            ++i, ++j;
        } else if (i < p.size() && p[i] == '*') {
            star = i++;
            resume = j;
        } else if (star != std::string::npos) {
            i = star + 1;
            j = ++resume;
        } else {
            return false;
        }
    }
    while (i < p.size() && p[i] == '*')
        ++i;
    return i == p.size();
}

bool clipMatches(std::string_view pattern, std::string_view name, ClipRole role) {
    if (!pattern.empty() && pattern[0] == '@')
        return parseName<ClipRole>(asciiLower(pattern.substr(1))) == role;
    return globMatches(pattern, name);
}

std::vector<bool> playedClips(const Model& model, std::span<const ClipRole> roles,
                              std::span<const std::string> patterns) {
    std::vector<bool> played(model.clips.size(), false);
    for (size_t c = 0; c < model.clips.size(); ++c) {
        if (patterns.empty()) {
            played[c] = roles[c] != ClipRole::Left;
            continue;
        }
        for (const std::string& pattern : patterns)
            if (clipMatches(pattern, model.clips[c].name, roles[c])) played[c] = true;
    }
    return played;
}

} // namespace horde
