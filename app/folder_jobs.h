#pragma once
// How the folder commands spread their work, as the user asks for it: threads (--jobs) and a
// deterministic slice of the folder for this machine (--shard I/N).
#include <cstdint>
#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

namespace horde {

struct Shard {
    uint32_t index = 1, count = 1; // the index-th of count slices, 1-based
    // Which slice a file falls in: a hash of its path relative to the folder, so a file's slice
    // depends on nothing else (adding files to a library moves no other file between slices).
    bool has(std::string_view relativePath) const;
};

struct FolderJobs {
    unsigned jobs = 0; // 0: every core
    std::string shardText;
    Shard shard;

    void addOptions(CLI::App& command);
    unsigned threads() const;
};

} // namespace horde
