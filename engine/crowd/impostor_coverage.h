#pragma once
// How an impostor's coverage becomes samples of a pixel, as impostor.frag writes its sample mask
// (impostorSamples, sampleRun in shaders/common.glsl), and how a fading instance's meshes and
// impostor share a pixel's samples (fadeMask): the CPU side of the same rule, for tests to
// work cases out against.
#include <cstdint>

#include <glm/vec2.hpp>

namespace horde {

// Samples of `samples` (1, 2, 4 or 8) a texel of coverage `alpha` takes at `pixel`: alpha x samples
// rounded by a 4 x 4 ordered dither, so that over any 4 x 4 block of one coverage the mean is
// within 1/32 of a sample of the exact share.
uint32_t impostorSamples(float alpha, uint32_t samples, glm::uvec2 pixel);
// The sample mask: `covered` consecutive samples from one that moves with the pixel, wrapping.
uint32_t sampleRun(uint32_t covered, uint32_t samples, glm::uvec2 pixel);
// The samples a fading instance's meshes take at `pixel` for a share of `step` / HORDE_FADE_STEPS,
// its impostor the others: ranked by the pixel's 4 x 4 ordered-dither index x samples + the sample
// (whole pixels first), those below the share of 16 x samples.
uint32_t fadeMask(uint32_t step, uint32_t samples, glm::uvec2 pixel);

} // namespace horde
