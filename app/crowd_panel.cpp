#include "crowd_panel.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <imgui.h>

namespace horde {

namespace {

constexpr const char* kPasses[] = {"cull", "sample", "pose", "skin", "draw"};
constexpr ImU32 kPassColors[] = {IM_COL32(154, 165, 177, 255), IM_COL32(107, 174, 214, 255),
                                 IM_COL32(49, 130, 189, 255), IM_COL32(230, 85, 13, 255),
                                 IM_COL32(49, 163, 84, 255)};

double passMs(const PassTimes& t, int pass) {
    const double ms[] = {t.cullMs, t.sampleMs, t.poseMs, t.skinMs, t.drawMs};
    return ms[pass];
}

// Each frame a column, its passes stacked from the bottom, the scale the slowest frame kept.
void rollingGraph(const PassHistory& history) {
    const ImVec2 size(ImGui::GetContentRegionAvail().x, 110.0f);
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->AddRectFilled(origin, ImVec2(origin.x + size.x, origin.y + size.y), IM_COL32(20, 22, 26, 230));
    double most = 1e-3;
    for (size_t i = 0; i < history.size(); ++i)
        most = std::max(most, history.at(i).totalMs());
    const float column = size.x / float(PassHistory::kFrames);
    for (size_t i = 0; i < history.size(); ++i) {
        const float x = origin.x + size.x - float(history.size() - i) * column;
        float y = origin.y + size.y;
        for (int pass = 0; pass < 5; ++pass) {
            const float h = float(passMs(history.at(i), pass) / most) * size.y;
            if (h > 0.0f)
                draw->AddRectFilled(ImVec2(x, y - h), ImVec2(x + std::max(column, 1.0f), y),
                                    kPassColors[pass]);
            y -= h;
        }
    }
    char scale[32];
    std::snprintf(scale, sizeof scale, "%.1f ms", most);
    draw->AddText(ImVec2(origin.x + 4, origin.y + 2), IM_COL32(230, 230, 230, 255), scale);
    ImGui::Dummy(size);
    for (int pass = 0; pass < 5; ++pass) {
        if (pass) ImGui::SameLine();
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(kPassColors[pass]), "%s", kPasses[pass]);
    }
}

void counters(const FrameCounts& counts, const PassTimes& median) {
    ImGui::Text("gpu %.2f ms a frame (median)", median.totalMs());
    ImGui::Text("cull %.2f  sample %.2f  pose %.2f  skin %.2f  draw %.2f", median.cullMs, median.sampleMs,
                median.poseMs, median.skinMs, median.drawMs);
    ImGui::Text("visible %u of %u   triangles %.2f M   skinned %.2f M", counts.visible, counts.instances,
                double(counts.triangles) * 1e-6, double(counts.skinnedVertices) * 1e-6);
    // Written into a fixed buffer: the panel allocates nothing per frame.
    char levels[256] = " -";
    size_t at = 0;
    for (size_t l = 0; l < counts.perLevel.size() && at + 24 < sizeof levels; ++l)
        if (counts.perLevel[l])
            at += size_t(std::snprintf(levels + at, sizeof levels - at, " L%zu:%u", l, counts.perLevel[l]));
    ImGui::Text("levels%s", levels);
    ImGui::Text("poses %u own, %u shared", counts.ownPoses, counts.sharedPoses);
    if (counts.dropped)
        ImGui::TextColored(ImVec4(1.0f, 0.4f, 0.3f, 1.0f), "dropped %u: the vertex pool could not hold them",
                           counts.dropped);
    else
        ImGui::Text("dropped 0");
}

// A choice among `names`; true when it changed.
bool choice(const char* label, int& value, const char* const* names, int count) {
    return ImGui::Combo(label, &value, names, count);
}

void controlsOf(CrowdControls& c, uint32_t maxSamples) {
    int count = int(c.count);
    if (ImGui::InputInt("instances", &count, 0, 0, ImGuiInputTextFlags_EnterReturnsTrue)) {
        c.count = uint32_t(std::clamp(count, 1, 1 << 20));
        c.rebuild = true;
    }
    ImGui::SliderFloat("LOD error (px)", &c.lodErrorPixels, 0.05f, 8.0f, "%.2f",
                       ImGuiSliderFlags_Logarithmic);
    static const char* const techniques[] = {"compute", "vertex"};
    static const char* const skinnings[] = {"lbs", "dqs"};
    static const char* const precisions[] = {"fp32", "fp16"};
    static const char* const influences[] = {"4", "8"};
    int technique = c.technique == Technique::Vertex ? 1 : 0,
        skinning = c.skin.skinning == Skinning::Dqs ? 1 : 0,
        precision = c.skin.precision == Precision::Fp16 ? 1 : 0, eight = c.skin.influences > 4 ? 1 : 0;
    if (choice("technique", technique, techniques, 2))
        c.technique = technique ? Technique::Vertex : Technique::Compute;
    if (choice("skinning", skinning, skinnings, 2))
        c.skin.skinning = skinning ? Skinning::Dqs : Skinning::Lbs;
    if (choice("precision", precision, precisions, 2))
        c.skin.precision = precision ? Precision::Fp16 : Precision::Fp32;
    if (choice("influences", eight, influences, 2)) c.skin.influences = eight ? 8u : 4u;
    if (ImGui::Checkbox("textures", &c.textures)) c.rebuild = true;
    static const char* const samples[] = {"1", "2", "4", "8"};
    int msaa = int(std::log2(double(c.msaa)));
    if (choice("MSAA", msaa, samples, 1 + int(std::log2(double(maxSamples))))) {
        c.msaa = 1u << msaa;
        c.remakeSwapchain = c.rebuild = true;
    }
    ImGui::Checkbox("freeze culling camera (f)", &c.freeze);
    ImGui::Checkbox("tint by level (l)", &c.tintLevels);
    ImGui::Checkbox("paused (space)", &c.paused);
}

} // namespace

void PassHistory::add(const PassTimes& times) {
    frames_[next_] = times;
    next_ = (next_ + 1) % kFrames;
    size_ = std::min(size_ + 1, kFrames);
}

void drawCrowdPanel(CrowdControls& c, const PassHistory& history, const FrameCounts& counts,
                    const PassTimes& median, uint32_t maxSamples) {
    ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(430, 0), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowBgAlpha(0.85f);
    ImGui::Begin("horde crowd (o hides)");
    rollingGraph(history);
    counters(counts, median);
    ImGui::Separator();
    const CrowdControls before = c;
    controlsOf(c, maxSamples);
    if (c.technique != before.technique || !(c.skin == before.skin)) c.rebuild = true;
    ImGui::End();
}

} // namespace horde
