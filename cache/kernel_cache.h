// The kernel cache shared by the jit and cuda engines (docs/jit.md, "Kernel
// cache"): compiled kernels keyed by a structural hash of everything baked
// into them, held in memory by the engine and on disk by this cache, so that
// a second process running the same program compiles nothing. The in-memory
// half is bounded (cache/memory_lru.h).
//
// A key is built from fields (the kernel's canonical text and types, the
// compile options, the engine, the Strata and compiler versions, the target
// CPU or GPU) and nothing else, so the same program at other input sizes
// reuses its kernels. Disk entries are files <dir>/<engine>/<key>.obj with a
// header (magic, format version, key, payload length, checksum): a corrupt,
// truncated or stale entry is reported as a miss with the reason and
// replaced, never returned. Writers write a temporary file and rename it, so
// concurrent processes and threads sharing one directory only ever see whole
// entries. The directory has a size bound; storing past it evicts the least
// recently used entries (a load touches the entry's modification time). The
// bound is checked by scanning the directory on a process's first store and
// after every further 1/16 of the bound it writes, so it may be exceeded by
// that much per writing process.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace strata::cache {

// A 160-bit key as 40 hex digits.
struct Key {
  std::string hex;
  bool operator==(const Key&) const = default;
};

// Builds a key field by field; each field is length-prefixed so that
// ("ab","c") and ("a","bc") differ.
class KeyBuilder {
public:
  KeyBuilder& add(std::string_view field);
  Key finish() const;

private:
  std::string fields_;
};

// Where and whether the disk cache is used: STRATA_CACHE_DIR, else
// $XDG_CACHE_HOME/strata, else $HOME/.cache/strata; STRATA_CACHE=off turns
// it off; STRATA_CACHE_MAX_MB bounds its size (default 512).
struct DiskOptions {
  bool enabled = true;
  std::filesystem::path dir;
  uint64_t max_bytes = uint64_t(512) << 20;
};
DiskOptions disk_options_from_environment();

struct DiskStats {
  uint64_t entries = 0;
  uint64_t bytes = 0;
  std::map<std::string, std::pair<uint64_t, uint64_t>> by_engine; // entries, bytes
};

// One engine's entries under options.dir/<engine>/.
class DiskCache {
public:
  DiskCache(std::string engine, DiskOptions options);

  bool enabled() const { return options_.enabled; }
  // The verified payload stored under `key`, or nullopt with `why_missed`
  // saying why ("not on disk", "corrupt entry (checksum)", "stale entry
  // (format)", "disk cache off").
  std::optional<std::vector<char>> load(const Key& key, std::string& why_missed) const;
  // Stores `payload` atomically, then (amortised, see above) evicts least
  // recently used entries while the directory is over its size bound.
  // Failures to write (read-only or full disk) are ignored: the cache is an
  // optimisation.
  void store(const Key& key, std::span<const char> payload) const;

private:
  std::filesystem::path entry_path(const Key& key) const;
  std::string engine_;
  DiskOptions options_;
};

// The whole cache directory (every engine): for `strata cache stats|clear`.
DiskStats disk_stats(const DiskOptions& options);
// Removes every entry; returns how many.
uint64_t disk_clear(const DiskOptions& options);
// Removes least recently used entries until the directory holds at most
// options.max_bytes (DiskCache::store calls it).
void disk_evict(const DiskOptions& options);

} // namespace strata::cache
