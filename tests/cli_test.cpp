// The `strata` command: subcommands, exit codes, and one clear error line for
// every class of bad input.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/npy.h"
#include "tests/cli_util.h"
#include "tests/test_util.h"

namespace strata::test {
namespace {

const char* kDotp = R"((program ((xs (array f32 1)) (ys (array f32 1)))
  (fold (lambda ((a f32) (b f32)) (+ a b)) 0f32
        (zipwith (lambda ((x f32) (y f32)) (* x y)) xs ys)))
)";

// A directory with dotp.strata and two input vectors [1,2,3] and [4,5,6].
struct DotpFiles {
  TempDir dir;
  std::string program = dir.write("dotp.strata", kDotp);
  std::string xs = (dir / "xs.npy").string();
  std::string ys = (dir / "ys.npy").string();
  DotpFiles() {
    write_npy(xs, array_of<float>({1, 2, 3}));
    write_npy(ys, array_of<float>({4, 5, 6}));
  }
  std::string inputs() const { return "xs=" + xs + " ys=" + ys; }
};

TEST(Cli, HelpOnEveryCommand) {
  for (const char* cmd : {"--help", "run --help", "check --help", "fmt --help"}) {
    CliResult r = run_cli(cmd);
    EXPECT_EQ(r.exit_code, 0) << cmd;
    EXPECT_NE(r.out.find("usage: strata"), std::string::npos) << cmd << ": " << r.out;
  }
}

TEST(Cli, UsageErrorsExitWithTwo) {
  EXPECT_EQ(run_cli("").exit_code, 2);
  EXPECT_EQ(run_cli("frobnicate").exit_code, 2);
  EXPECT_EQ(run_cli("run").exit_code, 2);
  EXPECT_EQ(run_cli("run --no-such-option x.strata").exit_code, 2);
  DotpFiles f;
  CliResult r = run_cli("run " + f.program + " " + f.inputs() + " --engine warp-drive");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown engine `warp-drive`; available: interp"), std::string::npos)
      << r.err;
}

TEST(Cli, VersionIsPrinted) {
  CliResult r = run_cli("--version");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "strata 0.1.0\n");
}

TEST(Cli, RunPrintsTheResult) {
  DotpFiles f;
  CliResult r = run_cli("run " + f.program + " " + f.inputs());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "32\n"); // 1*4 + 2*5 + 3*6
}

TEST(Cli, RunWritesNpy) {
  DotpFiles f;
  std::string out = (f.dir / "out.npy").string();
  CliResult r = run_cli("run " + f.program + " " + f.inputs() + " -o " + out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  Array result = read_npy(out);
  EXPECT_EQ(result.rank(), 0);
  EXPECT_EQ(values_of<float>(result), std::vector<float>{32});
}

TEST(Cli, RunWritesOneFilePerTupleComponent) {
  TempDir dir;
  std::string prog = dir.write("pair.strata", R"((program ()
    (atuple (use (array i32 (2) 1 2)) (unit 2.5f32))))");
  CliResult r = run_cli("run " + prog + " -o " + (dir / "out.npy").string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(values_of<int32_t>(read_npy((dir / "out.0.npy").string())),
            (std::vector<int32_t>{1, 2}));
  EXPECT_EQ(values_of<float>(read_npy((dir / "out.1.npy").string())), std::vector<float>{2.5f});
  CliResult printed = run_cli("run " + prog);
  EXPECT_EQ(printed.out, "result 0: (array i32 1) shape (2)\n[1, 2]\n"
                         "result 1: (array f32 0) shape () min 2.5 max 2.5 nans 0\n2.5\n")
      << printed.out;
}

// A tuple of results is one set of files: replaced whole or not at all. The
// new set's second file does not fit (a 4 KiB file size limit stands in for
// a full disk; EFBIG as ENOSPC): the old first file must stay beside the old
// second one, and no temporary is left.
TEST(Cli, ATupleOfResultsIsReplacedWholeOrNotAtAll) {
  TempDir dir;
  std::string old_prog = dir.write("old.strata", R"((program ()
    (atuple (use (array i32 (2) 7 8)) (unit 1.5f32))))");
  std::string new_prog = dir.write("new.strata", R"((program ()
    (atuple (use (array i32 (2) 1 2)) (generate (ix 10000) (lambda ((i (ix 1))) (proj 0 i))))))");
  std::string out = (dir / "out.npy").string();
  ASSERT_EQ(run_cli("run " + old_prog + " -o " + out).exit_code, 0);
  std::string cmd = "bash -c \"trap '' XFSZ; ulimit -f 4; exec " + std::string(STRATA_BINARY) +
                    " run " + new_prog + " -o " + out + "\" 2>" + (dir / "err").string();
  int status = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 1);
  std::string err = slurp(dir / "err");
  EXPECT_NE(err.find((dir / "out.1.npy").string() + ": write error"), std::string::npos) << err;
  EXPECT_EQ(values_of<int32_t>(read_npy((dir / "out.0.npy").string())),
            (std::vector<int32_t>{7, 8}));
  EXPECT_EQ(values_of<float>(read_npy((dir / "out.1.npy").string())), std::vector<float>{1.5f});
  // A target that is a directory: refused before anything is written.
  std::filesystem::remove(dir / "out.1.npy");
  std::filesystem::create_directory(dir / "out.1.npy");
  CliResult r = run_cli("run " + old_prog + " -o " + out);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("out.1.npy: is a directory, not a .npy file"), std::string::npos) << r.err;
  EXPECT_EQ(values_of<int32_t>(read_npy((dir / "out.0.npy").string())),
            (std::vector<int32_t>{7, 8}));
  for (const auto& e : std::filesystem::directory_iterator(dir.path()))
    EXPECT_EQ(e.path().filename().string().find(".tmp-"), std::string::npos) << e.path();
}

