#include "format.h"

#include "asset/validate.h"

namespace horde {

Status finishModel(const std::filesystem::path& path, Model& model) {
    finalizeMeshes(model);
    if (Status valid = validateModel(model); !valid) return Error{path.string() + ": " + valid.error().message};
    return Ok{};
}

} // namespace horde
