#include "anim/fade_floor.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <span>

#include "anim/reference.h"
#include "model/influences.h"

namespace horde {

namespace {

using Pose = std::vector<glm::dvec3>; // the sampled vertices, every mesh's end to end

struct Sampled {
    uint32_t mesh = 0;
    uint32_t vertex = 0;
};

class Poser {
  public:
    explicit Poser(const Model& model)
        : model_(model), locals_(model.nodes.size()), models_(model.nodes.size()) {
        size_t vertices = 0;
        for (const Mesh& mesh : model.meshes)
            vertices += mesh.vertexCount();
        const size_t stride = std::max<size_t>(1, vertices / kFadeVertices);
        uint32_t mesh = 0;
        size_t first = 0; // the mesh's first vertex, counting every mesh's end to end
        for (size_t v = 0; v < vertices; v += stride) {
            while (v >= first + model.meshes[mesh].vertexCount())
                first += model.meshes[mesh++].vertexCount();
            sampled_.push_back({mesh, uint32_t(v - first)});
        }
    }

    size_t vertices() const { return sampled_.size(); }

    // `clip` at time t, and `blend` over it, both looping as a crowd plays them.
    Pose pose(int32_t clip, double t, const Blend* blend = nullptr) {
        const Clip& c = model_.clips[size_t(clip)];
        if (blend) {
            Blend looped = *blend;
            looped.time = looping(blend->clip, blend->time);
            sampleBlendedLocals(model_, &c, looping(clip, t), looped, locals_);
        } else {
            sampleLocals(model_, &c, looping(clip, t), locals_);
        }
        localToModel(model_, locals_, models_);
        Pose out;
        out.reserve(sampled_.size());
        uint32_t paletteMesh = UINT32_MAX;
        for (const Sampled& s : sampled_) {
            const Mesh& mesh = model_.meshes[s.mesh];
            if (s.mesh != paletteMesh) meshPalette(model_, mesh, models_, palette_);
            paletteMesh = s.mesh;
            glm::dmat4 m(0.0);
            if (mesh.skinned()) {
                const VertexInfluences in = influencesOf(mesh.arrays(), s.vertex, 4);
                for (uint32_t k = 0; k < in.count; ++k)
                    m += palette_[in.joints[k]] * in.weights[k];
            } else {
                m = palette_[0];
            }
            out.push_back(glm::dvec3(m * glm::dvec4(glm::dvec3(mesh.arrays().positions[s.vertex]), 1.0)));
        }
        return out;
    }

  private:
    double looping(int32_t clip, double t) const {
        return clipTime(model_.clips[size_t(clip)], Playback{clip, 0.0, 1.0, true}, t);
    }

