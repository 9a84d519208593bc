// The mpi engine reading inputs and writing results by rows (mpi/files.h,
// docs/mpi.md "Reading and writing in parallel"), at 1 to 4 ranks as threads
// of this process: every rank reads only the rows it holds, each result
// file is byte for byte what writing the interpreter's result gives, and a
// run that fails leaves no file and no temporary behind.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/npy.h"
#include "core/npy_rows.h"
#include "mpi/engine.h"
#include "oracle/registry.h"
#include "tests/cli_util.h"
#include "tests/test_util.h"

namespace strata::test {
namespace {

namespace fs = std::filesystem;

const Engine& local_engine() {
  const Engine* e = find_engine("jit");
  return e ? *e : *find_engine("tbb");
}

std::string file_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> listing(const fs::path& dir) {
  std::vector<std::string> v;
  for (const auto& e : fs::directory_iterator(dir))
    v.push_back(e.path().filename().string());
  std::sort(v.begin(), v.end());
  return v;
}

std::vector<double> ramp(int64_t n) {
  std::vector<double> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    v[size_t(i)] = double((i * 7919) % 1000) / 7.0 - 3.0;
  return v;
}

// A program of two results (a row-wise map of the matrix and a fold of each
// of its rows) and a scalar input.
const char* kProgram = "(program ((m (array f64 2)) (s (array f64 0)))"
                       "  (alet ((t (map (lambda (x) (* x (the s))) m)))"
                       "    (atuple t (fold + 0.0 t))))";

TEST(MpiFiles, EachRankReadsItsRowsAndWritesThemAndTheFilesAreTheInterpreters) {
  TempDir dir;
  int64_t rows = 37, cols = 5;
  Array m = array_of(ramp(rows * cols), {rows, cols});
  Array s = scalar_array(1.5);
  write_npy((dir / "m.npy").string(), m);
  write_npy((dir / "s.npy").string(), s);
  Program p = parse_and_check(kProgram);
  std::vector<Array> want = interpret(p, {m, s});
  for (std::string name : {"expected.0.npy", "expected.1.npy"})
    write_npy((dir / name).string(), want[name == "expected.0.npy" ? 0 : 1]);
  for (int ranks = 1; ranks <= 4; ++ranks) {
    auto engine = make_mpi_threads_engine(local_engine(), ranks, MpiOptions{0});
    ASSERT_TRUE(engine->reads_files_by_rows());
    auto exe = engine->compile(p, CompileOptions{});
    std::vector<NpyRowsReader> files = {NpyRowsReader((dir / "m.npy").string()),
                                        NpyRowsReader((dir / "s.npy").string())};
    std::vector<std::string> out = {(dir / "out.0.npy").string(), (dir / "out.1.npy").string()};
    EXPECT_TRUE(exe->run_files(files, out).empty());
    // Every row of m read once whatever the number of ranks; s (rank 0,
    // held whole) once per rank.
    EXPECT_EQ(files[0].bytes_read(), uint64_t(rows * cols * 8)) << ranks << " ranks";
    EXPECT_EQ(files[1].bytes_read(), uint64_t(8 * ranks));
    EXPECT_EQ(file_bytes(dir / "out.0.npy"), file_bytes(dir / "expected.0.npy")) << ranks;
    EXPECT_EQ(file_bytes(dir / "out.1.npy"), file_bytes(dir / "expected.1.npy")) << ranks;
    // Without output files: the results, whole.
    std::vector<Array> got = exe->run_files(files, {});
    ASSERT_EQ(got.size(), 2u);
    EXPECT_TRUE(identical(got[0], want[0]));
    EXPECT_TRUE(identical(got[1], want[1]));
  }
}

TEST(MpiFiles, ARunThatFailsLeavesNoFileAndNoTemporary) {
  TempDir dir;
  int64_t n = 40;
  write_npy((dir / "xs.npy").string(), array_of(ramp(n), {n}));
  std::ofstream(dir / "out.npy") << "the user's file";
  // Element 30 reads out of range: on the last ranks' rows only.
  Program p = parse_and_check("(program ((xs (array f64 1)))"
                              "  (generate (ix 40) (lambda (i) (if (> (proj 0 i) 29)"
                              "    (! xs (ix 99)) (! xs i)))))");
  std::string expected;
  try {
    interpret(p, {read_npy((dir / "xs.npy").string())});
  } catch (const Error& e) {
    expected = e.message();
  }
  ASSERT_FALSE(expected.empty());
  for (int ranks = 1; ranks <= 3; ++ranks) {
    auto exe =
        make_mpi_threads_engine(local_engine(), ranks, MpiOptions{0})->compile(p, CompileOptions{});
    try {
      exe->run_files({NpyRowsReader((dir / "xs.npy").string())}, {(dir / "out.npy").string()});
      ADD_FAILURE() << "no error on " << ranks << " ranks";
    } catch (const Error& e) {
      EXPECT_EQ(e.message(), expected);
    }
    EXPECT_EQ(listing(dir.path()), (std::vector<std::string>{"out.npy", "xs.npy"}));
    EXPECT_EQ(file_bytes(dir / "out.npy"), "the user's file");
  }
}

TEST(MpiFiles, TheRunCommandGivesTheEngineTheFiles) {
  TempDir dir;
  std::vector<float> xs(1000);
  for (size_t i = 0; i < xs.size(); ++i)
    xs[i] = float(i % 17) * 0.25f - 1.0f;
  write_npy((dir / "xs.npy").string(), array_of(xs, {int64_t(xs.size())}));
  CliResult r = run_cli("run " + source_path("examples/saxpy.strata") +
                        " xs=" + (dir / "xs.npy").string() + " ys=" + (dir / "xs.npy").string() +
                        " --engine mpi:3 -o " + (dir / "out.npy").string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  CliResult ref = run_cli("run " + source_path("examples/saxpy.strata") +
                          " xs=" + (dir / "xs.npy").string() + " ys=" + (dir / "xs.npy").string() +
                          " --engine interp -o " + (dir / "ref.npy").string());
  ASSERT_EQ(ref.exit_code, 0) << ref.err;
  EXPECT_EQ(file_bytes(dir / "out.npy"), file_bytes(dir / "ref.npy"));
  EXPECT_NE(r.err.find("wrote " + (dir / "out.npy").string()), std::string::npos) << r.err;
}

} // namespace
} // namespace strata::test
