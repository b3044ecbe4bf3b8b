// The ASCII MDL grammar: the model's header lines, its geometry's nodes and its animations, read
// line by line into AsciiModel. Meaning (node order, vertices, clips) is given in load_ascii.cpp
// and decode_ascii_mesh.cpp.
#include "nwn/nwn.h"

#include <cctype>
#include <cmath>

namespace horde::nwn {

namespace {
bool is(std::string_view word, std::string_view keyword) {
    if (word.size() != keyword.size()) return false;
    for (size_t i = 0; i < word.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(word[i])) != keyword[i]) return false;
    return true;
}

bool endsWith(std::string_view word, std::string_view suffix) {
    return word.size() >= suffix.size() && is(word.substr(word.size() - suffix.size()), suffix);
}

// A line that starts with a number continues the data of the keyword before it.
bool isData(std::string_view word) {
    char c = word.empty() ? 'x' : word[0];
    return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.';
}

void skipLine(AsciiModel& m, TextAt at, std::string_view word) {
    if (isData(word)) return;
    if (m.skipped++ == 0) {
        m.firstSkipped = at;
        m.firstSkippedWord = Text::quote(word);
    }
}

std::string name(Text& t, std::string_view field) {
    std::string_view w = t.word();
    if (w.empty()) t.fail(field, "expected a name");
    return std::string(w);
}

std::string nameOrNull(Text& t, std::string_view field) {
    std::string n = name(t, field);
    return asciiLower(n) == "null" ? std::string() : n;
}

// Axis and angle (radians) -> quaternion x, y, z, w. A zero axis is no rotation.
glm::vec4 axisAngle(glm::vec3 axis, float angle) {
    float length = glm::length(axis);
    if (length == 0.0f) return {0, 0, 0, 1};
    glm::vec3 v = axis / length * std::sin(angle * 0.5f);
    return {v.x, v.y, v.z, std::cos(angle * 0.5f)};
}

// Reads one controller value of `path` from the rest of the line.
glm::vec4 value(Text& t, ChannelPath path, std::string_view field) {
    switch (path) {
    case ChannelPath::Translation: {
        float x = t.number(field), y = t.number(field), z = t.number(field);
        return {x, y, z, 0.0f};
    }
    case ChannelPath::Rotation: {
        float x = t.number(field), y = t.number(field), z = t.number(field), a = t.number(field);
        return axisAngle({x, y, z}, a);
    }
    case ChannelPath::Scale: {
        float s = t.number(field);
        return {s, s, s, 0.0f};
    }
    }
    return {};
}

bool lineEnds(Text& t, std::string_view field) {
    std::string_view extra = t.peek();
    return extra.empty() || t.fail(field, "unexpected '" + Text::quote(extra) + "' after the values");
}

bool controllerPath(std::string_view base, ChannelPath& path) {
    if (is(base, "position"))
        path = ChannelPath::Translation;
    else if (is(base, "orientation"))
        path = ChannelPath::Rotation;
    else if (is(base, "scale"))
        path = ChannelPath::Scale;
    else
        return false;
    return true;
}

// Rows of a keyed controller: `count` of them, or (no count) up to `endlist`. Controllers horde
// does not animate (colours, emitter and light keys) are read past.
bool readKeys(Text& t, std::string_view keyword, AsciiNode& n) {
    const bool bezier = endsWith(keyword, "bezierkey");
    std::string_view base = keyword.substr(0, keyword.size() - (bezier ? 9 : 3));
    ChannelPath path{};
    const bool kept = controllerPath(base, path);
    const std::string field(keyword);
    const bool counted = !t.peek().empty();
    const uint32_t rows = counted ? t.count(field) : 0;
    if (!lineEnds(t, field)) return false;
    Track track;
    track.path = path;
    track.interpolation = bezier ? Interpolation::CubicSpline : Interpolation::Linear;
    std::vector<glm::vec4> controls;
    for (uint32_t k = 0; counted ? k < rows : true; ++k) {
        if (!t.nextLine())
            return t.fail(field, "the text ends inside the key list (" + std::to_string(k) + " rows read)");
        if (!counted && is(t.peek(), "endlist")) break;
        if (!kept) {
            // Keys with no values (an emitter's detonate) leave a count and no rows.
            if (!isData(t.peek())) {
                t.unreadLine();
                break;
            }
            continue;
        }
        TextAt at = t.at();
        float time = t.number(field);
        if (!track.times.empty() && time < track.times.back())
            return t.failAt(at, field, "key times decrease");
        track.times.push_back(time);
        for (int part = 0; part < (bezier ? 3 : 1); ++part)
            controls.push_back(value(t, path, field));
        if (!lineEnds(t, field)) return false;
    }
    if (!kept || track.times.empty()) return t.ok();
    track.values = bezier ? bezierToCubicSpline(track.times, controls) : std::move(controls);
    n.tracks.push_back(std::move(track));
    return t.ok();
}

template <class Row>
bool readRows(Text& t, std::string_view field, std::vector<Row>& out, Row (*read)(Text&, std::string_view)) {
    const uint32_t rows = t.count(field);
    if (!lineEnds(t, field)) return false;
    out.clear();
    out.reserve(rows);
    for (uint32_t k = 0; k < rows; ++k) {
        if (!t.nextLine())
            return t.fail(field, "the text ends after " + std::to_string(k) + " of " + std::to_string(rows) +
                                     " rows");
        out.push_back(read(t, field));
        if (!t.ok()) return false;
    }
    return true;
}

glm::vec3 vec3Row(Text& t, std::string_view field) {
    glm::vec3 v;
    v.x = t.number(field), v.y = t.number(field), v.z = t.number(field);
    lineEnds(t, field);
    return v;
}

// Texture vertices may carry a third coordinate (always 0 in NWN files); it is read past.
glm::vec2 vec2Row(Text& t, std::string_view field) {
    glm::vec2 v;
    v.x = t.number(field), v.y = t.number(field);
    if (!t.peek().empty()) t.number(field);
    lineEnds(t, field);
    return v;
}

AsciiFace faceRow(Text& t, std::string_view field) {
    AsciiFace f;
    for (uint32_t& v : f.v)
        v = t.integer(field);
    f.group = t.bits(field);
    for (uint32_t& v : f.t)
        v = t.integer(field);
    t.bits(field); // material (walkmesh surface)
    lineEnds(t, field);
    return f;
}

float floatRow(Text& t, std::string_view field) {
    float v = t.number(field);
    lineEnds(t, field);
    return v;
}

bool readWeights(Text& t, AsciiMesh& mesh) {
    const std::string_view field = "weights";
    const uint32_t rows = t.count(field);
    if (!lineEnds(t, field)) return false;
    std::unordered_map<std::string, uint32_t> bones;
    mesh.weights.reserve(rows);
    for (uint32_t k = 0; k < rows; ++k) {
        if (!t.nextLine())
            return t.fail(field, "the text ends after " + std::to_string(k) + " of " + std::to_string(rows) +
                                     " rows");
        AsciiWeights w;
        while (!t.peek().empty()) {
            if (w.count == 4) return t.fail(field, "more than four bone and weight pairs");
            std::string bone = asciiLower(t.word());
            auto [it, added] = bones.emplace(bone, uint32_t(mesh.bones.size()));
            if (added) mesh.bones.push_back(bone);
            w.bone[w.count] = it->second;
            w.weight[int(w.count)] = t.number(field);
            ++w.count;
        }
        if (!t.ok()) return false;
        mesh.weights.push_back(w);
    }
    return true;
}

uint32_t flagsOf(std::string_view type) {
    if (is(type, "dummy") || is(type, "patch")) return kHasHeader;
    if (is(type, "trimesh")) return kHasHeader | kHasMesh;
    if (is(type, "skin")) return kHasHeader | kHasMesh | kHasSkin;
    if (is(type, "danglymesh")) return kHasHeader | kHasMesh | kHasDangly;
    if (is(type, "animmesh")) return kHasHeader | kHasMesh | kHasAnim;
    if (is(type, "aabb")) return kHasHeader | kHasMesh | kHasAABB;
    if (is(type, "light")) return kHasHeader | kHasLight;
    if (is(type, "emitter")) return kHasHeader | kHasEmitter;
    if (is(type, "reference")) return kHasHeader | kHasReference;
    if (is(type, "camera")) return kHasHeader | kHasCamera;
    return 0;
}

// Mesh keywords; false when `k` is none of them.
bool readMeshLine(Text& t, std::string_view k, AsciiMesh& mesh) {
    if (is(k, "bitmap") || is(k, "texture0"))
        mesh.bitmap = nameOrNull(t, k);
    else if (is(k, "diffuse"))
        for (int c = 0; c < 3; ++c) mesh.diffuse[c] = t.number(k);
    else if (is(k, "alpha"))
        mesh.alpha = t.number(k);
    else if (is(k, "render"))
        mesh.render = t.integer(k) != 0;
    else if (is(k, "verts"))
        readRows(t, "verts", mesh.verts, vec3Row);
    else if (is(k, "normals"))
        mesh.normalsAt = t.at(), readRows(t, "normals", mesh.normals, vec3Row);
    else if (is(k, "tverts") || is(k, "tverts0"))
        readRows(t, "tverts", mesh.tverts[0], vec2Row);
    else if (is(k, "tverts1"))
        readRows(t, "tverts1", mesh.tverts[1], vec2Row);
    else if (is(k, "faces"))
        mesh.facesAt = t.at(), readRows(t, "faces", mesh.faces, faceRow);
    else if (is(k, "weights"))
        mesh.weightsAt = t.at(), readWeights(t, mesh);
    else if (is(k, "constraints"))
        mesh.constraintsAt = t.at(), readRows(t, "constraints", mesh.constraints, floatRow);
    else if (is(k, "displacement"))
        mesh.dangle[0] = t.number(k);
    else if (is(k, "tightness"))
        mesh.dangle[1] = t.number(k);
    else if (is(k, "period"))
        mesh.dangle[2] = t.number(k);
    else if (is(k, "colors"))
        mesh.colorsAt = t.at(), readRows(t, "colors", mesh.colors, vec3Row);
    else
        return false;
    return true;
}

// From `node <type> <name>` to `endnode`.
bool readNode(Text& t, TextAt at, bool animation, AsciiModel& m, AsciiNode& n) {
    n.at = at;
    n.type = asciiLower(name(t, "node type"));
    n.name = name(t, "node name");
    if (!t.ok()) return false;
    n.flags = flagsOf(n.type);
    // Other types (a placeable's walkmesh "pwk", a door's "dwk" ...) are kept as dummies and reported.
    n.unknownType = n.flags == 0;
    if (n.unknownType) n.flags = kHasHeader;
    if ((n.flags & kHasMesh) && !animation) n.mesh = std::make_unique<AsciiMesh>();
    while (t.nextLine()) {
        TextAt lineAt = t.at();
        std::string_view k = t.word();
        if (is(k, "endnode")) return true;
        if (is(k, "node") || is(k, "endmodelgeom") || is(k, "doneanim") || is(k, "newanim") ||
            is(k, "donemodel"))
            return t.failAt(lineAt, "endnode",
                            "node '" + Text::quote(n.name) + "' (line " + std::to_string(at.line) +
                                ") is not closed before '" + Text::quote(k) + "'");
        ChannelPath path{};
        if (is(k, "parent")) {
            n.parentAt = t.at();
            n.parent = nameOrNull(t, "parent");
        } else if (controllerPath(k, path)) {
            glm::vec4 v = value(t, path, k);
            if (!lineEnds(t, k)) return false;
            int bit = path == ChannelPath::Translation ? 1 : path == ChannelPath::Rotation ? 2 : 4;
            n.single |= uint32_t(bit);
            if (path == ChannelPath::Translation)
                n.position = glm::vec3(v);
            else if (path == ChannelPath::Rotation)
                n.orientation = v;
            else
                n.scale = v.x;
        } else if (endsWith(k, "key") && k.size() > 3) {
            readKeys(t, k, n);
        } else if (!(n.mesh && readMeshLine(t, k, *n.mesh)) && !is(k, "endlist")) {
            skipLine(m, lineAt, k);
        }
        if (!t.ok()) return false;
    }
    return t.fail("endnode", "the text ends inside node '" + Text::quote(n.name) + "' (line " +
                                 std::to_string(at.line) + ")");
}

// From `newanim <name> <model>` to `doneanim`.
bool readAnim(Text& t, TextAt at, AsciiModel& m, AsciiAnim& a) {
    a.name = name(t, "newanim");
    while (t.ok() && t.nextLine()) {
        TextAt lineAt = t.at();
        std::string_view k = t.word();
        if (is(k, "doneanim")) return true;
        if (is(k, "length"))
            a.length = t.number("length");
        else if (is(k, "transtime"))
            a.transition = t.number("transtime");
        else if (is(k, "animroot"))
            a.root = name(t, "animroot");
        else if (is(k, "event")) {
            float time = t.number("event");
            a.events.emplace_back(time, name(t, "event"));
        } else if (is(k, "node")) {
            readNode(t, lineAt, true, m, a.nodes.emplace_back());
        } else if (is(k, "newanim") || is(k, "donemodel")) {
            return t.failAt(lineAt, "doneanim",
                            "animation '" + Text::quote(a.name) + "' (line " + std::to_string(at.line) +
                                ") is not closed before '" + Text::quote(k) + "'");
        } else {
            skipLine(m, lineAt, k);
        }
    }
    return t.fail("doneanim", "the text ends inside animation '" + Text::quote(a.name) + "' (line " +
                                  std::to_string(at.line) + ")");
}
} // namespace

