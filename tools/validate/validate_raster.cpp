#include "validate_raster.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace horde {

const char* viewName(AttributeView view) {
    return view == AttributeView::UvChecker ? "uv" : "normals";
}

glm::vec3 checkerColor(glm::dvec2 uv) {
    glm::dvec2 f = uv - glm::floor(uv);
    glm::i64vec2 tile = glm::i64vec2(glm::floor(uv * 8.0));
    if (tile.x == 0 && tile.y == 0) return {1.0f, 0.0f, 1.0f};
    float shade = (tile.x + tile.y) % 2 == 0 ? 1.0f : 0.55f;
    return shade * glm::vec3(0.15f + 0.85f * float(f.x), 0.15f + 0.85f * float(f.y), 0.35f);
}

namespace {
struct Corner {
    glm::vec4 clip;
    glm::dvec3 position;
    glm::dvec2 uv;
    glm::dvec3 normal;
};

uint8_t byte(float c) {
    return uint8_t(std::clamp(c, 0.0f, 1.0f) * 255.0f + 0.5f);
}

// The eye of a perspective view-projection: the point it maps to x = y = w = 0.
glm::dvec3 eyeOf(const glm::dmat4& m) {
    glm::dmat3 rows;
    glm::dvec3 rhs;
    for (int r = 0; r < 3; ++r) {
        int row = r < 2 ? r : 3;
        for (int c = 0; c < 3; ++c)
            rows[c][r] = m[c][row];
        rhs[r] = -m[3][row];
    }
    return glm::inverse(rows) * rhs;
}

// Depths closer than this are one surface drawn twice (faces doubled back to back, as game
// models have for thin parts); which of them the rounding puts in front would differ between
// two files with the same shape.
constexpr float kSameDepth = 4e-6f;
} // namespace

Image8 rasterize(const Model& model, const std::vector<PosedMesh>& posed, const glm::mat4& viewProjection,
                 uint32_t width, uint32_t height, AttributeView view) {
    Image8 image{width, height, std::vector<uint8_t>(size_t(width) * height * 4, 0)};
    for (size_t p = 0; p < size_t(width) * height; ++p)
        image.rgba[p * 4 + 3] = 255;
    std::vector<float> depth(size_t(width) * height, std::numeric_limits<float>::infinity());
    std::vector<uint8_t> facing(size_t(width) * height, 0);
    glm::dmat4 toClip(viewProjection);
    glm::dvec3 eye = eyeOf(toClip);
    for (size_t m = 0; m < model.meshes.size() && m < posed.size(); ++m) {
        const Mesh& mesh = model.meshes[m];
        bool uvs = mesh.layout().uvSets > 0;
        auto corner = [&](uint32_t v) {
            glm::dvec4 c = toClip * glm::dvec4(posed[m].positions[v], 1.0);
            return Corner{glm::vec4(c), posed[m].positions[v],
                          uvs ? glm::dvec2(mesh.arrays().uv0[v]) : glm::dvec2(0.0), posed[m].normals[v]};
        };
        for (uint32_t t = 0; t + 2 < mesh.indexCount(); t += 3) {
            Corner c[3] = {corner(mesh.arrays().index(t)), corner(mesh.arrays().index(t + 1)),
                           corner(mesh.arrays().index(t + 2))};
            // The validate camera frames the whole pose: a corner behind the eye is a broken pose.
            if (!(c[0].clip.w > 0.0f && c[1].clip.w > 0.0f && c[2].clip.w > 0.0f)) continue;
            glm::vec2 s[3];
            float z[3], invW[3];
            for (int k = 0; k < 3; ++k) {
                invW[k] = 1.0f / c[k].clip.w;
                s[k] = glm::vec2((c[k].clip.x * invW[k] * 0.5f + 0.5f) * float(width),
                                 (c[k].clip.y * invW[k] * 0.5f + 0.5f) * float(height));
                z[k] = c[k].clip.z * invW[k];
            }
            float area = (s[1].x - s[0].x) * (s[2].y - s[0].y) - (s[2].x - s[0].x) * (s[1].y - s[0].y);
            if (!(std::abs(area) > 0.0f) || !std::isfinite(area)) continue;
            // Bounds clamped to the image in float, before any conversion to int.
            auto span = [](float lo, float hi, uint32_t size, int& first, int& last) {
                first = int(std::clamp(std::floor(lo), 0.0f, float(size - 1)));
                last = int(std::clamp(std::ceil(hi), 0.0f, float(size - 1)));
                return lo < float(size) && hi >= 0.0f;
            };
            int x0, x1, y0, y1;
            if (!span(std::min({s[0].x, s[1].x, s[2].x}), std::max({s[0].x, s[1].x, s[2].x}), width, x0,
                      x1) ||
                !span(std::min({s[0].y, s[1].y, s[2].y}), std::max({s[0].y, s[1].y, s[2].y}), height, y0, y1))
                continue;
            // Each barycentric weight is a plane over the screen, b = dx * x + dy * y + at0, set up
            // once per triangle: a pixel costs two multiply-adds per weight, not a division.
            float dx[3], dy[3], at0[3];
            for (int k = 0; k < 3; ++k) {
                const glm::vec2 e0 = s[(k + 1) % 3], e1 = s[(k + 2) % 3];
                dx[k] = -(e1.y - e0.y) / area;
                dy[k] = (e1.x - e0.x) / area;
                at0[k] = (e0.x * (e1.y - e0.y) - e0.y * (e1.x - e0.x)) / area;
            }
            for (int y = y0; y <= y1; ++y)
                for (int x = x0; x <= x1; ++x) {
                    const float qx = float(x) + 0.5f, qy = float(y) + 0.5f;
                    float b[3];
                    for (int k = 0; k < 3; ++k)
                        b[k] = dx[k] * qx + dy[k] * qy + at0[k];
                    if (b[0] < 0.0f || b[1] < 0.0f || b[2] < 0.0f) continue;
                    float zq = b[0] * z[0] + b[1] * z[1] + b[2] * z[2];
                    size_t at = size_t(y) * width + size_t(x);
                    if (!(zq >= 0.0f && zq <= 1.0f) || zq > depth[at] + kSameDepth) continue;
                    // Perspective-correct weights: interpolate attribute / w, divide by 1 / w.
                    double w[3], sum = 0.0;
                    for (int k = 0; k < 3; ++k)
                        sum += w[k] = double(b[k]) * invW[k];
                    glm::dvec3 p = (w[0] * c[0].position + w[1] * c[1].position + w[2] * c[2].position) / sum;
                    glm::dvec3 n = w[0] * c[0].normal + w[1] * c[1].normal + w[2] * c[2].normal;
                    uint8_t faces = glm::dot(n, eye - p) > 0.0 ? 1 : 0;
                    // Of one surface drawn twice, the side that faces the eye shows.
                    if (zq >= depth[at] - kSameDepth && !(faces > facing[at])) continue;
                    depth[at] = std::min(zq, depth[at]);
                    facing[at] = faces;
                    glm::vec3 color;
                    if (view == AttributeView::UvChecker) {
                        glm::dvec2 uv = (w[0] * c[0].uv + w[1] * c[1].uv + w[2] * c[2].uv) / sum;
                        color = uvs ? checkerColor(uv) : glm::vec3(0.5f);
                    } else {
                        double len = glm::length(n);
                        color = glm::vec3(0.5 + 0.5 * (len > 0.0 ? n / len : n));
                    }
                    for (int k = 0; k < 3; ++k)
                        image.rgba[at * 4 + size_t(k)] = byte(color[k]);
                }
        }
    }
    return image;
}

} // namespace horde
