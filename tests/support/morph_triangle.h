#pragma once
// A triangle with two morph targets, built byte by byte for the loader's and validate's tests:
// positions (0,0,0), (1,0,0), (0,1,0) facing +z on node 'face' (translated by (0,1,0)); target 0
// moves the vertices by (0,0,1), (0,0,2), 0 and turns vertex 0's normal by (0,1,0); target 1
// moves them by (1,0,0), 0, (0,-1,0); resting weights (0.25, 0), names "open" and "wide"; clip
// 'talk' keys the weights LINEAR at 0, 1, 2 s: (0,0), (1,0.5), (0,1); clip 'ease' CUBICSPLINE at
// 0 and 1 s from (0,0) (out-tangents (2,0)) to (1,1) (flat).
#include <cstdint>
#include <initializer_list>

#include <glm/vec3.hpp>
#include <nlohmann/json.hpp>

#include "support/glb.h"

namespace horde::test {

inline test::Glb morphTriangle() {
    Glb g;
    auto floats = [&](std::initializer_list<float> values) {
        for (float v : values) {
            const auto* raw = reinterpret_cast<const uint8_t*>(&v);
            g.bin.insert(g.bin.end(), raw, raw + 4);
        }
    };
    floats({0, 0, 0, 1, 0, 0, 0, 1, 0});  // 0: POSITION
    floats({0, 0, 1, 0, 0, 1, 0, 0, 1});  // 36: NORMAL
    g.bin.insert(g.bin.end(), {0, 1, 2, 0}); // 72: indices
    floats({0, 0, 1, 0, 0, 2, 0, 0, 0});  // 76: target 0 POSITION
    floats({0, 1, 0, 0, 0, 0, 0, 0, 0});  // 112: target 0 NORMAL
    floats({1, 0, 0, 0, 0, 0, 0, -1, 0}); // 148: target 1 POSITION
    floats({0, 1, 2});                    // 184: LINEAR key times
    floats({0, 0, 1, 0.5f, 0, 1});        // 196: two weights a key
    floats({0, 1});                       // 220: CUBICSPLINE key times
    // 228: per key in-tangents, weights, out-tangents, two of each.
    floats({0, 0, 0, 0, 2, 0, 0, 0, 1, 1, 0, 0});
    using nlohmann::json;
    auto view = [](int offset, int length) { return json{{"buffer", 0}, {"byteOffset", offset}, {"byteLength", length}}; };
    auto accessor = [](int v, int count, const char* type, json bounds = json::object()) {
        json a{{"bufferView", v}, {"componentType", 5126}, {"count", count}, {"type", type}};
        a.update(bounds);
        return a;
    };
    auto weightsChannel = [](const char* name, const char* interpolation, int input, int output) {
        return json{{"name", name},
                    {"samplers", {{{"input", input}, {"output", output}, {"interpolation", interpolation}}}},
                    {"channels", {{{"sampler", 0}, {"target", {{"node", 0}, {"path", "weights"}}}}}}};
    };
    g.doc = {
        {"asset", {{"version", "2.0"}}},
        {"scene", 0},
        {"scenes", {{{"nodes", {0}}}}},
        {"nodes", {{{"name", "face"}, {"mesh", 0}, {"translation", {0, 1, 0}}}}},
        {"meshes",
         {{{"name", "triangle"},
           {"primitives",
            {{{"attributes", {{"POSITION", 0}, {"NORMAL", 1}}},
              {"indices", 2},
              {"targets", {{{"POSITION", 3}, {"NORMAL", 4}}, {{"POSITION", 5}}}}}}},
           {"weights", {0.25, 0.0}},
           {"extras", {{"targetNames", {"open", "wide"}}}}}}},
        {"buffers", {{{"byteLength", 276}}}},
        {"bufferViews",
         {view(0, 36), view(36, 36), view(72, 3), view(76, 36), view(112, 36), view(148, 36), view(184, 12),
          view(196, 24), view(220, 8), view(228, 48)}},
        {"accessors",
         {accessor(0, 3, "VEC3", {{"min", {0, 0, 0}}, {"max", {1, 1, 0}}}), accessor(1, 3, "VEC3"),
          {{"bufferView", 2}, {"componentType", 5121}, {"count", 3}, {"type", "SCALAR"}},
          accessor(3, 3, "VEC3", {{"min", {0, 0, 0}}, {"max", {0, 0, 2}}}), accessor(4, 3, "VEC3"),
          accessor(5, 3, "VEC3", {{"min", {0, -1, 0}}, {"max", {1, 0, 0}}}),
          accessor(6, 3, "SCALAR", {{"min", {0}}, {"max", {2}}}), accessor(7, 6, "SCALAR"),
          accessor(8, 2, "SCALAR", {{"min", {0}}, {"max", {1}}}), accessor(9, 12, "SCALAR")}},
        {"animations", {weightsChannel("talk", "LINEAR", 6, 7), weightsChannel("ease", "CUBICSPLINE", 8, 9)}}};
    return g;
}

} // namespace horde::test