bool parseAscii(Text& t, AsciiModel& m) {
    bool named = false, inGeometry = false;
    while (t.nextLine()) {
        TextAt at = t.at();
        std::string_view k = t.word();
        if (is(k, "newmodel")) {
            m.name = name(t, "newmodel");
            named = true;
        } else if (is(k, "setsupermodel")) {
            // setsupermodel <model> <supermodel>
            std::string first = name(t, "setsupermodel");
            m.supermodel = t.peek().empty() ? first : nameOrNull(t, "setsupermodel");
            if (asciiLower(m.supermodel) == "null") m.supermodel.clear();
        } else if (is(k, "classification")) {
            name(t, "classification"); // character, tile, effect ...: nothing horde draws differently
        } else if (is(k, "setanimationscale")) {
            m.animationScale = t.number("setanimationscale");
        } else if (is(k, "beginmodelgeom")) {
            inGeometry = true;
        } else if (is(k, "endmodelgeom")) {
            inGeometry = false;
        } else if (is(k, "node")) {
            if (!inGeometry)
                return t.failAt(at, "node",
                                "outside beginmodelgeom ... endmodelgeom and outside any animation");
            readNode(t, at, false, m, m.nodes.emplace_back());
        } else if (is(k, "newanim")) {
            AsciiAnim& a = m.anims.emplace_back();
            if (readAnim(t, at, m, a) && a.length < 0.0f)
                t.failAt(at, "length", "negative in animation '" + Text::quote(a.name) + "'");
        } else if (is(k, "donemodel")) {
            std::string_view closing = t.peek();
            if (!named) return t.failAt(at, "newmodel", "missing before donemodel");
            if (!closing.empty() && asciiLower(closing) != asciiLower(m.name))
                return t.fail("donemodel",
                              "'" + Text::quote(closing) + "' closes model '" + Text::quote(m.name) + "'");
            return true;
        } else {
            skipLine(m, at, k);
        }
        if (!t.ok()) return false;
    }
    return t.fail("donemodel", "the text ends before donemodel");
}

} // namespace horde::nwn
