// How a vertex is skinned, shared by the passes that do it: pose.comp writes each palette entry in
// the form the blend reads, skin.comp and draw_palette.vert blend them, draw_skinned.vert reads
// the pool skin.comp wrote. The choice is the scene's (anim/skinning.h), given as specialization
// constants so each pipeline compiles only its own blend. The CPU reference mirrors each:
// skinMesh, dualQuaternionPalette and skinMeshDualQuaternion in engine/anim/reference.cpp,
// dualQuaternionJoint and blendDualQuaternions in engine/anim/dual_quaternion.cpp.
// Constant ids 0 and 1 are draw.frag's (the draw pipelines give both stages one map).
layout(constant_id = 2) const uint kSkinning = HORDE_SKIN_LBS;
layout(constant_id = 3) const bool kHalf = false;    // palettes and pooled vertices as halves
layout(constant_id = 4) const uint kInfluences = 4u; // 8: also a mesh's influences five to eight
layout(constant_id = 5) const bool kStretch = false; // DQS: some joint of the scene scales or shears

// Influences five to eight (model/mesh_storage.h, MoreInfluences): four 16-bit joints, and
// weights that are shares of all eight.
struct MoreInfluence {
    uvec2 joints;
    vec4 weights;
};
layout(buffer_reference, scalar) buffer MoreInfluences { MoreInfluence v[]; };

uint paletteWords() {
    if (kSkinning == HORDE_SKIN_DQS) return kHalf ? HORDE_PALETTE_WORDS_DQS_HALF : HORDE_PALETTE_WORDS_DQS;
    return kHalf ? HORDE_PALETTE_WORDS_LBS_HALF : HORDE_PALETTE_WORDS_LBS;
}

// Four values as two words of halves, and back.
uvec2 packHalves(vec4 v) { return uvec2(packHalf2x16(v.xy), packHalf2x16(v.zw)); }
vec4 unpackHalves(uint a, uint b) { return vec4(unpackHalf2x16(a), unpackHalf2x16(b)); }

// Quaternions are (x, y, z, w).
vec4 quatMultiply(vec4 a, vec4 b) {
    return vec4(a.w * b.xyz + b.w * a.xyz + cross(a.xyz, b.xyz), a.w * b.w - dot(a.xyz, b.xyz));
}

vec3 quatRotate(vec4 q, vec3 v) {
    return v + 2.0 * cross(q.xyz, cross(q.xyz, v) + q.w * v);
}

// A rotation matrix's quaternion (m[column][row]), from its largest component.
vec4 quatFromRotation(mat3 m) {
    float trace = m[0][0] + m[1][1] + m[2][2];
    if (trace > 0.0) {
        float s = sqrt(trace + 1.0) * 2.0;
        return vec4(m[1][2] - m[2][1], m[2][0] - m[0][2], m[0][1] - m[1][0], 0.25 * s * s) / s;
    }
    if (m[0][0] > m[1][1] && m[0][0] > m[2][2]) {
        float s = sqrt(1.0 + m[0][0] - m[1][1] - m[2][2]) * 2.0;
        return vec4(0.25 * s * s, m[1][0] + m[0][1], m[2][0] + m[0][2], m[1][2] - m[2][1]) / s;
    }
    if (m[1][1] > m[2][2]) {
        float s = sqrt(1.0 + m[1][1] - m[0][0] - m[2][2]) * 2.0;
        return vec4(m[1][0] + m[0][1], 0.25 * s * s, m[2][1] + m[1][2], m[2][0] - m[0][2]) / s;
    }
    float s = sqrt(1.0 + m[2][2] - m[0][0] - m[1][1]) * 2.0;
    return vec4(m[2][0] + m[0][2], m[2][1] + m[1][2], 0.25 * s * s, m[0][1] - m[1][0]) / s;
}

float frobenius(mat3 m) { return sqrt(dot(m[0], m[0]) + dot(m[1], m[1]) + dot(m[2], m[2])); }

