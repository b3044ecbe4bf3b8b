#pragma once
// How the folder commands spread work: a pool of threads over a list (--jobs), one progress line
// for all of them, and a deterministic slice of the list for this machine (--shard I/N).
#include <cstddef>
#include <functional>
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

// Runs work(0) .. work(count - 1) on `jobs` threads, each index once, in no fixed order.
// `name(i)` labels the progress line (stderr, drawn only on a terminal).
void parallelFor(size_t count, unsigned jobs, const std::function<void(size_t)>& work,
                 const std::function<std::string(size_t)>& name);

} // namespace horde
