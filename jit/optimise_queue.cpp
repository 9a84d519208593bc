#include "jit/optimise_queue.h"

#include <utility>

namespace strata::jit {

void OptimiseQueue::push(Job job) {
  {
    std::lock_guard lock(mutex_);
    if (!stopping_) {
      jobs_.push_back(std::move(job));
      if (!thread_.joinable()) thread_ = std::thread([this] { work(); });
      wake_.notify_one();
      return;
    }
  }
  job.abandon();
}

void OptimiseQueue::stop() {
  std::deque<Job> left;
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    left.swap(jobs_);
    wake_.notify_one();
  }
  for (Job& job : left)
    job.abandon();
  if (thread_.joinable()) thread_.join();
}

void OptimiseQueue::work() {
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait(lock, [&] { return stopping_ || !jobs_.empty(); });
    if (jobs_.empty()) return; // stopping, nothing left
    Job job = std::move(jobs_.front());
    jobs_.pop_front();
    lock.unlock();
    job.run(); // reports its own failures: it must not throw
    lock.lock();
  }
}

} // namespace strata::jit
