#include "monster.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>

#include "model/influences.h"

namespace horde {

namespace {

constexpr float kPi = 3.14159265358979f;

// A chain of bones that becomes one tube: point i is where joint i's bone starts; the last
// point is where the last bone ends.
struct Tube {
    std::vector<uint32_t> joints;
    std::vector<glm::vec3> points; // joints.size() + 1
    std::vector<float> radii;      // per point
    uint32_t submesh = 0;
    int32_t anchor = -1;           // a joint every ring also follows a little (four influences)
};

uint32_t tubeVertices(const Tube& t, const MonsterParams& p) {
    return uint32_t(t.joints.size()) * p.ringsPerBone * p.sides + p.sides + 2;
}
uint32_t tubeIndices(const Tube& t, const MonsterParams& p) {
    uint32_t rings = uint32_t(t.joints.size()) * p.ringsPerBone + 1;
    return (rings - 1) * p.sides * 6 + 2 * p.sides * 3;
}

struct Skeleton {
    Model* model;
    std::vector<glm::mat4> bind; // model-space bind transform per node

    // A joint placed at `position` in model space with an arbitrary but deterministic twist, so
    // rest rotations are never trivial.
    uint32_t add(const std::string& name, int32_t parent, glm::vec3 position, float twist) {
        glm::mat4 world = glm::translate(glm::mat4(1.0f), position) *
                          glm::mat4_cast(glm::angleAxis(twist, glm::normalize(glm::vec3(0.3f, 1.0f, 0.2f))));
        glm::mat4 local = parent < 0 ? world : glm::inverse(bind[parent]) * world;
        Node node;
        node.name = name;
        node.parent = parent;
        node.translation = glm::vec3(local[3]);
        node.rotation = glm::normalize(glm::quat_cast(glm::mat3(local)));
        model->nodes.push_back(node);
        bind.push_back(world);
        return uint32_t(model->nodes.size() - 1);
    }
    glm::vec3 position(uint32_t joint) const { return glm::vec3(bind[joint][3]); }
};

struct LegJoints {
    uint32_t coxa, femur, tibia, foot;
    float side;
    uint32_t pair;
};

// A rotation of `angle` about model-space `axis` at the joint, expressed as its local rotation.
glm::quat localTurn(const Skeleton& s, uint32_t joint, glm::vec3 axis, float angle) {
    glm::vec3 local = glm::inverse(glm::mat3(s.bind[joint])) * axis;
    return glm::normalize(s.model->nodes[joint].rotation * glm::angleAxis(angle, glm::normalize(local)));
}

glm::vec4 q4(glm::quat q) { return glm::vec4(q.x, q.y, q.z, q.w); }

Channel channel(uint32_t node, ChannelPath path, Interpolation interpolation = Interpolation::Linear) {
    Channel c;
    c.node = node;
    c.path = path;
    c.interpolation = interpolation;
    return c;
}

// The wide blend of ring `r`: every bone of the tube within three bones of the ring, weighted by
// a tent on the distance to its middle, and the anchor.
EightInfluences wideBlend(const Tube& t, uint32_t r, const MonsterParams& p) {
    std::array<Influence, 16> influences{};
    size_t count = 0;
    const float along = float(r) / float(p.ringsPerBone);
    for (uint32_t b = 0; b < t.joints.size() && count + 1 < influences.size(); ++b) {
        const float w = 1.0f - std::abs(along - (float(b) + 0.5f)) / 3.0f;
        if (w > 0.0f) influences[count++] = {t.joints[b], w};
    }
    if (t.anchor >= 0) influences[count++] = {uint32_t(t.anchor), 0.1f};
    return strongestEight(std::span(influences.data(), count));
}

void writeTube(const Tube& t, const MonsterParams& p, MeshArrays& a, uint32_t& vertex,
               std::vector<std::vector<uint32_t>>& submeshIndices) {
    const uint32_t bones = uint32_t(t.joints.size());
    const uint32_t rings = bones * p.ringsPerBone + 1;
    const uint32_t first = vertex;
    std::vector<uint32_t>& out = submeshIndices[t.submesh];
    for (uint32_t r = 0; r < rings; ++r) {
        uint32_t bone = std::min(r / p.ringsPerBone, bones - 1);
        float u = float(r - bone * p.ringsPerBone) / float(p.ringsPerBone);
        glm::vec3 from = t.points[bone], to = t.points[bone + 1];
        glm::vec3 axis = glm::normalize(to - from);
        glm::vec3 center = glm::mix(from, to, u);
        float radius = glm::mix(t.radii[bone], t.radii[bone + 1], u);
        glm::vec3 reference = std::abs(axis.y) < 0.9f ? glm::vec3(0, 1, 0) : glm::vec3(1, 0, 0);
        glm::vec3 side1 = glm::normalize(glm::cross(axis, reference));
        glm::vec3 side2 = glm::cross(axis, side1);

        // Smooth weights: a ring near a joint blends into the neighbouring bone.
        std::array<Influence, 4> influences{};
        size_t count = 0;
        // The two blends overlap mid-bone, so with the anchor some rings have four influences.
        float previous = bone > 0 && u < 0.6f ? 0.5f * glm::smoothstep(0.0f, 0.6f, 0.6f - u) : 0.0f;
        float next = bone + 1 < bones && u > 0.4f ? 0.5f * glm::smoothstep(0.0f, 0.6f, u - 0.4f) : 0.0f;
        float anchor = t.anchor >= 0 ? 0.1f : 0.0f;
        influences[count++] = {t.joints[bone], 1.0f - previous - next - anchor};
        if (previous > 0.0f) influences[count++] = {t.joints[bone - 1], previous};
        if (next > 0.0f) influences[count++] = {t.joints[bone + 1], next};
        if (anchor > 0.0f) influences[count++] = {uint32_t(t.anchor), anchor};
        FourInfluences four = strongestFour(std::span(influences.data(), count));
        const EightInfluences eight = p.influences > 4 ? wideBlend(t, r, p) : EightInfluences{};

        for (uint32_t k = 0; k < p.sides; ++k) {
            float theta = 2.0f * kPi * float(k) / float(p.sides);
            glm::vec3 normal = std::cos(theta) * side1 + std::sin(theta) * side2;
            a.positions[vertex] = center + normal * radius;
            a.normals[vertex] = normal;
            a.uv0[vertex] = glm::vec2(float(k) / float(p.sides), float(r) / float(rings - 1));
            a.joints[vertex] = four.joints;
            a.weights[vertex] = four.weights;
            if (!a.more.empty()) {
                a.joints[vertex] = eight.joints;
                a.weights[vertex] = eight.weights;
                a.more[vertex] = eight.more;
            }
            ++vertex;
        }
    }
    auto cap = [&](glm::vec3 position, glm::vec3 normal, uint32_t ring) {
        uint32_t source = first + ring * p.sides;
        a.positions[vertex] = position;
        a.normals[vertex] = normal;
        a.uv0[vertex] = glm::vec2(0.5f, ring == 0 ? 0.0f : 1.0f);
        a.joints[vertex] = a.joints[source];
        a.weights[vertex] = a.weights[source];
        if (!a.more.empty()) a.more[vertex] = a.more[source];
        return vertex++;
    };
    uint32_t start = cap(t.points.front(), -glm::normalize(t.points[1] - t.points[0]), 0);
    uint32_t end = cap(t.points.back(), glm::normalize(t.points[bones] - t.points[bones - 1]), rings - 1);
    // Counter-clockwise seen from outside (the monster's front faces).
    for (uint32_t r = 0; r + 1 < rings; ++r)
        for (uint32_t k = 0; k < p.sides; ++k) {
            uint32_t k1 = (k + 1) % p.sides;
            uint32_t v00 = first + r * p.sides + k, v01 = first + r * p.sides + k1;
            uint32_t v10 = first + (r + 1) * p.sides + k, v11 = first + (r + 1) * p.sides + k1;
            out.insert(out.end(), {v00, v01, v11, v00, v11, v10});
        }
    uint32_t last = first + (rings - 1) * p.sides;
    for (uint32_t k = 0; k < p.sides; ++k) {
        uint32_t k1 = (k + 1) % p.sides;
        out.insert(out.end(), {start, first + k1, first + k});
        out.insert(out.end(), {end, last + k, last + k1});
    }
}

struct Rig {
    Skeleton skeleton;
    std::vector<Tube> tubes;
    std::vector<LegJoints> legs;
    std::vector<uint32_t> spine, tail;
    uint32_t root = 0, hips = 0, neck = 0, head = 0, jaw = 0;
};

Rig buildRig(Model& model, const MonsterParams& p) {
    Rig rig;
    Skeleton& s = rig.skeleton;
    s.model = &model;
    const float segment = 0.34f, height = 0.85f;
    const float length = segment * float(p.legPairs);
    rig.root = s.add("root", -1, glm::vec3(0.0f), 0.0f);
    rig.hips = s.add("hips", int32_t(rig.root), glm::vec3(0, height, -length * 0.5f), 0.2f);
    uint32_t parent = rig.hips;
    for (uint32_t i = 0; i < p.legPairs; ++i) {
        float z = -length * 0.5f + segment * float(i + 1);
        float y = height + 0.04f * std::sin(float(i));
        parent = s.add("spine" + std::to_string(i), int32_t(parent), glm::vec3(0, y, z), 0.15f * float(i + 1));
        rig.spine.push_back(parent);
    }
    float front = -length * 0.5f + segment * float(p.legPairs);
    rig.neck = s.add("neck", int32_t(parent), glm::vec3(0, height + 0.12f, front + 0.25f), 0.7f);
    rig.head = s.add("head", int32_t(rig.neck), glm::vec3(0, height + 0.22f, front + 0.5f), -0.4f);
    rig.jaw = s.add("jaw", int32_t(rig.head), glm::vec3(0, height + 0.1f, front + 0.62f), 0.9f);
    parent = rig.hips;
    for (uint32_t i = 0; i < 3; ++i) {
        parent = s.add("tail" + std::to_string(i), int32_t(parent),
                       glm::vec3(0, height - 0.05f * float(i + 1), -length * 0.5f - 0.35f * float(i + 1)), -0.3f * float(i));
        rig.tail.push_back(parent);
    }
    for (uint32_t i = 0; i < p.legPairs; ++i) {
        for (float side : {1.0f, -1.0f}) {
            std::string tag = (side > 0 ? "L" : "R") + std::to_string(i);
            glm::vec3 base = s.position(rig.spine[i]) + glm::vec3(0, 0, -segment * 0.5f);
            LegJoints leg;
            leg.side = side;
            leg.pair = i;
            leg.coxa = s.add("coxa" + tag, int32_t(rig.spine[i]), base + glm::vec3(side * 0.18f, -0.02f, 0), 0.5f * side);
            leg.femur = s.add("femur" + tag, int32_t(leg.coxa), base + glm::vec3(side * 0.36f, 0.1f, 0), 1.1f * side);
            leg.tibia = s.add("tibia" + tag, int32_t(leg.femur), base + glm::vec3(side * 0.75f, 0.38f, 0.05f), -0.8f * side);
            leg.foot = s.add("foot" + tag, int32_t(leg.tibia), base + glm::vec3(side * 0.95f, 0.08f, 0.1f), 0.3f);
            rig.legs.push_back(leg);
            Tube t;
            t.joints = {leg.coxa, leg.femur, leg.tibia, leg.foot};
            t.points = {s.position(leg.coxa), s.position(leg.femur), s.position(leg.tibia), s.position(leg.foot),
                        base + glm::vec3(side * 1.0f, 0.0f, 0.12f)};
            t.radii = {0.07f, 0.06f, 0.05f, 0.035f, 0.012f};
            t.submesh = 1;
            rig.tubes.push_back(t);
        }
    }
    Tube body;
    body.joints.push_back(rig.tail.back());
    body.points.push_back(s.position(rig.tail.back()) + glm::vec3(0, -0.03f, -0.3f));
    for (size_t i = rig.tail.size(); i-- > 1;) body.joints.push_back(rig.tail[i - 1]);
    for (size_t i = 0; i < rig.tail.size(); ++i) body.points.push_back(s.position(rig.tail[rig.tail.size() - 1 - i]));
    body.joints.push_back(rig.hips);
    body.points.push_back(s.position(rig.hips));
    for (uint32_t j : rig.spine) {
        body.joints.push_back(j);
        body.points.push_back(s.position(j));
    }
    body.joints.push_back(rig.neck);
    body.points.push_back(s.position(rig.neck));
    body.joints.push_back(rig.head);
    body.points.push_back(s.position(rig.head));
    body.points.push_back(s.position(rig.head) + glm::vec3(0, -0.02f, 0.28f));
    body.points.erase(body.points.begin() + 1); // tail tip to tail2 is the first bone
    body.radii.assign(body.points.size(), 0.26f);
    body.radii.front() = 0.03f;
    body.radii[1] = 0.08f;
    body.radii[2] = 0.13f;
    body.radii[body.radii.size() - 3] = 0.16f;
    body.radii[body.radii.size() - 2] = 0.2f;
    body.radii.back() = 0.06f;
    body.anchor = int32_t(rig.hips);
    rig.tubes.push_back(body);
    Tube jaw;
    jaw.joints = {rig.jaw};
    jaw.points = {s.position(rig.jaw), s.position(rig.jaw) + glm::vec3(0, -0.06f, 0.3f)};
    jaw.radii = {0.1f, 0.03f};
    jaw.submesh = 2;
    rig.tubes.push_back(jaw);
    return rig;
}

Clip walk(const Rig& rig) {
    const Skeleton& s = rig.skeleton;
    Clip clip;
    clip.name = "walk";
    clip.duration = 1.0f;
    const uint32_t frames = 30;
    for (const LegJoints& leg : rig.legs) {
        float phase = float(leg.pair) * 0.9f + (leg.side > 0 ? 0.0f : kPi);
        Channel swing = channel(leg.coxa, ChannelPath::Rotation);
        Channel lift = channel(leg.femur, ChannelPath::Rotation);
        for (uint32_t f = 0; f <= frames; ++f) {
            float t = float(f) / float(frames);
            float a = 2.0f * kPi * t + phase;
            swing.times.push_back(t);
            swing.values.push_back(q4(localTurn(s, leg.coxa, glm::vec3(0, 1, 0), 0.35f * std::sin(a))));
            lift.times.push_back(t);
            lift.values.push_back(q4(localTurn(s, leg.femur, glm::vec3(0, 0, leg.side), 0.3f * std::max(0.0f, std::cos(a)))));
        }
        clip.channels.push_back(std::move(swing));
        clip.channels.push_back(std::move(lift));
    }
    Channel bob = channel(rig.root, ChannelPath::Translation);
    for (uint32_t f = 0; f <= 15; ++f) {
        float t = float(f) / 15.0f;
        bob.times.push_back(t);
        bob.values.push_back(glm::vec4(0, 0.03f * std::sin(4.0f * kPi * t), 0, 0));
    }
    clip.channels.push_back(std::move(bob));
    for (size_t i = 0; i < rig.spine.size(); ++i) {
        Channel breathe = channel(rig.spine[i], ChannelPath::Scale);
        breathe.times = {0.0f, 0.5f, 1.0f};
        float swell = 1.0f + 0.05f * float(i % 3);
        breathe.values = {glm::vec4(1.0f), glm::vec4(swell, swell, 1.0f, 0), glm::vec4(1.0f)};
        clip.channels.push_back(std::move(breathe));
    }
    for (size_t i = 0; i < rig.tail.size(); ++i) {
        Channel sway = channel(rig.tail[i], ChannelPath::Rotation);
        for (float t : {0.0f, 0.25f, 0.5f, 0.75f, 1.0f}) {
            sway.times.push_back(t);
            sway.values.push_back(q4(localTurn(s, rig.tail[i], glm::vec3(0, 1, 0), 0.25f * std::sin(2.0f * kPi * t))));
        }
        clip.channels.push_back(std::move(sway));
    }
    return clip;
}

Clip attack(const Rig& rig) {
    const Skeleton& s = rig.skeleton;
    Clip clip;
    clip.name = "attack";
    clip.duration = 1.6f;
    Channel rear = channel(rig.hips, ChannelPath::Rotation);
    rear.times = {0.0f, 0.4f, 0.7f, 1.0f, 1.6f};
    for (float angle : {0.0f, -0.3f, -0.35f, 0.1f, 0.0f}) rear.values.push_back(q4(localTurn(s, rig.hips, glm::vec3(1, 0, 0), angle)));
    clip.channels.push_back(std::move(rear));
    Channel lunge = channel(rig.root, ChannelPath::Translation);
    lunge.times = {0.0f, 0.7f, 0.85f, 1.6f};
    lunge.values = {glm::vec4(0), glm::vec4(0, 0, 0.15f, 0), glm::vec4(0, 0, 0.5f, 0), glm::vec4(0)};
    clip.channels.push_back(std::move(lunge));
    Channel puff = channel(rig.head, ChannelPath::Scale);
    puff.times = {0.0f, 0.6f, 0.75f, 1.6f};
    puff.values = {glm::vec4(1), glm::vec4(1.15f, 1.1f, 1.2f, 0), glm::vec4(1.15f, 1.1f, 1.2f, 0), glm::vec4(1)};
    clip.channels.push_back(std::move(puff));
    Channel snap = channel(rig.jaw, ChannelPath::Rotation, Interpolation::Step);
    snap.times = {0.0f, 0.7f, 0.9f};
    for (float angle : {0.0f, 0.6f, 0.0f}) snap.values.push_back(q4(localTurn(s, rig.jaw, glm::vec3(1, 0, 0), angle)));
    clip.channels.push_back(std::move(snap));
    for (const LegJoints& leg : rig.legs) {
        if (leg.pair + 2 < rig.spine.size()) continue; // the front pairs strike
        Channel raise = channel(leg.femur, ChannelPath::Rotation);
        raise.times = {0.0f, 0.5f, 0.8f, 1.6f};
        for (float angle : {0.0f, 0.7f, -0.2f, 0.0f})
            raise.values.push_back(q4(localTurn(s, leg.femur, glm::vec3(0, 0, leg.side), angle)));
        clip.channels.push_back(std::move(raise));
    }
    return clip;
}

// MonsterParams::morphTargets: target t pushes each vertex out along its normal by a tenth of the
// body's half-length where cos(pi (x - centre of band t) / band width) is positive, bands
// spread evenly along the body's x; `walk`'s weights bring each band up in turn, once a step.
void addSwellings(Mesh& mesh, uint32_t targets, Clip& walk) {
    MeshArrays& a = mesh.arrays();
    const uint32_t n = mesh.vertexCount();
    float lo = a.positions[0].x, hi = lo;
    for (uint32_t v = 0; v < n; ++v) lo = std::min(lo, a.positions[v].x), hi = std::max(hi, a.positions[v].x);
    const float length = std::max(hi - lo, 1e-6f), width = length / float(targets);
    for (uint32_t t = 0; t < targets; ++t) {
        const float centre = lo + (float(t) + 0.5f) * width;
        for (uint32_t v = 0; v < n; ++v) {
            const float phase = std::numbers::pi_v<float> * (a.positions[v].x - centre) / width;
            const float bulge = std::abs(phase) < 0.5f * std::numbers::pi_v<float> ? std::cos(phase) : 0.0f;
            a.morphPositions[size_t(t) * n + v] = a.normals[v] * (0.05f * length * bulge);
        }
    }
    MorphChannel swell{mesh.node, Interpolation::Linear, targets, {}, {}};
    for (uint32_t k = 0; k <= targets; ++k) {
        swell.times.push_back(walk.duration * float(k) / float(targets));
        for (uint32_t t = 0; t < targets; ++t) swell.values.push_back(t == k % targets ? 1.0f : 0.0f);
    }
    mesh.morphWeights.assign(targets, 0.0f);
    walk.morphs.push_back(std::move(swell));
}

} // namespace

MeshLayout monsterLayout(const MonsterParams& p) {
    Model scratch;
    Rig rig = buildRig(scratch, p);
    MeshLayout layout;
    layout.skinned = true;
    layout.uvSets = 1;
    layout.moreInfluences = p.influences > 4;
    layout.morphTargets = p.morphTargets;
    for (const Tube& t : rig.tubes) {
        layout.vertexCount += tubeVertices(t, p);
        layout.indexCount += tubeIndices(t, p);
    }
    return layout;
}

Model buildMonster(MeshAllocator& allocator, const MonsterParams& params) {
    MonsterParams p = params;
    p.legPairs = std::max(p.legPairs, 2u);
    p.sides = std::max(p.sides, 3u);
    p.ringsPerBone = std::max(p.ringsPerBone, 1u);
    Model model;
    model.format = "builtin";
    Rig rig = buildRig(model, p);

    Skin skin;
    for (uint32_t n = 0; n < model.nodes.size(); ++n) {
        skin.joints.push_back(n);
        skin.inverseBind.push_back(glm::inverse(rig.skeleton.bind[n]));
    }
    model.skins.push_back(std::move(skin));

    Mesh mesh;
    mesh.name = "monster";
    mesh.node = rig.root;
    mesh.skin = 0;
    mesh.storage = allocator.allocate(monsterLayout(p), mesh.name);
    MeshArrays& a = mesh.arrays();
    std::vector<std::vector<uint32_t>> submeshIndices(3);
    uint32_t vertex = 0;
    for (const Tube& t : rig.tubes) writeTube(t, p, a, vertex, submeshIndices);
    const char* materials[] = {"hide", "legs", "bone"};
    uint32_t at = 0;
    for (size_t s = 0; s < submeshIndices.size(); ++s) {
        mesh.submeshes.push_back({materials[s], at, uint32_t(submeshIndices[s].size())});
        for (uint32_t i : submeshIndices[s]) a.setIndex(at++, i);
        // Defined here, white and untextured: each draws its name's palette colour.
        model.materials.push_back({.name = materials[s]});
    }
    model.clips.push_back(walk(rig));
    model.clips.push_back(attack(rig));
    if (p.morphTargets > 0) addSwellings(mesh, p.morphTargets, model.clips[0]);
    model.meshes.push_back(std::move(mesh));
    finalizeMeshes(model);
    for (Mesh& m : model.meshes) m.storage->commit();
    return model;
}

std::shared_ptr<const Texture> monsterSkin(uint32_t size) {
    // Scales: rows of round cells, every other row shifted by half a cell, each darker towards
    // its rim; 16 cells across so they stay visible on a crowd-sized monster.
    std::vector<uint8_t> level(size_t(size) * size * 4);
    const float cells = 16.0f;
    for (uint32_t y = 0; y < size; ++y)
        for (uint32_t x = 0; x < size; ++x) {
            float v = (float(y) + 0.5f) / float(size) * cells;
            float u = (float(x) + 0.5f) / float(size) * cells + (int(v) % 2 ? 0.5f : 0.0f);
            float du = u - std::floor(u) - 0.5f, dv = v - std::floor(v) - 0.3f;
            float shade = 1.0f - std::min(std::sqrt(du * du + dv * dv) * 1.4f, 1.0f) * 0.6f;
            const float base[3] = {0.86f, 0.80f, 0.66f};
            uint8_t* t = &level[(size_t(y) * size + x) * 4];
            for (int c = 0; c < 3; ++c)
                t[c] = uint8_t(std::lround(255.0f * base[c] * shade));
            t[3] = 255;
        }
    return std::make_shared<Texture>(rgba8WithMips("monster skin (generated)", size, std::move(level)));
}

void skinMonster(Model& model, std::shared_ptr<const Texture> skin) {
    static constexpr glm::vec4 tints[] = {
        {0.95f, 0.62f, 0.48f, 1.0f}, {0.62f, 0.80f, 0.52f, 1.0f}, {1.0f, 1.0f, 0.95f, 1.0f}};
    for (size_t m = 0; m < model.materials.size(); ++m) {
        Material& material = model.materials[m];
        material.baseColor = tints[m % 3];
        material.textures = {{TextureSlot::Base, skin->file, skin->file, skin}};
    }
}

} // namespace horde
