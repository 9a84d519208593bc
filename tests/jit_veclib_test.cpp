// The jit's opt-in vector math library (STRATA_JIT_VECLIB=libmvec, jit/backend.cpp,
// docs/jit.md "Vector math library"): with it the loop vectoriser calls glibc's
// vector variants (_ZGV...) of exp/log/sin/cos/tan/pow, without it (the
// default) never; results under it stay within a stated ULP bound of the
// interpreter's (and are not all bitwise equal: the opt-in changes something);
// the cache never shares an object between the two; a bad value is an error.
// The variable is read once per process, so runs with it are child processes:
// of `strata` and of this test binary (JitVeclibChild).
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <sstream>

#include "core/npy.h"
#include "interpreter/interpreter.h"
#include "jit/backend.h"
#include "jit/engine.h"
#include "tests/cache_test_util.h"
#include "tests/jit_ir.h"
#include "tests/test_util.h"

namespace strata::test {
namespace {
namespace fs = std::filesystem;

bool has(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

std::string map_program(const std::string& f, const std::string& t) {
  return "(program ((xs (array " + t + " 1))) (map (lambda ((x " + t + ")) (" + f + " x)) xs))";
}

TEST(JitVeclib, ParsesTheVariable) {
  EXPECT_EQ(jit::parse_veclib(nullptr), jit::Veclib::None);
  EXPECT_EQ(jit::parse_veclib(""), jit::Veclib::None);
  EXPECT_EQ(jit::parse_veclib("none"), jit::Veclib::None);
  EXPECT_EQ(jit::parse_veclib("libmvec"), jit::Veclib::Libmvec);
  for (const char* bad : {"svml", "LIBMVEC", "libmvec ", "sleef"}) {
    try {
      jit::parse_veclib(bad);
      ADD_FAILURE() << bad;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Usage);
      EXPECT_EQ(e.message(), std::string("STRATA_JIT_VECLIB=") + bad +
                                 ": unknown value (accepted: none, libmvec)");
    }
  }
}

// The loop of a map of `exp` calls a vector variant with libmvec, and only the
// scalar C function without; so do the other functions LLVM 19 maps for
// libmvec (exp log sin cos tan pow), f32 and f64, but not those it does not.
TEST(JitVeclib, VectorVariantsOnlyWithLibmvec) {
  for (const char* t : {"f32", "f64"}) {
    std::string suffix = std::string(t) == "f32" ? "f" : "";
    for (const char* f : {"exp", "log", "sin", "cos", "tan"}) {
      std::string program = map_program(f, t);
      std::string name = std::string(f) + suffix;
      std::string with = optimised_ir_of(program, true, jit::Veclib::Libmvec);
      std::string without = optimised_ir_of(program, true, jit::Veclib::None);
      EXPECT_TRUE(has(with, "v_" + name + "(")) << name << "\n" << with;
      EXPECT_TRUE(has(with, "@_ZGV")) << name;
      EXPECT_FALSE(has(without, "_ZGV")) << name << "\n" << without;
      EXPECT_TRUE(has(without, "@" + name + "(")) << name;
    }
    std::string pow = "(program ((xs (array " + std::string(t) + " 1)) (ys (array " + t +
                      " 1))) (zipwith (lambda ((x " + t + ") (y " + t + ")) (pow x y)) xs ys))";
    EXPECT_TRUE(has(optimised_ir_of(pow, true, jit::Veclib::Libmvec), "vv_pow" + suffix + "("));
    EXPECT_FALSE(has(optimised_ir_of(pow, true, jit::Veclib::None), "_ZGV"));
    for (const char* f : {"asin", "atan", "sinh"}) // no libmvec mapping in LLVM 19
      EXPECT_FALSE(has(optimised_ir_of(map_program(f, t), true, jit::Veclib::Libmvec), "_ZGV"))
          << f;
  }
  // On an AVX-512 host (its features are in the target description) the
  // widest loops call glibc's AVX-512 variants (_ZGVe: 16 x f32, 8 x f64),
  // which the jit maps beside LLVM 19's SSE and AVX2 ones; elsewhere never.
  bool avx512 = has(jit::target_description(), "+avx512f");
  for (const char* t : {"f32", "f64"})
    for (const char* f : {"exp", "log", "sin", "cos", "tan"}) {
      bool f32 = std::string(t) == "f32";
      std::string variant = std::string(f32 ? "_ZGVeN16v_" : "_ZGVeN8v_") + f + (f32 ? "f(" : "(");
      std::string ir = optimised_ir_of(map_program(f, t), true, jit::Veclib::Libmvec);
      EXPECT_EQ(has(ir, variant), avx512) << variant << "\n" << ir;
      if (!avx512) {
        EXPECT_FALSE(has(ir, "_ZGVe")) << ir;
      }
    }
}

// A loop that calls a vector math function prefers 512-bit vectors on an
// AVX-512 host (the target's tuning prefers 256 bits, which kept
// blackscholes' price loop at the AVX2 variants, 8 x f32); elsewhere it
// keeps the target's preference.
TEST(JitVeclib, LoopsCallingTheLibraryRunTheWidestVariants) {
  std::ifstream f(std::string(STRATA_SOURCE_DIR) + "/examples/blackscholes.strata");
  std::stringstream text;
  text << f.rdbuf();
  std::string ir = optimised_ir_of(text.str(), true, jit::Veclib::Libmvec);
  bool avx512 = has(jit::target_description(), "+avx512f");
  EXPECT_EQ(has(ir, "call <16 x float> @_ZGVeN16v_expf("), avx512) << ir;
  EXPECT_EQ(has(ir, "call <16 x float> @_ZGVeN16v_logf("), avx512) << ir;
  EXPECT_EQ(has(ir, "\"prefer-vector-width\"=\"512\""), avx512) << ir;
  EXPECT_FALSE(has(optimised_ir_of(text.str(), true, jit::Veclib::None), "prefer-vector-width"));
  // A loop without such calls keeps the target's preference.
  EXPECT_FALSE(has(optimised_ir_of(map_program("sqrt", "f32"), true, jit::Veclib::Libmvec),
                   "prefer-vector-width"));
}

// The calls stay `nobuiltin` by default and, with libmvec, are still never
// rewritten (pow(2, x) would become exp2(x)) nor folded on constants.
TEST(JitVeclib, CallsAreNotRewritten) {
  std::string program =
      "(program ((xs (array f64 1))) (map (lambda ((x f64)) (+ (pow 2.0 x) (sin 1.0))) xs))";
  for (jit::Veclib v : {jit::Veclib::None, jit::Veclib::Libmvec}) {
    std::string ir = optimised_ir_of(program, true, v);
    EXPECT_FALSE(has(ir, "exp2")) << ir;
    EXPECT_TRUE(has(ir, "@sin(double 1.000000e+00)")) << ir;
  }
}

TEST(JitVeclib, TargetDescriptionNamesTheLibrary) {
  std::string target = jit::target_description();
  bool libmvec = jit::parse_veclib(std::getenv("STRATA_JIT_VECLIB")) == jit::Veclib::Libmvec;
  EXPECT_TRUE(has(target, libmvec ? "; veclib libmvec" : "; veclib none")) << target;
}

// `strata` with STRATA_JIT_VECLIB=`veclib` (empty: unset) and the cache in
// `cache`; the exit code, stdout and stderr, and the --report.
struct StrataRun {
  int code;
  std::string out, err, report;
};
StrataRun run_strata(const TempDir& tmp, const std::string& veclib, const fs::path& cache,
                     const std::string& args, const std::string& tag) {
  std::string report = (tmp / ("report" + tag)).string();
  std::string cmd =
      "env -u STRATA_JIT_VECLIB " + (veclib.empty() ? "" : "STRATA_JIT_VECLIB=" + veclib + " ") +
      "STRATA_CACHE_DIR=" + cache.string() + " " + STRATA_BINARY + " " + args + " --report " +
      report + " >" + (tmp / ("out" + tag)).string() + " 2>" + (tmp / ("err" + tag)).string();
  int status = std::system(cmd.c_str());
  int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return {code, slurp(tmp / ("out" + tag)), slurp(tmp / ("err" + tag)),
          fs::exists(report) ? slurp(report) : ""};
}

const char* kExpProgram = "(program () (map (lambda ((x f32)) (exp x)) (generate (ix 1000) "
                          "(lambda ((i (ix 1))) (* 0.0137f32 (cast f32 (proj 0 i)))))))\n";

// Objects compiled with and without libmvec never share a cache entry: each
// setting misses once, then hits its own entry.
TEST(JitVeclib, CacheEntriesAreNotShared) {
  TempDir tmp;
  fs::path cache = tmp / "cache";
  std::string run = "run " + tmp.write("p.strata", kExpProgram) + " --engine jit";
  StrataRun none1 = run_strata(tmp, "", cache, run, "1");
  StrataRun mvec1 = run_strata(tmp, "libmvec", cache, run, "2");
  StrataRun mvec2 = run_strata(tmp, "libmvec", cache, run, "3");
  StrataRun none2 = run_strata(tmp, "none", cache, run, "4");
  for (const StrataRun* r : {&none1, &mvec1, &mvec2, &none2})
    ASSERT_EQ(r->code, 0) << r->err;
  EXPECT_EQ(count_of(none1.report, "\"miss: not on disk\""), 1) << none1.report;
  EXPECT_EQ(count_of(mvec1.report, "\"miss: not on disk\""), 1) << mvec1.report;
  EXPECT_EQ(count_of(mvec2.report, "\"hit (disk)\""), 1) << mvec2.report;
  EXPECT_EQ(count_of(none2.report, "\"hit (disk)\""), 1) << none2.report;
  EXPECT_EQ(mvec1.out, mvec2.out);
  EXPECT_EQ(none1.out, none2.out);
}

// A bad value is a usage error (exit 2) naming the accepted values, before
// anything runs: on the jit, and on an engine that never reads it
// (`strata` checks every setting first, core/environment.h).
TEST(JitVeclib, BadValueIsAnError) {
  TempDir tmp;
  std::string program = tmp.write("p.strata", kExpProgram);
  StrataRun bad = run_strata(tmp, "svml", tmp / "cache", "run " + program + " --engine jit", "1");
  EXPECT_EQ(bad.code, 2) << bad.out << bad.err;
  EXPECT_TRUE(has(bad.err, "STRATA_JIT_VECLIB=svml: unknown value (accepted: "
                           "none, libmvec)"))
      << bad.err;
  EXPECT_EQ(bad.out, "");
  StrataRun interp = run_strata(tmp, "svml", tmp / "cache", "run " + program, "2");
  EXPECT_EQ(interp.code, 2) << interp.err;
  EXPECT_TRUE(has(interp.err, "STRATA_JIT_VECLIB=svml: unknown value")) << interp.err;
}

// `--math fast` compiles with libmvec, as STRATA_JIT_VECLIB=libmvec does
// for every compile: both name the same library in their keys, so either
// hits the other's cache entry; `--math exact` (the default) never does.
TEST(JitMath, TheSwitchSharesTheVariablesCacheEntries) {
  TempDir tmp;
  fs::path cache = tmp / "cache";
  std::string run = "run " + tmp.write("p.strata", kExpProgram) + " --engine jit";
  StrataRun fast1 = run_strata(tmp, "", cache, run + " --math fast", "1");
  StrataRun mvec = run_strata(tmp, "libmvec", cache, run, "2");
  StrataRun exact1 = run_strata(tmp, "", cache, run + " --math exact", "3");
  StrataRun exact2 = run_strata(tmp, "", cache, run, "4");
  StrataRun fast2 = run_strata(tmp, "", cache, run + " --math fast", "5");
  for (const StrataRun* r : {&fast1, &mvec, &exact1, &exact2, &fast2})
    ASSERT_EQ(r->code, 0) << r->err;
  EXPECT_EQ(count_of(fast1.report, "\"miss: not on disk\""), 1) << fast1.report;
  EXPECT_EQ(count_of(mvec.report, "\"hit (disk)\""), 1) << mvec.report;
  EXPECT_EQ(count_of(exact1.report, "\"miss: not on disk\""), 1) << exact1.report;
  EXPECT_EQ(count_of(exact2.report, "\"hit (disk)\""), 1) << exact2.report;
  EXPECT_EQ(count_of(fast2.report, "\"hit (disk)\""), 1) << fast2.report;
  EXPECT_EQ(fast1.out, mvec.out);
  EXPECT_EQ(fast1.out, fast2.out);
  EXPECT_EQ(exact1.out, exact2.out);
  StrataRun interp = run_strata(tmp, "", cache, "run " + tmp.path().string() + "/p.strata", "6");
  EXPECT_EQ(interp.out, exact1.out); // bitwise the interpreter's, printed in full
  EXPECT_NE(fast1.out, exact1.out);  // exp of 1000 values: libmvec differs somewhere
  // Any other mode is a usage error (exit 2) naming the accepted ones.
  StrataRun bad = run_strata(tmp, "", cache, run + " --math quick", "7");
  EXPECT_EQ(bad.code, 2) << bad.out << bad.err;
  EXPECT_TRUE(has(bad.err, "--math quick: unknown mode (accepted: exact, fast)")) << bad.err;
}

// ---------------------------------------------------------------------------
// Accuracy. The bound, per element, between the jit with libmvec and the
// interpreter (glibc's scalar functions) where a result is one of these
// functions of the inputs: 4 ULP. glibc's sysdeps/x86_64/fpu/libm-test-ulps
// (the data of the manual's "Known Maximum Errors" table, which leaves out the
// vector *_vlen* rows) gives, in round-to-nearest, at most 3 ULP from the
// correctly rounded result for the SSE and AVX2 variants LLVM maps (logf and
// powf 3, sin/cos f64 and tan 2, the others 1) and 1 ULP for the scalar
// functions, hence 4 between the two; glibc's libmvec page
// (sourceware.org/glibc/wiki/libmvec) states a 4-ULP criterion against the
// exact result for every vector function. sqrt is an intrinsic: exact.

// The distance of a and b in units in the last place: how many floats of
// their type lie between them (0 for equal numbers, -0 and +0, or two NaNs).
template <class T> int64_t ulps(T a, T b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b) ? 0 : INT64_MAX;
  using Bits = std::conditional_t<sizeof(T) == 4, int32_t, int64_t>;
  auto ordered = [](T x) {
    Bits bits;
    std::memcpy(&bits, &x, sizeof bits);
    // Negative floats count down from -0 (= +0).
    return bits < 0 ? -(int64_t(bits) - std::numeric_limits<Bits>::min()) : int64_t(bits);
  };
  int64_t oa = ordered(a), ob = ordered(b);
  uint64_t d = oa > ob ? uint64_t(oa) - uint64_t(ob) : uint64_t(ob) - uint64_t(oa);
  return d > uint64_t(INT64_MAX) ? INT64_MAX : int64_t(d);
}

struct Agreement {
  int64_t max_ulps = 0;  // between the jit and the interpreter
  int64_t differing = 0; // elements not bitwise equal
  int64_t elements = 0;
};

template <class T> Agreement agreement(const Array& want, const Array& got) {
  Agreement a;
  std::vector<T> w = values_of<T>(want), g = values_of<T>(got);
  EXPECT_EQ(w.size(), g.size());
  for (size_t i = 0; i < w.size() && i < g.size(); ++i) {
    a.max_ulps = std::max(a.max_ulps, ulps(w[i], g[i]));
    a.differing += std::memcmp(&w[i], &g[i], sizeof(T)) != 0;
  }
  a.elements = int64_t(w.size());
  return a;
}

// Deterministic values spread over [lo, hi]; with `specials`, after special
// ones (first, so that the vector loop, not its scalar remainder, takes them).
template <class T> Array spread(int64_t n, double lo, double hi, uint64_t seed, bool specials) {
  using L = std::numeric_limits<T>;
  std::vector<T> v;
  if (specials)
    for (T x : {T(0), T(-0.0), L::infinity(), -L::infinity(), L::quiet_NaN(), L::denorm_min(),
                -L::denorm_min(), L::min(), L::max(), T(-1), T(1), T(1e6), T(-3e7)})
      v.push_back(x);
  uint64_t s = seed;
  while (int64_t(v.size()) < n) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    v.push_back(T(lo + (hi - lo) * double(s >> 11) / double(1ull << 53)));
  }
  return array_of<T>(v);
}

