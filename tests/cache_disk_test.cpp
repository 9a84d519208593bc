// The kernel cache's disk half (cache/kernel_cache.h): keys, verified
// entries, rejection of corrupt/truncated/stale entries, LRU eviction, and
// many threads and processes sharing one directory.
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "cache/kernel_cache.h"

namespace strata::cache {
namespace {
namespace fs = std::filesystem;

struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() /
           ("strata-cache-test-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(path);
  }
  ~TempDir() { fs::remove_all(path); }
};

DiskOptions options_in(const fs::path& dir, uint64_t max_bytes = uint64_t(1) << 30) {
  DiskOptions o;
  o.dir = dir;
  o.max_bytes = max_bytes;
  return o;
}

Key key_of(const std::string& text) {
  return KeyBuilder().add(text).finish();
}

std::vector<char> bytes(const std::string& s) {
  return std::vector<char>(s.begin(), s.end());
}

std::string as_string(const std::optional<std::vector<char>>& v) {
  return v ? std::string(v->begin(), v->end()) : std::string("<miss>");
}

fs::path only_entry(const fs::path& dir) {
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.path().extension() == ".obj") return e.path();
  return {};
}

TEST(CacheKey, IsFortyHexDigitsAndSeparatesFields) {
  Key k = KeyBuilder().add("ab").add("c").finish();
  ASSERT_EQ(k.hex.size(), 40u);
  EXPECT_EQ(k.hex.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_EQ(k, KeyBuilder().add("ab").add("c").finish());
  EXPECT_NE(k, KeyBuilder().add("a").add("bc").finish());
  EXPECT_NE(k, KeyBuilder().add("abc").finish());
  // The empty field is hashed as "0:" (python3: hashlib.sha1(b'0:').hexdigest()).
  EXPECT_EQ(KeyBuilder().add("").finish().hex, "b44b82a4bc6c35f6ad5e9fceefef9509c17fba74");
}

TEST(CacheDisk, StoresAndLoadsPerEngine) {
  TempDir dir;
  DiskCache jit("jit", options_in(dir.path)), cuda("cuda", options_in(dir.path));
  std::string why;
  EXPECT_FALSE(jit.load(key_of("k"), why));
  EXPECT_EQ(why, "not on disk");
  jit.store(key_of("k"), bytes("object code"));
  EXPECT_EQ(as_string(jit.load(key_of("k"), why)), "object code");
  EXPECT_FALSE(cuda.load(key_of("k"), why)) << "engines have separate entries";
  jit.store(key_of("k"), bytes("replaced"));
  EXPECT_EQ(as_string(jit.load(key_of("k"), why)), "replaced");
  DiskStats s = disk_stats(options_in(dir.path));
  EXPECT_EQ(s.entries, 1u);
  EXPECT_EQ(s.by_engine.at("jit").first, 1u);
  EXPECT_EQ(disk_clear(options_in(dir.path)), 1u);
  EXPECT_FALSE(jit.load(key_of("k"), why));
}

TEST(CacheDisk, OffMeansNeitherLoadNorStore) {
  TempDir dir;
  DiskOptions o = options_in(dir.path);
  o.enabled = false;
  DiskCache c("jit", o);
  c.store(key_of("k"), bytes("x"));
  std::string why;
  EXPECT_FALSE(c.load(key_of("k"), why));
  EXPECT_EQ(why, "disk cache off");
  EXPECT_FALSE(fs::exists(dir.path));
}

// Each damaged entry is a miss that says why, and is removed, never returned.
void expect_rejected(const std::function<void(std::string&)>& damage, const std::string& reason) {
  TempDir dir;
  DiskCache c("jit", options_in(dir.path));
  c.store(key_of("k"), bytes("0123456789abcdef"));
  fs::path entry = only_entry(dir.path);
  std::string text;
  {
    std::ifstream in(entry, std::ios::binary);
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  damage(text);
  {
    std::ofstream out(entry, std::ios::binary | std::ios::trunc);
    out << text;
  }
  std::string why;
  EXPECT_FALSE(c.load(key_of("k"), why)) << reason;
  EXPECT_EQ(why, reason);
  EXPECT_FALSE(fs::exists(entry));
}

TEST(CacheDisk, RejectsCorruptTruncatedAndStaleEntries) {
  expect_rejected([](std::string& t) { t.back() ^= 1; }, "corrupt entry (checksum)");
  expect_rejected([](std::string& t) { t.pop_back(); }, "corrupt entry (truncated)");
  expect_rejected([](std::string& t) { t.resize(10); }, "corrupt entry (header)");
  expect_rejected([](std::string& t) { t.clear(); }, "corrupt entry (header)");
  expect_rejected([](std::string& t) { t[0] = 'X'; }, "corrupt entry (header)");
  expect_rejected([](std::string& t) { t[8] = char(99); }, "stale entry (format)");
  expect_rejected([](std::string& t) { t[12] = t[12] == 'a' ? 'b' : 'a'; }, "corrupt entry (key)");
}

TEST(CacheDisk, EvictsLeastRecentlyUsedPastTheBound) {
  TempDir dir;
  // Each entry is a 100-byte payload plus a 100-byte header: room for three.
  DiskCache c("jit", options_in(dir.path, 650));
  std::string payload(100, 'p');
  auto now = fs::file_time_type::clock::now();
  for (int i = 0; i < 3; ++i) {
    c.store(key_of(std::to_string(i)), bytes(payload));
    // Entry i was used i minutes after the epoch of this test: 0 is the oldest.
    fs::last_write_time(dir.path / "jit" / (key_of(std::to_string(i)).hex + ".obj"),
                        now - std::chrono::minutes(10 - i));
  }
  std::string why;
  ASSERT_TRUE(c.load(key_of("0"), why)) << why; // 0 becomes the most recently used
  c.store(key_of("3"), bytes(payload));         // over the bound: evicts 1, the LRU
  EXPECT_TRUE(c.load(key_of("0"), why));
  EXPECT_FALSE(c.load(key_of("1"), why));
  EXPECT_TRUE(c.load(key_of("2"), why));
  EXPECT_TRUE(c.load(key_of("3"), why));
  EXPECT_LE(disk_stats(options_in(dir.path)).bytes, 650u);
}

// Writers of the same and of different keys, and readers, at once: a reader
// sees a miss or a whole, correct entry, never a torn one.
void hammer(const fs::path& dir, int worker, int rounds) {
  DiskCache c("jit", options_in(dir, 1 << 20));
  for (int r = 0; r < rounds; ++r) {
    std::string name = std::to_string((worker + r) % 5);
    std::string payload(1000 + 100 * std::stoi(name), char('a' + std::stoi(name)));
    c.store(key_of(name), bytes(payload));
    std::string why;
    auto got = c.load(key_of(std::to_string(r % 5)), why);
    if (got) {
      std::string expect(1000 + 100 * (r % 5), char('a' + r % 5));
      if (as_string(got) != expect) std::abort();
    }
  }
}

TEST(CacheDisk, ThreadsShareOneDirectory) {
  TempDir dir;
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back(hammer, dir.path, t, 50);
  for (auto& t : threads)
    t.join();
  EXPECT_EQ(disk_stats(options_in(dir.path)).entries, 5u);
}

TEST(CacheDisk, ProcessesShareOneDirectory) {
  TempDir dir;
  std::vector<pid_t> children;
  for (int p = 0; p < 4; ++p) {
    pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      hammer(dir.path, p, 50);
      ::_exit(0);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "a process saw a torn entry";
  }
  EXPECT_EQ(disk_stats(options_in(dir.path)).entries, 5u);
  // No temporary files are left behind.
  for (const auto& e : fs::recursive_directory_iterator(dir.path))
    EXPECT_NE(e.path().filename().string().rfind(".tmp-", 0), 0u) << e.path();
}

TEST(CacheDisk, OptionsComeFromTheEnvironment) {
  ::setenv("STRATA_CACHE_DIR", "/tmp/x-strata", 1);
  ::setenv("STRATA_CACHE_MAX_MB", "3", 1);
  ::unsetenv("STRATA_CACHE");
  DiskOptions o = disk_options_from_environment();
  EXPECT_TRUE(o.enabled);
  EXPECT_EQ(o.dir, "/tmp/x-strata");
  EXPECT_EQ(o.max_bytes, uint64_t(3) << 20);
  ::unsetenv("STRATA_CACHE_DIR");
  ::setenv("XDG_CACHE_HOME", "/tmp/xdg", 1);
  EXPECT_EQ(disk_options_from_environment().dir, "/tmp/xdg/strata");
  ::setenv("STRATA_CACHE", "off", 1);
  EXPECT_FALSE(disk_options_from_environment().enabled);
  ::unsetenv("STRATA_CACHE");
  ::unsetenv("XDG_CACHE_HOME");
  ::unsetenv("STRATA_CACHE_MAX_MB");
}

} // namespace
} // namespace strata::cache
