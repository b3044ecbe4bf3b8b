// The folder commands' worker processes (app/folders/worker_pool.*), with a shell loop standing in
// for `horde validate-worker`: jobs go to an idle worker, which keeps running between them; one
// that dies on a job is reported with how it died, and the next job gets a fresh process.
#include <string>

#include <gtest/gtest.h>

#include "worker_pool.h"

namespace horde {
namespace {

extern "C" char** environ;

std::vector<std::string> environment() {
    std::vector<std::string> out;
    for (char** e = environ; *e; ++e)
        out.emplace_back(*e);
    return out;
}

// Answers each line with its own process id and the line; "crash" kills it as a segfault would.
const std::vector<std::string> kWorker = {
    "/bin/sh", "-c",
    "while read line; do if [ \"$line\" = crash ]; then kill -SEGV $$; fi; echo \"$$ $line\"; done"};

TEST(WorkerPool, AWorkerKeepsRunningAndACrashCostsOneJob) {
    WorkerPool pool(kWorker, environment());
    const WorkerPool::Answer first = pool.run("a");
    ASSERT_TRUE(first.answered) << first.death;
    const std::string pid = first.line.substr(0, first.line.find(' '));
    EXPECT_EQ(first.line, pid + " a");
    EXPECT_EQ(pool.run("b").line, pid + " b") << "the same process takes the next job";

    const WorkerPool::Answer crashed = pool.run("crash");
    EXPECT_FALSE(crashed.answered);
    EXPECT_EQ(crashed.death, "killed by signal 11 (Segmentation fault)");

    const WorkerPool::Answer after = pool.run("c");
    ASSERT_TRUE(after.answered) << after.death;
    EXPECT_NE(after.line, pid + " c") << "a fresh process";
    EXPECT_EQ(after.line.substr(after.line.find(' ')), " c");
}

TEST(WorkerPool, AProgramThatCannotStartIsAnAnswerNotACrash) {
    WorkerPool pool({"/nonexistent/worker"}, environment());
    const WorkerPool::Answer answer = pool.run("a");
    EXPECT_FALSE(answer.answered);
    EXPECT_EQ(answer.death.rfind("could not be started: ", 0), 0u) << answer.death;
}

} // namespace
} // namespace horde