std::vector<Array> run_jit(const Program& p, const std::vector<Array>& inputs) {
  return make_jit_engine()->compile(p, CompileOptions{})->run(inputs);
}

// One process compiles a program both ways (CompileOptions::math): exact,
// bitwise the interpreter's and declaring 0 ULP; fast, declaring 4 ULP, with
// exp's results that many ULP away at most and some not bitwise equal.
TEST(JitMath, ExactAndFastCompilesInOneProcess) {
  if (jit::active_veclib() == jit::Veclib::Libmvec)
    GTEST_SKIP() << "STRATA_JIT_VECLIB=libmvec makes every compile fast";
  Program p = parse_and_check("(program ((xs (array f32 1))) (map (lambda ((x f32)) (exp x)) xs))");
  std::vector<Array> in = {spread<float>(20000, -87, 88, 3, true)};
  std::vector<Array> want = interpret(p, in);
  std::unique_ptr<Engine> jit = make_jit_engine();
  CompileOptions exact, fast;
  fast.math = MathMode::Fast;
  for (int round = 0; round < 2; ++round) { // the second from the memory cache
    std::unique_ptr<Executable> e = jit->compile(p, exact), f = jit->compile(p, fast);
    EXPECT_EQ(e->math_ulps(), 0);
    EXPECT_EQ(f->math_ulps(), kFastMathUlps);
    EXPECT_TRUE(identical(e->run(in)[0], want[0]));
    Agreement a = agreement<float>(want[0], f->run(in)[0]);
    EXPECT_LE(a.max_ulps, kFastMathUlps);
    EXPECT_GT(a.differing, 0) << "fast math changed nothing";
  }
}

