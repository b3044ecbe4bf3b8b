#pragma once
// Which of a mesh's vertices the simplifier may treat as one. Game files often store a mesh as a
// triangle soup (every triangle owning its three corners) or split every corner by a per-face
// normal or tangent; the simplifier then finds no shared edge to collapse. Vertices that a coarse
// level may draw in each other's place are welded: equal in position, texture coordinates, colour,
// joints, weights and morph target displacements, and, while the level keeps creases, in normal
// (within a few degrees) and in its morph targets' normal displacements.
// Vertices at one position that differ beyond that stay apart, and meet the way the two sides of a
// UV seam do: the simplifier moves them only together, so the seam stays closed and each side
// keeps its own attributes, and vertices whose skin differs are never drawn in each other's place.
#include <cstdint>
#include <span>
#include <vector>

#include "model/model.h"

namespace horde {

// Normals closer than this (in degrees) weld while creases are kept: a smooth surface's corners
// differ by rounding or by per-face smoothing, while a crease (an armour plate's edge, a box's
// corner) splits its normals by tens of degrees and stays a seam, so that a level shades it as the
// source does.
inline constexpr float kWeldNormalDegrees = 10.0f;

// weld[v] is the vertex that stands for v. Among the vertices `used` names (the source triangles'
// corners), those equal in every attribute but the normal (and the targets' normal
// displacements) form a group; in vertex order, each
// joins the first earlier one of its group that stands for itself and, with `creases`, whose
// normal is within kWeldNormalDegrees of its own and whose normal displacements are its own, or
// else stands for itself. Without `creases`
// each group is one vertex: a flat-shaded mesh, whose every corner is a crease, then simplifies
// too, shaded with one normal per position. So weld[v] <= v, weld[weld[v]] == weld[v], and every
// weld[v] of a used v is used. Vertices `used` does not name stand for themselves. Tangents are
// left out: they follow from the normals and texture coordinates, and files that store one per
// face would split every corner. Deterministic.
std::vector<uint32_t> weldVertices(const Mesh& mesh, std::span<const uint32_t> used, bool creases);

} // namespace horde
