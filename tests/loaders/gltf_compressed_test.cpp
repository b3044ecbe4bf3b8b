// glTF's compressed geometry against a mesh made by hand: the mesh is written by the
// compressors' own encoders (draco::Encoder; meshoptimizer's meshopt_encodeVertexBuffer,
// IndexBuffer, IndexSequence and filter encoders) into files laid out as
// KHR_draco_mesh_compression and EXT_meshopt_compression say, loaded by horde and compared with
// the hand-made values. Corrupt and forged streams fail naming the file, the bufferView and the
// extension; extensions horde does not read are refused by name. With HORDE_GLTF_SEEDS set to a
// folder, the compressed files are also written there (tests/fuzz/seeds/gltf holds them).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>

#include <draco/compression/decode.h>
#include <draco/compression/encode.h>
#include <glm/gtc/quaternion.hpp>
#include <gtest/gtest.h>
#include <meshoptimizer.h>
#include <nlohmann/json.hpp>

#include "loader.h"
#include "model/validate.h"
#include "support/bytes.h"
#include "support/temp_dir.h"

using nlohmann::json;

namespace horde {
namespace {

struct TempDir : test::TempDir {
    TempDir() : test::TempDir("horde_gltf_compressed") {}
};

// ---- The hand-made mesh ----

struct Vertex {
    glm::vec3 position, normal;
    glm::vec2 uv;
    std::array<uint16_t, 4> joints;
    glm::vec4 weights;
};

struct HandMesh {
    std::vector<Vertex> vertices;
    std::vector<uint32_t> indices;
};

// A 5 x 4 grid, two triangles a cell, bent and skinned across two joints.
HandMesh grid() {
    constexpr int nx = 5, nz = 4;
    HandMesh m;
    for (int z = 0; z < nz; ++z)
        for (int x = 0; x < nx; ++x) {
            const float t = float(x) / (nx - 1);
            m.vertices.push_back(
                {{float(x) * 0.5f - 1.0f, 0.25f * std::sin(float(x + 2 * z)), float(z) * 0.5f - 0.75f},
                 glm::normalize(glm::vec3(0.1f * float(x) - 0.2f, 1.0f, 0.3f - 0.1f * float(z))),
                 {t, float(z) / (nz - 1)},
                 {0, 1, 0, 0},
                 {1.0f - t, t, 0.0f, 0.0f}});
        }
    for (uint32_t z = 0; z + 1 < nz; ++z)
        for (uint32_t x = 0; x + 1 < nx; ++x) {
            const uint32_t a = z * nx + x, b = a + 1, c = a + nx, d = c + 1;
            m.indices.insert(m.indices.end(), {a, c, b, b, c, d});
        }
    return m;
}

std::map<uint32_t, float> influences(const MeshArrays& a, uint32_t v) {
    std::map<uint32_t, float> w;
    for (int k = 0; k < 4; ++k)
        if (a.weights[v][k] > 0.0f) w[a.joints[v][k]] += a.weights[v][k];
    return w;
}

struct Tolerance {
    float position = 0, normal = 0, uv = 0;
};

// The loaded mesh is the hand-made one: each loaded vertex is the hand-made vertex nearest to it
// (the grid's points are 0.5 apart), with its attributes within `tol`, and the same triangles
// with the same winding (Draco may reorder vertices and triangles and rotate a triangle's corners).
void expectHandMesh(const Mesh& mesh, const HandMesh& hand, Tolerance tol) {
    const MeshArrays& a = mesh.arrays();
    std::vector<uint32_t> handOf(mesh.vertexCount());
    for (uint32_t v = 0; v < mesh.vertexCount(); ++v) {
        float best = INFINITY;
        for (uint32_t h = 0; h < hand.vertices.size(); ++h) {
            const float d = glm::length(a.positions[v] - hand.vertices[h].position);
            if (d < best) best = d, handOf[v] = h;
        }
        const Vertex& h = hand.vertices[handOf[v]];
        EXPECT_LE(best, tol.position) << "vertex " << v;
        for (int c = 0; c < 3; ++c)
            EXPECT_NEAR(a.normals[v][c], h.normal[c], tol.normal) << "vertex " << v;
        for (int c = 0; c < 2; ++c)
            EXPECT_NEAR(a.uv0[v][c], h.uv[c], tol.uv) << "vertex " << v;
        std::map<uint32_t, float> expected;
        for (int k = 0; k < 4; ++k)
            if (h.weights[k] > 0.0f) expected[h.joints[k]] += h.weights[k];
        EXPECT_EQ(influences(a, v), expected) << "vertex " << v;
    }
    auto canonical = [](std::array<uint32_t, 3> t) {
        while (t[0] != std::min({t[0], t[1], t[2]}))
            t = {t[1], t[2], t[0]};
        return t;
    };
    std::multiset<std::array<uint32_t, 3>> loaded, expected;
    for (size_t i = 0; i + 2 < mesh.indexCount(); i += 3)
        loaded.insert(canonical({handOf[a.index(i)], handOf[a.index(i + 1)], handOf[a.index(i + 2)]}));
    for (size_t i = 0; i + 2 < hand.indices.size(); i += 3)
        expected.insert(canonical({hand.indices[i], hand.indices[i + 1], hand.indices[i + 2]}));
    EXPECT_EQ(loaded, expected);
}

// ---- Files ----

// GLB container (glTF 2.0, "GLB File Format Specification"): JSON chunk padded with spaces,
// BIN chunk with zeros.
std::vector<std::byte> glb(const json& doc, std::vector<uint8_t> bin) {
    std::string text = doc.dump();
    text.resize((text.size() + 3) & ~size_t(3), ' ');
    bin.resize((bin.size() + 3) & ~size_t(3), 0);
    test::Bytes b;
    b.text("glTF").u32(2).u32(uint32_t(12 + 8 + text.size() + 8 + bin.size()));
    b.u32(uint32_t(text.size())).text("JSON").text(text);
    b.u32(uint32_t(bin.size())).text("BIN").u8(0);
    for (uint8_t x : bin)
        b.u8(x);
    return b.data();
}

void writeFile(const std::filesystem::path& path, std::span<const std::byte> bytes) {
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

// A fuzz seed, when asked for.
void seed(const char* name, std::span<const std::byte> bytes) {
    if (const char* dir = std::getenv("HORDE_GLTF_SEEDS"))
        writeFile(std::filesystem::path(dir) / name, bytes);
}

Result<Model> decode(std::span<const std::byte> bytes, HeapMeshAllocator& allocator) {
    Result<Model> model = gltfFormat().readModel("test.glb", bytes, LoadOptions{}, allocator);
    if (!model) return model;
    finalizeMeshes(*model);
    if (Status st = validateModel(*model); !st) return st.error();
    return model;
}

std::string failure(std::span<const std::byte> bytes) {
    HeapMeshAllocator allocator;
    Result<Model> model = decode(bytes, allocator);
    return model ? std::string("loaded") : model.error().message;
}

// The skeleton and the node that places the grid: two joints, the mesh on a skinned node at the
// root (horde hangs it on the skeleton's root).
json skeleton(json doc) {
    doc["asset"] = {{"version", "2.0"}};
    doc["scene"] = 0;
    doc["scenes"] = {{{"nodes", {0, 2}}}};
    doc["nodes"] = {{{"name", "root"}, {"children", {1}}},
                    {{"name", "tip"}, {"translation", {1, 0, 0}}},
                    {{"name", "grid"}, {"mesh", 0}, {"skin", 0}}};
    doc["skins"] = {{{"joints", {0, 1}}}};
    return doc;
}

// ---- KHR_draco_mesh_compression ----

struct DracoStream {
    std::vector<uint8_t> bytes;
    std::map<std::string, uint32_t> ids; // glTF attribute -> Draco unique id
    uint32_t points = 0, faces = 0;
};

DracoStream encodeDraco(const HandMesh& hand, int method, bool quantized) {
    draco::Mesh mesh;
    const auto count = uint32_t(hand.vertices.size());
    mesh.set_num_points(count);
    DracoStream out;
    auto add = [&](const char* name, draco::GeometryAttribute::Type type, draco::DataType dt, int components,
                   size_t size, auto value) {
        draco::GeometryAttribute ga;
        ga.Init(type, nullptr, uint8_t(components), dt, false, int64_t(size), 0);
        const int id = mesh.AddAttribute(ga, true, count);
        for (uint32_t v = 0; v < count; ++v) {
            const auto element = value(hand.vertices[v]);
            mesh.attribute(id)->SetAttributeValue(draco::AttributeValueIndex(v), &element);
        }
        out.ids[name] = mesh.attribute(id)->unique_id();
    };
    add("POSITION", draco::GeometryAttribute::POSITION, draco::DT_FLOAT32, 3, 12,
        [](const Vertex& v) { return v.position; });
    add("NORMAL", draco::GeometryAttribute::NORMAL, draco::DT_FLOAT32, 3, 12,
        [](const Vertex& v) { return v.normal; });
    add("TEXCOORD_0", draco::GeometryAttribute::TEX_COORD, draco::DT_FLOAT32, 2, 8,
        [](const Vertex& v) { return v.uv; });
    add("JOINTS_0", draco::GeometryAttribute::GENERIC, draco::DT_UINT16, 4, 8,
        [](const Vertex& v) { return v.joints; });
    add("WEIGHTS_0", draco::GeometryAttribute::GENERIC, draco::DT_FLOAT32, 4, 16,
        [](const Vertex& v) { return v.weights; });
    for (size_t i = 0; i < hand.indices.size(); i += 3)
        mesh.AddFace({draco::PointIndex(hand.indices[i]), draco::PointIndex(hand.indices[i + 1]),
                      draco::PointIndex(hand.indices[i + 2])});
    draco::Encoder encoder;
    encoder.SetEncodingMethod(method);
    if (quantized) { // as exporters write it
        encoder.SetAttributeQuantization(draco::GeometryAttribute::POSITION, 14);
        encoder.SetAttributeQuantization(draco::GeometryAttribute::NORMAL, 10);
        encoder.SetAttributeQuantization(draco::GeometryAttribute::TEX_COORD, 12);
    }
    draco::EncoderBuffer buffer;
    const draco::Status st = encoder.EncodeMeshToBuffer(mesh, &buffer);
    EXPECT_TRUE(st.ok()) << st.error_msg_string();
    out.bytes.assign(buffer.data(), buffer.data() + buffer.size());
    // The counts the accessors declare are the decoded stream's ("generators should create
    // uncompressed attributes and indices using data that has been decompressed").
    draco::DecoderBuffer in;
    in.Init(buffer.data(), buffer.size());
    draco::Decoder decoder;
    auto decoded = decoder.DecodeMeshFromBuffer(&in);
    EXPECT_TRUE(decoded.ok());
    if (decoded.ok()) {
        out.points = decoded.value()->num_points();
        out.faces = decoded.value()->num_faces();
    }
    return out;
}

json dracoDocument(const DracoStream& s) {
    json accessors = {{{"componentType", 5125}, {"count", s.faces * 3}, {"type", "SCALAR"}},
                      {{"componentType", 5126}, {"count", s.points}, {"type", "VEC3"}},
                      {{"componentType", 5126}, {"count", s.points}, {"type", "VEC3"}},
                      {{"componentType", 5126}, {"count", s.points}, {"type", "VEC2"}},
                      {{"componentType", 5123}, {"count", s.points}, {"type", "VEC4"}},
                      {{"componentType", 5126}, {"count", s.points}, {"type", "VEC4"}}};
    json primitive = {
        {"attributes",
         {{"POSITION", 1}, {"NORMAL", 2}, {"TEXCOORD_0", 3}, {"JOINTS_0", 4}, {"WEIGHTS_0", 5}}},
        {"indices", 0},
        {"extensions", {{"KHR_draco_mesh_compression", {{"bufferView", 0}, {"attributes", s.ids}}}}}};
    return skeleton({{"extensionsUsed", {"KHR_draco_mesh_compression"}},
                     {"extensionsRequired", {"KHR_draco_mesh_compression"}},
                     {"accessors", accessors},
                     {"bufferViews", {{{"buffer", 0}, {"byteLength", s.bytes.size()}}}},
                     {"buffers", {{{"byteLength", s.bytes.size()}}}},
                     {"meshes", {{{"name", "grid"}, {"primitives", {primitive}}}}}});
}

TEST(GltfDraco, EdgebreakerAndSequentialStreamsLoadAsTheHandMadeMesh) {
    const HandMesh hand = grid();
    for (int method : {draco::MESH_EDGEBREAKER_ENCODING, draco::MESH_SEQUENTIAL_ENCODING}) {
        SCOPED_TRACE(method == draco::MESH_EDGEBREAKER_ENCODING ? "edgebreaker" : "sequential");
        const DracoStream stream = encodeDraco(hand, method, false);
        const std::vector<std::byte> file = glb(dracoDocument(stream), stream.bytes);
        if (method == draco::MESH_EDGEBREAKER_ENCODING) seed("draco.glb", file);
        HeapMeshAllocator allocator;
        Result<Model> model = decode(file, allocator);
        ASSERT_TRUE(model) << model.error().message;
        ASSERT_EQ(model->nodes.size(), 2u);
        ASSERT_EQ(model->meshes.size(), 1u);
        EXPECT_EQ(model->meshes[0].skin, 0);
        EXPECT_EQ(model->meshes[0].indexCount(), hand.indices.size());
        expectHandMesh(model->meshes[0], hand, {}); // lossless: every value exact
    }
}

TEST(GltfDraco, QuantizedStreamIsWithinItsQuantization) {
    const HandMesh hand = grid();
    const DracoStream stream = encodeDraco(hand, draco::MESH_EDGEBREAKER_ENCODING, true);
    HeapMeshAllocator allocator;
    Result<Model> model = decode(glb(dracoDocument(stream), stream.bytes), allocator);
    ASSERT_TRUE(model) << model.error().message;
    // 14 bits over the grid's 2-unit extent, 10-bit octahedral normals, 12 bits over [0, 1].
    expectHandMesh(model->meshes[0], hand, {2.0f / (1 << 14), 4.0f / (1 << 10), 1.0f / (1 << 12)});
}

TEST(GltfDraco, CorruptStreamsAndMismatchedAccessorsFailNamingTheExtension) {
    const DracoStream stream = encodeDraco(grid(), draco::MESH_EDGEBREAKER_ENCODING, false);
    // Every cut of the stream: one error naming file, bufferView and extension.
    for (size_t cut = 1; cut < stream.bytes.size(); ++cut) {
        DracoStream shorter = stream;
        shorter.bytes.resize(cut);
        json doc = dracoDocument(stream);
        doc["bufferViews"][0]["byteLength"] = cut;
        doc["buffers"][0]["byteLength"] = cut;
        const std::string e = failure(glb(doc, shorter.bytes));
        EXPECT_EQ(e.rfind("test.glb: mesh 'grid' primitive 0: KHR_draco_mesh_compression: bufferView 0 (" +
                              std::to_string(cut) + " bytes): ",
                          0),
                  0u)
            << cut << ": " << e;
    }
    json doc = dracoDocument(stream);
    doc["accessors"][1]["count"] = stream.points + 1;
    EXPECT_NE(failure(glb(doc, stream.bytes))
                  .find("POSITION (Draco attribute " + std::to_string(stream.ids.at("POSITION")) +
                        "): accessor 1 has count " + std::to_string(stream.points + 1)),
              std::string::npos)
        << failure(glb(doc, stream.bytes));
    doc = dracoDocument(stream);
    doc["accessors"][0]["count"] = 3;
    EXPECT_NE(failure(glb(doc, stream.bytes)).find("indices accessor 0 has count 3"), std::string::npos);
    doc = dracoDocument(stream);
    doc["meshes"][0]["primitives"][0]["extensions"]["KHR_draco_mesh_compression"]["attributes"]["NORMAL"] =
        40;
    EXPECT_NE(failure(glb(doc, stream.bytes)).find("NORMAL (Draco attribute 40): not in the stream"),
              std::string::npos);
    doc = dracoDocument(stream);
    doc["accessors"][4]["componentType"] = 5121; // the stream holds unsigned shorts
    EXPECT_NE(failure(glb(doc, stream.bytes)).find("the stream decodes 4 components of componentType 5123"),
              std::string::npos)
        << failure(glb(doc, stream.bytes));
    doc = dracoDocument(stream);
    doc["meshes"][0]["primitives"][0]["extensions"]["KHR_draco_mesh_compression"]["attributes"]["COLOR_0"] =
        1;
    EXPECT_EQ(failure(glb(doc, stream.bytes)),
              "test.glb: JSON "
              "meshes[0].primitives[0].extensions.KHR_draco_mesh_compression.attributes.COLOR_0: the "
              "primitive has no such attribute");
}

// ---- EXT_meshopt_compression ----

// The streams of one file: compressed bytes in buffer 0, decompressed layouts in buffer 1.
struct MeshoptBuilder {
    std::vector<uint8_t> bin;
    json views = json::array();
    uint64_t decompressed = 0;

    size_t append(std::span<const uint8_t> bytes) {
        bin.resize((bin.size() + 3) & ~size_t(3), 0);
        const size_t at = bin.size();
        bin.insert(bin.end(), bytes.begin(), bytes.end());
        return at;
    }
    // A compressed view of `count` elements of `stride` bytes; returns its index.
    int add(std::span<const uint8_t> compressed, size_t count, size_t stride, const char* mode,
            const char* filter, bool vertexStride) {
        const size_t at = append(compressed);
        json ext = {{"buffer", 0},          {"byteOffset", at}, {"byteLength", compressed.size()},
                    {"byteStride", stride}, {"count", count},   {"mode", mode}};
        if (filter) ext["filter"] = filter;
        json view = {{"buffer", 1},
                     {"byteOffset", decompressed},
                     {"byteLength", count * stride},
                     {"extensions", {{"EXT_meshopt_compression", ext}}}};
        if (vertexStride) view["byteStride"] = stride;
        decompressed += (count * stride + 3) & ~size_t(3);
        views.push_back(view);
        return int(views.size() - 1);
    }
    int attributes(const void* data, size_t count, size_t stride, const char* filter = nullptr,
                   bool vertex = true) {
        std::vector<uint8_t> out(meshopt_encodeVertexBufferBound(count, stride));
        out.resize(meshopt_encodeVertexBuffer(out.data(), out.size(), data, count, stride));
        return add(out, count, stride, "ATTRIBUTES", filter, vertex);
    }
    int triangles(std::span<const uint32_t> indices, size_t vertices) {
        std::vector<uint16_t> narrow(indices.begin(), indices.end());
        std::vector<uint8_t> out(meshopt_encodeIndexBufferBound(indices.size(), vertices));
        out.resize(meshopt_encodeIndexBuffer(out.data(), out.size(), narrow.data(), narrow.size()));
        return add(out, indices.size(), 2, "TRIANGLES", nullptr, false);
    }
    int sequence(std::span<const uint32_t> indices, size_t vertices) {
        std::vector<uint8_t> out(meshopt_encodeIndexSequenceBound(indices.size(), vertices));
        out.resize(meshopt_encodeIndexSequence(out.data(), out.size(), indices.data(), indices.size()));
        return add(out, indices.size(), 4, "INDICES", nullptr, false);
    }
    // An uncompressed view in buffer 0.
    int plain(const void* data, size_t bytes, size_t stride) {
        const size_t at = append({static_cast<const uint8_t*>(data), bytes});
        views.push_back({{"buffer", 0}, {"byteOffset", at}, {"byteLength", bytes}, {"byteStride", stride}});
        return int(views.size() - 1);
    }
};

// The keys of the clip: the tip turns about Y and moves, at three times.
const float kTimes[3] = {0.0f, 0.5f, 1.25f};
glm::quat keyRotation(int k) {
    return glm::angleAxis(0.7f * float(k) - 0.3f, glm::normalize(glm::vec3(0.2f, 1.0f, -0.1f)));
}
glm::vec3 keyTranslation(int k) {
    return glm::vec3(1.0f + 0.25f * float(k), -0.125f * float(k * k), 3.0e-3f * float(k + 1));
}

struct MeshoptFile {
    json doc;
    std::vector<uint8_t> bin;
    int positionView = 0;
};

MeshoptFile meshoptFile(const HandMesh& hand) {
    MeshoptBuilder b;
    const size_t n = hand.vertices.size();
    std::vector<glm::vec3> positions;
    std::vector<glm::vec4> normals; // xyz, w unused: the octahedral filter's input
    std::vector<glm::vec2> uvs;
    std::vector<std::array<uint16_t, 4>> joints;
    std::vector<glm::vec4> weights;
    for (const Vertex& v : hand.vertices) {
        positions.push_back(v.position);
        normals.emplace_back(v.normal, 0.0f);
        uvs.push_back(v.uv);
        joints.push_back(v.joints);
        weights.push_back(v.weights);
    }
    std::vector<int8_t> octahedral(n * 4);
    meshopt_encodeFilterOct(octahedral.data(), n, 4, 8, &normals[0].x);
    const int pos = b.attributes(positions.data(), n, 12);
    const int nor = b.attributes(octahedral.data(), n, 4, "OCTAHEDRAL");
    const int uv = b.attributes(uvs.data(), n, 8);
    const int jnt = b.attributes(joints.data(), n, 8);
    const int wgt = b.plain(weights.data(), n * 16, 16); // beside compressed views, a plain one
    const size_t half = hand.indices.size() / 2;
    const int front = b.triangles(std::span(hand.indices).first(half), n);
    const int back = b.sequence(std::span(hand.indices).subspan(half), n);
    float quats[3][4];
    glm::vec3 moves[3];
    for (int k = 0; k < 3; ++k) {
        const glm::quat q = keyRotation(k);
        quats[k][0] = q.x, quats[k][1] = q.y, quats[k][2] = q.z, quats[k][3] = q.w;
        moves[k] = keyTranslation(k);
    }
    int16_t packed[3][4];
    meshopt_encodeFilterQuat(packed, 3, 8, 16, &quats[0][0]);
    uint32_t exponential[3][3];
    meshopt_encodeFilterExp(exponential, 3, 12, 24, &moves[0].x);
    const int times = b.attributes(kTimes, 3, 4, nullptr, false);
    const int rot = b.attributes(packed, 3, 8, "QUATERNION", false);
    const int move = b.attributes(exponential, 3, 12, "EXPONENTIAL", false);

    auto accessor = [](int view, int componentType, size_t count, const char* type, bool normalized = false) {
        json a = {{"bufferView", view}, {"componentType", componentType}, {"count", count}, {"type", type}};
        if (normalized) a["normalized"] = true;
        return a;
    };
    json accessors = {accessor(pos, 5126, n, "VEC3"),
                      accessor(nor, 5120, n, "VEC3", true),
                      accessor(uv, 5126, n, "VEC2"),
                      accessor(jnt, 5123, n, "VEC4"),
                      accessor(wgt, 5126, n, "VEC4"),
                      accessor(front, 5123, half, "SCALAR"),
                      accessor(back, 5125, hand.indices.size() - half, "SCALAR"),
                      accessor(times, 5126, 3, "SCALAR"),
                      accessor(rot, 5122, 3, "VEC4", true),
                      accessor(move, 5126, 3, "VEC3")};
    json attributes = {{"POSITION", 0}, {"NORMAL", 1}, {"TEXCOORD_0", 2}, {"JOINTS_0", 3}, {"WEIGHTS_0", 4}};
    json doc = skeleton({{"extensionsUsed", {"EXT_meshopt_compression", "KHR_mesh_quantization"}},
                         {"extensionsRequired", {"EXT_meshopt_compression", "KHR_mesh_quantization"}},
                         {"accessors", accessors},
                         {"bufferViews", b.views},
                         {"buffers",
                          {{{"byteLength", (b.bin.size() + 3) & ~size_t(3)}},
                           {{"byteLength", b.decompressed},
                            {"extensions", {{"EXT_meshopt_compression", {{"fallback", true}}}}}}}},
                         {"materials", {{{"name", "front"}}, {{"name", "back"}}}},
                         {"meshes",
                          {{{"name", "grid"},
                            {"primitives",
                             {{{"attributes", attributes}, {"indices", 5}, {"material", 0}},
                              {{"attributes", attributes}, {"indices", 6}, {"material", 1}}}}}}},
                         {"animations",
                          {{{"name", "bend"},
                            {"samplers", {{{"input", 7}, {"output", 8}}, {{"input", 7}, {"output", 9}}}},
                            {"channels",
                             {{{"sampler", 0}, {"target", {{"node", 1}, {"path", "rotation"}}}},
                              {{"sampler", 1}, {"target", {{"node", 1}, {"path", "translation"}}}}}}}}}});
    return {doc, b.bin, pos};
}

// The model of a meshopt file is the hand-made mesh and clip: positions, UVs, joints and
// weights exact (the attribute codec is lossless), normals within the 8-bit octahedral
// encoding, rotations within 16-bit quaternion encoding, translations within a 24-bit mantissa.
void expectMeshoptModel(const Model& model, const HandMesh& hand) {
    ASSERT_EQ(model.meshes.size(), 1u);
    const Mesh& mesh = model.meshes[0];
    ASSERT_EQ(mesh.submeshes.size(), 2u);
    EXPECT_EQ(mesh.submeshes[0].material, "front");
    EXPECT_EQ(mesh.submeshes[1].material, "back");
    ASSERT_EQ(mesh.vertexCount(), hand.vertices.size());
    ASSERT_EQ(mesh.indexCount(), hand.indices.size());
    // meshoptimizer keeps every vertex, every triangle and every index of an INDICES stream where
    // it was; the TRIANGLES codec may start a triangle at another corner (its winding kept).
    for (uint32_t v = 0; v < mesh.vertexCount(); ++v)
        EXPECT_EQ(mesh.arrays().positions[v], hand.vertices[v].position) << v;
    const size_t half = hand.indices.size() / 2;
    for (size_t t = 0; t < half; t += 3) {
        std::array<uint32_t, 3> loaded{mesh.arrays().index(t), mesh.arrays().index(t + 1),
                                       mesh.arrays().index(t + 2)};
        const std::array<uint32_t, 3> expected{hand.indices[t], hand.indices[t + 1], hand.indices[t + 2]};
        for (int turn = 0; turn < 3 && loaded != expected; ++turn)
            loaded = {loaded[1], loaded[2], loaded[0]};
        EXPECT_EQ(loaded, expected) << "triangle " << t / 3;
    }
    for (size_t i = half; i < hand.indices.size(); ++i)
        EXPECT_EQ(mesh.arrays().index(i), hand.indices[i]) << i;
    expectHandMesh(mesh, hand, {0.0f, 2.0f / 127, 0.0f});
    ASSERT_EQ(model.clips.size(), 1u);
    const Clip& clip = model.clips[0];
    EXPECT_EQ(clip.name, "bend");
    ASSERT_EQ(clip.channels.size(), 2u);
    for (const Channel& c : clip.channels) {
        ASSERT_EQ(c.times.size(), 3u);
        for (int k = 0; k < 3; ++k)
            EXPECT_EQ(c.times[k], kTimes[k]);
    }
    for (int k = 0; k < 3; ++k) {
        const glm::vec4 r = clip.channels[0].values[k];
        const glm::quat q = keyRotation(k);
        // The filter stores the double cover's side whose largest component is positive.
        const float sign = glm::dot(glm::vec4(q.x, q.y, q.z, q.w), r) < 0 ? -1.0f : 1.0f;
        for (int c = 0; c < 4; ++c)
            EXPECT_NEAR(r[c], sign * glm::vec4(q.x, q.y, q.z, q.w)[c], 1e-4f) << k;
        const glm::vec3 t = glm::vec3(clip.channels[1].values[k]), expected = keyTranslation(k);
        for (int c = 0; c < 3; ++c)
            EXPECT_NEAR(t[c], expected[c], 2.0f * std::ldexp(1.0f, -23) * 4.0f) << k;
    }
}

TEST(GltfMeshopt, EveryModeAndFilterLoadsAsTheHandMadeMesh) {
    const HandMesh hand = grid();
    MeshoptFile f = meshoptFile(hand);
    const std::vector<std::byte> file = glb(f.doc, f.bin);
    seed("meshopt.glb", file);
    HeapMeshAllocator allocator;
    Result<Model> model = decode(file, allocator);
    ASSERT_TRUE(model) << model.error().message;
    expectMeshoptModel(*model, hand);

    // The placeholder without the fallback flag: a buffer with no uri but the GLB's first.
    f.doc["buffers"][1].erase("extensions");
    model = decode(glb(f.doc, f.bin), allocator);
    ASSERT_TRUE(model) << model.error().message;
    expectMeshoptModel(*model, hand);
}

TEST(GltfMeshopt, GltfWithExternalBuffersSkipsTheFallbackFile) {
    const HandMesh hand = grid();
    MeshoptFile f = meshoptFile(hand);
    const TempDir temp;
    f.doc["buffers"][0]["uri"] = "compressed.bin";
    f.doc["buffers"][1]["uri"] = "fallback.bin"; // not there: a loader that decompresses never reads it
    f.bin.resize(f.doc["buffers"][0]["byteLength"].get<size_t>(), 0);
    writeFile(temp.path / "compressed.bin", std::as_bytes(std::span(f.bin)));
    std::ofstream(temp.path / "grid.gltf") << f.doc.dump();
    HeapMeshAllocator allocator;
    Result<Model> model = loadModel(temp.path / "grid.gltf", {}, allocator);
    ASSERT_TRUE(model) << model.error().message;
    expectMeshoptModel(*model, hand);
}

TEST(GltfMeshopt, CorruptAndForgedStreamsFailNamingTheExtension) {
    const MeshoptFile f = meshoptFile(grid());
    const json& position = f.doc["bufferViews"][f.positionView]["extensions"]["EXT_meshopt_compression"];
    const std::string view = "bufferView " + std::to_string(f.positionView) + ": EXT_meshopt_compression";
    // Every cut of the position stream: the decoder needs its exact length.
    for (size_t cut = 0; cut < position["byteLength"].get<size_t>(); ++cut) {
        json doc = f.doc;
        doc["bufferViews"][f.positionView]["extensions"]["EXT_meshopt_compression"]["byteLength"] = cut;
        const std::string e = failure(glb(doc, f.bin));
        EXPECT_EQ(e.rfind("test.glb: mesh 'grid' primitive 0 POSITION: accessor 0: " + view + ": the " +
                              std::to_string(cut) +
                              "-byte ATTRIBUTES stream does not decode to 20 elements of 12 bytes",
                          0),
                  0u)
            << e;
    }
    std::vector<uint8_t> bin = f.bin;
    bin[position["byteOffset"].get<size_t>()] ^= 0xff; // the header byte
    EXPECT_NE(failure(glb(f.doc, bin)).find(view), std::string::npos) << failure(glb(f.doc, bin));

    auto forged = [&](const std::function<void(json&)>& edit) {
        json doc = f.doc;
        edit(doc);
        return failure(glb(doc, f.bin));
    };
    const std::string ext = "test.glb: JSON bufferViews[5].extensions.EXT_meshopt_compression";
    EXPECT_EQ(
        forged([](json& d) { d["bufferViews"][5]["extensions"]["EXT_meshopt_compression"]["count"] = 31; }),
        ext + ".count: 31 is not a multiple of 3, as TRIANGLES needs");
    EXPECT_EQ(forged([](json& d) {
                  d["bufferViews"][5]["extensions"]["EXT_meshopt_compression"]["byteStride"] = 8;
              }),
              ext + ".byteStride: 8 is not 2 or 4, as TRIANGLES and INDICES need");
    EXPECT_EQ(forged([](json& d) {
                  d["bufferViews"][5]["extensions"]["EXT_meshopt_compression"]["filter"] = "OCTAHEDRAL";
              }),
              ext + ".filter: TRIANGLES and INDICES take no filter");
    EXPECT_EQ(forged([](json& d) {
                  d["bufferViews"][5]["extensions"]["EXT_meshopt_compression"]["mode"] = "STRIPS";
              }),
              ext + ".mode: is \"STRIPS\", not one of ATTRIBUTES, TRIANGLES, INDICES");
    EXPECT_EQ(forged([](json& d) {
                  d["bufferViews"][1]["extensions"]["EXT_meshopt_compression"]["filter"] = "QUATERNION";
              }),
              "test.glb: JSON bufferViews[1].extensions.EXT_meshopt_compression.byteStride: 4 is not one the "
              "filter "
              "takes (OCTAHEDRAL: 4 or 8, QUATERNION: 8)");
    EXPECT_EQ(forged([](json& d) { d["bufferViews"][0]["byteLength"] = 232; }),
              "test.glb: JSON bufferViews[0].extensions.EXT_meshopt_compression: count 20 x byteStride 12 is "
              "not the "
              "bufferView's byteLength 232");
    // A forged count is refused before anything is allocated: 2^40 bytes to decompress.
    const std::string huge = forged([](json& d) {
        d["bufferViews"][0]["byteLength"] = uint64_t(12) << 40;
        d["bufferViews"][0]["extensions"]["EXT_meshopt_compression"]["count"] = uint64_t(1) << 40;
        d["accessors"][0]["count"] = 20;
    });
    EXPECT_NE(huge.find(view + ": 13194139533312 more bytes of decompressed data would pass 128 per byte"),
              std::string::npos)
        << huge;
    // A placeholder holds no bytes: neither a plain bufferView nor a compressed stream may read it.
    EXPECT_NE(forged([](json& d) {
                  d["bufferViews"][4]["buffer"] = 1;
              }).find("bufferView 4 reads buffer 1, a placeholder without data"),
              std::string::npos);
    EXPECT_NE(forged([](json& d) {
                  d["bufferViews"][0]["extensions"]["EXT_meshopt_compression"]["buffer"] = 1;
              }).find(view + ": names buffer 1, a placeholder without data, for its compressed bytes"),
              std::string::npos);
}

// ---- KHR_mesh_quantization, and the extensions horde does not read ----

TEST(GltfQuantization, IntegerAttributesReadAsTheExtensionSays) {
    // One triangle: positions as unnormalized shorts, normals and tangents as normalized bytes
    // (stride 4), UVs as normalized unsigned shorts; expected values from the extension's
    // int-to-float table ("Decoding Quantized Data").
    test::Bytes bin;
    const int16_t positions[3][3] = {{-300, 0, 7}, {1200, -5, 0}, {0, 32767, -32768}};
    for (const auto& p : positions)
        bin.i16(p[0]).i16(p[1]).i16(p[2]).i16(0); // stride 8
    const int8_t normals[3][3] = {{0, 127, 0}, {-128, 0, 0}, {90, 90, 0}};
    for (const auto& n : normals)
        bin.u8(uint8_t(n[0])).u8(uint8_t(n[1])).u8(uint8_t(n[2])).u8(0);
    const int8_t tangents[3][4] = {{127, 0, 0, 127}, {0, 0, 127, -127}, {0, -127, 0, 127}};
    for (const auto& t : tangents)
        bin.u8(uint8_t(t[0])).u8(uint8_t(t[1])).u8(uint8_t(t[2])).u8(uint8_t(t[3]));
    const uint16_t uvs[3][2] = {{0, 65535}, {32768, 1}, {65535, 0}};
    for (const auto& uv : uvs)
        bin.u16(uv[0]).u16(uv[1]);
    std::vector<uint8_t> bytes;
    for (std::byte b : bin.data())
        bytes.push_back(uint8_t(b));
    json doc = {
        {"asset", {{"version", "2.0"}}},
        {"extensionsUsed", {"KHR_mesh_quantization"}},
        {"extensionsRequired", {"KHR_mesh_quantization"}},
        {"nodes", {{{"mesh", 0}}}},
        {"meshes",
         {{{"primitives",
            {{{"attributes", {{"POSITION", 0}, {"NORMAL", 1}, {"TANGENT", 2}, {"TEXCOORD_0", 3}}}}}}}}},
        {"buffers", {{{"byteLength", bytes.size()}}}},
        {"bufferViews",
         {{{"buffer", 0}, {"byteOffset", 0}, {"byteLength", 24}, {"byteStride", 8}},
          {{"buffer", 0}, {"byteOffset", 24}, {"byteLength", 12}, {"byteStride", 4}},
          {{"buffer", 0}, {"byteOffset", 36}, {"byteLength", 12}, {"byteStride", 4}},
          {{"buffer", 0}, {"byteOffset", 48}, {"byteLength", 12}, {"byteStride", 4}}}},
        {"accessors",
         {{{"bufferView", 0}, {"componentType", 5122}, {"count", 3}, {"type", "VEC3"}},
          {{"bufferView", 1}, {"componentType", 5120}, {"normalized", true}, {"count", 3}, {"type", "VEC3"}},
          {{"bufferView", 2}, {"componentType", 5120}, {"normalized", true}, {"count", 3}, {"type", "VEC4"}},
          {{"bufferView", 3},
           {"componentType", 5123},
           {"normalized", true},
           {"count", 3},
           {"type", "VEC2"}}}}};
    HeapMeshAllocator allocator;
    Result<Model> model = decode(glb(doc, bytes), allocator);
    ASSERT_TRUE(model) << model.error().message;
    const MeshArrays& a = model->meshes[0].arrays();
    for (int v = 0; v < 3; ++v) {
        for (int c = 0; c < 3; ++c) {
            EXPECT_EQ(a.positions[v][c], float(positions[v][c])); // unnormalized: the integer's value
            EXPECT_EQ(a.normals[v][c], std::max(float(normals[v][c]) / 127.0f, -1.0f));
        }
        for (int c = 0; c < 4; ++c)
            EXPECT_EQ(a.tangents[v][c], std::max(float(tangents[v][c]) / 127.0f, -1.0f));
        for (int c = 0; c < 2; ++c)
            EXPECT_EQ(a.uv0[v][c], float(uvs[v][c]) / 65535.0f);
    }
}

TEST(GltfExtensions, RequiredExtensionsHordeDoesNotReadAreRefusedByName) {
    const MeshoptFile f = meshoptFile(grid());
    json doc = f.doc;
    doc["extensionsRequired"].push_back("KHR_texture_basisu");
    EXPECT_EQ(failure(glb(doc, f.bin)),
              "test.glb: requires glTF extension KHR_texture_basisu, which horde does not read");
    doc["extensionsRequired"].push_back("KHR_texture_transform");
    EXPECT_EQ(failure(glb(doc, f.bin)), "test.glb: requires glTF extensions KHR_texture_basisu, "
                                        "KHR_texture_transform, which horde does not read");
    // Used but not required, an extension is the file's to fall back from: the file loads.
    // A forged file requiring thousands is named by its first eight.
    doc = f.doc;
    for (int i = 0; i < 1000; ++i)
        doc["extensionsRequired"].push_back("X_" + std::to_string(i));
    EXPECT_EQ(failure(glb(doc, f.bin)),
              "test.glb: requires glTF extensions X_0, X_1, X_2, X_3, X_4, X_5, X_6, X_7 and 992 more, which "
              "horde does not read");
    // KHR_texture_transform on a texture that is only used: the file loads, and says what it
    // draws differently.
    doc = f.doc;
    doc["extensionsUsed"].push_back("KHR_texture_transform");
    doc["textures"] = json::array({json::object()});
    doc["materials"][0]["pbrMetallicRoughness"] = {
        {"baseColorTexture",
         {{"index", 0}, {"extensions", {{"KHR_texture_transform", {{"scale", {2, 2}}}}}}}}};
    HeapMeshAllocator allocator;
    Result<Model> model = decode(glb(doc, f.bin), allocator);
    ASSERT_TRUE(model) << model.error().message;
    EXPECT_NE(
        std::find(
            model->warnings.begin(), model->warnings.end(),
            "material 'front' base texture: its KHR_texture_transform (UV offset, rotation, scale) is not "
            "applied"),
        model->warnings.end());
    doc["extensionsRequired"] = "KHR_mesh_quantization";
    EXPECT_EQ(failure(glb(doc, f.bin)), "test.glb: JSON extensionsRequired: is not an array");
}

} // namespace
} // namespace horde
