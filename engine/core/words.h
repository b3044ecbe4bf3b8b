#pragma once
// The words an enumeration is written as (the command line, the overlay, JSON, benchmark names),
// listed once beside it: a specialisation of Words<E> whose `list` holds one word per
// enumerator, in order. One function names a value and one parses a word, for every enumeration.
#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

namespace horde {

template <class E> struct Words;

template <class E> constexpr std::string_view nameOf(E value) {
    return Words<E>::list[size_t(value)];
}

template <class E> constexpr std::optional<E> parseName(std::string_view word) {
    for (size_t i = 0; i < Words<E>::list.size(); ++i)
        if (Words<E>::list[i] == word) return E(i);
    return std::nullopt;
}

} // namespace horde
