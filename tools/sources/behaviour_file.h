#pragma once
// A behaviour written by the user as JSON (README, "Behaviours", has the schema): states with the
// clips each plays (names or patterns, or "@role"), how long each lasts, whether it walks and how
// far it turns, and weighted transitions between them. A file that does not hold one is refused
// with one message naming the file and the field.
#include <filesystem>
#include <string_view>

#include "core/result.h"
#include "crowd/behaviour.h"

namespace horde {

// At most this many bytes of JSON: a behaviour is a few states.
constexpr uintmax_t kMaxBehaviourFileBytes = 1u << 20;

Result<Behaviour> readBehaviourFile(const std::filesystem::path& path);
// `text` as read from `source` (named in errors).
Result<Behaviour> parseBehaviour(std::string_view text, const std::string& source);

// "loop", "wander", or a file: what --behaviour takes.
Result<Behaviour> behaviourNamed(const std::string& word);

} // namespace horde
