// Runs a function on a thread with a large stack.
//
// The checker, the interpreter and the printer walk the IR recursively, which is
// the clearest way to write them. Programs built with the C++ front end can nest
// ten thousand operations deep (a loop that maps a map of a map ...), deeper than
// an 8 MiB main-thread stack allows, especially under AddressSanitizer. Callers
// that may meet such programs run those passes through `with_large_stack`: a
// fresh pthread with a 512 MiB stack (reserved address space; only the pages
// touched are backed), joined before returning. Exceptions are carried back.
#pragma once

#include <pthread.h>

#include <cstddef>
#include <exception>
#include <optional>
#include <stdexcept>
#include <type_traits>
#include <utility>

namespace strata {

constexpr size_t kLargeStackBytes = size_t(512) << 20;

// Calls f() on a thread whose stack holds `stack_bytes`; returns what f returns
// and rethrows what it throws.
template <class F> auto with_large_stack(F&& f, size_t stack_bytes = kLargeStackBytes) {
  using R = std::decay_t<std::invoke_result_t<F&>>;
  struct Job {
    std::remove_reference_t<F>* f;
    std::exception_ptr error;
    std::conditional_t<std::is_void_v<R>, bool, std::optional<R>> result{};
    static void* run(void* self) {
      auto* job = static_cast<Job*>(self);
      try {
        if constexpr (std::is_void_v<R>)
          (*job->f)();
        else
          job->result.emplace((*job->f)());
      } catch (...) {
        job->error = std::current_exception();
      }
      return nullptr;
    }
  } job{&f, nullptr};
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, stack_bytes);
  pthread_t thread;
  int rc = pthread_create(&thread, &attr, &Job::run, &job);
  pthread_attr_destroy(&attr);
  if (rc != 0) throw std::runtime_error("cannot start a thread with a large stack");
  pthread_join(thread, nullptr);
  if (job.error) std::rethrow_exception(job.error);
  if constexpr (!std::is_void_v<R>) return R(std::move(*job.result));
}

} // namespace strata
