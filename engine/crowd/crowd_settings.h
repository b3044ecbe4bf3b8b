#pragma once
// What a user chooses of a crowd, each setting defined once: its default is the field's
// initialiser, a number's range stands beside it (k...Range), an enumeration's words beside the
// enumeration (core/words.h). The command line (app/crowd_options.cpp), the window's overlay
// (app/crowd_panel.cpp), the benchmarks and the profile read and write this one struct; the
// scene takes it whole (render/crowd_scene.h), and the CPU mirror of its passes reads it too
// (crowd/cull_reference.h).
#include <array>
#include <cmath>
#include <cstdint>

#include "anim/skinning.h"
#include "core/words.h"
#include "crowd/behaviour.h"
#include "crowd/layout.h"

namespace horde {

template <class T> struct Range { T min, max; };

enum class Technique : uint8_t {
    Compute, // a skin pass writes skinned vertices, the draw reads them
    Vertex   // the vertex shader skins from the palette; no skin pass
};
template <> struct Words<Technique> {
    static constexpr std::array<std::string_view, 2> list{"compute", "vertex"};
};

// Where the camera starts (render/crowd_camera.h).
enum class CrowdView : uint8_t {
    Front,    // at the crowd's edge, its front row readable and the crowd filling the frame
    Overview, // the whole crowd
    Street    // eye height at its near edge
};
template <> struct Words<CrowdView> {
    static constexpr std::array<std::string_view, 3> list{"front", "overview", "street"};
};

// How big each model of a crowd is drawn (crowd_sources.h in tools/sources).
enum class Units : uint8_t {
    Auto,   // Height when the crowd has more than one model, else File
    Height, // every model scaled to one common height
    File    // the files' own units
};
template <> struct Words<Units> {
    static constexpr std::array<std::string_view, 3> list{"auto", "height", "file"};
};

// How a picture is taken, for the crowd and for the commands that draw one model: samples per
// pixel, and the camera turned and moved around the centre the command framed.
struct PictureSettings {
    uint32_t msaa = 4;    // samples per pixel asked for; the device may draw fewer
    float yaw = NAN;      // degrees, 0 looking along -Z; NaN: as framed
    float pitch = NAN;    // degrees above the horizon; NaN: as framed
    float distance = NAN; // world units from the framed centre; NaN: as framed
    bool operator==(const PictureSettings& other) const;
};
inline constexpr std::array<uint32_t, 4> kMsaaChoices{1, 2, 4, 8};
inline constexpr Range<float> kPitchRange{-89.0f, 89.0f};

struct CrowdSettings {
    uint32_t count = 1024; // instances, when the crowd is given by its size
    Technique technique = Technique::Compute;
    SkinOptions skin; // the blend, its precision and influences (anim/skinning.h)
    bool lod = true;  // levels of detail and shared far poses
    bool cull = true; // frustum culling on the GPU
    // With LOD on: instances a few pixels across drawn as one quad of an atlas baked from their
    // shared poses.
    bool impostors = true;
    // With impostors: an instance crossing their threshold fades between impostor and meshes over a
    // band of sizes (kImpostorFadeBand) rather than switching in one frame.
    bool impostorFade = true;
    bool textures = true;        // off: base colours only, no texture uploaded or sampled
    bool vertexColors = true;    // glTF's COLOR_0 tints its mesh's material (off: not drawn)
    float lodErrorPixels = 1.0f; // the largest error a level or a shared pose may show
    LayoutOptions layout{Layout::Scatter, 1};
    CrowdView view = CrowdView::Front;
    Units units = Units::Auto;
    PictureSettings picture;
    bool ground = false; // a ground plane under the crowd (the commands draw one; tests and benchmarks not)
    // How the instances behave (crowd/behaviour.h): loop, wander, or a user's file.
    Behaviour behaviour = wanderBehaviour();
    // The cross-fade into a clip whose file gives none (NWN's transtime gives one), seconds.
    float crossfadeSeconds = 0.25f;
    // Skinned-vertex pool per model and frame slot, in vertices: what LOD draws in a frame, or
    // (brute force) the chunk of instances skinned and drawn at a time. 0: what the models can use,
    // within a quarter of the device's memory (crowd/memory_plan.h).
    uint64_t vertexBudget = 0;
    uint32_t poseBudget = 0; // own poses per model and frame with LOD on (the rest share); 0: by skeleton

    bool operator==(const CrowdSettings&) const = default;
};
inline constexpr Range<uint32_t> kCountRange{1, 1u << 20};
inline constexpr Range<float> kLodErrorRange{0.0f, 1000.0f};
inline constexpr Range<float> kCrossfadeRange{0.0f, 10.0f};

// With LOD on, an instance whose every-pose sphere projects to at most this many pixels across
// per pixel of allowed error is drawn as an impostor (docs/PERFORMANCE.md, "Impostors").
constexpr float kImpostorPixelsPerErrorPixel = 16.0f;
// Past that size, up to this many times it, an instance is drawn both ways: its meshes take
// (size - threshold) / (threshold x (band - 1)) of every pixel's samples, its impostor the rest
// (shaders/common.glsl fadeMask; docs/PERFORMANCE.md, "Popping").
constexpr float kImpostorFadeBand = 1.5f;

// Settings for one instance seen whole (render, pose, validate): nothing culled or simplified.
CrowdSettings singleInstanceSettings();

} // namespace horde
