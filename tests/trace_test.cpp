// Tracing (issue 9, items 1 and 4): `strata run --trace` prints every
// collective's result in evaluation order on stderr, `--trace-filter` keeps
// one line or operation, `trace`/`atrace` print their labelled values with
// the element being computed, and tracing never changes a result on any engine.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "core/npy.h"
#include "oracle/registry.h"
#include "tests/cli_util.h"
#include "tests/golden_util.h"
#include "tests/test_util.h"

namespace strata::test {
namespace {

using I = int64_t;

// An example program, checked, and its inputs from examples/NAME/PARAM.npy.
struct Example {
  Program program;
  std::vector<Array> inputs;
};
Example load_example(const std::filesystem::path& file) {
  Example e{parse_program(slurp(file), file.string()), {}};
  check_program(e.program);
  for (const Param& p : e.program.params)
    e.inputs.push_back(read_npy((file.parent_path() / file.stem() / (p.name + ".npy")).string()));
  return e;
}

std::string example(const std::string& name) {
  return source_path("examples/" + name + ".strata");
}

TEST(TraceCli, HistogramGolden) {
  CliResult r = run_cli("run --trace " + example("histogram"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // The result stays alone on stdout; the trace goes to stderr.
  EXPECT_EQ(r.out, "[220, 217, 172, 198, 211, 202, 182, 209]\n");
  expect_golden("trace_histogram.txt", relative_paths(r.err));
}

TEST(TraceCli, ScanVariantsGoldenShowsTupleResults) {
  CliResult r = run_cli("run --trace " + example("scan_variants"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  expect_golden("trace_scan_variants.txt", relative_paths(r.err));
}

TEST(TraceCli, FloatSummariesAndFilterByOperation) {
  CliResult r = run_cli("run --trace --trace-filter fold1 " + example("awhile_halve"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  expect_golden("trace_awhile_halve_fold1.txt", relative_paths(r.err));
}

TEST(TraceCli, FilterByLine) {
  // Line 12 of awhile_halve.strata is the condition's map.
  CliResult r = run_cli("run --trace --trace-filter 12 " + example("awhile_halve"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::istringstream lines(r.err);
  int n = 0;
  for (std::string line; std::getline(lines, line); ++n)
    EXPECT_NE(line.find("awhile_halve.strata:12:13: map: (array bool 0) shape () ["),
              std::string::npos)
        << line;
  EXPECT_EQ(n, 11) << r.err; // ten true, then false
}

TEST(TraceCli, FilterNeedsTraceAndTraceNeedsTheInterpreter) {
  EXPECT_EQ(run_cli("run --trace-filter map " + example("sum")).exit_code, 2);
  CliResult r = run_cli("run --trace --engine nosuch " + example("sum"));
  EXPECT_EQ(r.exit_code, 2);
}

TEST(TraceInterpreter, ScalarTraceNamesTheElementBeingComputed) {
  Program p =
      parse_and_check("(program ((xs (array i64 1)))\n"
                      "  (fold (lambda ((a i64) (b i64)) (trace \"acc\" (+ a b))) 0\n"
                      "    (map (lambda ((x i64)) (trace \"x\" (* x 2))) (reshape (ix 2 2) xs))))");
  std::ostringstream log;
  InterpreterOptions opts{&log};
  opts.trace_collectives = true;
  auto r = interpret(p, {array_of<I>({1, 2, 3, 4})}, opts);
  EXPECT_EQ(log.str(), "test.strata:3:49: reshape: (array i64 2) shape (2,2) [1, 2, 3, 4]\n"
                       "test.strata:3:28: map element (0,0): trace x: 2\n"
                       "test.strata:3:28: map element (0,1): trace x: 4\n"
                       "test.strata:3:28: map element (1,0): trace x: 6\n"
                       "test.strata:3:28: map element (1,1): trace x: 8\n"
                       "test.strata:3:5: map: (array i64 2) shape (2,2) [2, 4, 6, 8]\n"
                       "test.strata:2:35: fold element (0): trace acc: 2\n"
                       "test.strata:2:35: fold element (0): trace acc: 6\n"
                       "test.strata:2:35: fold element (1): trace acc: 6\n"
                       "test.strata:2:35: fold element (1): trace acc: 14\n"
                       "test.strata:2:3: fold: (array i64 1) shape (2) [6, 14]\n");
  // Filtering by label keeps only those lines; atrace prints the full summary.
  Program q = parse_and_check("(program ((xs (array f64 1)))\n"
                              "  (atrace \"halves\" (map (lambda ((x f64)) (/ x 2.0)) xs)))");
  std::ostringstream log2;
  InterpreterOptions opts2{&log2};
  opts2.trace_collectives = true;
  opts2.trace_filter = "halves";
  (void)interpret(q, {array_of<double>({1, 2, 3, 4, 5, 6, 7, 8})}, opts2);
  EXPECT_EQ(log2.str(), "test.strata:2:3: atrace halves: (array f64 1) shape (8) [0.5, 1, 1.5, "
                        "..., 3, 3.5, 4] min 0.5 max 4 nans 0\n");
}

// Programs with trace/atrace in every kind of position, and the same programs
// without them: on every engine, fused and unfused, the results are identical.
struct Twin {
  const char* traced;
  const char* plain;
};

const Twin kTwins[] = {
    {"(map (lambda ((x i64)) (trace \"t\" (* x 3))) (atrace \"in\" xs))",
     "(map (lambda ((x i64)) (* x 3)) xs)"},
    {"(fold (lambda ((a i64) (b i64)) (trace \"acc\" (+ a b))) (trace \"z\" 7) (atrace \"xs\" "
     "xs))",
     "(fold (lambda ((a i64) (b i64)) (+ a b)) 7 xs)"},
    {"(atrace \"out\" (permute (lambda ((n i64) (o i64)) (+ n o)) (atrace \"d\" (fill (ix 3) 0)) "
     "(lambda ((i (ix 1))) (trace \"target\" (ix (mod (proj 0 i) 3)))) xs))",
     "(permute (lambda ((n i64) (o i64)) (+ n o)) (fill (ix 3) 0) "
     "(lambda ((i (ix 1))) (ix (mod (proj 0 i) 3))) xs)"},
    {"(alet ((m (atrace \"m\" (reshape (ix 2 3) xs)))) (stencil (3 3) clamp (lambda ((nb (window "
     "i64 2))) (trace \"c\" (+ (at nb -1 0) (at nb 0 1)))) m))",
     "(alet ((m (reshape (ix 2 3) xs))) (stencil (3 3) clamp (lambda ((nb (window i64 2))) (+ (at "
     "nb -1 0) (at nb 0 1))) m))"},
    {"(atuple (atrace \"s\" (scanl (lambda ((a i64) (b i64)) (+ a b)) 0 xs)) (backpermute (ix 2) "
     "(lambda ((i (ix 1))) (trace \"src\" (ix (+ 1 (proj 0 i))))) xs))",
     "(atuple (scanl (lambda ((a i64) (b i64)) (+ a b)) 0 xs) (backpermute (ix 2) (lambda ((i (ix "
     "1))) (ix (+ 1 (proj 0 i)))) xs))"},
    {"(awhile (lambda ((s (array i64 1))) (atrace \"c\" (map (lambda ((v i64)) (< v 40)) (fold1 "
     "(lambda ((a i64) (b i64)) (max a b)) s)))) (lambda ((s (array i64 1))) (atrace \"b\" (map "
     "(lambda ((v i64)) (trace \"v\" (* v 2))) s))) xs)",
     "(awhile (lambda ((s (array i64 1))) (map (lambda ((v i64)) (< v 40)) (fold1 (lambda ((a "
     "i64) (b i64)) (max a b)) s))) (lambda ((s (array i64 1))) (map (lambda ((v i64)) (* v 2)) "
     "s)) xs)"},
};

std::vector<Array> run_on(const Engine& engine, const Program& p, const std::vector<Array>& in,
                          bool fusion) {
  CompileOptions options;
  options.fusion = fusion;
  return engine.compile(p, options)->run(in);
}

void expect_identical(const std::vector<Array>& a, const std::vector<Array>& b,
                      const std::string& what) {
  ASSERT_EQ(a.size(), b.size()) << what;
  for (size_t k = 0; k < a.size(); ++k)
    EXPECT_TRUE(identical(a[k], b[k])) << what << " result " << k;
}

TEST(TraceIsIdentity, TracedProgramsGiveTheSameResultsOnEveryEngine) {
  const std::vector<Array> in = {array_of<I>({1, 2, 3, 4, 5, 6})};
  for (const Twin& t : kTwins) {
    Program traced =
        parse_and_check(std::string("(program ((xs (array i64 1))) ") + t.traced + ")");
    Program plain = parse_and_check(std::string("(program ((xs (array i64 1))) ") + t.plain + ")");
    for (const Engine* engine : all_engines()) {
      std::string why;
      if (!engine->available(why)) continue;
      for (bool fusion : {true, false})
        expect_identical(run_on(*engine, traced, in, fusion), run_on(*engine, plain, in, fusion),
                         engine->name() + (fusion ? " fused: " : " unfused: ") + t.traced);
    }
    // And with tracing switched on in the interpreter.
    std::ostringstream log;
    InterpreterOptions opts{&log};
    opts.trace_collectives = true;
    expect_identical(interpret(traced, in, opts), interpret(plain, in), t.traced);
    EXPECT_FALSE(log.str().empty());
  }
}

TEST(TraceIsIdentity, EveryExampleWrappedInAtraceOnEveryEngine) {
  namespace fs = std::filesystem;
  int checked = 0;
  for (const auto& entry : fs::directory_iterator(source_path("examples"))) {
    if (entry.path().extension() != ".strata") continue;
    Example ex = load_example(entry.path());
    const Program& plain = ex.program;
    const std::vector<Array>& in = ex.inputs;
    Program traced = plain;
    traced.body = make_acc(ac::ATrace{"result", plain.body}, plain.body->loc);
    traced.body->type = plain.body->type;
    for (const Engine* engine : all_engines()) {
      std::string why;
      if (!engine->available(why)) continue;
      for (bool fusion : {true, false})
        expect_identical(run_on(*engine, traced, in, fusion), run_on(*engine, plain, in, fusion),
                         engine->name() + " " + entry.path().string());
    }
    ++checked;
  }
  EXPECT_GE(checked, 16);
}

} // namespace
} // namespace strata::test
