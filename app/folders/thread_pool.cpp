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

void parallelFor(size_t count, unsigned threads, const std::function<void(size_t)>& work,
                 const std::function<std::string(size_t)>& name) {
    Progress progress(count);
    std::atomic<size_t> next{0};
    auto worker = [&] {
        for (size_t i = next++; i < count; i = next++) {
            work(i);
            progress.finished(name(i));
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