// The functions LLVM maps, one result each, over a range of inputs.
template <class T> void expect_functions_agree(const std::string& t, std::ostream& log) {
  std::string program = "(program ((e (array " + t + " 1)) (l (array " + t + " 1)) (a (array " + t +
                        " 1)) (b (array " + t + " 1)) (x (array " + t + " 1)))";
  const char* results[][2] = {{"exp", "e"}, {"log", "l"}, {"sin", "a"},
                              {"cos", "a"}, {"tan", "a"}, {"sqrt", "l"}};
  program += " (atuple";
  for (const auto& [f, in] : results)
    program += std::string(" (map (lambda ((v ") + t + ")) (" + f + " v)) " + in + ")";
  program += " (zipwith (lambda ((u " + t + ") (v " + t + ")) (pow u v)) b x)))";
  bool f32 = t == "f32";
  int64_t n = 20000;
  std::vector<Array> inputs = {spread<T>(n, f32 ? -87 : -700, f32 ? 88 : 700, 1, true),
                               spread<T>(n, 1e-30, f32 ? 3e38 : 1e300, 2, true),
                               spread<T>(n, -100, 100, 3, true), spread<T>(n, 0, 100, 4, true),
                               spread<T>(n, -15, 15, 5, true)};
  Program p = parse_and_check(program);
  std::vector<Array> want = interpret(p, inputs), got = run_jit(p, inputs);
  ASSERT_EQ(got.size(), want.size());
  const char* names[] = {"exp", "log", "sin", "cos", "tan", "sqrt", "pow"};
  int64_t differing = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    Agreement a = agreement<T>(want[i], got[i]);
    log << names[i] << " " << t << ": max " << a.max_ulps << " ULP, " << a.differing << " of "
        << a.elements << " differ\n";
    EXPECT_LE(a.max_ulps, std::string(names[i]) == "sqrt" ? 0 : 4) << names[i] << " " << t;
    differing += a.differing;
  }
  EXPECT_GT(differing, 0) << t << ": libmvec changed nothing";
}

