// EXT_meshopt_compression: one bufferView's compressed bytes through meshoptimizer's decoders
// (0.18 decodes every mode and filter the extension defines) into the bufferView's layout.
#include "gltf/gltf.h"

#include <meshoptimizer.h>

namespace horde::gltf {

namespace {
const char* modeName(MeshoptView::Mode mode) {
    switch (mode) {
    case MeshoptView::Mode::Attributes:
        return "ATTRIBUTES";
    case MeshoptView::Mode::Triangles:
        return "TRIANGLES";
    case MeshoptView::Mode::Indices:
        return "INDICES";
    }
    return "";
}
} // namespace

Status decodeMeshopt(const MeshoptView& view, std::span<const unsigned char> compressed,
                     std::span<unsigned char> out, const std::string& field) {
    const size_t count = size_t(view.count), stride = view.byteStride;
    int rc = 0;
    switch (view.mode) {
    case MeshoptView::Mode::Attributes:
        rc = meshopt_decodeVertexBuffer(out.data(), count, stride, compressed.data(), compressed.size());
        break;
    case MeshoptView::Mode::Triangles:
        rc = meshopt_decodeIndexBuffer(out.data(), count, stride, compressed.data(), compressed.size());
        break;
    case MeshoptView::Mode::Indices:
        rc = meshopt_decodeIndexSequence(out.data(), count, stride, compressed.data(), compressed.size());
        break;
    }
    if (rc != 0)
        return Error{field + ": the " + std::to_string(compressed.size()) + "-byte " + modeName(view.mode) +
                     " stream does not decode to " + std::to_string(count) + " elements of " +
                     std::to_string(stride) + " bytes (meshoptimizer error " + std::to_string(rc) + ")"};
    // The filters work in place on what the attribute decoder wrote; their results are defined
    // for every input (garbage in, garbage values out).
    switch (view.filter) {
    case MeshoptView::Filter::None:
        break;
    case MeshoptView::Filter::Octahedral:
        meshopt_decodeFilterOct(out.data(), count, stride);
        break;
    case MeshoptView::Filter::Quaternion:
        meshopt_decodeFilterQuat(out.data(), count, stride);
        break;
    case MeshoptView::Filter::Exponential:
        meshopt_decodeFilterExp(out.data(), count, stride);
        break;
    }
    return Ok{};
}

} // namespace horde::gltf