TEST(Cli, RunSummarisesLargeResults) {
  TempDir dir;
  std::string prog = dir.write("big.strata", R"((program ()
    (generate (ix 5000) (lambda ((i (ix 1))) (proj 0 i)))))");
  CliResult r = run_cli("run " + prog);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "[   0,    1,    2, ..., 4997, 4998, 4999]\n");
}

TEST(Cli, FmtPrintsCanonicalFormAndRewritesInPlace) {
  TempDir dir;
  std::string prog = dir.write("messy.strata", "(program ()   (unit   (+ 1 2)) ) ; comment\n");
  CliResult r = run_cli("fmt " + prog);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("(unit (+ 1 2))"), std::string::npos) << r.out;
  ASSERT_EQ(run_cli("fmt -i " + prog).exit_code, 0);
  EXPECT_EQ(slurp(prog), r.out);
  EXPECT_EQ(run_cli("fmt " + prog).out, r.out); // idempotent
}

// ----------------------------------------------------------------- bad input
// Each class: exit code 1, exactly one line on stderr, naming the place.
void expect_one_line_error(const CliResult& r, const std::string& fragment) {
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find(fragment), std::string::npos) << "stderr: " << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

// fmt keeps a file's line ending: CRLF in, CRLF on every line out (comment
// lines included), and no bare LF.
TEST(Cli, FmtKeepsTheFilesLineEnding) {
  TempDir dir;
  std::string prog = dir.write("crlf.strata", "; doubles\r\n(program ((xs (array i64 1)))\r\n"
                                              "  (map (lambda (x) (* x 2)) xs)) ; each\r\n");
  CliResult r = run_cli("fmt -i " + prog);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string out = slurp(prog);
  size_t lf = std::count(out.begin(), out.end(), '\n');
  size_t crlf = 0;
  for (size_t at = out.find("\r\n"); at != std::string::npos; at = out.find("\r\n", at + 2))
    ++crlf;
  EXPECT_GE(lf, 3u) << out;
  EXPECT_EQ(crlf, lf) << out;
  EXPECT_EQ(out.find("\r\r"), std::string::npos) << out;
  // The same program with LF endings formats to the same text without the CRs.
  std::string lf_prog = dir.write("lf.strata", "; doubles\n(program ((xs (array i64 1)))\n"
                                               "  (map (lambda (x) (* x 2)) xs)) ; each\n");
  ASSERT_EQ(run_cli("fmt -i " + lf_prog).exit_code, 0);
  std::string lf_out = slurp(lf_prog);
  std::string without_cr;
  for (char c : out)
    if (c != '\r') without_cr += c;
  EXPECT_EQ(without_cr, lf_out);
}

TEST(CliBadInput, MalformedText) {
  TempDir dir;
  std::string prog = dir.write("bad.strata", "(program ()\n  (unit (+ 1 2))\n");
  expect_one_line_error(run_cli("run " + prog), "bad.strata:");
}

TEST(CliBadInput, IllTypedProgram) {
  TempDir dir;
  std::string prog = dir.write("bad.strata", "(program ()\n  (unit (+ 1i32 2.0)))\n");
  expect_one_line_error(run_cli("run " + prog),
                        "bad.strata:2:9: error: `+` expects operands of the same type");
}

