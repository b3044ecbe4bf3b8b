#pragma once
// How the folder commands spread their work, as the user asks for it: threads (--jobs) and a
// deterministic slice of the folder for this machine (--shard I/N).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace horde {

struct Shard {
    uint32_t index = 1, count = 1; // the index-th of count slices, 1-based
    // Which slice a file falls in: a hash of its path relative to the folder, so a file's slice
    // depends on nothing else (adding files to a library moves no other file between slices).
    bool has(std::string_view relativePath) const;
    // "I/N", as the user writes it.
    std::string text() const;
};
// "2/4" -> {2, 4}; empty unless 1 <= I <= N.
std::optional<Shard> parseShard(std::string_view text);

struct FolderJobs {
    unsigned jobs = 0; // 0: every core
    Shard shard;

    unsigned threads() const;
};

} // namespace horde