// A DQS palette entry: rotation and translation as a unit dual quaternion (real.w >= 0), and the
// symmetric stretch applied before them as (xx, yy, zz, xy) and (xz, yz).
struct DualQuaternionJoint {
    vec4 real, dual, stretchA;
    vec2 stretchB;
};

// dualQuaternionJoint(): the polar decomposition A = R S by Higham's scaled Newton iteration
// (at most 12 steps: single precision converges in fewer for any joint a skeleton animates), the
// rotation made proper for a mirroring A; a near-singular A (a joint scaled flat) has no rotation
// and its symmetric part as the stretch.
DualQuaternionJoint dualQuaternionJoint(Affine m) {
    mat3 a = transpose(mat3(m.r0.xyz, m.r1.xyz, m.r2.xyz));
    vec3 t = vec3(m.r0.w, m.r1.w, m.r2.w);
    float size = frobenius(a) / sqrt(3.0);
    float det = determinant(a);
    mat3 r = mat3(1.0), s = a;
    if (abs(det) > 1e-9 * size * size * size) {
        mat3 x = a;
        for (int i = 0; i < 12; ++i) {
            mat3 inv = inverse(x);
            float g = sqrt(frobenius(inv) / frobenius(x));
            mat3 next = 0.5 * (g * x + transpose(inv) / g);
            float change = frobenius(next - x);
            x = next;
            if (change <= 1e-6 * frobenius(x)) break;
        }
        r = det < 0.0 ? -x : x;
        s = transpose(r) * a;
    }
    DualQuaternionJoint j;
    j.real = normalize(quatFromRotation(r));
    if (j.real.w < 0.0) j.real = -j.real;
    j.dual = 0.5 * quatMultiply(vec4(t, 0.0), j.real);
    j.stretchA = vec4(s[0][0], s[1][1], s[2][2], 0.5 * (s[1][0] + s[0][1]));
    j.stretchB = vec2(0.5 * (s[2][0] + s[0][2]), 0.5 * (s[2][1] + s[1][2]));
    return j;
}

// pose.comp's output: one palette entry in the scene's form.
void storePaletteEntry(uvec2 palette, uint entry, Affine m) {
    Uints words = Uints(palette);
    uint at = entry * paletteWords();
    if (kSkinning == HORDE_SKIN_LBS && !kHalf) {
        Affines(palette).v[entry] = m;
    } else if (kSkinning == HORDE_SKIN_LBS) {
        uvec2 a = packHalves(m.r0), b = packHalves(m.r1), c = packHalves(m.r2);
        words.v[at] = a.x; words.v[at + 1] = a.y;
        words.v[at + 2] = b.x; words.v[at + 3] = b.y;
        words.v[at + 4] = c.x; words.v[at + 5] = c.y;
    } else if (!kHalf) {
        DualQuaternionJoint j = dualQuaternionJoint(m);
        Vec4s vectors = Vec4s(palette);
        vectors.v[entry * 4u] = j.real;
        vectors.v[entry * 4u + 1u] = j.dual;
        vectors.v[entry * 4u + 2u] = j.stretchA;
        vectors.v[entry * 4u + 3u] = vec4(j.stretchB, 0.0, 0.0);
    } else {
        DualQuaternionJoint j = dualQuaternionJoint(m);
        uvec2 real = packHalves(j.real), dual = packHalves(j.dual), stretch = packHalves(j.stretchA);
        words.v[at] = real.x; words.v[at + 1] = real.y;
        words.v[at + 2] = dual.x; words.v[at + 3] = dual.y;
        words.v[at + 4] = stretch.x; words.v[at + 5] = stretch.y;
        words.v[at + 6] = packHalf2x16(j.stretchB);
        words.v[at + 7] = 0u;
    }
}

Affine loadAffine(uvec2 palette, uint entry) {
    if (!kHalf) return Affines(palette).v[entry];
    Uints words = Uints(palette);
    uint at = entry * HORDE_PALETTE_WORDS_LBS_HALF;
    Affine m;
    m.r0 = unpackHalves(words.v[at], words.v[at + 1]);
    m.r1 = unpackHalves(words.v[at + 2], words.v[at + 3]);
    m.r2 = unpackHalves(words.v[at + 4], words.v[at + 5]);
    return m;
}