// examples/blackscholes.strata on its example inputs and on 2^16 options
// drawn as the benchmark's (spot 5-30, strike 1-100, 0.25-10 years). A price
// is a difference of terms as large as the spot S and the strike K (call =
// S*cnd(d1) - K*e*cnd(d2)), so a few ULP in exp and log are many ULP of a
// small price (thousands measured: cancellation, docs/jit.md): the bound is
// 16 ULP of max(S, K) per option, four times the largest difference measured
// here (4). From the functions' 4 ULP alone the bound would be hundreds:
// log's error is divided by v*sqrt(T) >= 0.15 in d1 and carried through cnd.
void expect_blackscholes_agrees(std::ostream& log) {
  std::string dir = std::string(STRATA_SOURCE_DIR) + "/examples/blackscholes";
  std::ifstream f(dir + ".strata");
  std::stringstream text;
  text << f.rdbuf();
  Program p = parse_and_check(text.str());
  int64_t n = 1 << 16;
  std::vector<std::vector<Array>> inputs = {
      {read_npy(dir + "/spot.npy"), read_npy(dir + "/strike.npy"), read_npy(dir + "/years.npy")},
      {spread<float>(n, 5, 30, 6, false), spread<float>(n, 1, 100, 7, false),
       spread<float>(n, 0.25, 10, 8, false)}};
  for (size_t k = 0; k < inputs.size(); ++k) {
    const std::vector<Array>& in = inputs[k];
    std::vector<Array> want = interpret(p, in), got = run_jit(p, in);
    ASSERT_EQ(got.size(), 2u);
    std::vector<float> s = values_of<float>(in[0]), x = values_of<float>(in[1]);
    for (size_t r = 0; r < 2; ++r) {
      Agreement a = agreement<float>(want[r], got[r]);
      std::vector<float> w = values_of<float>(want[r]), g = values_of<float>(got[r]);
      double worst = 0; // in ULPs of max(S, K)
      for (size_t i = 0; i < w.size(); ++i) {
        if (std::isnan(w[i]) || std::isnan(g[i])) {
          if (!std::isnan(w[i]) || !std::isnan(g[i])) worst = INFINITY;
          continue;
        }
        float scale = std::max(s[i], x[i]);
        double ulp = double(std::nextafter(scale, INFINITY) - scale);
        worst = std::max(worst, std::fabs(double(w[i]) - double(g[i])) / ulp);
      }
      log << "blackscholes " << (k ? "random" : "example") << (r ? " put" : " call") << ": max "
          << a.max_ulps << " ULP, " << worst << " ULP of max(S, K), " << a.differing << " of "
          << a.elements << " differ\n";
      EXPECT_LE(worst, 16) << (r ? "put" : "call");
      EXPECT_GT(a.differing, 0) << (r ? "put" : "call") << ": libmvec changed nothing";
    }
  }
}

