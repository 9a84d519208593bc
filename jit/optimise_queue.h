// The jit's background work: one thread that runs jobs in the order they
// were pushed (the optimised tiers of jit/tiered_code.h). One thread, not
// oneTBB's workers: a job compiles for tens of milliseconds, and on TBB it
// would hold a worker the runs' chunks need (jit/parts_compile.h says why the
// compiles avoid TBB's threads). This header includes no LLVM.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace strata::jit {

class OptimiseQueue {
public:
  struct Job {
    std::function<void()> run;
    // Called instead of run() for a job still queued when stop() is called.
    std::function<void()> abandon;
  };

  OptimiseQueue() = default;
  OptimiseQueue(const OptimiseQueue&) = delete;
  OptimiseQueue& operator=(const OptimiseQueue&) = delete;
  ~OptimiseQueue() { stop(); }

  // Queues `job` (the thread starts with the first job). After stop(), the
  // job is abandoned at once.
  void push(Job job);

  // Lets the job in flight finish, abandons the queued ones and joins the
  // thread: the process is exiting (jit/backend.cpp registers it with
  // atexit, so that no job is inside LLVM while its statics are destroyed).
  void stop();

private:
  void work();

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Job> jobs_;
  bool stopping_ = false;
  std::thread thread_;
};

} // namespace strata::jit
