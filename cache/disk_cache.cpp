// The disk half of the kernel cache: verified entries, atomic writes, LRU
// eviction by modification time (see kernel_cache.h).
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <random>
#include <sstream>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>

#include "cache/kernel_cache.h"
#include "cache/setting.h"
#include "cache/sha1_hex.h"
#include "core/environment.h"

namespace strata::cache {
namespace fs = std::filesystem;

namespace {

// Entry layout: magic, format version, key, payload length, payload checksum,
// payload. A reader that finds another format version treats it as stale.
constexpr char kMagic[8] = {'S', 'T', 'R', 'A', 'T', 'A', 'K', 'C'};
constexpr uint32_t kFormat = 1;
constexpr size_t kHeaderSize = sizeof(kMagic) + sizeof(uint32_t) + 40 + sizeof(uint64_t) + 40;
constexpr const char* kSuffix = ".obj";

std::string header(const Key& key, std::span<const char> payload) {
  std::string h(kMagic, sizeof(kMagic));
  h.append(reinterpret_cast<const char*>(&kFormat), sizeof(kFormat));
  h += key.hex;
  uint64_t length = payload.size();
  h.append(reinterpret_cast<const char*>(&length), sizeof(length));
  h += sha1_hex(std::string_view(payload.data(), payload.size()));
  return h;
}

bool is_entry(const fs::directory_entry& e) {
  return e.is_regular_file() && e.path().extension() == kSuffix;
}

// A name no other writer (thread or process) uses at the same time.
std::string temp_name(const Key& key) {
  static std::atomic<uint64_t> counter{0};
  thread_local std::mt19937_64 random{std::random_device{}()};
  std::ostringstream s;
  s << ".tmp-" << key.hex << "-" << ::getpid() << "-" << random() << "-" << counter++;
  return s.str();
}

// The whole file at `path` in one read (an entry is small: a few KB); false
// when it cannot be opened or read.
bool read_whole_file(const fs::path& path, std::vector<char>& bytes) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st {};
  bool ok = ::fstat(fd, &st) == 0;
  if (ok) {
    bytes.resize(size_t(st.st_size));
    size_t done = 0;
    while (ok && done < bytes.size()) {
      ssize_t n = ::read(fd, bytes.data() + done, bytes.size() - done);
      if (n < 0 && errno == EINTR) continue;
      ok = n > 0;
      if (ok) done += size_t(n);
    }
  }
  ::close(fd);
  return ok;
}

} // namespace

DiskOptions disk_options_from_environment() {
  DiskOptions o;
  if (auto on = environment_word("STRATA_CACHE"); on && (*on == "off" || *on == "0"))
    o.enabled = false;
  if (auto dir = environment_dir("STRATA_CACHE_DIR"))
    o.dir = *dir;
  else if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    o.dir = fs::path(xdg) / "strata";
  else if (const char* home = std::getenv("HOME"); home && *home)
    o.dir = fs::path(home) / ".cache" / "strata";
  else
    o.enabled = false; // nowhere to put it
  if (auto bytes = number_setting("STRATA_CACHE_MAX_MB", uint64_t(1) << 20)) o.max_bytes = *bytes;
  return o;
}

DiskCache::DiskCache(std::string engine, DiskOptions options)
    : engine_(std::move(engine)), options_(std::move(options)) {}

fs::path DiskCache::entry_path(const Key& key) const {
  return options_.dir / engine_ / (key.hex + kSuffix);
}

std::optional<std::vector<char>> DiskCache::load(const Key& key, std::string& why_missed) const {
  if (!options_.enabled) {
    why_missed = "disk cache off";
    return std::nullopt;
  }
  fs::path path = entry_path(key);
  std::vector<char> bytes;
  if (!read_whole_file(path, bytes)) {
    why_missed = "not on disk";
    return std::nullopt;
  }
  auto reject = [&](const char* why) -> std::optional<std::vector<char>> {
    why_missed = why;
    std::error_code ec;
    fs::remove(path, ec); // replaced by the recompiled entry
    return std::nullopt;
  };
  if (bytes.size() < kHeaderSize || std::memcmp(bytes.data(), kMagic, sizeof(kMagic)) != 0)
    return reject("corrupt entry (header)");
  const char* p = bytes.data() + sizeof(kMagic);
  uint32_t format;
  std::memcpy(&format, p, sizeof(format));
  p += sizeof(format);
  if (format != kFormat) return reject("stale entry (format)");
  if (std::string_view(p, 40) != key.hex) return reject("corrupt entry (key)");
  p += 40;
  uint64_t length;
  std::memcpy(&length, p, sizeof(length));
  p += sizeof(length);
  if (length != bytes.size() - kHeaderSize) return reject("corrupt entry (truncated)");
  std::string_view checksum(p, 40);
  std::string_view payload(bytes.data() + kHeaderSize, length);
  if (sha1_hex(payload) != checksum) return reject("corrupt entry (checksum)");
  // A hit makes the entry the most recently used.
  std::error_code ec;
  fs::last_write_time(path, fs::file_time_type::clock::now(), ec);
  bytes.erase(bytes.begin(), bytes.begin() + kHeaderSize);
  return bytes;
}

