#pragma once
// Where a folder's models go when converted: the same path under the output folder, with the
// writer's extension. Two sources that would meet (a.mdl and a.glb to a.glb) both keep their
// own extension in the name (a.mdl.glb, a.glb.glb), whatever slice of the folder is converted.
#include <map>
#include <string>

#include "folder_scan.h"

namespace horde {

// Model and mesh index -> output path relative to the output folder, '/'-separated.
std::map<size_t, std::string> outputPaths(const Folder& folder, const std::string& extension);

} // namespace horde
