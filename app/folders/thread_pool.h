#pragma once
// The thread pool the folder commands spread their work on (--jobs): a list of indices worked
// through by a few threads, with one progress line for all of them.
#include <cstddef>
#include <functional>
#include <string>

namespace horde {

// Runs work(0) .. work(count - 1) on `threads` threads, each index once, in no fixed order.
// `name(i)` labels the progress line (stderr, drawn only on a terminal).
void parallelFor(size_t count, unsigned threads, const std::function<void(size_t)>& work,
                 const std::function<std::string(size_t)>& name);

} // namespace horde
