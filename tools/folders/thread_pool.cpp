#include "thread_pool.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <mutex>
#include <thread>
#include <vector>

#include <unistd.h>

namespace horde {

namespace {
// On a terminal, one line for every worker: how many are done, of how many, and the last one
// finished. Elsewhere a line per finished item, which a log keeps.
class Progress {
  public:
    Progress(size_t total, Lines lines)
        : total_(total), draw_(isatty(STDERR_FILENO) && total > 1),
          log_(!isatty(STDERR_FILENO) && lines == Lines::EachItem) {}
    ~Progress() {
        if (draw_) std::fprintf(stderr, "\r\033[K");
    }
    void finished(const std::string& name) {
        std::lock_guard lock(mutex_);
        ++done_;
        if (log_ && !name.empty()) std::fprintf(stderr, "[%zu/%zu] %s\n", done_, total_, name.c_str());
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
    bool draw_, log_;
};
} // namespace

void parallelFor(size_t count, unsigned threads, const std::function<void(size_t)>& work,
                 const std::function<std::string(size_t)>& done, Lines lines) {
    Progress progress(count, lines);
    std::atomic<size_t> next{0};
    auto worker = [&] {
        for (size_t i = next++; i < count; i = next++) {
            work(i);
            progress.finished(done(i));
        }
    };
    const size_t workers = std::min<size_t>(std::max(1u, threads), count);
    if (workers <= 1) {
        worker();
        return;
    }
    std::vector<std::jthread> pool;
    for (size_t t = 0; t < workers; ++t)
        pool.emplace_back(worker);
}

} // namespace horde
