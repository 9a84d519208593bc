// The kernel cache's tier policy (cache/tiered.h), with a toy engine whose
// values are strings: memory, then disk, then build; a disk entry the engine
// cannot use is rebuilt and replaced; each tier's outcome string.
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <unistd.h>

#include <gtest/gtest.h>

#include "cache/tiered.h"

namespace strata::cache {
namespace {
namespace fs = std::filesystem;

// A toy engine: builds "value of K" for key K, counts builds, keeps an
// optional memory tier, and rejects disk payloads that do not start with
// "value" (what a jit entry with corrupt metadata is).
struct Toy {
  fs::path dir;
  DiskCache disk;
  std::map<std::string, std::string> memory;
  bool with_memory = true;
  int builds = 0;
  std::string outcome;

  explicit Toy(const std::string& name)
      : dir(fs::temp_directory_path() /
            ("strata-tiered-test-" + std::to_string(::getpid()) + "-" + name)),
        disk("toy", options(dir)) {}
  ~Toy() { fs::remove_all(dir); }

  static DiskOptions options(const fs::path& d) {
    fs::remove_all(d);
    DiskOptions o;
    o.dir = d;
    return o;
  }

  std::string get(const std::string& name) {
    Key key = KeyBuilder().add(name).finish();
    Tiers<std::string> tiers;
    if (with_memory) {
      tiers.memory = [&]() -> std::optional<std::string> {
        auto it = memory.find(name);
        if (it == memory.end()) return std::nullopt;
        return it->second;
      };
      tiers.remember = [&](const std::string& v) { memory[name] = v; };
    }
    tiers.from_disk = [](std::vector<char> payload,
                         std::string& why) -> std::optional<std::string> {
      std::string v(payload.begin(), payload.end());
      if (v.rfind("value", 0) != 0) {
        why = "corrupt entry (toy)";
        return std::nullopt;
      }
      return v;
    };
    tiers.build = [&] {
      ++builds;
      std::string v = "value of " + name;
      return std::pair(v, std::vector<char>(v.begin(), v.end()));
    };
    return lookup(key, disk, tiers, outcome);
  }
};

TEST(CacheTiers, MemoryThenDiskThenBuild) {
  Toy toy("order");
  EXPECT_EQ(toy.get("a"), "value of a");
  EXPECT_EQ(toy.outcome, "miss: not on disk");
  EXPECT_EQ(toy.builds, 1);
  EXPECT_EQ(toy.memory.count("a"), 1u); // a build is remembered
  EXPECT_EQ(toy.get("a"), "value of a");
  EXPECT_EQ(toy.outcome, "hit (memory)");
  toy.memory.clear(); // a second process: only the disk has it
  EXPECT_EQ(toy.get("a"), "value of a");
  EXPECT_EQ(toy.outcome, "hit (disk)");
  EXPECT_EQ(toy.memory.count("a"), 1u); // a disk hit is remembered
  EXPECT_EQ(toy.builds, 1);
}

TEST(CacheTiers, AnEntryTheEngineCannotUseIsRebuiltAndReplaced) {
  Toy toy("corrupt");
  Key key = KeyBuilder().add("b").finish();
  std::string junk = "junk";
  toy.disk.store(key, std::vector<char>(junk.begin(), junk.end()));
  EXPECT_EQ(toy.get("b"), "value of b");
  EXPECT_EQ(toy.outcome, "miss: corrupt entry (toy)");
  EXPECT_EQ(toy.builds, 1);
  toy.memory.clear();
  EXPECT_EQ(toy.get("b"), "value of b"); // the entry was replaced
  EXPECT_EQ(toy.outcome, "hit (disk)");
  EXPECT_EQ(toy.builds, 1);
}

TEST(CacheTiers, WithoutAMemoryTierEveryLookupGoesToDisk) {
  Toy toy("nomemory");
  toy.with_memory = false;
  toy.get("c");
  EXPECT_EQ(toy.outcome, "miss: not on disk");
  toy.get("c");
  EXPECT_EQ(toy.outcome, "hit (disk)");
  EXPECT_TRUE(toy.memory.empty());
  EXPECT_EQ(toy.builds, 1);
}

TEST(CacheTiers, WithTheDiskOffEveryMissSaysSo) {
  Toy toy("diskoff");
  toy.with_memory = false;
  DiskOptions off;
  off.enabled = false;
  toy.disk = DiskCache("toy", off);
  toy.get("d");
  toy.get("d");
  EXPECT_EQ(toy.outcome, "miss: disk cache off");
  EXPECT_EQ(toy.builds, 2);
}

} // namespace
} // namespace strata::cache
