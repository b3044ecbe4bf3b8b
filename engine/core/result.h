#pragma once
// Result<T>: the one error path for anything that reads untrusted input. Device trouble is
// different: it throws VulkanError (vk/check.h) because no caller can repair it locally.
#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace horde {

struct Error {
    std::string message; // one line a user can act on: file, byte offset, field, reason
};

template <class T> class Result {
  public:
    Result(T value) : state_(std::move(value)) {}
    Result(Error error) : state_(std::move(error)) {}

    bool ok() const { return state_.index() == 0; }
    explicit operator bool() const { return ok(); }

    T& value() & { assert(ok()); return std::get<0>(state_); }
    const T& value() const& { assert(ok()); return std::get<0>(state_); }
    T&& value() && { assert(ok()); return std::get<0>(std::move(state_)); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() & { return value(); }
    const Error& error() const { assert(!ok()); return std::get<1>(state_); }

  private:
    std::variant<T, Error> state_;
};

struct Ok {};
using Status = Result<Ok>;

} // namespace horde
