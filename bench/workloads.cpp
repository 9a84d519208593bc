#include "bench/workloads.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "bench/inputs.h"
#include "core/error.h"

namespace strata::bench {

std::string example_program(const std::string& name) {
  std::string path = std::string(STRATA_SOURCE_DIR) + "/examples/" + name + ".strata";
  std::ifstream f(path);
  if (!f) throw Error(ErrorKind::Input, "cannot read " + path);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

std::vector<NamedProgram> compile_bench_programs() {
  std::vector<NamedProgram> out;
  for (const Workload& w : workloads())
    out.push_back({w.name, w.program(w.full)});
  std::vector<std::filesystem::path> files;
  for (const auto& e :
       std::filesystem::directory_iterator(std::filesystem::path(STRATA_SOURCE_DIR) / "examples"))
    if (e.path().extension() == ".strata") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  size_t workload_count = out.size();
  for (const std::filesystem::path& f : files) {
    std::string text = example_program(f.stem().string());
    auto same = [&](const NamedProgram& p) { return p.text == text; };
    if (std::none_of(out.begin(), out.begin() + ptrdiff_t(workload_count), same))
      out.push_back({"ex." + f.stem().string(), text});
  }
  return out;
}

namespace {

std::function<std::string(int64_t)> example(const std::string& name) {
  return [name](int64_t) { return example_program(name); };
}
std::function<std::string(int64_t)> text(const std::string& t) {
  return [t](int64_t) { return t; };
}
double sq(int64_t n) {
  return double(n) * double(n);
}
Array scalar_f32() {
  return zeros_f32({});
}
Array scalar_i32() {
  return zeros_i32({});
}

// The map chain: six element-wise steps feeding a sum (fusion makes it one pass).
const char* kMapChain = R"((program ((xs (array f32 1)))
  (fold (lambda ((a f32) (b f32)) (+ a b)) 0f32
    (map (lambda ((x f32)) (- x 1f32))
      (map (lambda ((x f32)) (* x 0.5f32))
        (map (lambda ((x f32)) (sqrt x))
          (map (lambda ((x f32)) (abs x))
            (map (lambda ((x f32)) (+ x 2f32))
              (map (lambda ((x f32)) (* x 1.5f32)) xs))))))))
)";

const char* kScanF32 = R"((program ((xs (array f32 1)))
  (scanl1 (lambda ((a f32) (b f32)) (+ a b)) xs))
)";

// Forward fill, the last non-zero so far: associative, not commutative, so
// its chunks run in one lane (docs/language.md, "Legal orders").
const char* kFillI32 = R"((program ((xs (array i32 1)))
  (scanl1 (lambda ((a i32) (b i32)) (if (== b 0i32) a b)) xs))
)";

const char* kHistogram = R"((program ((keys (array i32 1)))
  (permute (lambda ((new i32) (old i32)) (+ new old))
           (fill (ix 256) 0i32)
           (lambda ((i (ix 1))) (ix (cast i64 (! keys i))))
           (map (lambda ((k i32)) 1i32) keys)))
)";

// examples/matmul.strata is f64; docs/bench.md's matmul is f32.
const char* kMatmul = R"((program ((a (array f32 2)) (b (array f32 2)))
  (alet ((bt (backpermute (ix (proj 1 (shape b)) (proj 0 (shape b)))
                          (lambda ((i (ix 2))) (ix (proj 1 i) (proj 0 i)))
                          b))
         (arep (replicate (spec all (proj 1 (shape b)) all) a))
         (brep (replicate (spec (proj 0 (shape a)) all all) bt)))
    (fold (lambda ((x f32) (y f32)) (+ x y)) 0f32
          (zipwith (lambda ((x f32) (y f32)) (* x y)) arep brep))))
)";

// Halve every element until the largest is below 1: xs in [0, 1024) takes 10
// iterations of a map and 11 of a fold1 (max) over the whole array.
const char* kAwhile = R"((program ((xs (array f32 1)))
  (awhile (lambda ((s (array f32 1)))
            (map (lambda ((m f32)) (>= m 1f32))
                 (fold1 (lambda ((a f32) (b f32)) (max a b)) s)))
          (lambda ((s (array f32 1))) (map (lambda ((x f32)) (* x 0.5f32)) s))
          xs))
)";

