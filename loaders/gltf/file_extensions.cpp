// The glTF extensions a file requires and the two that compress geometry, read from its JSON
// before tinygltf: every entry of extensionsRequired that horde does not read is refused by
// name; EXT_meshopt_compression's bufferView objects and placeholder buffers and
// KHR_draco_mesh_compression's primitive objects are checked as their specifications require;
// and where tinygltf could not take the file as written, the document it is handed instead.
#include "gltf/gltf.h"

#include <algorithm>
#include <string_view>

#include <nlohmann/json.hpp>

namespace horde::gltf {

namespace {
using nlohmann::json;

// The extensions a file may require, each with where horde reads it.
constexpr std::string_view kRead[] = {
    "KHR_draco_mesh_compression", // decode_draco.cpp
    "EXT_meshopt_compression",    // decode_meshopt.cpp
    "KHR_mesh_quantization",      // decode_mesh.cpp: the wider component types of mesh attributes
};

// tinygltf is handed a placeholder buffer as this one byte, so that it reads no file and copies
// no GLB binary chunk for it; parse() empties it again.
constexpr const char* kOneByte = "data:application/octet-stream;base64,AA==";

// Property `name` of `object` (at JSON path `path`) as an unsigned integer of at most `max`;
// absent: `fallback`, or an error when there is none (the property is required).
Result<uint64_t> integer(const std::string& file, const json& object, const std::string& path,
                         const char* name, std::optional<uint64_t> fallback, uint64_t max) {
    const std::string at = file + ": JSON " + path + "." + name;
    auto it = object.find(name);
    if (it == object.end()) {
        if (fallback) return *fallback;
        return Error{at + ": missing (the extension requires it)"};
    }
    if (!it->is_number_integer() || (!it->is_number_unsigned() && it->get<int64_t>() < 0))
        return Error{at + ": is not a non-negative integer"};
    const uint64_t v = it->get<uint64_t>();
    if (v > max) return Error{at + ": " + std::to_string(v) + " is past " + std::to_string(max)};
    return v;
}

// Property `name` as one of `names` (its index); absent: `fallback`, or an error when required.
Result<size_t> oneOf(const std::string& file, const json& object, const std::string& path, const char* name,
                     std::initializer_list<const char*> names, std::optional<size_t> fallback) {
    const std::string at = file + ": JSON " + path + "." + name;
    auto it = object.find(name);
    if (it == object.end()) {
        if (fallback) return *fallback;
        return Error{at + ": missing (the extension requires it)"};
    }
    std::string list;
    for (size_t i = 0; i < names.size(); ++i) {
        if (it->is_string() && it->get<std::string>() == names.begin()[i]) return i;
        list += std::string(i ? ", " : "") + names.begin()[i];
    }
    if (!it->is_string()) return Error{at + ": is not a string"};
    return Error{at + ": is \"" + it->get<std::string>().substr(0, 64) + "\", not one of " + list};
}

const json* extension(const json& object, const char* name) {
    auto extensions = object.find("extensions");
    if (extensions == object.end() || !extensions->is_object()) return nullptr;
    auto it = extensions->find(name);
    return it == extensions->end() ? nullptr : &*it;
}

const json& array(const json& doc, const char* name) {
    static const json empty = json::array();
    auto it = doc.find(name);
    return it == doc.end() ? empty : *it;
}

Status requiredRead(const std::string& file, const json& doc) {
    auto required = doc.find("extensionsRequired");
    if (required == doc.end()) return Ok{};
    if (!required->is_array()) return Error{file + ": JSON extensionsRequired: is not an array"};
    std::vector<std::string> unread;
    for (const json& e : *required) {
        if (!e.is_string())
            return Error{file + ": JSON extensionsRequired: holds a value that is not a name"};
        const std::string name = e.get<std::string>();
        if (std::find(std::begin(kRead), std::end(kRead), name) == std::end(kRead)) unread.push_back(name);
    }
    if (unread.empty()) return Ok{};
    // A forged file may require thousands: the line names the first few.
    constexpr size_t kNamed = 8;
    std::string names;
    for (size_t i = 0; i < std::min(unread.size(), kNamed); ++i)
        names += (i ? ", " : "") + unread[i].substr(0, 64);
    if (unread.size() > kNamed) names += " and " + std::to_string(unread.size() - kNamed) + " more";
    return Error{file + ": requires glTF extension" + (unread.size() > 1 ? "s " : " ") + names +
                 ", which horde does not read"};
}

// EXT_meshopt_compression on bufferView `index` (JSON object `view`), checked as the extension
// requires ("For the extension object to be valid, the following must hold").
Result<MeshoptView> meshoptView(const std::string& file, const json& view, const json& m, size_t index) {
    const std::string path = "bufferViews[" + std::to_string(index) + "].extensions.EXT_meshopt_compression";
    const std::string at = file + ": JSON " + path;
    if (!m.is_object()) return Error{at + ": is not an object"};
    MeshoptView out;
    constexpr uint64_t kAny = UINT64_MAX;
    Result<uint64_t> buffer = integer(file, m, path, "buffer", std::nullopt, UINT32_MAX);
    Result<uint64_t> offset = integer(file, m, path, "byteOffset", 0, kAny);
    Result<uint64_t> length = integer(file, m, path, "byteLength", std::nullopt, kAny);
    Result<uint64_t> stride = integer(file, m, path, "byteStride", std::nullopt, 256);
    Result<uint64_t> count = integer(file, m, path, "count", std::nullopt, kAny);
    Result<size_t> mode = oneOf(file, m, path, "mode", {"ATTRIBUTES", "TRIANGLES", "INDICES"}, std::nullopt);
    Result<size_t> filter =
        oneOf(file, m, path, "filter", {"NONE", "OCTAHEDRAL", "QUATERNION", "EXPONENTIAL"}, 0);
    if (!buffer) return buffer.error();
    if (!offset) return offset.error();
    if (!length) return length.error();
    if (!stride) return stride.error();
    if (!count) return count.error();
    if (!mode) return mode.error();
    if (!filter) return filter.error();
    out.buffer = uint32_t(*buffer);
    out.byteOffset = *offset;
    out.byteLength = *length;
    out.byteStride = uint32_t(*stride);
    out.count = *count;
    out.mode = MeshoptView::Mode(*mode);
    out.filter = MeshoptView::Filter(*filter);
    const uint32_t s = out.byteStride;
    const bool indices = out.mode != MeshoptView::Mode::Attributes;
    if (indices ? (s != 2 && s != 4) : (s == 0 || s % 4 != 0))
        return Error{
            at + ".byteStride: " + std::to_string(s) + " is not " +
            (indices ? "2 or 4, as TRIANGLES and INDICES need" : "a multiple of 4, as ATTRIBUTES needs")};
    if (out.mode == MeshoptView::Mode::Triangles && out.count % 3 != 0)
        return Error{at + ".count: " + std::to_string(out.count) +
                     " is not a multiple of 3, as TRIANGLES needs"};
    if (indices && out.filter != MeshoptView::Filter::None)
        return Error{at + ".filter: TRIANGLES and INDICES take no filter"};
    if ((out.filter == MeshoptView::Filter::Octahedral && s != 4 && s != 8) ||
        (out.filter == MeshoptView::Filter::Quaternion && s != 8))
        return Error{at + ".byteStride: " + std::to_string(s) +
                     " is not one the filter takes (OCTAHEDRAL: 4 or 8, " + "QUATERNION: 8)"};
    if (auto parent = view.find("byteStride"); parent != view.end() && *parent != json(s))
        return Error{at + ".byteStride: " + std::to_string(s) + " differs from the bufferView's " +
                     (parent->is_number() ? parent->dump() : "byteStride")};
    Result<uint64_t> bytes =
        integer(file, view, "bufferViews[" + std::to_string(index) + "]", "byteLength", std::nullopt, kAny);
    if (!bytes) return bytes.error();
    // Checked this way round, count * byteStride cannot overflow, here or where it is used.
    if (out.count > *bytes / s || out.count * s != *bytes)
        return Error{at + ": count " + std::to_string(out.count) + " x byteStride " + std::to_string(s) +
                     " is not the bufferView's byteLength " + std::to_string(*bytes)};
    return out;
}

Result<std::optional<DracoPrimitive>> dracoPrimitive(const std::string& file, const json& primitive, size_t m,
                                                     size_t p) {
    const json* d = extension(primitive, "KHR_draco_mesh_compression");
    if (!d) return std::optional<DracoPrimitive>();
    const std::string path = "meshes[" + std::to_string(m) + "].primitives[" + std::to_string(p) +
                             "].extensions.KHR_draco_mesh_compression";
    const std::string at = file + ": JSON " + path;
    if (!d->is_object()) return Error{at + ": is not an object"};
    DracoPrimitive out;
    Result<uint64_t> view = integer(file, *d, path, "bufferView", std::nullopt, INT32_MAX);
    if (!view) return view.error();
    out.bufferView = int(*view);
    auto attributes = d->find("attributes");
    if (attributes == d->end() || !attributes->is_object())
        return Error{at + ".attributes: " + (attributes == d->end() ? "missing" : "is not an object")};
    const json& own = primitive["attributes"];
    for (const auto& [name, id] : attributes->items()) {
        Result<uint64_t> value =
            integer(file, *attributes, path + ".attributes", name.c_str(), std::nullopt, UINT32_MAX);
        if (!value) return value.error();
        // "The attributes defined in the extension must be a subset of the attributes of the primitive."
        if (!own.contains(name))
            return Error{at + ".attributes." + name + ": the primitive has no such attribute"};
        out.attributes.emplace(name, uint32_t(*value));
    }
    if (auto indices = primitive.find("indices"); indices != primitive.end() && indices->is_number_integer())
        out.indices = int(std::clamp<int64_t>(indices->get<int64_t>(), -1, INT32_MAX));
    return std::optional<DracoPrimitive>(std::move(out));
}

// tinygltf hands an image's bufferView to its image callback without checking its range: the
// range must lie within a buffer that holds data.
Status checkImages(const std::string& file, const json& doc, const Extensions& e) {
    const json& images = array(doc, "images");
    const json& views = array(doc, "bufferViews");
    const json& buffers = array(doc, "buffers");
    for (size_t i = 0; i < images.size(); ++i) {
        auto view = images[i].find("bufferView");
        if (view == images[i].end()) continue;
        const std::string at = file + ": JSON images[" + std::to_string(i) + "].bufferView: ";
        if (!view->is_number_integer() || (!view->is_number_unsigned() && view->get<int64_t>() < 0) ||
            view->get<uint64_t>() >= views.size())
            return Error{at + "is not a bufferView of the file"};
        const size_t v = view->get<size_t>();
        if (e.meshopt[v])
            return Error{at + "bufferView " + std::to_string(v) +
                         " is compressed; horde reads images only from plain bufferViews"};
        const std::string path = "bufferViews[" + std::to_string(v) + "]";
        Result<uint64_t> buffer = integer(file, views[v], path, "buffer", std::nullopt, UINT64_MAX);
        Result<uint64_t> offset = integer(file, views[v], path, "byteOffset", 0, UINT64_MAX);
        Result<uint64_t> length = integer(file, views[v], path, "byteLength", std::nullopt, UINT64_MAX);
        if (!buffer) return buffer.error();
        if (!offset) return offset.error();
        if (!length) return length.error();
        Result<uint64_t> size = *buffer < buffers.size() ? integer(file, buffers[*buffer],
                                                                   "buffers[" + std::to_string(*buffer) + "]",
                                                                   "byteLength", std::nullopt, UINT64_MAX)
                                                         : Result<uint64_t>(uint64_t(0));
        if (!size) return size.error();
        if (*buffer >= buffers.size() || e.placeholder[*buffer] || *length == 0 || *offset > *size ||
            *length > *size - *offset)
            return Error{at + "bufferView " + std::to_string(v) + " (offset " + std::to_string(*offset) +
                         ", length " + std::to_string(*length) +
                         ") does not lie within a buffer that holds data"};
    }
    return Ok{};
}
} // namespace

Result<Extensions> readExtensions(const std::string& file, const nlohmann::json& doc, bool binary) {
    if (Status st = requiredRead(file, doc); !st) return st.error();
    Extensions out;
    const json& views = array(doc, "bufferViews");
    out.meshopt.resize(views.size());
    for (size_t v = 0; v < views.size(); ++v)
        if (const json* m = extension(views[v], "EXT_meshopt_compression")) {
            Result<MeshoptView> view = meshoptView(file, views[v], *m, v);
            if (!view) return view.error();
            out.meshopt[v] = *view;
        }
    const json& buffers = array(doc, "buffers");
    for (size_t b = 0; b < buffers.size(); ++b) {
        const json* m = extension(buffers[b], "EXT_meshopt_compression");
        bool fallback = false;
        if (m && m->contains("fallback")) {
            if (!(*m)["fallback"].is_boolean())
                return Error{file + ": JSON buffers[" + std::to_string(b) +
                             "].extensions.EXT_meshopt_compression.fallback: is not true or false"};
            fallback = (*m)["fallback"].get<bool>();
        }
        // glTF "GLB-stored Buffer": only the first buffer may stand for the binary chunk.
        out.placeholder.push_back(fallback || (!buffers[b].contains("uri") && !(binary && b == 0)));
    }
    const json& meshes = array(doc, "meshes");
    for (size_t m = 0; m < meshes.size(); ++m) {
        const json& primitives = meshes[m]["primitives"];
        out.draco.emplace_back(primitives.size());
        for (size_t p = 0; p < primitives.size(); ++p) {
            Result<std::optional<DracoPrimitive>> draco = dracoPrimitive(file, primitives[p], m, p);
            if (!draco) return draco.error();
            out.draco.back()[p] = std::move(*draco);
        }
    }
    if (Status st = checkImages(file, doc, out); !st) return st.error();
    return out;
}

bool handedDocument(nlohmann::json& doc, const Extensions& extensions) {
    // tinygltf refuses a primitive whose indices accessor has no bufferView, as Draco's have none.
    const json& accessors = array(doc, "accessors");
    bool change = std::find(extensions.placeholder.begin(), extensions.placeholder.end(), true) !=
                  extensions.placeholder.end();
    for (const auto& mesh : extensions.draco)
        for (const std::optional<DracoPrimitive>& d : mesh)
            change = change || (d && d->indices >= 0 && size_t(d->indices) < accessors.size() &&
                                !accessors[size_t(d->indices)].contains("bufferView"));
    if (!change) return false;
    for (size_t m = 0; m < extensions.draco.size(); ++m)
        for (size_t p = 0; p < extensions.draco[m].size(); ++p)
            if (extensions.draco[m][p]) doc["meshes"][m]["primitives"][p].erase("indices");
    for (size_t b = 0; b < extensions.placeholder.size(); ++b)
        if (extensions.placeholder[b]) doc["buffers"][b] = json{{"byteLength", 1}, {"uri", kOneByte}};
    return true;
}

} // namespace horde::gltf
