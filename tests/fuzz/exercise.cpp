#include "fuzz/exercise.h"

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <string_view>

#include "monster.h"
#include "survey.h"

namespace horde::fuzz {

namespace {
// Sums the storage a decode asks for, so a run can be held to loader.h's bound.
class MeteredAllocator final : public MeshAllocator {
  public:
    std::unique_ptr<MeshStorage> allocate(const MeshLayout& layout, std::string_view name) override {
        bytes += streamOffsets(layout).total;
        return heap_.allocate(layout, name);
    }
    uint64_t bytes = 0;

  private:
    HeapMeshAllocator heap_;
};
} // namespace

Exercise::Exercise(const Format& format) : format_(format) {
    dir_ = std::filesystem::temp_directory_path() /
           ("horde_fuzz_" + std::string(format.id) + "_" + std::to_string(getpid()) + "_" +
            std::to_string(reinterpret_cast<uintptr_t>(this)));
    std::filesystem::create_directories(dir_);
    input_ = dir_ / ("fuzz" + std::string(format.extension ? format.extension : ""));
    HeapMeshAllocator heap;
    Model monster = buildMonster(heap, MonsterParams{2, 3, 1});
    if (format.write)
        if (Result<Companions> written = format.write(monster, dir_ / ("monster" + std::string(format.extension ? format.extension : ""))))
            skeleton_ = written->skeleton;
    target_.nodes = monster.nodes;
}

Exercise::~Exercise() {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
}

Outcome Exercise::run(std::span<const std::byte> bytes) const {
    Outcome out;
    auto load = [&](const std::filesystem::path& path, const LoadOptions& options) {
        MeteredAllocator allocator;
        Result<Model> model = format_.readModel(path, bytes, options, allocator);
        out.storageBytes = std::max(out.storageBytes, allocator.bytes);
        if (!model) {
            out.failures.push_back({path.filename().string(), model.error().message});
            return;
        }
        (void)finishModel(path, *model);
    };
    load(input_, LoadOptions{});
    if (!skeleton_.empty()) {
        LoadOptions options;
        options.skeleton = skeleton_;
        load(input_, options);
    }
    // EMI tells its three files apart by extension alone.
    if (std::string_view(format_.id) == "emi") load(input_.parent_path() / "fuzz.sklb", LoadOptions{});
    // The folder commands survey every file before any load (loaders/survey.h).
    (void)surveyFile(input_, bytes);
    if (std::string_view(format_.id) == "emi") (void)surveyFile(input_.parent_path() / "fuzz.animb", bytes);
    if (format_.readClips) {
        Model bind;
        bind.nodes = target_.nodes;
        Result<std::vector<Clip>> clips = format_.readClips(input_, bytes, bind);
        if (!clips) out.failures.push_back({input_.filename().string(), clips.error().message});
    }
    return out;
}

bool withinStorageBound(size_t inputBytes, uint64_t storageBytes) {
    return storageBytes <= kStoragePerInputByte * inputBytes + kStorageSlack;
}

} // namespace horde::fuzz