// The stretch is read only where some joint has one (kStretch); elsewhere it is the identity.
DualQuaternionJoint loadDualQuaternion(uvec2 palette, uint entry) {
    DualQuaternionJoint j;
    j.stretchA = vec4(1.0, 1.0, 1.0, 0.0);
    j.stretchB = vec2(0.0);
    if (!kHalf) {
        Vec4s vectors = Vec4s(palette);
        j.real = vectors.v[entry * 4u];
        j.dual = vectors.v[entry * 4u + 1u];
        if (kStretch) {
            j.stretchA = vectors.v[entry * 4u + 2u];
            j.stretchB = vectors.v[entry * 4u + 3u].xy;
        }
        return j;
    }
    Uints words = Uints(palette);
    uint at = entry * HORDE_PALETTE_WORDS_DQS_HALF;
    j.real = unpackHalves(words.v[at], words.v[at + 1]);
    j.dual = unpackHalves(words.v[at + 2], words.v[at + 3]);
    if (kStretch) {
        j.stretchA = unpackHalves(words.v[at + 4], words.v[at + 5]);
        j.stretchB = unpackHalf2x16(words.v[at + 6]);
    }
    return j;
}

// A vertex's influences: its four strongest (weights summing to one) and, with eight and a mesh
// that keeps them, influences five to eight, the four scaled by one minus the others' share
// (influencesOf() in engine/model/influences.cpp). A static mesh binds rigidly to its one entry.
struct Influences {
    uvec4 joints0, joints1;
    vec4 weights0, weights1;
};

Influences influencesOf(uvec2 joints, uvec2 weights, uvec2 more, uint vertex) {
    Influences found;
    found.joints1 = uvec4(0u);
    found.weights1 = vec4(0.0);
    if (isNull(joints)) {
        found.joints0 = uvec4(0u);
        found.weights0 = vec4(1.0, 0.0, 0.0, 0.0);
        return found;
    }
    found.joints0 = loadJoints(joints, vertex);
    found.weights0 = Vec4s(weights).v[vertex];
    if (kInfluences > 4u && !isNull(more)) {
        MoreInfluence m = MoreInfluences(more).v[vertex];
        found.joints1 = uvec4(m.joints.x & 0xFFFFu, m.joints.x >> 16u, m.joints.y & 0xFFFFu, m.joints.y >> 16u);
        found.weights1 = m.weights;
        found.weights0 *= 1.0 - (m.weights.x + m.weights.y + m.weights.z + m.weights.w);
    }
    return found;
}

// Linear blend: the weighted sum of the influences' matrices.
Affine blendAffine(uvec2 palette, uint base, Influences found) {
    Affine m;
    m.r0 = vec4(0.0); m.r1 = vec4(0.0); m.r2 = vec4(0.0);
    for (uint k = 0u; k < kInfluences; ++k) {
        float w = k < 4u ? found.weights0[k] : found.weights1[k - 4u];
        if (w <= 0.0) continue;
        Affine p = loadAffine(palette, base + (k < 4u ? found.joints0[k] : found.joints1[k - 4u]));
        m.r0 += p.r0 * w;
        m.r1 += p.r1 * w;
        m.r2 += p.r2 * w;
    }
    return m;
}

