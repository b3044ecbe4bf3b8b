#include "crowd/cull_reference.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "shaders/gpu_types.h"

namespace horde {

std::array<glm::vec4, 6> frustumPlanes(const glm::mat4& m) {
    glm::vec4 row[4];
    for (int r = 0; r < 4; ++r)
        row[r] = glm::vec4(m[0][r], m[1][r], m[2][r], m[3][r]);
    std::array<glm::vec4, 6> planes = {row[3] + row[0], row[3] - row[0], row[3] + row[1],
                                       row[3] - row[1], row[2],          row[3] - row[2]};
    for (glm::vec4& p : planes)
        p /= glm::length(glm::vec3(p));
    return planes;
}

CullDecision cullInstance(const CullModelInfo& model, const CullInstance& instance, const CullCamera& camera,
                          const CrowdSettings& settings) {
    CullDecision d;
    const double c = std::cos(double(instance.yaw)), s = std::sin(double(instance.yaw));
    const glm::dvec3 local(model.sphere);
    const glm::dvec3 centre = glm::dvec3(c * local.x + s * local.z, local.y, -s * local.x + c * local.z) +
                              glm::dvec3(instance.position);
    const double radius = model.sphere.w;
    if (settings.cull)
        for (const glm::vec4& p : camera.planes)
            if (glm::dot(glm::dvec3(p), centre) + double(p.w) < -radius) return d;
    d.visible = true;

    d.centreDistance = glm::length(centre - glm::dvec3(camera.eye));
    const double distance = d.centreDistance - radius;
    d.pixelsPerUnit =
        distance > 0.0 ? double(camera.pixelsPerUnit) / distance : std::numeric_limits<double>::max();

    const uint32_t bindPose = uint32_t(model.clipDuration.size()) * model.bucketsPerClip;
    // A clip time's shared pose, and the most any vertex is off in it (half a bucket of time).
    auto bucketOf = [&](int32_t clip, double time, uint32_t& bucket, double& error) {
        bucket = 0;
        error = 0.0;
        if (clip < 0) return bindPose;
        const double duration = model.clipDuration[size_t(clip)];
        if (duration > 0.0) bucket = std::min(uint32_t(time / duration * model.bucketsPerClip), model.bucketsPerClip - 1);
        error = double(model.clipSpeed[size_t(clip)]) * duration / (2.0 * model.bucketsPerClip);
        return uint32_t(clip) * model.bucketsPerClip + bucket;
    };
    uint32_t bucket = 0, fromBucket = 0;
    double error = 0.0, fromError = 0.0;
    d.bucket = bucketOf(instance.clip, instance.clipTime, bucket, error);
    d.sharedPose = settings.lod && (instance.clip < 0 || error * d.pixelsPerUnit <= settings.lodErrorPixels);
    uint32_t dominant = d.bucket;
    if (instance.fade < 1.0) {
        d.sharedPose = false;
        const uint32_t fromPose = bucketOf(instance.fromClip, instance.fromTime, fromBucket, fromError);
        dominant = instance.fade >= 0.5 ? d.bucket : fromPose;
        const bool keyed = model.blends && instance.clip >= 0 && instance.clip < 255 && instance.fromClip >= 0 &&
                           instance.fromClip < 255;
        if (settings.lod && keyed &&
            (std::max(error, fromError) + double(model.blendError)) * d.pixelsPerUnit <= settings.lodErrorPixels) {
            const uint32_t step = std::min(uint32_t(instance.fade * HORDE_BLEND_STEPS), HORDE_BLEND_STEPS - 1);
            d.blendKey = uint32_t(instance.clip) << 24 | bucket << 18 | uint32_t(instance.fromClip) << 10 |
                         fromBucket << 4 | step;
        }
    }

    const double size = 2.0 * radius * d.pixelsPerUnit;
    const double threshold = double(kImpostorPixelsPerErrorPixel) * settings.lodErrorPixels;
    const double fadeEnd = settings.impostorFade ? double(kImpostorFadeBand) * threshold : threshold;
    const bool impostors = settings.impostors && settings.lod &&
                           impostorSpan(camera, centre, radius) <= double(camera.largestPoint);
    d.impostor = impostors && size <= threshold;
    if (impostors && !d.impostor && size < fadeEnd) {
        d.meshShare = (size - threshold) / (fadeEnd - threshold);
        d.fadeStep = std::clamp(uint32_t(d.meshShare * HORDE_FADE_STEPS), 1u, HORDE_FADE_STEPS - 1);
    }
    if (d.impostor || d.fadeStep) {
        d.sharedPose = true;
        d.bucket = dominant;
        d.blendKey = 0xFFFFFFFFu;
        d.view = impostorView(glm::dvec3(camera.eye) - centre, instance.yaw);
    }
    for (const std::vector<float>& errors : model.levelErrors) {
        uint32_t level = 0;
        if (settings.lod)
            while (level + 1 < errors.size() &&
                   double(errors[level + 1]) * d.pixelsPerUnit <= settings.lodErrorPixels)
                ++level;
        d.levels.push_back(level);
    }
    return d;
}

double impostorSpan(const CullCamera& camera, glm::dvec3 centre, double radius) {
    const double distance = glm::length(centre - glm::dvec3(camera.eye));
    const double sinB = std::sqrt(2.0) * radius / distance;
    const double cosA = glm::dot(glm::dvec3(camera.planes[4]), centre - glm::dvec3(camera.eye)) / distance;
    const double d = cosA * cosA - sinB * sinB;
    return cosA > 0.0 && d > 0.0 ? 2.0 * camera.pixelsPerUnit * sinB / d + 1.0
                                 : std::numeric_limits<double>::infinity();
}

uint32_t impostorView(glm::dvec3 toEye, double heading) {
    const double c = std::cos(heading), s = std::sin(heading);
    const glm::dvec3 d(c * toEye.x - s * toEye.z, toEye.y, s * toEye.x + c * toEye.z);
    const double step = 2.0 * M_PI / HORDE_IMPOSTOR_AZIMUTHS;
    const int azimuth = int(std::round(std::atan2(d.x, d.z) / step));
    const uint32_t a = uint32_t((azimuth + int(HORDE_IMPOSTOR_AZIMUTHS)) % int(HORDE_IMPOSTOR_AZIMUTHS));
    const double up = std::asin(std::clamp(d.y / std::max(glm::length(d), 1e-20), -1.0, 1.0));
    const double e = std::clamp(std::round(up / double(HORDE_IMPOSTOR_ELEVATION_STEP)), 0.0,
                                double(HORDE_IMPOSTOR_ELEVATIONS - 1));
    return uint32_t(e) * HORDE_IMPOSTOR_AZIMUTHS + a;
}

uint32_t distanceBucket(double centreDistance, double far, uint32_t buckets) {
    if (!(far > 0.0)) return 0;
    return uint32_t(std::min(centreDistance / far * buckets, double(buckets - 1)));
}

std::vector<uint32_t> listStarts(std::span<const uint32_t> counts) {
    std::vector<uint32_t> starts;
    uint32_t start = 0;
    for (uint32_t count : counts) {
        starts.push_back(start);
        start += count;
    }
    return starts;
}

PoolBudget poolBudget(std::span<const uint64_t> wanted, std::span<const uint64_t> coarsest, uint64_t left) {
    const uint32_t buckets = uint32_t(wanted.size());
    PoolBudget budget{buckets, buckets};
    uint64_t need = 0;
    for (uint64_t c : coarsest)
        need += c;
    if (need <= left) {
        // Bucket b keeps its levels while the nearer ones' wants and the farther ones' coarsest fit.
        for (uint32_t b = 0; b < buckets; ++b) {
            need += wanted[b] - coarsest[b];
            if (need > left) {
                budget.coarseFrom = b;
                break;
            }
        }
        return budget;
    }
    budget.coarseFrom = 0;
    need = 0;
    for (uint32_t b = 0; b < buckets; ++b) {
        need += coarsest[b];
        if (need > left) {
            budget.dropFrom = b;
            break;
        }
    }
    return budget;
}

} // namespace horde
