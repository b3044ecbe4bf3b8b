#pragma once
// A folder of its own for one test's files (named after the test, the process and the object,
// so parallel runs, and two folders of one test, do not meet), removed with everything in it
// when it goes out of scope. Every test that writes files makes its folder here.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <unistd.h>

#include "support/bytes.h"

namespace horde::test {

class TempDir {
  public:
    explicit TempDir(const std::string& prefix) {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        std::string test = info->name(); // "Case/param" for parameterized tests: one folder, not two
        std::replace(test.begin(), test.end(), '/', '_');
        path = std::filesystem::temp_directory_path() / (prefix + "_" + test + "_" +
                                                         std::to_string(::getpid()) + "_" +
                                                         std::to_string(reinterpret_cast<uintptr_t>(this)));
        std::filesystem::create_directories(path);
    }
    ~TempDir() { std::filesystem::remove_all(path); }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    std::filesystem::path put(const std::string& name, const Bytes& bytes) const {
        std::ofstream out(path / name, std::ios::binary);
        out.write(reinterpret_cast<const char*>(bytes.data().data()), std::streamsize(bytes.size()));
        return path / name;
    }
    std::filesystem::path path;
};

} // namespace horde::test
