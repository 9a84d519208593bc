// Files written whole or not at all (core/atomic_file.h): results, formatted
// programs and bundles never end up partial.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/npy.h"
#include "tests/test_util.h"

namespace strata {
namespace {
namespace fs = std::filesystem;

struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() / ("strata-atomic-" + std::to_string(::getpid()));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
  size_t files() const {
    return size_t(std::distance(fs::directory_iterator(path), fs::directory_iterator()));
  }
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(AtomicFile, CommitReplacesTheTargetWhole) {
  TempDir dir;
  fs::path target = dir.path / "out.txt";
  write_file_atomically(target.string(), "old");
  {
    AtomicFile f(target.string());
    f.write("new ");
    EXPECT_EQ(slurp(target), "old"); // untouched until commit
    f.write("contents");
    f.commit();
  }
  EXPECT_EQ(slurp(target), "new contents");
  EXPECT_EQ(dir.files(), 1u); // no temporary left
}

TEST(AtomicFile, AFailureHalfwayLeavesTheTargetAndNoTemporary) {
  TempDir dir;
  fs::path target = dir.path / "out.npy";
  write_file_atomically(target.string(), "the user's file");
  EXPECT_THROW(
      {
        AtomicFile f(target.string());
        f.write("half of a result");
        throw std::runtime_error("failed while writing");
      },
      std::runtime_error);
  EXPECT_EQ(slurp(target), "the user's file");
  EXPECT_EQ(dir.files(), 1u);
}

TEST(AtomicFile, KeepsTheTargetsPermissions) {
  TempDir dir;
  fs::path target = dir.path / "prog.strata";
  write_file_atomically(target.string(), "a");
  fs::permissions(target, fs::perms::owner_read | fs::perms::owner_write);
  write_file_atomically(target.string(), "b");
  EXPECT_EQ(fs::status(target).permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write);
  EXPECT_EQ(slurp(target), "b");
}

TEST(AtomicFile, AnUnwritableDirectoryIsAnInputErrorNamingTheTarget) {
  std::string target = "/nonexistent-strata-dir/out.npy";
  try {
    write_npy(target, test::array_of<int32_t>({1, 2, 3}));
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Input);
    EXPECT_EQ(e.message(), target + ": cannot open for writing: No such file or directory");
  }
}

TEST(AtomicFile, WriteNpyRoundTripsAndLeavesOnlyTheResult) {
  TempDir dir;
  fs::path target = dir.path / "xs.npy";
  write_npy(target.string(), test::array_of<int32_t>({4, 5, 6}));
  EXPECT_EQ(test::values_of<int32_t>(read_npy(target.string())), (std::vector<int32_t>{4, 5, 6}));
  EXPECT_EQ(dir.files(), 1u);
}

} // namespace
} // namespace strata
