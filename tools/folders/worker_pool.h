#pragma once
// Worker processes for the folder commands: each takes jobs one a line on its stdin and answers
// each with one line on its stdout, keeping what it made for the first job (a Vulkan device) for
// the next. A job runs in whichever worker is idle, or in a new one (at most one per thread that
// asks at once). A worker that dies on a job is waited for and dropped, that job's answer says how
// it died, and the next job starts a fresh one: a model that crashes the driver costs its own row.
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <sys/types.h>

namespace horde {

class WorkerPool {
  public:
    // `command`: the program and its arguments; `environment`: the workers' whole environment.
    WorkerPool(std::vector<std::string> command, std::vector<std::string> environment);
    ~WorkerPool(); // closes each idle worker's stdin and waits for it to finish
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    struct Answer {
        bool answered = false;
        std::string line;  // the worker's answer, without its newline
        std::string death; // when not answered: how the worker ended ("killed by signal 11", ...)
    };
    // `job` is one line (no newline in it).
    Answer run(const std::string& job);

    struct Worker;

  private:
    std::unique_ptr<Worker> start(std::string& why);

    std::vector<std::string> command_, environment_;
    std::mutex mutex_;
    std::vector<std::unique_ptr<Worker>> idle_;
};

} // namespace horde
