// The ASCII MDL writer: the binary writer's plan (write_plan.cpp) as text. Each mesh piece is
// written with one position, normal and texture vertex per vertex and faces that name vertex i
// for both, so the reader's vertices (ordered by position index) come back in the same order.
#include "nwn/nwn.h"

#include <charconv>
#include <cmath>
#include <fstream>

namespace horde::nwn {

namespace {
class Out {
  public:
    // The shortest text that reads back to the same float (to_chars round-trips exactly).
    Out& operator<<(float f) {
        char text[32];
        auto end = std::to_chars(text, text + sizeof text, f + 0.0f).ptr; // + 0 writes -0 as 0
        s.push_back(' ');
        s.append(text, end);
        return *this;
    }
    Out& operator<<(std::string_view text) {
        s.append(text);
        return *this;
    }
    Out& operator<<(size_t n) {
        s.push_back(' ');
        s.append(std::to_string(n));
        return *this;
    }
    Out& operator<<(glm::vec3 v) { return *this << v.x << v.y << v.z; }
    std::string s;
};

// Quaternion x, y, z, w -> axis and angle; the angle covers [0, 2 pi] so the sign of the
// quaternion (which slerp between keys depends on) survives.
glm::vec4 axisAngle(glm::vec4 q) {
    glm::vec3 v(q);
    float s = glm::length(v);
    if (s == 0.0f) return {1, 0, 0, 0};
    float angle = 2.0f * std::atan2(s, q.w);
    return {v.x / s, v.y / s, v.z / s, angle};
}

void value(Out& out, const float* v, int columns) {
    if (columns == 4) {
        glm::vec4 a = axisAngle({v[0], v[1], v[2], v[3]});
        out << a.x << a.y << a.z << a.w;
        return;
    }
    for (int i = 0; i < columns; ++i)
        out << v[i];
}

void rest(Out& out, const PlannedNode& n) {
    out << "  position" << n.translation << "\n  orientation";
    value(out, &n.rotation.x, 4);
    out << "\n";
    if (n.scale != 1.0f) out << "  scale" << n.scale << "\n";
}

class Writer {
  public:
    Writer(const Model& model, const Plan& plan) : model_(model), plan_(plan) {}
    std::string text();

  private:
    void node(size_t index);
    void mesh(const PlannedNode& n);
    void keys(const Channel& ch);

