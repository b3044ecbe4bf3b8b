// Inputs that once crashed or hung a decoder (found by scripts/fuzz, minimized), kept under
// tests/regressions/<format id>/: each is replayed exactly as the fuzz target ran it, and must
// now give clean results, errors or models, within the fuzz target's storage bound.
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>

#include <gtest/gtest.h>

#include "fuzz/exercise.h"
#include "fuzz/texture_input.h"

using namespace horde;

TEST(Regressions, EveryKeptInputDecodesCleanly) {
    std::filesystem::path root = HORDE_REGRESSIONS_DIR;
    size_t checked = 0;
    for (const auto& folder : std::filesystem::directory_iterator(root)) {
        if (!folder.is_directory()) continue;
        const std::string kind = folder.path().filename().string();
        if (fuzz::isTextureKind(kind)) {
            for (const auto& file : std::filesystem::directory_iterator(folder.path())) {
                std::ifstream in(file.path(), std::ios::binary);
                std::vector<char> raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
                auto copy = std::make_unique<std::byte[]>(raw.size());
                std::copy(raw.begin(), raw.end(), reinterpret_cast<char*>(copy.get()));
                EXPECT_EQ(fuzz::exerciseTexture(kind, std::span<const std::byte>(copy.get(), raw.size())), "") << file.path();
                ++checked;
            }
            continue;
        }
        const Format* format = findFormat(folder.path().filename().string());
        ASSERT_NE(format, nullptr) << folder.path() << " names no format";
        fuzz::Exercise exercise(*format);
        for (const auto& file : std::filesystem::directory_iterator(folder.path())) {
            std::ifstream in(file.path(), std::ios::binary);
            std::vector<char> raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            // A fresh allocation of exactly the file's size, so the address sanitizer sees overreads.
            auto copy = std::make_unique<std::byte[]>(raw.size());
            std::copy(raw.begin(), raw.end(), reinterpret_cast<char*>(copy.get()));
            fuzz::Outcome outcome = exercise.run(std::span<const std::byte>(copy.get(), raw.size()));
            for (const fuzz::Failure& failure : outcome.failures)
                EXPECT_NE(failure.message.find(failure.file), std::string::npos)
                    << file.path() << ": errors name the file: " << failure.message;
            EXPECT_TRUE(fuzz::withinStorageBound(raw.size(), outcome.storageBytes))
                << file.path() << ": " << outcome.storageBytes << " bytes of mesh storage for " << raw.size()
                << " input bytes";
            ++checked;
        }
    }
    RecordProperty("inputs", int(checked));
}