void DiskCache::store(const Key& key, std::span<const char> payload) const {
  if (!options_.enabled) return;
  std::error_code ec;
  fs::path dir = options_.dir / engine_;
  fs::create_directories(dir, ec);
  if (ec) return;
  fs::path temp = dir / temp_name(key);
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    if (!out) return;
    std::string h = header(key, payload);
    out.write(h.data(), std::streamsize(h.size()));
    out.write(payload.data(), std::streamsize(payload.size()));
    out.close();
    if (!out) {
      fs::remove(temp, ec);
      return;
    }
  }
  // rename() replaces atomically: readers see the old entry or the new one.
  fs::rename(temp, entry_path(key), ec);
  if (ec) {
    fs::remove(temp, ec);
    return;
  }
  // Scanning the directory costs ~70 ms at 16k entries, far more than a
  // compile, so a process scans on its first store and then each time it has
  // written another 1/16 of the bound: the directory exceeds its bound by at
  // most that much per writing process.
  static std::atomic<uint64_t> written_since_scan{0};
  static std::atomic<bool> scanned{false};
  uint64_t written = written_since_scan += kHeaderSize + payload.size();
  if (!scanned.exchange(true) || written >= options_.max_bytes / 16) {
    written_since_scan = 0;
    disk_evict(options_);
  }
}

DiskStats disk_stats(const DiskOptions& options) {
  DiskStats s;
  std::error_code ec;
  if (!fs::is_directory(options.dir, ec)) return s;
  for (const auto& engine : fs::directory_iterator(options.dir, ec)) {
    if (!engine.is_directory()) continue;
    for (const auto& e : fs::directory_iterator(engine.path(), ec)) {
      if (!is_entry(e)) continue;
      uint64_t size = e.file_size(ec);
      if (ec) continue;
      auto& [entries, bytes] = s.by_engine[engine.path().filename().string()];
      ++entries;
      bytes += size;
      ++s.entries;
      s.bytes += size;
    }
  }
  return s;
}

uint64_t disk_clear(const DiskOptions& options) {
  uint64_t removed = 0;
  std::error_code ec;
  if (!fs::is_directory(options.dir, ec)) return 0;
  for (const auto& engine : fs::directory_iterator(options.dir, ec)) {
    if (!engine.is_directory()) continue;
    for (const auto& e : fs::directory_iterator(engine.path(), ec))
      if (is_entry(e) && fs::remove(e.path(), ec)) ++removed;
  }
  return removed;
}

void disk_evict(const DiskOptions& options) {
  struct Entry {
    fs::path path;
    uint64_t size;
    fs::file_time_type used;
  };
  std::vector<Entry> entries;
  uint64_t total = 0;
  std::error_code ec;
  for (const auto& engine : fs::directory_iterator(options.dir, ec)) {
    if (!engine.is_directory()) continue;
    for (const auto& e : fs::directory_iterator(engine.path(), ec)) {
      if (!is_entry(e)) continue;
      Entry entry{e.path(), e.file_size(ec), e.last_write_time(ec)};
      if (ec) continue; // removed by another process meanwhile
      total += entry.size;
      entries.push_back(std::move(entry));
    }
  }
  if (total <= options.max_bytes) return;
  std::sort(entries.begin(), entries.end(),
            [](const Entry& a, const Entry& b) { return a.used < b.used; });
  for (const Entry& e : entries) {
    if (total <= options.max_bytes) break;
    fs::remove(e.path, ec); // another process may have removed it first: fine
    total -= e.size;
  }
}

} // namespace strata::cache
