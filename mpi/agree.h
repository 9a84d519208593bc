// Errors the ranks agree on (docs/mpi.md, "Errors").
//
// Local work (running a program on the local engine, assembling a gathered
// array) may fail on some ranks and not others. Each such step is followed
// by one collective in which every rank says whether it failed and with
// which error; then every rank throws the error of the lowest rank that
// failed (the first rows in the oracle's order), or all go on. So a failure
// never leaves a rank waiting in a collective the others skipped.
#pragma once

#include <exception>
#include <optional>
#include <type_traits>

#include "core/error.h"
#include "mpi/comm.h"

namespace strata::mpi {

Bytes encode_error(const Error& e);
Error decode_error(const Bytes& b);

// Throws rank `rank`'s error: `mine` as it is when that is this rank (and
// it failed), else the error decoded from `error`.
[[noreturn]] void throw_failure(Comm& comm, int rank, std::exception_ptr mine, const Bytes& error);

// Runs f() on every rank and agrees on its outcome: returns its result when
// no rank failed, else every rank throws the lowest failing rank's error.
template <class F> auto agreed(Comm& comm, F&& f) -> decltype(f()) {
  using R = decltype(f());
  std::optional<std::conditional_t<std::is_void_v<R>, bool, R>> result;
  std::exception_ptr mine;
  Bytes err;
  try {
    if constexpr (std::is_void_v<R>) {
      f();
      result = true;
    } else {
      result = f();
    }
  } catch (const Error& e) {
    mine = std::current_exception();
    err = encode_error(e);
  } catch (const std::exception& e) {
    mine = std::current_exception();
    err = encode_error(Error(ErrorKind::Resource, e.what()));
  }
  std::vector<Bytes> all = comm.allgather(err);
  for (size_t r = 0; r < all.size(); ++r)
    if (!all[r].empty()) throw_failure(comm, int(r), mine, all[r]);
  if constexpr (!std::is_void_v<R>) return std::move(*result);
}

// Whether f() failed on any rank (no error is thrown: the caller decides);
// `first`, when given, gets the lowest failing rank's error (an exception
// that is not an Error reads as a resource error, as in agreed()).
template <class F> bool failed_anywhere(Comm& comm, F&& f, std::optional<Error>* first = nullptr) {
  Bytes err;
  try {
    f();
  } catch (const Error& e) {
    err = encode_error(e);
  } catch (const std::exception& e) {
    err = encode_error(Error(ErrorKind::Resource, e.what()));
  }
  for (const Bytes& b : comm.allgather(err))
    if (!b.empty()) {
      if (first) *first = decode_error(b);
      return true;
    }
  return false;
}

} // namespace strata::mpi
