// The mpi engine's transport between threads of one process (`mpi:P`).
//
// A mailbox per (source, destination) and a generation barrier: every rank
// posts what it sends, waits until all have posted, takes what was sent to
// it, and waits again before the mailboxes are reused. A rank that abandons
// the group wakes the others with an error naming it.
#include <condition_variable>
#include <mutex>

#include "core/error.h"
#include "mpi/comm.h"

namespace strata::mpi {
namespace {

struct Group {
  explicit Group(int n) : ranks(n), box(size_t(n), std::vector<Bytes>(size_t(n))) {}
  int ranks;
  std::vector<std::vector<Bytes>> box; // box[source][destination]
  std::mutex m;
  std::condition_variable cv;
  int arrived = 0;
  uint64_t generation = 0;
  int left = -1; // the rank that abandoned, or -1

  void barrier(std::unique_lock<std::mutex>& lock) {
    uint64_t gen = generation;
    if (++arrived == ranks) {
      arrived = 0;
      ++generation;
      cv.notify_all();
      return;
    }
    cv.wait(lock, [&] { return generation != gen || left >= 0; });
    if (left >= 0 && generation == gen)
      throw Error(ErrorKind::Resource, "mpi: rank " + std::to_string(left) +
                                           " stopped with an error; the others stop too");
  }
};

class ThreadComm final : public Comm {
public:
  ThreadComm(std::shared_ptr<Group> g, int rank) : g_(std::move(g)), rank_(rank) {}
  int rank() const override { return rank_; }
  int size() const override { return g_->ranks; }

  std::vector<Bytes> alltoall(std::vector<Bytes> out) override {
    std::vector<Bytes> in(out.size());
    uint64_t sent = 0, received = 0;
    for (size_t d = 0; d < out.size(); ++d)
      if (d != size_t(rank_)) sent += out[d].size();
    std::unique_lock lock(g_->m);
    for (size_t d = 0; d < out.size(); ++d)
      if (d != size_t(rank_)) g_->box[size_t(rank_)][d] = std::move(out[d]);
    g_->barrier(lock);
    for (size_t s = 0; s < in.size(); ++s)
      in[s] = s == size_t(rank_) ? std::move(out[s]) : std::move(g_->box[s][size_t(rank_)]);
    g_->barrier(lock);
    lock.unlock();
    for (size_t s = 0; s < in.size(); ++s)
      if (s != size_t(rank_)) received += in[s].size();
    count(sent, received);
    return in;
  }

  void abandon() override {
    std::lock_guard lock(g_->m);
    if (g_->left < 0) g_->left = rank_;
    g_->cv.notify_all();
  }

private:
  std::shared_ptr<Group> g_;
  int rank_;
};

} // namespace

std::vector<std::unique_ptr<Comm>> make_thread_comms(int ranks) {
  auto g = std::make_shared<Group>(ranks);
  std::vector<std::unique_ptr<Comm>> v;
  for (int r = 0; r < ranks; ++r)
    v.push_back(std::make_unique<ThreadComm>(g, r));
  return v;
}

} // namespace strata::mpi
