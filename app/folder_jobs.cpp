#include "folder_jobs.h"

#include <algorithm>
#include <cstdio>
#include <thread>

namespace horde {

bool Shard::has(std::string_view relativePath) const {
    uint64_t hash = 14695981039346656037ull; // FNV-1a: the same on every machine and compiler
    for (unsigned char c : relativePath)
        hash = (hash ^ c) * 1099511628211ull;
    return hash % count == index - 1;
}

void FolderJobs::addOptions(CLI::App& command) {
    command.add_option("--jobs", jobs, "with a folder: files worked on at once (default: every core)")
        ->check(CLI::Range(1u, 4096u));
    command
        .add_option(
            "--shard", shardText,
            "with a folder: do only the I-th of N slices (1-based, e.g. 2/4); every file falls in one slice")
        ->check([this](const std::string& text) -> std::string {
            unsigned i = 0, n = 0;
            char end = 0;
            if (std::sscanf(text.c_str(), "%u/%u%c", &i, &n, &end) != 2 || n < 1 || i < 1 || i > n)
                return "--shard takes I/N with 1 <= I <= N, e.g. 2/4";
            shard = {i, n};
            return {};
        });
}

unsigned FolderJobs::threads() const {
    return jobs ? jobs : std::max(1u, std::thread::hardware_concurrency());
}

} // namespace horde
