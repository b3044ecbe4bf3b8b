#pragma once
// The thread pool the folder commands spread their work on (--jobs): a list of indices worked
// through by a few threads, with one progress line for all of them on a terminal, or a line per
// finished item elsewhere.
#include <cstddef>
#include <functional>
#include <string>

namespace horde {

// How the progress of a parallelFor shows where stderr is not a terminal (a CI log, a file):
// nothing (a quick pass over every file), or a line per finished item, "[k/count] " first, so a
// long run over models shows it is moving.
enum class Lines { TerminalOnly, EachItem };

// Runs work(0) .. work(count - 1) on `threads` threads, each index once, in no fixed order.
// `done(i)`, asked once work(i) has finished, says what became of it: on a terminal it labels the
// one progress line (stderr); elsewhere, with Lines::EachItem, it is printed on a line of its own.
// An empty line says nothing (a file a command passes over).
void parallelFor(size_t count, unsigned threads, const std::function<void(size_t)>& work,
                 const std::function<std::string(size_t)>& done, Lines lines = Lines::TerminalOnly);

} // namespace horde