// examples/mandelbrot.strata at W = H = n (the example is 32 x 24).
std::string mandelbrot_program(int64_t n) {
  std::string w = std::to_string(n) + "f32";
  return "(program ()\n"
         "  (generate (ix " +
         std::to_string(n) + " " + std::to_string(n) +
         ")\n"
         "    (lambda ((p (ix 2)))\n"
         "      (let ((cx (+ -2f32 (* (cast f32 (proj 1 p)) (/ 3f32 " +
         w +
         "))))\n"
         "            (cy (+ -1.5f32 (* (cast f32 (proj 0 p)) (/ 3f32 " +
         w + R"()))))
        (proj 0
          (while (lambda ((s (tuple i32 f32 f32)))
                   (let ((x (proj 1 s)) (y (proj 2 s)))
                     (and (< (proj 0 s) 255i32) (<= (+ (* x x) (* y y)) 4f32))))
                 (lambda ((s (tuple i32 f32 f32)))
                   (let ((x (proj 1 s)) (y (proj 2 s)))
                     (tuple (+ (proj 0 s) 1i32)
                            (+ (- (* x x) (* y y)) cx)
                            (+ (* (* 2f32 x) y) cy))))
                 (tuple 0i32 0f32 0f32)))))))
)";
}

// A sum of 2^24 f32 in the oracle's order (left to right, as the plain -O3
// loop and the interpreter add) drifts by about 2% from a blocked sum once the
// running total's ulp approaches the terms: allow 5% of the result. (It still
// catches a wrong operator or a lost chunk; the differential harness, not the
// benchmark, is where correctness is proven element by element.)
constexpr double kSumRtol = 5e-2;

