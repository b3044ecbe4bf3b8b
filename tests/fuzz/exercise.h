#pragma once
// Everything a fuzz target does with one input, shared with the regression test so that a kept
// crash input replays exactly what crashed. The input is decoded in every role its format gives
// a file: as a model (alone, and against a companion skeleton for formats that keep skeletons in
// a separate file), as an EMI skeleton, and as an animation bound to a model.
#include <cstddef>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "loader.h"

namespace horde::fuzz {

struct Failure {
    std::string file;    // the name the input was decoded under in that role
    std::string message; // must name that file
};

struct Outcome {
    std::vector<Failure> failures; // one per role that failed
    uint64_t storageBytes = 0;     // the most mesh storage one role asked for
};

// The storage bound of format.h (kStoragePerInputByte); the fuzz targets abort past it.
bool withinStorageBound(size_t inputBytes, uint64_t storageBytes);

class Exercise {
  public:
    // Writes a small monster in the format into a fresh temporary folder: animation files bind
    // to its nodes, its companion skeleton (if the writer made one) completes skinned meshes,
    // and an NWN supermodel named "monster" resolves to a real file.
    explicit Exercise(const Format& format);
    ~Exercise();
    Exercise(const Exercise&) = delete;
    Exercise& operator=(const Exercise&) = delete;

    // Decodes `bytes` in every role.
    Outcome run(std::span<const std::byte> bytes) const;

  private:
    const Format& format_;
    std::filesystem::path dir_, input_, skeleton_;
    Model target_; // the monster's nodes, for animation files to bind to
};

} // namespace horde::fuzz
