#include "anim/motion_bounds.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "anim/reference.h"

namespace horde {

namespace {

// Why padding a vertex's farthest sampled reach by its own displacement between two consecutive
// samples holds it in every pose in between: every key time is a sample, so between two samples
// each channel interpolates one pair of keys (or holds a stepped key) and the vertex follows one
// smooth path from p0 to p1. Each point of that path lies within half its length of the nearer
// end. The paths joints make are arcs, and an arc of up to half a turn is at most pi/2 times its
// chord |p1 - p0|; padding by the whole chord (rather than half) thus covers paths up to twice
// their chord, which leaves room for slerp's and cubic keys' overshoot. Only a joint turning more
// than half a turn between two samples could escape: such a clip needs more samples.
//
// The speed between two samples is the chord over the time between them on average; within the
// gap it peaks higher: cubic keys with flat tangents (smoothstep) peak at 1.5 times their mean
// speed, an arc is longer than its chord, and nlerp turns fastest half-way. A factor of 2 covers
// these with room for a parent and a child turning together (kSpeedSafety, motion_bounds.h).

// A stepped key changes its value at its time. It is sampled there and a hair before, so that the
// jump fills a gap of its own: that gap is padded like any other (the jump is a displacement)
// but is no speed.
constexpr double kBeforeJump = 1e-6; // of the even spacing

struct Sample {
    double time = 0.0;
    bool jump = false; // a stepped key changes here; the sample before is a hair earlier
};

std::vector<Sample> sampleTimes(const Clip& clip, uint32_t samplesPerClip) {
    const double duration = clip.duration;
    if (!(duration > 0.0)) return {Sample{}};
    const uint32_t n = std::max(samplesPerClip, 2u);
    const double spacing = duration / double(n - 1);
    std::vector<Sample> keys{{0.0}, {duration}};
    auto addKeys = [&](const std::vector<float>& times, Interpolation interpolation) {
        for (float t : times) {
            if (!(t > 0.0f) || double(t) > duration) continue;
            const bool step = interpolation == Interpolation::Step;
            keys.push_back({t, step});
            if (step) keys.push_back({t - kBeforeJump * spacing});
        }
    };
    for (const Channel& c : clip.channels) addKeys(c.times, c.interpolation);
    for (const MorphChannel& c : clip.morphs) addKeys(c.times, c.interpolation);
    // A jump wins over a plain key at the same time.
    std::sort(keys.begin(), keys.end(),
              [](Sample a, Sample b) { return a.time < b.time || (a.time == b.time && a.jump > b.jump); });
    keys.erase(std::unique(keys.begin(), keys.end(), [](Sample a, Sample b) { return a.time == b.time; }),
               keys.end());
    // An even sample right beside a key would only make a needlessly short gap; the key stands in.
    std::vector<Sample> samples = keys;
    for (uint32_t i = 1; i + 1 < n; ++i) {
        const double t = spacing * double(i);
        auto next = std::lower_bound(keys.begin(), keys.end(), t, [](Sample a, double b) { return a.time < b; });
        if (std::min(next->time - t, t - (next - 1)->time) >= 0.25 * spacing) samples.push_back({t});
    }
    std::sort(samples.begin(), samples.end(), [](Sample a, Sample b) { return a.time < b.time; });
    return samples;
}

// Every mesh's vertex positions in model space, end to end, at one clip time: the reference's
// first three passes, then its morph and linear blend of positions alone (normals are not needed
// here).
class Poser {
  public:
    explicit Poser(const Model& model) : model_(model), locals_(model.nodes.size()), models_(model.nodes.size()) {
        size_t total = 0;
        for (const Mesh& mesh : model.meshes) total += mesh.vertexCount();
        positions_.resize(total);
    }

    const std::vector<glm::dvec3>& pose(const Clip* clip, double t) {
        sampleLocals(model_, clip, t, locals_);
        localToModel(model_, locals_, models_);
        glm::dvec3* out = positions_.data();
        for (const Mesh& mesh : model_.meshes) {
            meshPalette(model_, mesh, models_, palette_);
            rows_.assign(palette_.begin(), palette_.end());
            skin(mesh, sampleMorphWeights(model_, mesh, clip, t), out);
            out += mesh.vertexCount();
        }
        return positions_;
    }

  private:
    // Positions need only the top three rows of each matrix; blending those first and moving
    // the vertex once halves the work of moving it by each matrix and blending the results.
    void skin(const Mesh& mesh, const std::vector<double>& morphWeights, glm::dvec3* out) const {
        const MeshArrays& a = mesh.arrays();
        for (uint32_t v = 0; v < mesh.vertexCount(); ++v) {
            const glm::dvec4 p(morphWeights.empty() ? glm::dvec3(a.positions[v]) : morphVertex(mesh, v, morphWeights).position,
                               1.0);
            if (!mesh.skinned()) {
                out[v] = rows_[0] * p;
                continue;
            }
            glm::dmat4x3 m(0.0);
            for (int k = 0; k < 4; ++k)
                if (a.weights[v][k] > 0.0f) m += rows_[a.joints[v][k]] * double(a.weights[v][k]);
            out[v] = m * p;
        }
    }