// Only in a child process of JitVeclib.ResultsAgreeWithinTheBound, with
// STRATA_JIT_VECLIB=libmvec; STRATA_JIT_VECLIB_CHILD names the file it writes
// what it measured to.
TEST(JitVeclibChild, ResultsAgreeWithTheInterpreter) {
  const char* out = std::getenv("STRATA_JIT_VECLIB_CHILD");
  if (!out) GTEST_SKIP() << "runs as a child process of JitVeclib.ResultsAgreeWithinTheBound";
  ASSERT_EQ(jit::parse_veclib(std::getenv("STRATA_JIT_VECLIB")), jit::Veclib::Libmvec);
  // The variable reaches the cache keys and the backend's own pipeline.
  std::string target = jit::target_description();
  EXPECT_TRUE(has(target, "; veclib libmvec")) << target;
  EXPECT_TRUE(has(optimised_ir_of(map_program("exp", "f32")), "v_expf("));
  std::ofstream log(out);
  expect_functions_agree<float>("f32", log);
  expect_functions_agree<double>("f64", log);
  expect_blackscholes_agrees(log);
}

TEST(JitVeclib, ResultsAgreeWithinTheBound) {
  TempDir tmp;
  std::string log = (tmp / "log").string(), measured = (tmp / "measured").string();
  std::string cmd =
      "env STRATA_JIT_VECLIB=libmvec STRATA_CACHE=off STRATA_JIT_VECLIB_CHILD=" + measured + " " +
      fs::read_symlink("/proc/self/exe").string() + " --gtest_filter=JitVeclibChild.* >" + log +
      " 2>&1";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd << "\n" << slurp(log);
  std::string m = slurp(measured);
  EXPECT_TRUE(has(m, "blackscholes random put")) << slurp(log); // the child ran to the end
  std::cout << m;
}

} // namespace
} // namespace strata::test

