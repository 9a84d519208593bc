// Node registry and fresh names of the front end (see handles.h).
//
// A graph of handles can be a chain ten thousand nodes long. Letting
// shared_ptr free such a chain from its last handle recurses once per node
// through several destructor frames, which overflows an 8 MiB stack under
// AddressSanitizer. So every node made by the front end is also held here, in
// creation order; children are always made before their parents. A sweep runs
// from the newest node to the oldest and drops the nodes held only here: a node
// freed that way finds its children still held by this registry, so freeing
// never recurses. Sweeps run when the registry has doubled since the last one,
// which keeps their cost amortised constant per node.
#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "frontend/handles.h"

namespace strata::fe::detail {
namespace {

class Registry {
public:
  Registry() = default;
  Registry(const Registry&) = delete;
  Registry& operator=(const Registry&) = delete;
  ~Registry() {
    // Newest first, so that no node is freed while its parent still exists.
    while (!nodes_.empty())
      nodes_.pop_back();
  }
  void keep(std::shared_ptr<void> p) {
    nodes_.push_back(std::move(p));
    if (nodes_.size() >= next_sweep_) sweep();
  }

private:
  void sweep() {
    size_t kept = 0;
    // Newest to oldest: dropping a parent leaves its children held only here,
    // and they are visited (and dropped) later in this same loop.
    for (size_t i = nodes_.size(); i-- > 0;)
      if (nodes_[i].use_count() == 1) nodes_[i].reset();
    for (auto& p : nodes_)
      if (p) nodes_[kept++] = std::move(p);
    nodes_.resize(kept);
    next_sweep_ = std::max<size_t>(2 * kept, 4096);
  }
  std::vector<std::shared_ptr<void>> nodes_;
  size_t next_sweep_ = 4096;
};

Registry& registry() {
  thread_local Registry r;
  return r;
}

} // namespace

ExpPtr node(ExpNode n) {
  ExpPtr p = make_exp(std::move(n));
  registry().keep(p);
  return p;
}

AccPtr node(AccNode n) {
  AccPtr p = make_acc(std::move(n));
  registry().keep(p);
  return p;
}

std::string fresh_name() {
  static std::atomic<uint64_t> counter{0};
  return "_t" + std::to_string(counter.fetch_add(1, std::memory_order_relaxed));
}

} // namespace strata::fe::detail
