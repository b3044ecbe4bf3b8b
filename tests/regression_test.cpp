// Inputs that once crashed or hung a decoder (found by scripts/fuzz, minimized), kept under
// tests/regressions/<format id>/: each must now give a clean result, error or model.
#include <filesystem>
#include <fstream>
#include <iterator>

#include <gtest/gtest.h>

#include "asset/validate.h"
#include "loader.h"

using namespace horde;

TEST(Regressions, EveryKeptInputDecodesCleanly) {
    std::filesystem::path root = HORDE_REGRESSIONS_DIR;
    size_t checked = 0;
    for (const auto& folder : std::filesystem::directory_iterator(root)) {
        if (!folder.is_directory()) continue;
        const Format* format = findFormat(folder.path().filename().string());
        ASSERT_NE(format, nullptr) << folder.path() << " names no format";
        for (const auto& file : std::filesystem::directory_iterator(folder.path())) {
            std::ifstream in(file.path(), std::ios::binary);
            std::vector<char> raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(raw.data()), raw.size());
            HeapMeshAllocator heap;
            Result<Model> model = format->load(file.path(), bytes, LoadOptions{}, heap);
            if (model) {
                finalizeMeshes(*model);
                (void)validateModel(*model);
            } else {
                EXPECT_NE(model.error().message.find(file.path().filename().string()), std::string::npos)
                    << "errors name the file: " << model.error().message;
            }
            ++checked;
        }
    }
    RecordProperty("inputs", int(checked));
}
