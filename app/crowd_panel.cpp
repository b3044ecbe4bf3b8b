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

void counters(const FrameCounts& counts, const PassTimes& median, std::span<const std::string> states) {
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
    if (!states.empty()) {
        char line[256] = "";
        size_t used = 0;
        for (size_t s = 0; s < states.size() && s < counts.behaviour.states.size() && used + 40 < sizeof line; ++s)
            used += size_t(std::snprintf(line + used, sizeof line - used, " %s %u", states[s].c_str(),
                                         counts.behaviour.states[s]));
        ImGui::Text("states%s", line);
        ImGui::Text("%u transitions, %u blending (%u shared), %u moved", counts.behaviour.transitions,
                    counts.behaviour.blending, counts.sharedBlends, counts.behaviour.moved);
    }
    if (counts.dropped)
        ImGui::TextColored(ImVec4(1.0f, 0.4f, 0.3f, 1.0f), "dropped %u: the vertex pool could not hold them",
                           counts.dropped);
    else
        ImGui::Text("dropped 0");
}

// An enumeration's setting as a list of its words (core/words.h).
template <class E> void choice(const char* label, E& value) {
    if (ImGui::BeginCombo(label, nameOf(value).data())) {
        for (size_t i = 0; i < Words<E>::list.size(); ++i)
            if (ImGui::Selectable(Words<E>::list[i].data(), value == E(i))) value = E(i);
        ImGui::EndCombo();
    }
}

// One of the first `shown` of `values`, written as numbers.
template <size_t N>
void choice(const char* label, uint32_t& value, const std::array<uint32_t, N>& values, size_t shown = N) {
    char text[16];
    std::snprintf(text, sizeof text, "%u", value);
    if (ImGui::BeginCombo(label, text)) {
        for (size_t i = 0; i < std::min(shown, N); ++i) {
            std::snprintf(text, sizeof text, "%u", values[i]);
            if (ImGui::Selectable(text, value == values[i])) value = values[i];
        }
        ImGui::EndCombo();
    }
}

void controlsOf(WindowControls& w, uint32_t maxSamples) {
    CrowdSettings& c = w.crowd;
    int count = int(c.count);
    if (ImGui::InputInt("instances", &count, 0, 0, ImGuiInputTextFlags_EnterReturnsTrue))
        c.count = uint32_t(std::clamp(count, int(kCountRange.min), int(kCountRange.max)));
    ImGui::SliderFloat("LOD error (px)", &c.lodErrorPixels, kLodErrorRange.min, kLodErrorRange.max, "%.2f",
                       ImGuiSliderFlags_Logarithmic);
    if (ImGui::BeginCombo("behaviour", c.behaviour.name.c_str())) {
        for (const Behaviour& b : w.behaviours)
            if (ImGui::Selectable(b.name.c_str(), b == c.behaviour)) c.behaviour = b;
        ImGui::EndCombo();
    }
    ImGui::SliderFloat("cross-fade (s)", &c.crossfadeSeconds, kCrossfadeRange.min, kCrossfadeRange.max, "%.2f");
    choice("technique", c.technique);
    choice("skinning", c.skin.skinning);
    choice("precision", c.skin.precision);
    choice("influences", c.skin.influences, std::array<uint32_t, 2>{4, 8});
    ImGui::Checkbox("textures", &c.textures);
    choice("MSAA", c.picture.msaa, kMsaaChoices,
           size_t(std::find(kMsaaChoices.begin(), kMsaaChoices.end(), maxSamples) - kMsaaChoices.begin()) +
               1);
    ImGui::Checkbox("freeze culling camera (f)", &w.freeze);
    ImGui::Checkbox("tint by level (l)", &w.tintLevels);
    ImGui::Checkbox("paused (space)", &w.paused);
}

} // namespace

void PassHistory::add(const PassTimes& times) {
    frames_[next_] = times;
    next_ = (next_ + 1) % kFrames;
    size_ = std::min(size_ + 1, kFrames);
}

void drawCrowdPanel(WindowControls& c, const PassHistory& history, const FrameCounts& counts,
                    const PassTimes& median, uint32_t maxSamples, std::span<const std::string> states) {
    ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(430, 0), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowBgAlpha(0.85f);
    ImGui::Begin("horde crowd (o hides)");
    rollingGraph(history);
    counters(counts, median, states);
    ImGui::Separator();
    controlsOf(c, maxSamples);
    ImGui::End();
}

} // namespace horde
