// Files written whole or not at all (core/atomic_file.h): results, formatted
// programs and bundles never end up partial.
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/npy.h"
#include "core/npy_rows.h"
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

// A symbolic link is written through: the file it names gets the bytes, the
// link stays a link (a rename over the link would have made it a file).
TEST(AtomicFile, WritesThroughASymbolicLink) {
  TempDir dir;
  fs::create_directories(dir.path / "real");
  fs::path real = dir.path / "real" / "p.strata", link = dir.path / "link.strata";
  write_file_atomically(real.string(), "old");
  fs::create_symlink(real, link);
  write_file_atomically(link.string(), "new");
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(slurp(real), "new");
  EXPECT_EQ(fs::directory_iterator(dir.path / "real")->path(), real); // no temporary left
  EXPECT_EQ(dir.files(), 2u);
  // Rows written by several writers follow the link the same way.
  Array a = test::array_of<int32_t>({1, 2, 3});
  NpyRowsWriter w = NpyRowsWriter::create(link.string(), a.elem_type(), a.shape());
  w.write(0, a);
  w.commit();
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(test::values_of<int32_t>(read_npy(real.string())), (std::vector<int32_t>{1, 2, 3}));
}

// A file with two names: a rename would give one name the new bytes and
// leave the other with the old ones, so the write is refused, saying why.
TEST(AtomicFile, RefusesToSplitHardLinks) {
  TempDir dir;
  fs::path one = dir.path / "one.txt", two = dir.path / "two.txt";
  write_file_atomically(one.string(), "old");
  fs::create_hard_link(one, two);
  try {
    write_file_atomically(two.string(), "new");
    ADD_FAILURE() << "replaced one of two hard links";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Input);
    EXPECT_NE(e.message().find(two.string() + ": has 2 hard links"), std::string::npos)
        << e.message();
  }
  EXPECT_EQ(slurp(one), "old");
  EXPECT_EQ(slurp(two), "old");
  EXPECT_EQ(dir.files(), 2u);
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

// A child process starts writing beside the user's file (`start` creates the
// temporary and returns), tells the parent, and waits; the parent sends
// `sig`. The child must end as the signal ends a process, and leave the
// user's file as it was and no temporary.
template <class Start> void signalled_while_writing(int sig, Start start) {
  TempDir dir;
  fs::path target = dir.path / "out.npy";
  write_npy(target.string(), test::array_of<int32_t>({1, 2}));
  std::string before = slurp(target);
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::close(ready[0]);
    try {
      start(target.string());
    } catch (...) {
      ::_exit(3);
    }
    char c = 1;
    if (::write(ready[1], &c, 1) != 1) ::_exit(4);
    for (;;)
      ::pause();
  }
  ::close(ready[1]);
  char c = 0;
  bool started = ::read(ready[0], &c, 1) == 1;
  ::close(ready[0]);
  EXPECT_TRUE(started);
  EXPECT_EQ(dir.files(), 2u) << "the temporary beside the target";
  ::kill(child, sig);
  int status = 0;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (::waitpid(child, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(child, SIGKILL);
      ::waitpid(child, &status, 0);
      FAIL() << "signal " << sig << " did not end the writer";
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sig) << "status " << status;
  EXPECT_EQ(dir.files(), 1u) << "a temporary was left";
  EXPECT_EQ(slurp(target), before);
}

// What mpirun sends every other rank when one dies, and Ctrl-C.
TEST(AtomicFile, ATerminatingSignalRemovesTheTemporary) {
  signalled_while_writing(SIGTERM, [](const std::string& path) {
    auto* f = new AtomicFile(path); // never destroyed: the signal ends the process
    f->write("half a file");
  });
  struct sigaction now {};
  ASSERT_EQ(::sigaction(SIGINT, nullptr, &now), 0);
  if (now.sa_handler == SIG_IGN)
    GTEST_SKIP() << "SIGINT is ignored here (started in the background)";
  signalled_while_writing(SIGINT, [](const std::string& path) {
    auto* f = new AtomicFile(path);
    f->write("half a file");
  });
}

// The mpi engine's rank 0 holds the temporary of each result while every
// rank writes its rows into it.
TEST(AtomicFile, ATerminatingSignalRemovesARowsWritersTemporary) {
  signalled_while_writing(SIGTERM, [](const std::string& path) {
    Type f32 = Type::scalar(ScalarKind::F32);
    auto* w = new NpyRowsWriter(NpyRowsWriter::create(path, f32, Shape{4}));
    w->write(0, test::array_of<float>({1.0f, 2.0f}));
  });
}

} // namespace
} // namespace strata
