#include "behaviour_file.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

namespace horde {

namespace {

using nlohmann::json;

std::string decimal(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", v);
    return text;
}

// The first failure names the field; later checks are skipped.
class Fields {
  public:
    explicit Fields(std::string source) : source_(std::move(source)) {}
    bool ok() const { return error_.empty(); }
    const std::string& error() const { return error_; }
    bool fail(const std::string& field, const std::string& what) {
        if (ok()) error_ = source_ + ": " + field + ": " + what;
        return false;
    }
    // Every key of `object` is one of `known`.
    bool only(const json& object, const std::string& field, std::initializer_list<const char*> known) {
        for (const auto& [key, value] : object.items()) {
            bool found = false;
            for (const char* k : known)
                found |= key == k;
            if (!found) return fail(field + "." + key, "not a field of a behaviour (misspelt?)");
        }
        return true;
    }
    bool number(const json& v, const std::string& field, float low, float high, float& out) {
        if (!v.is_number()) return fail(field, "expected a number, got " + v.dump());
        const double d = v.get<double>();
        if (!std::isfinite(d) || d < low || d > high)
            return fail(field, v.dump() + " is outside " + decimal(low) + " to " + decimal(high));
        out = float(d);
        return true;
    }
    bool text(const json& v, const std::string& field, std::string& out) {
        if (!v.is_string() || v.get<std::string>().empty())
            return fail(field, "expected a non-empty string, got " + v.dump());
        out = v.get<std::string>();
        return true;
    }

  private:
    std::string source_, error_;
};

constexpr float kMaxSeconds = 3600.0f;

bool readState(const json& j, const std::string& field, Fields& f, BehaviourState& s) {
    if (!j.is_object()) return f.fail(field, "expected an object");
    if (!f.only(j, field, {"name", "clips", "seconds", "moves", "turn"})) return false;
    if (!j.contains("name")) return f.fail(field + ".name", "missing");
    if (!f.text(j["name"], field + ".name", s.name)) return false;
    if (!j.contains("clips") || !j["clips"].is_array() || j["clips"].empty())
        return f.fail(field + ".clips", "expected a non-empty array of clip names, patterns or @roles");
    for (size_t k = 0; k < j["clips"].size(); ++k) {
        std::string pattern;
        const std::string at = field + ".clips[" + std::to_string(k) + "]";
        if (!f.text(j["clips"][k], at, pattern)) return false;
        if (pattern[0] == '@' && !parseName<ClipRole>(pattern.substr(1)))
            return f.fail(at, "'" + pattern + "' names no role (@idle, @walk, @run, @turn, @other, @left)");
        s.clips.push_back(pattern);
    }
    if (!j.contains("seconds"))
        return f.fail(field + ".seconds", "missing: how long the state lasts, [min, max]");
    const json& seconds = j["seconds"];
    if (seconds.is_array()) {
        if (seconds.size() != 2)
            return f.fail(field + ".seconds", "expected [min, max], got " + seconds.dump());
        if (!f.number(seconds[0], field + ".seconds[0]", 0.01f, kMaxSeconds, s.minSeconds) ||
            !f.number(seconds[1], field + ".seconds[1]", 0.01f, kMaxSeconds, s.maxSeconds))
            return false;
        if (s.minSeconds > s.maxSeconds)
            return f.fail(field + ".seconds", "min is above max: " + seconds.dump());
    } else {
        if (!f.number(seconds, field + ".seconds", 0.01f, kMaxSeconds, s.minSeconds)) return false;
        s.maxSeconds = s.minSeconds;
    }
    if (j.contains("moves")) {
        if (!j["moves"].is_boolean())
            return f.fail(field + ".moves", "expected true or false, got " + j["moves"].dump());
        s.moves = j["moves"].get<bool>();
    }
    if (j.contains("turn") && !f.number(j["turn"], field + ".turn", -3600.0f, 3600.0f, s.turnDegrees))
        return false;
    return true;
}

} // namespace

Result<Behaviour> parseBehaviour(std::string_view text, const std::string& source) {
    json root;
    try {
        root = json::parse(text.begin(), text.end());
    } catch (const json::parse_error& e) {
        return Error{source + ": byte " + std::to_string(e.byte) + ": not JSON: " + e.what()};
    }
    Fields f(source);
    Behaviour b;
    b.name = source;
    if (!root.is_object()) return Error{source + ": expected an object with \"states\" and \"transitions\""};
    if (!f.only(root, "behaviour", {"states", "transitions"})) return Error{f.error()};
    if (!root.contains("states") || !root["states"].is_array() || root["states"].empty() ||
        root["states"].size() > HORDE_BEHAVIOUR_MAX_STATES)
        return Error{source + ": states: expected an array of 1 to " +
                     std::to_string(HORDE_BEHAVIOUR_MAX_STATES) + " states"};
    std::set<std::string> names;
    for (size_t k = 0; k < root["states"].size(); ++k) {
        const std::string field = "states[" + std::to_string(k) + "]";
        BehaviourState& s = b.states.emplace_back();
        if (!readState(root["states"][k], field, f, s)) return Error{f.error()};
        if (!names.insert(s.name).second)
            return Error{source + ": " + field + ".name: '" + s.name + "' named twice"};
    }
    if (root.contains("transitions")) {
        if (!root["transitions"].is_array()) return Error{source + ": transitions: expected an array"};
        for (size_t k = 0; k < root["transitions"].size(); ++k) {
            const std::string field = "transitions[" + std::to_string(k) + "]";
            const json& j = root["transitions"][k];
            BehaviourTransition& t = b.transitions.emplace_back();
            if (!j.is_object()) return Error{source + ": " + field + ": expected an object"};
            if (!f.only(j, field, {"from", "to", "weight"})) return Error{f.error()};
            for (auto [key, out] : {std::pair{"from", &t.from}, std::pair{"to", &t.to}}) {
                if (!j.contains(key)) return Error{source + ": " + field + "." + key + ": missing"};
                if (!f.text(j[key], field + "." + key, *out)) return Error{f.error()};
                if (!names.count(*out))
                    return Error{source + ": " + field + "." + key + ": no state is named '" + *out + "'"};
            }
            if (j.contains("weight") && !f.number(j["weight"], field + ".weight", 1e-6f, 1e6f, t.weight))
                return Error{f.error()};
        }
    }
    return b;
}

Result<Behaviour> readBehaviourFile(const std::filesystem::path& path) {
    std::error_code ec;
    const uintmax_t size = std::filesystem::file_size(path, ec);
    if (ec) return Error{path.string() + ": cannot read: " + ec.message()};
    if (size > kMaxBehaviourFileBytes)
        return Error{path.string() + ": " + std::to_string(size) + " bytes: a behaviour file holds at most " +
                     std::to_string(kMaxBehaviourFileBytes)};
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    if (!in) return Error{path.string() + ": cannot read"};
    return parseBehaviour(text.str(), path.string());
}

Result<Behaviour> behaviourNamed(const std::string& word) {
    if (word == "loop") return loopBehaviour();
    if (word == "wander") return wanderBehaviour();
    return readBehaviourFile(word);
}

} // namespace horde