namespace strata {
namespace {

// With libmvec the oracle cannot replay the jit's exp/log: `strata check`
// compares the jit's results under sound bounds carried through the program
// (math within 4 ulps), counted "under a bound", and still passes a correct
// run (issue 16, item 3).
TEST(JitVeclibCheck, CheckComparesUnderPropagatedBounds) {
  test::TempDir cache;
  setenv("STRATA_JIT_VECLIB", "libmvec", 1);
  setenv("STRATA_CACHE_DIR", cache.path().c_str(), 1);
  test::CliResult r =
      test::run_cli("check " + test::source_path("examples/blackscholes.strata") + " --engine jit");
  unsetenv("STRATA_JIT_VECLIB");
  unsetenv("STRATA_CACHE_DIR");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  // The jit's lines: some elements under a bound (the others may be bitwise).
  size_t jit = r.out.find("jit vs interp");
  ASSERT_NE(jit, std::string::npos) << r.out;
  std::string line = r.out.substr(jit, r.out.find('\n', jit) - jit);
  EXPECT_NE(line.find("under a bound"), std::string::npos) << line;
  EXPECT_EQ(line.find(" 0 under a bound"), std::string::npos) << line;
  EXPECT_NE(r.out.find(", 0 not compared"), std::string::npos) << r.out;
}

} // namespace
} // namespace strata
