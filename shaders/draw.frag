#version 460
// The crowd's meshes (draw_fragment.glsl).
#include "draw_fragment.glsl"
