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

std::string Shard::text() const {
    return std::to_string(index) + "/" + std::to_string(count);
}

std::optional<Shard> parseShard(std::string_view text) {
    unsigned i = 0, n = 0;
    char end = 0;
    const std::string whole(text);
    if (std::sscanf(whole.c_str(), "%u/%u%c", &i, &n, &end) != 2 || n < 1 || i < 1 || i > n)
        return std::nullopt;
    return Shard{i, n};
}

unsigned FolderJobs::threads() const {
    return jobs ? jobs : std::max(1u, std::thread::hardware_concurrency());
}

} // namespace horde
