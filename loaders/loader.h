#pragma once
// The front door for every file format: detects the format, decodes straight into storage from
// the given allocator, binds extra animation files, and finishes the result (format.h). A failed
// load returns one error and leaves nothing behind. What each format implements is format.h.
#include <filesystem>

#include "format.h"
#include "registry.h"

namespace horde {

// What the format `read` came from (Model::format) added to `source`'s tree: its
// Format::addedNodes, or nothing added.
AddedNodes addedNodes(const Model& source, const Model& read);

// Decodes `path`, then binds every options.anims file to it (any format whose clips bind by
// node name; one that cannot be read is left out with a warning naming it), then finishes the model
// (finishModel), reads the textures its materials name (texture/texture.h resolveTextures), warns of each
// material a submesh names that the model does not define (drawn as the missing-texture checker) and commits
// its storage. Clips from anim files carry the file name as their source.
Result<Model> loadModel(const std::filesystem::path& path, const LoadOptions& options, MeshAllocator& allocator);

} // namespace horde
