// What is checked before tinygltf sees a file, so that its errors keep reader.h's promise (file,
// byte offset or JSON path, field, reason in words): the GLB container (header, chunks), the
// JSON's syntax, the properties glTF 2.0 requires of the objects horde reads and the extensions
// (file_extensions.cpp); then what tinygltf is handed.
#include "gltf/gltf.h"

#include <cstring>

#include <nlohmann/json.hpp>

namespace horde::gltf {

namespace {
constexpr uint32_t kJsonChunk = 0x4E4F534A, kBinChunk = 0x004E4942;
constexpr size_t kGlbHeaderSize = 12, kChunkHeaderSize = 8;

std::string hex(uint32_t v) {
    char text[16];
    std::snprintf(text, sizeof text, "0x%08X", v);
    return text;
}

// The character at `at` as a reader would name it.
std::string shown(std::span<const std::byte> text, size_t at) {
    if (at >= text.size()) return "the end of the JSON";
    const auto c = static_cast<unsigned char>(text[at]);
    if (c >= 32 && c < 127) return std::string("'") + char(c) + "'";
    char code[16];
    std::snprintf(code, sizeof code, "byte 0x%02X", c);
    return code;
}

// The JSON parsed; a syntax error is named at file byte `base` + its offset in `text`, with the
// line and column a text editor shows.
Result<nlohmann::json> parseJson(const std::string& file, std::span<const std::byte> text, size_t base,
                                 const char* field) {
    const char* begin = reinterpret_cast<const char*>(text.data());
    try {
        return nlohmann::json::parse(begin, begin + text.size());
    } catch (const nlohmann::json::parse_error& e) {
        // The library counts bytes from 1 and points at the last byte it read.
        const size_t at = std::min(e.byte == 0 ? size_t(0) : size_t(e.byte - 1), text.size());
        size_t line = 1, column = 1;
        for (size_t i = 0; i < at; ++i) {
            if (text[i] == std::byte{'\n'}) {
                ++line;
                column = 1;
            } else {
                ++column;
            }
        }
        Reader r(text, file);
        r.failAt(base + at, field,
                 "not valid JSON: unexpected " + shown(text, at) + " at line " + std::to_string(line) +
                     ", column " + std::to_string(column));
        return r.error();
    }
}

// What glTF 2.0 requires of the objects horde reads, by JSON type: missing or mistyped, the error
// names the object's JSON path and the property.
enum class Kind { Integer, String, Object, Array };

const char* kindName(Kind k) {
    switch (k) {
    case Kind::Integer:
        return "an integer";
    case Kind::String:
        return "a string";
    case Kind::Object:
        return "an object";
    case Kind::Array:
        return "an array";
    }
    return "";
}

bool is(const nlohmann::json& v, Kind k) {
    switch (k) {
    case Kind::Integer:
        return v.is_number_integer();
    case Kind::String:
        return v.is_string();
    case Kind::Object:
        return v.is_object();
    case Kind::Array:
        return v.is_array();
    }
    return false;
}

struct Required {
    const char* property;
    Kind kind;
};

Status requireAll(const std::string& file, const nlohmann::json& object, const std::string& path,
                  std::span<const Required> required) {
    if (!object.is_object()) return Error{file + ": JSON " + path + ": is not an object"};
    for (const Required& r : required) {
        auto it = object.find(r.property);
        if (it == object.end())
            return Error{file + ": JSON " + path + "." + r.property + ": missing (glTF 2.0 requires it)"};
        if (!is(*it, r.kind))
            return Error{file + ": JSON " + path + "." + r.property + ": is not " + kindName(r.kind)};
    }
    return Ok{};
}

// Each element of the top-level array `name` (when there is one) with `required`.
Status requireEach(const std::string& file, const nlohmann::json& doc, const char* name,
                   std::span<const Required> required) {
    auto it = doc.find(name);
    if (it == doc.end()) return Ok{};
    if (!it->is_array()) return Error{file + ": JSON " + name + ": is not an array"};
    for (size_t i = 0; i < it->size(); ++i)
        if (Status st =
                requireAll(file, (*it)[i], std::string(name) + "[" + std::to_string(i) + "]", required);
            !st)
            return st;
    return Ok{};
}

// Per object: what glTF 2.0 requires of it.
constexpr Required kAsset[] = {{"version", Kind::String}};
constexpr Required kAccessor[] = {
    {"componentType", Kind::Integer}, {"count", Kind::Integer}, {"type", Kind::String}};
constexpr Required kBufferView[] = {{"buffer", Kind::Integer}, {"byteLength", Kind::Integer}};
constexpr Required kBuffer[] = {{"byteLength", Kind::Integer}};
constexpr Required kMesh[] = {{"primitives", Kind::Array}};
constexpr Required kPrimitive[] = {{"attributes", Kind::Object}};
constexpr Required kSkin[] = {{"joints", Kind::Array}};
constexpr Required kAnimation[] = {{"channels", Kind::Array}, {"samplers", Kind::Array}};
constexpr Required kChannel[] = {{"sampler", Kind::Integer}, {"target", Kind::Object}};
constexpr Required kSampler[] = {{"input", Kind::Integer}, {"output", Kind::Integer}};

Status checkDocument(const std::string& file, const nlohmann::json& doc) {
    if (!doc.is_object()) return Error{file + ": JSON: the document is not an object"};
    if (!doc.contains("asset")) return Error{file + ": JSON asset: missing (glTF 2.0 requires it)"};
    if (Status st = requireAll(file, doc["asset"], "asset", kAsset); !st) return st;
    // Every top-level collection is an array of objects: one given as a lone object (a writer's
    // slip) would otherwise be dropped without a word, its materials or nodes with it.
    const std::pair<const char*, std::span<const Required>> arrays[] = {
        {"accessors", kAccessor},
        {"bufferViews", kBufferView},
        {"buffers", kBuffer},
        {"meshes", kMesh},
        {"skins", kSkin},
        {"animations", kAnimation},
        {"materials", {}},
        {"textures", {}},
        {"images", {}},
        {"samplers", {}},
        {"nodes", {}},
        {"scenes", {}},
        {"cameras", {}},
    };
    for (const auto& [name, required] : arrays)
        if (Status st = requireEach(file, doc, name, required); !st) return st;
    // What the arrays' elements hold in turn.
    if (auto meshes = doc.find("meshes"); meshes != doc.end())
        for (size_t m = 0; m < meshes->size(); ++m) {
            const nlohmann::json& primitives = (*meshes)[m]["primitives"];
            for (size_t p = 0; p < primitives.size(); ++p)
                if (Status st =
                        requireAll(file, primitives[p],
                                   "meshes[" + std::to_string(m) + "].primitives[" + std::to_string(p) + "]",
                                   kPrimitive);
                    !st)
                    return st;
        }
    if (auto animations = doc.find("animations"); animations != doc.end())
        for (size_t a = 0; a < animations->size(); ++a) {
            const std::string at = "animations[" + std::to_string(a) + "]";
            const nlohmann::json& anim = (*animations)[a];
            for (size_t c = 0; c < anim["channels"].size(); ++c)
                if (Status st = requireAll(file, anim["channels"][c],
                                           at + ".channels[" + std::to_string(c) + "]", kChannel);
                    !st)
                    return st;
            for (size_t s = 0; s < anim["samplers"].size(); ++s)
                if (Status st = requireAll(file, anim["samplers"][s],
                                           at + ".samplers[" + std::to_string(s) + "]", kSampler);
                    !st)
                    return st;
        }
    return Ok{};
}

// A GLB's JSON chunk, checked as a container (header, chunks); the chunks after it in `rest`.
Result<std::span<const std::byte>> glbJson(const std::filesystem::path& path,
                                           std::span<const std::byte> bytes,
                                           std::span<const std::byte>& rest) {
    Reader r(bytes, path.string());
    auto fail = [&](size_t at, std::string_view field, const std::string& reason) {
        r.failAt(at, field, reason);
        return r.error();
    };
    if (!r.expect("glTF", "GLB header: magic")) return r.error();
    const uint32_t version = r.u32("GLB header: version");
    const uint32_t length = r.u32("GLB header: length");
    if (!r.ok()) return r.error();
    if (version != 2)
        return fail(4, "GLB header: version", "is " + std::to_string(version) + "; horde reads glTF 2.0 (2)");
    if (length > bytes.size())
        return fail(bytes.size(), "GLB header: length",
                    "glTF binary cut short: the header gives " + std::to_string(length) +
                        " bytes, the file ends here");
    // Bytes past the length the header gives are not part of the file.
    const uint32_t jsonLength = r.u32("JSON chunk: length");
    const uint32_t jsonType = r.u32("JSON chunk: type");
    if (!r.ok() || r.offset() > length)
        return fail(std::min<size_t>(length, r.offset()), "JSON chunk",
                    "glTF binary cut short: the file ends inside the JSON chunk's header");
    if (jsonType != kJsonChunk)
        return fail(16, "JSON chunk: type",
                    "is " + hex(jsonType) + ", not 'JSON' (" + hex(kJsonChunk) +
                        "): a GLB's first chunk is its JSON");
    const size_t jsonAt = kGlbHeaderSize + kChunkHeaderSize;
    if (jsonLength > length - jsonAt)
        return fail(length, "JSON chunk: length",
                    "the JSON chunk (offset " + std::to_string(jsonAt) + ", size " +
                        std::to_string(jsonLength) + ") runs past the end of the " + std::to_string(length) +
                        "-byte file");
    const size_t binAt = jsonAt + jsonLength;
    if (length - binAt >= kChunkHeaderSize) {
        r.seek(binAt, "BIN chunk");
        const uint32_t binLength = r.u32("BIN chunk: length");
        const uint32_t binType = r.u32("BIN chunk: type");
        if (!r.ok()) return r.error();
        if (binType != kBinChunk)
            return fail(binAt + 4, "BIN chunk: type",
                        "is " + hex(binType) + ", not 'BIN' (" + hex(kBinChunk) + ")");
        if (binLength > length - binAt - kChunkHeaderSize)
            return fail(length, "BIN chunk: length",
                        "the binary chunk (offset " + std::to_string(binAt + kChunkHeaderSize) + ", size " +
                            std::to_string(binLength) + ") runs past the end of the " +
                            std::to_string(length) + "-byte file");
    }
    rest = bytes.subspan(binAt, length - binAt);
    return bytes.subspan(jsonAt, jsonLength);
}

// A GLB of `json` (padded with spaces, as the container asks) and the chunks that followed the
// file's own JSON chunk.
std::vector<unsigned char> glbOf(std::string json, std::span<const std::byte> rest) {
    json.resize((json.size() + 3) & ~size_t(3), ' ');
    std::vector<unsigned char> out;
    out.reserve(kGlbHeaderSize + kChunkHeaderSize + json.size() + rest.size());
    auto u32 = [&](uint32_t v) {
        for (int i = 0; i < 4; ++i)
            out.push_back(static_cast<unsigned char>(v >> (8 * i)));
    };
    out.insert(out.end(), {'g', 'l', 'T', 'F'});
    u32(2);
    u32(uint32_t(kGlbHeaderSize + kChunkHeaderSize + json.size() + rest.size()));
    u32(uint32_t(json.size()));
    u32(kJsonChunk);
    out.insert(out.end(), json.begin(), json.end());
    const auto* tail = reinterpret_cast<const unsigned char*>(rest.data());
    out.insert(out.end(), tail, tail + rest.size());
    return out;
}
} // namespace

Result<Prepared> prepare(const std::filesystem::path& path, std::span<const std::byte> bytes, bool binary) {
    std::span<const std::byte> text = bytes, rest;
    if (binary) {
        Result<std::span<const std::byte>> json = glbJson(path, bytes, rest);
        if (!json) return json.error();
        text = *json;
    }
    Result<nlohmann::json> doc = parseJson(
        path.string(), text, binary ? kGlbHeaderSize + kChunkHeaderSize : 0, binary ? "JSON chunk" : "JSON");
    if (!doc) return doc.error();
    if (Status st = checkDocument(path.string(), *doc); !st) return st.error();
    Result<Extensions> extensions = readExtensions(path.string(), *doc, binary);
    if (!extensions) return extensions.error();
    Prepared out{std::move(*extensions), {}};
    // Only files that need it pay for the copy: a GLB's binary chunk is copied once more, and
    // freed when tinygltf has read it.
    if (handedDocument(*doc, out.extensions)) {
        std::string json;
        try {
            json = doc->dump();
        } catch (const nlohmann::json::exception&) {
            // The parser admitted only valid UTF-8, which dump() writes back; should it refuse
            // anyway, its text names neither a byte nor a field.
            return Error{path.string() + ": JSON: not a document horde can hand on to its glTF parser"};
        }
        out.handed =
            binary ? glbOf(std::move(json), rest) : std::vector<unsigned char>(json.begin(), json.end());
    }
    return out;
}

} // namespace horde::gltf
