// The in-process half of the kernel cache (cache/kernel_cache.h): the most
// recently used compiled kernels, bounded in entries and in bytes. Inserting
// past either bound drops least recently used entries (never the one just
// inserted), so a process that compiles an unbounded stream of programs (a
// fuzz campaign, a Python session, a service) holds a bounded amount of
// compiled code. Not thread-safe: the engine's cache lock guards it.
#pragma once

#include <cstdint>
#include <list>
#include <string>
#include <unordered_map>
#include <utility>

namespace strata::cache {

// STRATA_MEMORY_CACHE_ENTRIES (default 1024) and STRATA_MEMORY_CACHE_MB
// (default 256) bound each engine's in-memory cache; a malformed value is a
// usage error naming the variable.
struct MemoryLimits {
  uint64_t max_entries = 1024;
  uint64_t max_bytes = uint64_t(256) << 20;
};
MemoryLimits memory_limits_from_environment();

template <class Value> class MemoryLru {
public:
  explicit MemoryLru(MemoryLimits limits) : limits_(limits) {}

  // The value stored under `key`, now the most recently used; nullptr if absent.
  Value* find(const std::string& key) {
    auto it = index_.find(key);
    if (it == index_.end()) return nullptr;
    order_.splice(order_.end(), order_, it->second);
    return &it->second->value;
  }

  // Stores `value` (of `bytes`) under `key` as the most recently used entry,
  // replacing one stored there, then drops least recently used entries while
  // over a bound.
  void insert(const std::string& key, Value value, uint64_t bytes) {
    if (auto it = index_.find(key); it != index_.end()) erase(it);
    order_.push_back(Node{key, std::move(value), bytes});
    index_.emplace(key, std::prev(order_.end()));
    bytes_ += bytes;
    while (order_.size() > 1 && (order_.size() > limits_.max_entries || bytes_ > limits_.max_bytes))
      erase(index_.find(order_.front().key));
  }

  size_t entries() const { return order_.size(); }
  uint64_t bytes() const { return bytes_; }
  const MemoryLimits& limits() const { return limits_; }

private:
  struct Node {
    std::string key;
    Value value;
    uint64_t bytes = 0;
  };
  using Iterator = typename std::list<Node>::iterator;

  void erase(typename std::unordered_map<std::string, Iterator>::iterator it) {
    bytes_ -= it->second->bytes;
    Iterator node = it->second;
    index_.erase(it);
    order_.erase(node);
  }

  MemoryLimits limits_;
  std::list<Node> order_; // least recently used first
  std::unordered_map<std::string, Iterator> index_;
  uint64_t bytes_ = 0;
};

} // namespace strata::cache
