#include "jobs.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <mutex>
#include <thread>
#include <vector>

#include <unistd.h>

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

namespace {
// One line for every worker: how many are done, of how many, and the last one finished.
class Progress {
  public:
    explicit Progress(size_t total) : total_(total), draw_(isatty(STDERR_FILENO) && total > 1) {}
    ~Progress() {
        if (draw_) std::fprintf(stderr, "\r\033[K");
    }
    void finished(const std::string& name) {
        std::lock_guard lock(mutex_);
        ++done_;
        if (!draw_) return;
        constexpr size_t kWidth = 30;
        size_t filled = done_ * kWidth / total_;
        std::string bar(filled, '#');
        bar.resize(kWidth, '.');
        std::fprintf(stderr, "\r[%s] %zu/%zu %s\033[K", bar.c_str(), done_, total_, name.c_str());
    }

  private:
    std::mutex mutex_;
    size_t total_, done_ = 0;
    bool draw_;
};
} // namespace

void parallelFor(size_t count, unsigned jobs, const std::function<void(size_t)>& work,
                 const std::function<std::string(size_t)>& name) {
    Progress progress(count);
    std::atomic<size_t> next{0};
    auto worker = [&] {
        for (size_t i = next++; i < count; i = next++) {
            work(i);
            progress.finished(name(i));
        }
    };
    size_t threads = std::min<size_t>(std::max(1u, jobs), count);
    if (threads <= 1) {
        worker();
        return;
    }
    std::vector<std::jthread> pool;
    for (size_t t = 0; t < threads; ++t)
        pool.emplace_back(worker);
}

} // namespace horde
