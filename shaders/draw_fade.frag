#version 460
// The meshes of instances fading into their impostors (draw_fragment.glsl).
#define HORDE_DRAW_FADE
#include "draw_fragment.glsl"
