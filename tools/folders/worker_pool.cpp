#include "worker_pool.h"

#include <cerrno>
#include <csignal>
#include <cstring>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

namespace horde {

struct WorkerPool::Worker {
    pid_t pid = -1;
    int in = -1, out = -1; // the worker's stdin (we write) and stdout (we read)
    std::string pending;   // what was read past the last answer's newline

    ~Worker() {
        if (in >= 0) close(in); // end of input: the worker finishes its loop
        if (out >= 0) close(out);
        if (pid > 0) {
            int status = 0;
            while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
            }
        }
    }

    // How the process ended, once it has (waited for here, so the destructor does not again).
    std::string death() {
        int status = 0;
        pid_t done = 0;
        while ((done = waitpid(pid, &status, 0)) < 0 && errno == EINTR) {
        }
        pid = -1;
        if (done < 0) return "lost (" + std::string(std::strerror(errno)) + ")";
        if (WIFSIGNALED(status))
            return "killed by signal " + std::to_string(WTERMSIG(status)) + " (" +
                   strsignal(WTERMSIG(status)) + ")";
        return "exited with status " + std::to_string(WEXITSTATUS(status)) + " before answering";
    }

    bool send(const std::string& line) {
        const std::string text = line + "\n";
        for (size_t at = 0; at < text.size();) {
            const ssize_t n = write(in, text.data() + at, text.size() - at);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) return false; // EPIPE: it is gone (SIGPIPE is ignored while a pool lives)
            at += size_t(n);
        }
        return true;
    }

    bool receive(std::string& line) {
        for (;;) {
            if (size_t end = pending.find('\n'); end != std::string::npos) {
                line = pending.substr(0, end);
                pending.erase(0, end + 1);
                return true;
            }
            char buffer[256];
            const ssize_t n = read(out, buffer, sizeof buffer);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) return false;
            pending.append(buffer, size_t(n));
        }
    }
};

namespace {
std::vector<char*> pointers(const std::vector<std::string>& strings) {
    std::vector<char*> out;
    for (const std::string& s : strings)
        out.push_back(const_cast<char*>(s.c_str()));
    out.push_back(nullptr);
    return out;
}
} // namespace

WorkerPool::WorkerPool(std::vector<std::string> command, std::vector<std::string> environment)
    : command_(std::move(command)), environment_(std::move(environment)) {
    // Writing to a worker that died would otherwise kill the folder command with it.
    std::signal(SIGPIPE, SIG_IGN);
}

WorkerPool::~WorkerPool() = default;

std::unique_ptr<WorkerPool::Worker> WorkerPool::start(std::string& why) {
    // Close-on-exec everywhere, so no worker holds another's pipes open (its stdin would never end).
    int toWorker[2], fromWorker[2];
    if (pipe2(toWorker, O_CLOEXEC) != 0) {
        why = std::strerror(errno);
        return nullptr;
    }
    if (pipe2(fromWorker, O_CLOEXEC) != 0) {
        why = std::strerror(errno);
        close(toWorker[0]);
        close(toWorker[1]);
        return nullptr;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, toWorker[0], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, fromWorker[1], STDOUT_FILENO);
    std::vector<char*> argv = pointers(command_), envp = pointers(environment_);
    auto worker = std::make_unique<Worker>();
    const int spawned = posix_spawn(&worker->pid, argv[0], &actions, nullptr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    close(toWorker[0]);
    close(fromWorker[1]);
    worker->in = toWorker[1];
    worker->out = fromWorker[0];
    if (spawned != 0) {
        worker->pid = -1;
        why = std::strerror(spawned);
        return nullptr;
    }
    return worker;
}

WorkerPool::Answer WorkerPool::run(const std::string& job) {
    std::unique_ptr<Worker> worker;
    {
        std::lock_guard lock(mutex_);
        if (!idle_.empty()) {
            worker = std::move(idle_.back());
            idle_.pop_back();
        }
    }
    Answer answer;
    if (!worker) {
        std::string why;
        worker = start(why);
        if (!worker) {
            answer.death = "could not be started: " + why;
            return answer;
        }
    }
    if (worker->send(job) && worker->receive(answer.line)) {
        answer.answered = true;
        std::lock_guard lock(mutex_);
        idle_.push_back(std::move(worker));
        return answer;
    }
    close(worker->in);
    worker->in = -1;
    answer.death = worker->death();
    return answer;
}

} // namespace horde
