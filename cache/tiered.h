// The kernel cache's policy, written once for every engine: memory, then
// disk, then build. A value this process holds is used as it is; else a disk
// entry is loaded (checked by DiskCache, then by the engine, which may still
// find it unusable: a "corrupt entry (...)"); else the engine builds the
// value, and its payload replaces whatever the disk held. A value found on
// disk or built becomes the memory tier's most recently used. The outcome is
// one of the strings of cache/outcome.h.
//
// The tiers' storage stays with the engines (what "in memory" means differs:
// the jit keeps loaded code, cuda keeps images; cache/memory_lru.h bounds
// both), and so does their locking: the hooks lock what they touch.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cache/kernel_cache.h"
#include "cache/outcome.h"

namespace strata::cache {

template <class Value> struct Tiers {
  // The memory tier: the value if this process holds it (marked most
  // recently used); nullopt otherwise. May be empty (no memory tier).
  std::function<std::optional<Value>()> memory;
  // A verified disk payload made a value; nullopt when the engine cannot use
  // it, with `why` saying so ("corrupt entry (metadata)"): it is then built
  // and replaced.
  std::function<std::optional<Value>(std::vector<char> payload, std::string& why)> from_disk;
  // The value built from nothing, and the payload that stores it on disk;
  // nullopt when the engine stores it later itself (the jit's optimised
  // tier, compiled after the quick one: jit/tiered_code.h).
  std::function<std::pair<Value, std::optional<std::vector<char>>>()> build;
  // Makes a value found on disk or built the memory tier's most recently
  // used. May be empty (no memory tier).
  std::function<void(const Value&)> remember;
};

// The value under `key`, by the policy above; `outcome` says which tier
// gave it (cache/outcome.h).
template <class Value>
Value lookup(const Key& key, const DiskCache& disk, const Tiers<Value>& tiers,
             std::string& outcome) {
  if (tiers.memory) {
    if (std::optional<Value> v = tiers.memory()) {
      outcome = memory_hit();
      return std::move(*v);
    }
  }
  std::string why;
  if (std::optional<std::vector<char>> payload = disk.load(key, why)) {
    if (std::optional<Value> v = tiers.from_disk(std::move(*payload), why)) {
      if (tiers.remember) tiers.remember(*v);
      outcome = disk_hit();
      return std::move(*v);
    }
  }
  std::pair<Value, std::optional<std::vector<char>>> built = tiers.build();
  if (built.second) disk.store(key, *built.second);
  if (tiers.remember) tiers.remember(built.first);
  outcome = miss(why);
  return std::move(built.first);
}

} // namespace strata::cache