    const Model& model_;
    const Plan& plan_;
    Out out_;
};

void Writer::mesh(const PlannedNode& n) {
    const Mesh& mesh = model_.meshes[size_t(n.mesh)];
    const MeshPiece& piece = plan_.pieces[size_t(n.piece)];
    const MeshArrays& a = mesh.arrays();
    const AxisChange& c = plan_.change;
    const size_t count = piece.vertices.size();
    const glm::mat4 space = pieceSpace(model_, plan_, size_t(&n - plan_.nodes.data()));
    const glm::vec4 colour = materialColour(model_, piece.material);
    out_ << "  bitmap " << (piece.material.empty() ? std::string("NULL") : piece.material) << "\n  diffuse "
         << glm::vec3(colour) << "\n";
    if (colour.a < 1.0f) out_ << "  alpha " << colour.a << "\n";
    out_ << "  verts" << count << "\n";
    for (uint32_t v : piece.vertices)
        out_ << "   " << glm::vec3(space * glm::vec4(c.point(a.positions[v]), 1.0f)) << "\n";
    out_ << "  normals" << count << "\n";
    for (uint32_t v : piece.vertices)
        out_ << "   " << turnNormal(space, c.direction(a.normals[v])) << "\n";
    const uint32_t uvSets = mesh.layout().uvSets;
    for (uint32_t set = 0; set < uvSets; ++set) {
        out_ << (set == 0 ? "  tverts" : "  tverts1") << count << "\n";
        for (uint32_t v : piece.vertices) {
            glm::vec2 uv = set == 0 ? a.uv0[v] : a.uv1[v];
            out_ << "   " << uv.x << uv.y << 0.0f << "\n";
        }
    }
    if (mesh.layout().colors) {
        out_ << "  colors" << count << "\n"; // RGB: the format has no vertex alpha
        for (uint32_t v : piece.vertices)
            out_ << "   " << glm::vec3(a.colors[v]) << "\n";
    }
    out_ << "  faces" << piece.indices.size() / 3 << "\n";
    for (size_t f = 0; f < piece.indices.size(); f += 3) {
        size_t i0 = piece.indices[f], i1 = piece.indices[f + 1], i2 = piece.indices[f + 2];
        // Smoothing group 1, material 0; texture vertices are the positions' own.
        out_ << "  " << i0 << i1 << i2 << size_t(1) << i0 << i1 << i2 << size_t(0) << "\n";
    }
    if (mesh.dangly && !mesh.skinned()) {
        const Dangly& d = *mesh.dangly;
        out_ << "  displacement" << d.displacement << "\n  tightness" << d.tightness << "\n  period" << d.period
             << "\n  constraints" << count << "\n";
        for (uint32_t v : piece.vertices)
            out_ << "  " << d.constraints[v] << "\n";
    }
    if (!mesh.skinned()) return;
    out_ << "  weights" << count << "\n";
    for (size_t v = 0; v < count; ++v) {
        out_ << "  ";
        for (int k = 0; k < 4; ++k)
            if (piece.boneRefs[v][k] >= 0)
                out_ << " " << plan_.nodes[piece.bones[size_t(piece.boneRefs[v][k])]].name
                     << piece.weights[v][k];
        out_ << "\n";
    }
}

void Writer::node(size_t index) {
    const PlannedNode& n = plan_.nodes[index];
    const bool isMesh = n.piece >= 0;
    const Mesh* drawn = isMesh ? &model_.meshes[size_t(n.mesh)] : nullptr;
    const char* type = !drawn ? "dummy" : drawn->skinned() ? "skin" : drawn->dangly ? "danglymesh" : "trimesh";
    out_ << "node " << type << " " << n.name << "\n  parent "
         << (n.parent < 0 ? std::string("NULL") : plan_.nodes[size_t(n.parent)].name) << "\n";
    rest(out_, n);
    if (isMesh) mesh(n);
    out_ << "endnode\n";
    for (uint32_t child : n.children)
        node(child);
}

void Writer::keys(const Channel& source) {
    const bool resample = source.path == ChannelPath::Rotation &&
                          source.interpolation == Interpolation::CubicSpline && !rotationBezierIsExact(source);
    KeyRows rows = channelRows(resample ? resampleRotation(source) : source, plan_.change);
    const char* base = rows.type == kPosition      ? "position"
                       : rows.type == kOrientation ? "orientation"
                                                   : "scale";
    out_ << "    " << base << (rows.bezier ? "bezierkey" : "key") << rows.times.size() << "\n";
    const size_t perRow = size_t(rows.columns) * (rows.bezier ? 3 : 1);
    for (size_t k = 0; k < rows.times.size(); ++k) {
        out_ << "     " << rows.times[k];
        for (size_t part = 0; part < perRow; part += size_t(rows.columns))
            value(out_, &rows.values[k * perRow + part], rows.columns);
        out_ << "\n";
    }
}

std::string Writer::text() {
    const std::string& name = plan_.name;
    out_ << "# ASCII MDL written by horde (docs/formats/nwn.md)\nnewmodel " << name << "\nsetsupermodel "
         << name << " NULL\nclassification character\nsetanimationscale" << 1.0f << "\nbeginmodelgeom "
         << name << "\n";
    node(0);
    out_ << "endmodelgeom " << name << "\n";
    for (const Clip& clip : model_.clips) {
        out_ << "newanim " << clip.name << " " << name << "\n  length" << clip.duration << "\n  transtime"
             << transitionOf(clip) << "\n  animroot " << plan_.nodes[0].name << "\n";
        std::vector<std::vector<const Channel*>> byNode(plan_.nodes.size());
        for (const Channel& ch : clip.channels)
            byNode[plan_.fileIndex[ch.node]].push_back(&ch);
        for (size_t i = 0; i < plan_.nodes.size(); ++i) {
            const PlannedNode& n = plan_.nodes[i];
            if (n.source < 0 && n.parent >= 0) continue; // pieces the writer adds carry no keys
            out_ << "  node dummy " << n.name << "\n    parent "
                 << (n.parent < 0 ? std::string("NULL") : plan_.nodes[size_t(n.parent)].name) << "\n";
            for (const Channel* ch : byNode[i])
                keys(*ch);
            out_ << "  endnode\n";
        }
        out_ << "doneanim " << clip.name << " " << name << "\n";
    }
    out_ << "donemodel " << name << "\n";
    return std::move(out_.s);
}
} // namespace

Result<Companions> writeAscii(const Model& model, const std::filesystem::path& path) {
    Result<Plan> plan = planModel(model, path);
    if (!plan) return plan.error();
    if (Status st = checkNameBinding(model, *plan, true); !st)
        return Error{path.string() + ": " + st.error().message};
    // Names are tokens of the text.
    auto token = [](const std::string& s) {
        return !s.empty() && s.find_first_of(" \t\r\n#") == std::string::npos;
    };
    for (const PlannedNode& n : plan->nodes)
        if (!token(n.name))
            return Error{path.string() + ": node name '" + n.name +
                         "' cannot be written as one ASCII MDL token"};
    for (const Clip& clip : model.clips)
        if (!token(clip.name))
            return Error{path.string() + ": clip name '" + clip.name +
                         "' cannot be written as one ASCII MDL token"};
    std::string text = Writer(model, *plan).text();
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    file.write(text.data(), std::streamsize(text.size()));
    if (!file) return Error{path.string() + ": cannot write"};
    return Companions{}; // one file holds everything
}

} // namespace horde::nwn
