#include "validate_clips.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace horde {

namespace {
std::string seconds(double s) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.4g s", s);
    return buffer;
}
} // namespace

ClipMatch matchClips(const Model& a, const Model& b, const std::string& only, const std::string& bName) {
    std::vector<int> bOf(a.clips.size(), -1);
    std::vector<bool> taken(b.clips.size(), false);
    for (size_t c = 0; c < a.clips.size(); ++c)
        for (size_t o = 0; o < b.clips.size(); ++o)
            if (!taken[o] && b.clips[o].name == a.clips[c].name) {
                bOf[c] = int(o);
                taken[o] = true;
                break;
            }
    std::vector<int> restA, restB;
    for (size_t c = 0; c < a.clips.size(); ++c)
        if (bOf[c] < 0) restA.push_back(int(c));
    for (size_t o = 0; o < b.clips.size(); ++o)
        if (!taken[o]) restB.push_back(int(o));
    std::vector<std::string> notes;
    for (size_t k = 0; k < std::min(restA.size(), restB.size()); ++k) {
        bOf[restA[k]] = restB[k];
        notes.push_back("'" + a.clips[restA[k]].name + "' matched to B's '" + b.clips[restB[k]].name +
                        "' by order (no name in common)");
    }

    ClipMatch out;
    out.check = {"clips", true, ""};
    size_t byName = 0;
    for (size_t c = 0; c < a.clips.size(); ++c) {
        const Clip& clip = a.clips[c];
        if (!only.empty() && clip.name != only) continue;
        if (bOf[c] < 0) {
            // A clip that keys nothing poses as the bind pose whatever the time: a format that
            // cannot hold one (docs/formats/*.md) loses its name and length, nothing that moves.
            if (clip.channels.empty() && clip.morphs.empty()) {
                notes.push_back("clip '" + clip.name + "' keys nothing and is not in " + bName +
                                " (a mapping: it poses as the bind pose)");
                continue;
            }
            out.check.passed = false;
            notes.push_back("clip '" + clip.name + "' missing from " + bName);
            continue;
        }
        const Clip& other = b.clips[bOf[c]];
        byName += other.name == clip.name;
        double d = clip.duration, e = other.duration;
        if (std::abs(d - e) > 1e-4 * std::max(1.0, std::max(d, e))) {
            out.check.passed = false;
            notes.push_back("clip '" + clip.name + "' lasts " + seconds(d) + " in A, " + seconds(e) +
                            " in B");
        }
        out.pairs.emplace_back(int(c), bOf[c]);
    }
    out.check.detail =
        std::to_string(out.pairs.size()) + " clips found in both (" + std::to_string(byName) + " by name)";
    if (only.empty() && restB.size() > restA.size())
        out.check.detail += ", B has " + std::to_string(restB.size() - restA.size()) + " more";
    for (const std::string& n : notes)
        out.check.detail += "; " + n;
    return out;
}

} // namespace horde