// DLB: every quaternion on the first influence's side (the strongest, which always has weight),
// summed by weight, divided by the real part's length; the stretches summed by weight.
DualQuaternionJoint blendDualQuaternions(uvec2 palette, uint base, Influences found) {
    DualQuaternionJoint b = loadDualQuaternion(palette, base + found.joints0.x);
    vec4 pivot = b.real;
    float first = found.weights0.x;
    b.real *= first; b.dual *= first; b.stretchA *= first; b.stretchB *= first;
    for (uint k = 1u; k < kInfluences; ++k) {
        float w = k < 4u ? found.weights0[k] : found.weights1[k - 4u];
        if (w <= 0.0) continue;
        DualQuaternionJoint j = loadDualQuaternion(palette, base + (k < 4u ? found.joints0[k] : found.joints1[k - 4u]));
        float side = dot(j.real, pivot) < 0.0 ? -w : w;
        b.real += j.real * side;
        b.dual += j.dual * side;
        b.stretchA += j.stretchA * w;
        b.stretchB += j.stretchB * w;
    }
    float size = length(b.real);
    b.real /= size;
    b.dual /= size;
    return b;
}

// The skinned position and normal of one vertex in model space.
void skinVertex(uvec2 palette, uint base, Influences found, vec3 position, vec3 normal, out vec3 outPosition,
                out vec3 outNormal) {
    if (kSkinning == HORDE_SKIN_LBS) {
        Affine m = blendAffine(palette, base, found);
        outPosition = transformPoint(m, position);
        outNormal = transformNormal(m, normal);
        return;
    }
    DualQuaternionJoint b = blendDualQuaternions(palette, base, found);
    vec3 translation = 2.0 * (b.real.w * b.dual.xyz - b.dual.w * b.real.xyz + cross(b.real.xyz, b.dual.xyz));
    if (!kStretch) {
        outPosition = quatRotate(b.real, position) + translation;
        vec3 turned = quatRotate(b.real, normal);
        float turnedSize = length(turned);
        outNormal = turnedSize > 0.0 ? turned / turnedSize : turned;
        return;
    }
    // The symmetric stretch (xx, yy, zz, xy) (xz, yz): positions through it, normals through its
    // cofactors (symmetric too), the sign of its determinant kept as transformNormal does.
    float xx = b.stretchA.x, yy = b.stretchA.y, zz = b.stretchA.z, xy = b.stretchA.w, xz = b.stretchB.x,
          yz = b.stretchB.y;
    mat3 s = mat3(xx, xy, xz, xy, yy, yz, xz, yz, zz);
    mat3 cofactors = mat3(yy * zz - yz * yz, xz * yz - xy * zz, xy * yz - xz * yy,
                          xz * yz - xy * zz, xx * zz - xz * xz, xy * xz - xx * yz,
                          xy * yz - xz * yy, xy * xz - xx * yz, xx * yy - xy * xy);
    float det = xx * cofactors[0][0] + xy * cofactors[0][1] + xz * cofactors[0][2];
    outPosition = quatRotate(b.real, s * position) + translation;
    vec3 n = quatRotate(b.real, cofactors * normal);
    float size = length(n);
    outNormal = size > 0.0 ? n * (sign(det) / size) : n;
}

// The pool skin.comp writes and draw_skinned.vert reads: vec3 positions and normals in two
// buffers, or at half precision both in `positions`, three words a vertex.
void storePooled(uvec2 positions, uvec2 normals, uint index, vec3 position, vec3 normal) {
    if (!kHalf) {
        Vec3s(positions).v[index] = position;
        Vec3s(normals).v[index] = normal;
        return;
    }
    Uints words = Uints(positions);
    uint at = index * HORDE_POOL_WORDS_HALF;
    words.v[at] = packHalf2x16(position.xy);
    words.v[at + 1u] = packHalf2x16(vec2(position.z, normal.x));
    words.v[at + 2u] = packHalf2x16(normal.yz);
}

void loadPooled(uvec2 positions, uvec2 normals, uint index, out vec3 position, out vec3 normal) {
    if (!kHalf) {
        position = Vec3s(positions).v[index];
        normal = Vec3s(normals).v[index];
        return;
    }
    Uints words = Uints(positions);
    uint at = index * HORDE_POOL_WORDS_HALF;
    vec2 a = unpackHalf2x16(words.v[at]), b = unpackHalf2x16(words.v[at + 1u]), c = unpackHalf2x16(words.v[at + 2u]);
    position = vec3(a, b.x);
    normal = vec3(b.y, c);
}
