#pragma once
// A .glb opened for editing as a faulty converter would have written it: its JSON and its binary
// chunk, with helpers that edit tightly packed accessors (as horde's writer stores them) in place.
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <set>
#include <vector>

#include <nlohmann/json.hpp>

namespace horde::test {

using nlohmann::json;

// A .glb as its two chunks.
struct Glb {
    json doc;
    std::vector<uint8_t> bin;

    static Glb read(const std::filesystem::path& path) {
        std::ifstream in(path, std::ios::binary);
        std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        auto u32 = [&](size_t at) {
            uint32_t v;
            std::memcpy(&v, &bytes.at(at), 4);
            return v;
        };
        Glb g;
        uint32_t jsonLength = u32(12), binAt = 20 + jsonLength;
        g.doc = json::parse(bytes.begin() + 20, bytes.begin() + 20 + jsonLength);
        g.bin.assign(bytes.begin() + binAt + 8, bytes.begin() + binAt + 8 + u32(binAt));
        return g;
    }

    // The GLB container (glTF 2.0, section 4.4): header, JSON chunk padded with spaces, BIN chunk.
    std::vector<std::byte> bytes() const {
        std::string text = doc.dump();
        text.resize((text.size() + 3) & ~size_t(3), ' ');
        std::vector<uint8_t> data = bin;
        data.resize((data.size() + 3) & ~size_t(3), 0);
        std::vector<std::byte> out;
        auto put = [&](const void* p, size_t n) {
            out.insert(out.end(), static_cast<const std::byte*>(p), static_cast<const std::byte*>(p) + n);
        };
        auto u32 = [&](uint32_t v) { put(&v, 4); };
        u32(0x46546C67), u32(2), u32(uint32_t(12 + 8 + text.size() + 8 + data.size()));
        u32(uint32_t(text.size())), u32(0x4E4F534A);
        put(text.data(), text.size());
        u32(uint32_t(data.size())), u32(0x004E4942);
        put(data.data(), data.size());
        return out;
    }

    void write(const std::filesystem::path& path) const {
        const std::vector<std::byte> b = bytes();
        std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
    }

    // Every float element of an accessor (tightly packed, as horde writes them), edited in place.
    template <int N> void edit(int accessor, const std::function<void(float*)>& f) {
        const json& a = doc["accessors"][size_t(accessor)];
        const json& view = doc["bufferViews"][a["bufferView"].get<size_t>()];
        size_t at = view.value("byteOffset", size_t(0)) + a.value("byteOffset", size_t(0));
        for (size_t e = 0; e < a["count"].get<size_t>(); ++e) {
            float v[N];
            std::memcpy(v, &bin[at + e * N * 4], N * 4);
            f(v);
            std::memcpy(&bin[at + e * N * 4], v, N * 4);
        }
    }
    // Every accessor any primitive uses for the attribute, each edited once.
    std::set<int> accessors(const char* attribute) const {
        std::set<int> out;
        for (const json& mesh : doc["meshes"])
            for (const json& p : mesh["primitives"])
                if (p["attributes"].contains(attribute)) out.insert(p["attributes"][attribute].get<int>());
        return out;
    }
    template <int N> void editAttribute(const char* attribute, const std::function<void(float*)>& f) {
        for (int a : accessors(attribute))
            edit<N>(a, f);
    }
    // JOINTS_n as unsigned shorts (as horde writes them), each vertex's four edited in place.
    void editJoints(const std::function<void(uint16_t*)>& f) {
        for (int accessor : accessors("JOINTS_0")) {
            const json& a = doc["accessors"][size_t(accessor)];
            size_t at = doc["bufferViews"][a["bufferView"].get<size_t>()].value("byteOffset", size_t(0));
            for (size_t e = 0; e < a["count"].get<size_t>(); ++e) {
                uint16_t j[4];
                std::memcpy(j, &bin[at + e * 8], 8);
                f(j);
                std::memcpy(&bin[at + e * 8], j, 8);
            }
        }
    }
    // The sampler inputs of one animation, each accessor scaled once (with its bounds).
    void scaleClip(size_t animation, float factor) {
        std::set<int> inputs;
        for (const json& s : doc["animations"][animation]["samplers"])
            inputs.insert(s["input"].get<int>());
        for (int input : inputs) {
            edit<1>(input, [&](float* t) { t[0] *= factor; });
            json& a = doc["accessors"][size_t(input)];
            a["min"][0] = a["min"][0].get<double>() * factor;
            a["max"][0] = a["max"][0].get<double>() * factor;
        }
    }
    // The materials of the first two primitives (in file order) that have different ones.
    bool swapTwoMaterials() {
        json* first = nullptr;
        for (json& mesh : doc["meshes"])
            for (json& p : mesh["primitives"]) {
                if (!p.contains("material")) continue;
                if (!first)
                    first = &p;
                else if ((*first)["material"] != p["material"]) {
                    std::swap((*first)["material"], p["material"]);
                    return true;
                }
            }
        return false;
    }
};

} // namespace horde::test