    const Model& model_;
    std::vector<Sampled> sampled_;
    std::vector<glm::dmat4> locals_, models_, palette_;
};

// When a fade may begin: kFadeStarts times spread over the clip left.
double startTime(const Clip& clip, uint32_t s) {
    return clip.duration * (s + 0.5) / kFadeStarts;
}

// One played clip as a crowd draws it at speed 1: the most each sampled vertex moves between two
// frames from 0 to one past its end, its pose where it starts and where fades may leave it. Only
// these poses are kept, so a model of a hundred and more clips stays small.
struct ClipFrames {
    std::vector<double> most;
    double fastest = 0.0;
    Pose first;
    std::vector<Pose> starts;
};

ClipFrames framesOf(Poser& poser, const Model& model, int32_t clip) {
    ClipFrames out;
    const Clip& c = model.clips[size_t(clip)];
    out.most.assign(poser.vertices(), 0.0);
    out.first = poser.pose(clip, 0.0);
    Pose previous = out.first;
    for (uint32_t f = 1; f * kFadeFrame <= c.duration + kFadeFrame; ++f) {
        Pose now = poser.pose(clip, f * kFadeFrame);
        for (size_t v = 0; v < out.most.size(); ++v)
            out.most[v] = std::max(out.most[v], glm::length(now[v] - previous[v]));
        previous = std::move(now);
    }
    out.fastest = out.most.empty() ? 0.0 : *std::max_element(out.most.begin(), out.most.end());
    for (uint32_t s = 0; s < kFadeStarts; ++s)
        out.starts.push_back(poser.pose(clip, startTime(c, s)));
    return out;
}

// What each sampled vertex may move between two frames of a fade from `a` into `b`.
std::vector<double> limitsOf(const ClipFrames& a, const ClipFrames& b) {
    const double still = kStillShare * std::max(a.fastest, b.fastest);
    std::vector<double> limits(a.most.size());
    for (size_t v = 0; v < limits.size(); ++v)
        limits[v] = std::max({a.most[v], b.most[v], still});
    return limits;
}

// The estimate: the farthest a vertex lies from where the entered clip starts, over the room its
// limit leaves above its own pace, in seconds.
double estimate(const ClipFrames& from, const ClipFrames& to, std::span<const double> limits) {
    double frames = 0.0;
    for (const Pose& start : from.starts)
        for (size_t v = 0; v < limits.size(); ++v)
            frames = std::max(frames, glm::length(start[v] - to.first[v]) / ((kPopTarget - 1.0) * limits[v]));
    return frames * kFadeFrame;
}

// The largest move between two frames over its limit, across fades of `length` seconds begun at
// kFadeStarts times into `from`, the entered clip from its start, as behaviour.comp plays them.
double popOf(Poser& poser, const Model& model, int32_t from, int32_t to, double length,
             std::span<const double> limits) {
    double worst = 0.0;
    for (uint32_t s = 0; s < kFadeStarts; ++s) {
        const double at = startTime(model.clips[size_t(from)], s);
        Pose previous = poser.pose(from, at - kFadeFrame);
        for (int f = 0; f <= int(length / kFadeFrame) + 1; ++f) {
            const double t = f * kFadeFrame;
            const Blend blend{to, t, std::min(t / length, 1.0)};
            Pose now = poser.pose(from, at + t, &blend);
            for (size_t v = 0; v < limits.size(); ++v)
                worst = std::max(worst, glm::length(now[v] - previous[v]) / limits[v]);
            previous = std::move(now);
        }
    }
    return worst;
}

} // namespace

std::vector<float> fadeFloors(const Model& model, const std::vector<bool>& played) {
    const size_t clips = model.clips.size();
    std::vector<float> floors(clips * clips, 0.0f);
    Poser poser(model);
    if (poser.vertices() == 0) return floors;
    std::vector<ClipFrames> frames(clips);
    for (size_t c = 0; c < clips; ++c)
        if (played[c] && model.clips[c].duration > 0.0f) frames[c] = framesOf(poser, model, int32_t(c));

    struct Pair {
        uint32_t from, to;
        double seconds;
    };
    std::vector<Pair> pairs;
    for (uint32_t from = 0; from < clips; ++from)
        for (uint32_t to = 0; to < clips; ++to) {
            if (from == to || frames[from].starts.empty() || frames[to].starts.empty()) continue;
            if (std::max(frames[from].fastest, frames[to].fastest) <= 0.0) continue;
            const std::vector<double> limits = limitsOf(frames[from], frames[to]);
            pairs.push_back({from, to, std::min(estimate(frames[from], frames[to], limits), kLongestFade)});
        }
    // The longest estimates below the cap are the ones worth playing: a capped pair stays capped.
    const auto capped =
        std::partition(pairs.begin(), pairs.end(), [](const Pair& p) { return p.seconds < kLongestFade; });
    const size_t measured = std::min(size_t(capped - pairs.begin()), kMeasuredPairs);
    std::partial_sort(pairs.begin(), pairs.begin() + ptrdiff_t(measured), capped,
                      [](const Pair& a, const Pair& b) { return a.seconds > b.seconds; });
    double lengthening = 1.0;
    for (size_t p = 0; p < measured; ++p) {
        Pair& pair = pairs[p];
        const std::vector<double> limits = limitsOf(frames[pair.from], frames[pair.to]);
        double length = std::max(pair.seconds, kFadeFrame);
        for (int round = 0; round < 8 && length < kLongestFade; ++round) {
            const double pop = popOf(poser, model, int32_t(pair.from), int32_t(pair.to), length, limits);
            if (pop <= kPopTarget) break;
            length = std::min(length * std::max(1.25, (pop - 1.0) / (kPopTarget - 1.0)), kLongestFade);
        }
        if (pair.seconds > 0.0) lengthening = std::max(lengthening, length / pair.seconds);
        pair.seconds = length;
    }
    for (size_t p = measured; p < pairs.size(); ++p)
        pairs[p].seconds = std::min(pairs[p].seconds * lengthening, kLongestFade);
    for (const Pair& pair : pairs)
        floors[pair.from * clips + pair.to] = float(pair.seconds);
    return floors;
}

} // namespace horde