std::vector<Workload> make_workloads() {
  constexpr int64_t M = 1 << 20;
  std::vector<Workload> w;
  w.push_back({"dotp", "sum of x*y, 2^24 f32", true, 16 * M, M, 1000, example("dotp"),
               [](int64_t n) {
                 return std::vector{u01v(n, 1), u01v(n, 2)};
               },
               [](int64_t) { return std::vector{scalar_f32()}; },
               [](int64_t n) { return double(n); }, [](int64_t n) { return 8.0 * double(n) + 4; },
               kSumRtol, o3_dotp, tbb_dotp});
  w.push_back(
      {"saxpy", "z = 2.5*x + y, 2^24 f32, out of place", true, 16 * M, M, 1000, example("saxpy"),
       [](int64_t n) {
         return std::vector{u01v(n, 3), u01v(n, 4)};
       },
       [](int64_t n) { return std::vector{zeros_f32({n})}; }, [](int64_t n) { return double(n); },
       [](int64_t n) { return 12.0 * double(n); }, 0, o3_saxpy, tbb_saxpy});
  w.push_back(
      {"mapchain", "sum of sqrt(abs(x*1.5 + 2))*0.5 - 1 as six maps, 2^24 f32", true, 16 * M, M,
       1000, text(kMapChain), [](int64_t n) { return std::vector{u01v(n, 5, 8, -4)}; },
       [](int64_t) { return std::vector{scalar_f32()}; }, [](int64_t n) { return double(n); },
       [](int64_t n) { return 4.0 * double(n) + 4; }, kSumRtol, o3_mapchain, tbb_mapchain});
  w.push_back({"sum_i32", "wrapping sum, 2^24 i32", true, 16 * M, M, 1000, example("sum"),
               [](int64_t n) { return std::vector{modv(n, 6, 64)}; },
               [](int64_t) { return std::vector{scalar_i32()}; },
               [](int64_t n) { return double(n); }, [](int64_t n) { return 4.0 * double(n) + 4; },
               0, o3_sum_i32, tbb_sum_i32});
  w.push_back(
      {"scan_f32", "inclusive prefix sum (scanl1 +), 2^24 f32 integers in [-4, 4]", true, 16 * M, M,
       1000, text(kScanF32), [](int64_t n) { return std::vector{modv_f32(n, 7, 9, -4)}; },
       [](int64_t n) { return std::vector{zeros_f32({n})}; }, [](int64_t n) { return double(n); },
       [](int64_t n) { return 8.0 * double(n); }, 0, o3_scan_f32, tbb_scan_f32});
  w.push_back({"scan_i32", "inclusive prefix sum (scanl1 +), 2^24 i32", true, 16 * M, M, 1000,
               example("prefix_sum"), [](int64_t n) { return std::vector{modv(n, 8, 64)}; },
               [](int64_t n) { return std::vector{zeros_i32({n})}; },
               [](int64_t n) { return double(n); }, [](int64_t n) { return 8.0 * double(n); }, 0,
               o3_scan_i32, tbb_scan_i32});
  w.push_back(
      {"fill_i32",
       "forward fill (scanl1 of the last non-zero: not commutative), 2^24 i32, "
       "a quarter zeros",
       true, 16 * M, M, 1000, text(kFillI32), [](int64_t n) { return std::vector{modv(n, 20, 4)}; },
       [](int64_t n) { return std::vector{zeros_i32({n})}; }, [](int64_t n) { return double(n); },
       [](int64_t n) { return 8.0 * double(n); }, 0, o3_fill_i32, tbb_fill_i32});
  w.push_back({"histogram", "2^24 keys into 256 i32 bins (permute +)", true, 16 * M, M, 1000,
               text(kHistogram), [](int64_t n) { return std::vector{modv(n, 9, 256)}; },
               [](int64_t) { return std::vector{zeros_i32({256})}; },
               [](int64_t n) { return double(n); },
               [](int64_t n) { return 4.0 * double(n) + 1024; }, 0, o3_histogram, tbb_histogram});
  w.push_back({"mandelbrot", "1024 x 1024 escape counts, 255 iterations, f32", false, 1024, 64, 16,
               mandelbrot_program, [](int64_t) { return std::vector<Array>{}; },
               [](int64_t n) {
                 return std::vector{zeros_i32({n, n})};
               },
               sq, [](int64_t n) { return 4.0 * sq(n); }, 0, o3_mandelbrot, tbb_mandelbrot});
  w.push_back(
      {"blackscholes", "call and put of 2^22 options, f32", false, 4 * M, M / 4, 1000,
       example("blackscholes"),
       [](int64_t n) {
         return std::vector{u01v(n, 10, 25, 5), u01v(n, 11, 99, 1), u01v(n, 12, 9.75f, 0.25f)};
       },
       [](int64_t n) {
         return std::vector{zeros_f32({n}), zeros_f32({n})};
       },
       [](int64_t n) { return double(n); }, [](int64_t n) { return 20.0 * double(n); }, 1e-5,
       o3_blackscholes, tbb_blackscholes});
  w.push_back(
      {"matmul", "512 x 512 f32 product (replicate, zipwith, fold)", false, 512, 128, 8,
       text(kMatmul),
       [](int64_t n) {
         return std::vector{reshaped(u01v(n * n, 13), {n, n}), reshaped(u01v(n * n, 14), {n, n})};
       },
       [](int64_t n) {
         return std::vector{zeros_f32({n, n})};
       },
       [](int64_t n) { return sq(n) * double(n); }, [](int64_t n) { return 12.0 * sq(n); }, 1e-4,
       o3_matmul, tbb_matmul});
  w.push_back({"stencil", "3x3 box blur of 2048 x 2048 f32, clamp", true, 2048, 512, 17,
               example("blur"),
               [](int64_t n) {
                 return std::vector{reshaped(u01v(n * n, 15), {n, n})};
               },
               [](int64_t n) {
                 return std::vector{zeros_f32({n, n})};
               },
               sq, [](int64_t n) { return 8.0 * sq(n); }, 1e-6, o3_stencil, tbb_stencil});
  w.push_back({"nbody", "accelerations of 4096 bodies, f32 (n^2 pairs)", false, 4096, 512, 33,
               example("nbody"),
               [](int64_t n) {
                 return std::vector{u01v(n, 16), u01v(n, 17), u01v(n, 18), u01v(n, 19, 1, 0.5f)};
               },
               [](int64_t n) {
                 return std::vector{zeros_f32({n}), zeros_f32({n}), zeros_f32({n})};
               },
               sq, [](int64_t n) { return 28.0 * double(n); }, 1e-3, o3_nbody, tbb_nbody});
  w.push_back(
      {"awhile", "halve 2^22 f32 in [0, 1024) until max < 1 (10 iterations)", true, 4 * M, M / 4,
       1000, text(kAwhile), [](int64_t n) { return std::vector{u01v(n, 20, 1024, 0)}; },
       [](int64_t n) { return std::vector{zeros_f32({n})}; }, [](int64_t n) { return double(n); },
       [](int64_t n) { return 8.0 * double(n); }, 0, o3_awhile, tbb_awhile});
  return w;
}

} // namespace

const std::vector<Workload>& workloads() {
  static const std::vector<Workload> w = make_workloads();
  return w;
}

bool take_smoke_flag(int& argc, char** argv) {
  const char* env = std::getenv("STRATA_BENCH_SMOKE");
  bool smoke = env && *env && std::strcmp(env, "0") != 0;
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--smoke") == 0)
      smoke = true;
    else
      argv[kept++] = argv[i];
  }
  argc = kept;
  return smoke;
}

} // namespace strata::bench