TEST(CliBadInput, UnknownParameter) {
  DotpFiles f;
  expect_one_line_error(run_cli("run " + f.program + " " + f.inputs() + " zs=" + f.xs),
                        "unknown parameter `zs`; the program's parameters are xs, ys");
}

TEST(CliBadInput, MissingParameter) {
  DotpFiles f;
  expect_one_line_error(run_cli("run " + f.program + " xs=" + f.xs),
                        "missing input for parameter `ys`");
}

TEST(CliBadInput, InputOfTheWrongType) {
  DotpFiles f;
  write_npy(f.ys, array_of<double>({4, 5, 6}));
  expect_one_line_error(run_cli("run " + f.program + " " + f.inputs()),
                        "parameter `ys` expects (array f32 1), but the file holds (array f64 1)");
}

TEST(CliBadInput, InputOfTheWrongRank) {
  DotpFiles f;
  write_npy(f.ys, array_of<float>({1, 2, 3, 4}, {2, 2}));
  expect_one_line_error(run_cli("run " + f.program + " " + f.inputs()), "expects (array f32 1)");
}

TEST(CliBadInput, NotAnNpyFile) {
  DotpFiles f;
  f.dir.write("ys.npy", "this is not numpy");
  expect_one_line_error(run_cli("run " + f.program + " " + f.inputs()), "ys.npy");
}

TEST(CliBadInput, TruncatedNpyFile) {
  DotpFiles f;
  std::string bytes = encode_npy(array_of<float>({1, 2, 3}));
  f.dir.write("ys.npy", bytes.substr(0, bytes.size() - 5));
  expect_one_line_error(run_cli("run " + f.program + " " + f.inputs()), "truncated");
}

TEST(CliBadInput, MissingFiles) {
  DotpFiles f;
  expect_one_line_error(run_cli("run " + (f.dir / "nope.strata").string()),
                        "cannot open program file");
  expect_one_line_error(run_cli("run " + f.program + " xs=" + f.xs + " ys=/nonexistent.npy"),
                        "nonexistent.npy");
}

TEST(CliBadInput, RuntimeErrorNamesThePlace) {
  TempDir dir;
  std::string prog = dir.write("oob.strata", R"((program ((xs (array i32 1)))
  (generate (ix 4)
    (lambda ((i (ix 1))) (! xs i))))
)");
  write_npy((dir / "xs.npy").string(), array_of<int32_t>({1, 2, 3}));
  expect_one_line_error(
      run_cli("run " + prog + " xs=" + (dir / "xs.npy").string()),
      "oob.strata:3:26: error: index (3) out of bounds for shape (3) in `!` of `xs`");
}

TEST(CliBadInput, DivisionByZero) {
  TempDir dir;
  std::string prog = dir.write("div.strata", "(program ()\n  (unit (quot 7i32 0i32)))\n");
  expect_one_line_error(run_cli("run " + prog),
                        "div.strata:2:9: error: division by zero in `quot` (7 quot 0)");
}

TEST(CliBadInput, HugeShape) {
  TempDir dir;
  std::string prog =
      dir.write("huge.strata", "(program ()\n  (fill (ix 4611686018427387904 4) 0))\n");
  expect_one_line_error(run_cli("run " + prog), "huge.strata:2:3: error:");
}

// ---------------------------------------------------------------------- check
TEST(CliCheck, ComparesWithExpectedOutput) {
  DotpFiles f;
  std::filesystem::create_directory(f.dir / "dotp");
  write_npy((f.dir / "dotp" / "expected.npy").string(), scalar_array<float>(32));
  // Inputs found beside the program: dotp/xs.npy, dotp/ys.npy.
  std::filesystem::copy_file(f.xs, f.dir / "dotp" / "xs.npy");
  std::filesystem::copy_file(f.ys, f.dir / "dotp" / "ys.npy");
  CliResult ok = run_cli("check " + f.program);
  EXPECT_EQ(ok.exit_code, 0) << ok.out << ok.err;
  EXPECT_NE(ok.out.find("ok    " + f.program + "  interp vs expected"), std::string::npos)
      << ok.out;

  write_npy((f.dir / "dotp" / "expected.npy").string(), scalar_array<float>(33));
  CliResult bad = run_cli("check " + f.program);
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("FAIL"), std::string::npos) << bad.err;
  // The expected file is outside the bound of every legal evaluation (32 in any order).
  EXPECT_NE(bad.err.find("element (): found 33, outside the bound [31.999994, 32.000008] by "),
            std::string::npos)
      << bad.err;
}

} // namespace
} // namespace strata::test
