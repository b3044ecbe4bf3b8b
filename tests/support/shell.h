#pragma once
// Runs a command line as a user would and keeps its exit code and output: stdout, and stderr
// too unless `withErrors` is false (then it is dropped, so JSON on stdout parses alone).
#include <cstdio>
#include <filesystem>
#include <string>
#include <sys/wait.h>

namespace horde::test {

struct Outcome {
    int code;
    std::string out;
};

inline Outcome shell(const std::string& command, bool withErrors = true) {
    FILE* pipe = popen((command + (withErrors ? " 2>&1" : " 2>/dev/null")).c_str(), "r");
    std::string out;
    char buffer[4096];
    while (size_t n = fread(buffer, 1, sizeof buffer, pipe))
        out.append(buffer, n);
    int status = pclose(pipe);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

inline std::string quote(const std::filesystem::path& p) {
    std::string q(1, '\'');
    q.append(p.string()).push_back('\'');
    return q;
}

} // namespace horde::test
