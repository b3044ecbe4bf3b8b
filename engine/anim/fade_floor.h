#pragma once
// How short a cross-fade between two clips may be without a pop: no vertex may move between two
// frames of a fade more than kPopShare times the most it moves between two frames within either
// clip (README, "Cross-fades"). A vertex that hardly moves in either clip is held to kStillShare
// of the fastest any vertex moves in them, since a fade must carry it from one clip's pose to the
// other's and a still vertex could never be carried without a pop.
//
// Each floor starts from an estimate: a fade over L seconds moves a vertex at up to distance / L
// a second on top of what the clips do, so L is the farthest any vertex lies apart in the two
// clips' poses over what is left of its pace below the limit. The estimate misses that a blend
// moves a vertex along no straight line at no even pace (normalised lerp turns fastest half-way,
// a parent's turn swings its children), so the pairs with the longest estimates, up to
// kMeasuredPairs, are then played as a crowd plays them (frames of kFadeFrame, from kFadeStarts
// times into the clip left, on kFadeVertices of the model's vertices) and lengthened until
// measured under kPopTarget; the other pairs take their estimate times the largest lengthening
// the measured ones needed.
//
// No fade is longer than kLongestFade: between two clips that both hold a vertex nearly still and
// put it in different places (an NWN creature's torch stance and crossbow stance), no fade is
// slow enough, and a crowd would sooner see a small pop than a transition that never ends.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "model/model.h"

namespace horde {

constexpr double kPopShare = 1.5;
constexpr double kPopTarget = 1.35; // below kPopShare: starts between the measured ones can do more
constexpr double kStillShare = 0.05;
constexpr double kFadeFrame = 1.0 / 30.0;
constexpr uint32_t kFadeStarts = 8;
constexpr size_t kFadeVertices = 1024;
constexpr size_t kMeasuredPairs = 64;
constexpr double kLongestFade = 2.0;

// Per ordered pair of clips (row: the clip left, column: the clip entered), clips x clips seconds
// of clip time; 0 where a clip is not played (`played` per clip), has no duration, or neither
// clip moves any vertex.
std::vector<float> fadeFloors(const Model& model, const std::vector<bool>& played);

} // namespace horde