    const Model& model_;
    std::vector<glm::dmat4> locals_, models_, palette_;
    std::vector<glm::dmat4x3> rows_; // the palette's top three rows
    std::vector<glm::dvec3> positions_;
};

struct Box {
    glm::dvec3 lo{std::numeric_limits<double>::max()}, hi{std::numeric_limits<double>::lowest()};
    void add(const std::vector<glm::dvec3>& points) {
        glm::dvec3 l = lo, h = hi; // in registers, not through `this`, which `points` might alias
        for (const glm::dvec3& p : points) {
            l = glm::min(l, p);
            h = glm::max(h, p);
        }
        lo = l;
        hi = h;
    }
};

double distance2(glm::dvec3 a, glm::dvec3 b) { return glm::dot(a - b, a - b); }

// Over one clip's samples: how far from `center` any vertex may get (its farthest sampled reach
// padded as argued above), and the largest displacement between two consecutive samples over
// the time between them.
struct ClipReach {
    double distance = 0.0, speed = 0.0, displacement = 0.0;
};

ClipReach reach(Poser& poser, const Clip& clip, const std::vector<Sample>& samples, glm::dvec3 center,
                const std::vector<glm::dvec3>& bind) {
    ClipReach r;
    double displacement2 = 0.0;
    std::vector<glm::dvec3> previous;
    std::vector<double> previousOut2; // each vertex's squared distance from the centre at the last sample
    for (size_t i = 0; i < samples.size(); ++i) {
        const std::vector<glm::dvec3>& now = poser.pose(&clip, samples[i].time);
        previousOut2.resize(now.size());
        double step2 = 0.0;
        for (size_t v = 0; v < now.size(); ++v) {
            const double out2 = distance2(now[v], center);
            const double moved2 = i > 0 ? distance2(now[v], previous[v]) : 0.0;
            const double farther2 = std::max(out2, i > 0 ? previousOut2[v] : 0.0);
            // sqrt(a) + sqrt(b) <= sqrt(2 (a + b)): most vertices cannot pass the farthest so
            // far, and are passed over without a square root.
            if (2.0 * (farther2 + moved2) > r.distance * r.distance)
                r.distance = std::max(r.distance, std::sqrt(farther2) + std::sqrt(moved2));
            step2 = std::max(step2, moved2);
            displacement2 = std::max(displacement2, distance2(now[v], bind[v]));
            previousOut2[v] = out2;
        }
        if (i > 0 && !samples[i].jump) r.speed = std::max(r.speed, std::sqrt(step2) / (samples[i].time - samples[i - 1].time));
        previous = now;
    }
    r.displacement = std::sqrt(displacement2);
    return r;
}

} // namespace

MotionBounds motionBounds(const Model& model, uint32_t samplesPerClip, const std::vector<bool>& played) {
    Poser poser(model);
    auto plays = [&](size_t c) { return played.empty() || played[c]; };
    std::vector<std::vector<Sample>> samples;
    for (size_t c = 0; c < model.clips.size(); ++c)
        samples.push_back(plays(c) ? sampleTimes(model.clips[c], samplesPerClip) : std::vector<Sample>{});

    // Two passes over the poses: the centre first, then the distances from it; holding every
    // pose instead would cost memory in proportion to vertices times samples.
    Box box;
    box.add(poser.pose(nullptr, 0.0));
    for (size_t c = 0; c < model.clips.size(); ++c)
        for (Sample s : samples[c]) box.add(poser.pose(&model.clips[c], s.time));
    MotionBounds bounds;
    if (box.lo.x > box.hi.x) { // no vertices
        bounds.clipSpeed.assign(model.clips.size(), 0.0f);
        bounds.sampledSpeed.assign(model.clips.size(), 0.0f);
        return bounds;
    }
    bounds.poseBox = {glm::vec3(box.lo), glm::vec3(box.hi)};
    // Distances are taken from the centre as stored, so rounding it to float costs nothing.
    bounds.sphere.center = glm::vec3((box.lo + box.hi) * 0.5);
    const glm::dvec3 center(bounds.sphere.center);
    double radius2 = 0.0;
    for (const glm::dvec3& p : poser.pose(nullptr, 0.0)) radius2 = std::max(radius2, distance2(p, center));
    double radius = std::sqrt(radius2);
    const std::vector<glm::dvec3> bind = poser.pose(nullptr, 0.0);
    for (size_t c = 0; c < model.clips.size(); ++c) {
        ClipReach r = reach(poser, model.clips[c], samples[c], center, bind);
        radius = std::max(radius, r.distance);
        bounds.displacement = std::max(bounds.displacement, float(r.displacement));
        bounds.clipSpeed.push_back(float(r.speed * kSpeedSafety));
        bounds.sampledSpeed.push_back(float(r.speed));
    }
    bounds.sphere.radius = std::nextafter(float(radius), std::numeric_limits<float>::infinity());
    return bounds;
}

} // namespace horde
