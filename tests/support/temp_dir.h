#pragma once
// A folder of its own for one test's files (named after the test and the process, so parallel
// runs do not meet), removed with everything in it when the test ends.
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
        path = std::filesystem::temp_directory_path() / (prefix + "_" + std::string(info->name()) + "_" + std::to_string(::getpid()));
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
