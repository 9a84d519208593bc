// The jit's pass pipeline (jit/backend.cpp kernel_pipeline, docs/jit.md
// "Compile latency"): every entry point of a float-sum fold that loops (a
// fold's rows and a long row's chunks) is vectorised, not only one of them,
// the cache key names the pipeline and the LLVM options it runs with, and
// kernels with two loop nests compile in two parts.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "fusion/fuse.h"
#include "jit/backend.h"
#include "jit/codegen.h"
#include "jit/target_cpu.h"
#include "tests/cli_util.h"
#include "tests/jit_ir.h"
#include "tests/test_util.h"

namespace strata::test {
namespace {

// The optimised IR of the program's first kernel, one string per function.
std::vector<std::string> optimised_functions(const std::string& program) {
  std::string ir = optimised_ir_of(program);
  std::vector<std::string> functions;
  for (size_t at = ir.find("\ndefine "); at != std::string::npos;) {
    size_t next = ir.find("\ndefine ", at + 1);
    functions.push_back(ir.substr(at, next == std::string::npos ? std::string::npos : next - at));
    at = next;
  }
  return functions;
}

// Float sums run the declared order (core/reduction_order.h): no entry has a
// fast-math flag, and the entries that fold lanes (a long row's chunks) do so
// in vectors: returns how many entries have vector fadds.
int expect_sums_in_vectors_without_reassoc(const std::string& program) {
  int sums = 0;
  for (const std::string& f : optimised_functions(program)) {
    EXPECT_EQ(f.find("reassoc"), std::string::npos) << f;
    EXPECT_EQ(f.find(" fast "), std::string::npos) << f;
    if (f.find("fadd <") != std::string::npos) ++sums;
  }
  return sums;
}

TEST(JitPipeline, EveryFloatSumChunkIsVectorCodeWithoutReassoc) {
  // dotp: checked reads of two arrays; a rank-1 fold has one row: its row
  // entry (a row too short to chunk) folds it left to right, scalar, and its
  // chunk entry (long rows: 32 lanes) in vectors.
  EXPECT_EQ(expect_sums_in_vectors_without_reassoc(
                "(program ((xs (array f32 1)) (ys (array f32 1))) (fold (lambda ((a f32) (b f32)) "
                "(+ a b)) 0f32 (zipwith (lambda ((x f32) (y f32)) (* x y)) xs ys)))"),
            1);
  // Row sums of a matrix, f64: the row entry folds W rows at a time in
  // vectors, a row per lane (8 rows on AVX-512), and the chunk entry 16 lanes.
  EXPECT_EQ(expect_sums_in_vectors_without_reassoc("(program ((m (array f64 2))) (fold (lambda "
                                                   "((a f64) (b f64)) (+ b a)) 0.0 m))"),
            2);
}

TEST(JitPipeline, CacheKeyNamesThePipelineAndOptions) {
  if (const char* p = std::getenv("STRATA_JIT_PIPELINE"); p && std::string(p) == "O3")
    GTEST_SKIP() << "STRATA_JIT_PIPELINE=O3";
  std::string target = jit::target_description();
  EXPECT_NE(target.find("loop-vectorize"), std::string::npos) << target;
  EXPECT_NE(target.find("enable-epilogue-vectorization=false"), std::string::npos) << target;
  EXPECT_NE(target.find("disable-lsr=true"), std::string::npos) << target;
}

// The first kernel of `program`, compiled cold (jit::compile_uncached).
jit::ColdCompile compile_first_kernel(const std::string& program, int& entries) {
  Program p = parse_and_check(program);
  KernelGraph g = build_kernel_graph(p, FusionOptions{true});
  const Kernel& k = g.body.front();
  jit::KernelCode code = jit::generate_kernel_code(
      g, k, jit::CodegenOptions{true, int(g.arrays.size()) + k.id}, "strata_test_parts");
  entries = code.entries;
  return jit::compile_uncached(code);
}

// A kernel's object code is the same whatever the process compiled before:
// each part's emitter keeps its codegen pipeline and target machine at one
// level (jit/llvm_pipeline.h ObjectEmitter). A stencil's edges (part 1,
// optimised) before and after a generate whose part 1 is run-once (its
// checked elements, emitted at CodeGenOptLevel::None): one machine emitting
// at both levels had switched to FastISel for good.
TEST(JitPipeline, ObjectsDoNotDependOnEarlierCompiles) {
  const std::string stencil =
      "(program ((m (array f32 2))) (stencil (3 3) clamp (lambda ((nb (window f32 2))) (+ (at nb "
      "-1 0) (* (at nb 1 1) 3f32))) m))";
  const std::string checked_generate =
      "(program ((xs (array f64 1))) (generate (ix 64) (lambda ((p (ix 1))) (while (lambda ((s "
      "f64)) (< s 10.0)) (lambda ((s f64)) (+ (+ s 1.0) (!! xs (proj 0 p)))) 0.0))))";
  int entries = 0;
  jit::ColdCompile before = compile_first_kernel(stencil, entries);
  ASSERT_EQ(before.parts, 2u);
  ASSERT_EQ(before.run_once_parts, 0u);
  jit::ColdCompile other = compile_first_kernel(checked_generate, entries);
  ASSERT_EQ(other.parts, 2u);
  ASSERT_EQ(other.run_once_parts, 1u); // part 1: the checked elements
  jit::ColdCompile after = compile_first_kernel(stencil, entries);
  ASSERT_EQ(after.objects.size(), 2u);
  EXPECT_TRUE(after.objects[0] == before.objects[0]);
  EXPECT_TRUE(after.objects[1] == before.objects[1])
      << "the edges' object: " << before.objects[1].size() << " bytes, then "
      << after.objects[1].size();
}

// The functions of optimised `ir` that call another entry of their kernel
// (a float fold's or scan's chunk entry, which hands chunks to its array
// entry; a fold's rows entry, which hands rows to its checked rows entry).
std::vector<std::string> calling_entries(const std::string& ir) {
  std::vector<std::string> out;
  for (size_t call = ir.find("call i32 @strata_test_ir_"); call != std::string::npos;) {
    size_t start = ir.rfind("\ndefine ", call);
    size_t end = ir.find("\n}", call);
    out.push_back(ir.substr(start, end - start));
    call = ir.find("call i32 @strata_test_ir_", end);
  }
  return out;
}

// Kernels with two loop nests compile in two parts (at the same time, each
// an object); others in one. Closed expressions and combines are optnone,
// in a third part of their own for float folds and scans; a fold's checked
// rows too, in a third part for any fold.
TEST(JitPipeline, FoldsAndStencilsCompileInParts) {
  int entries = 0;
  jit::ColdCompile fold = compile_first_kernel(
      "(program ((xs (array f32 1))) (fold (lambda ((a f32) (b f32)) (+ a b)) 0f32 xs))", entries);
  EXPECT_EQ(fold.parts, 3u);
  EXPECT_EQ(entries, 7); // closed shape and seed, checked rows, rows, short chunks, chunks, combine
  // Part 2 holds run-once entries only: emitted without optimisation.
  EXPECT_EQ(fold.run_once_parts, 1u);
  jit::ColdCompile max = compile_first_kernel(
      "(program ((xs (array i32 1))) (fold (lambda ((a i32) (b i32)) (max a b)) 0i32 xs))",
      entries);
  // One code for any chunk: the run-once entries in part 1 (with the
  // chunks), the checked rows in a part of their own.
  EXPECT_EQ(max.parts, 3u);
  EXPECT_EQ(entries, 6);             // closed shape and seed, checked rows, rows, chunks, combine
  EXPECT_EQ(max.run_once_parts, 1u); // the checked rows' part; part 1 has the chunks too
  EXPECT_GT(fold.object_bytes(), 0u);
  EXPECT_GT(fold.optimise_ms + fold.emit_ms, 0.0);
  jit::ColdCompile stencil = compile_first_kernel(
      "(program ((m (array f32 2))) (stencil (3 3) clamp (lambda ((nb (window f32 2))) (+ (at nb "
      "-1 0) (at nb 1 1))) m))",
      entries);
  EXPECT_EQ(stencil.parts, 2u);
  EXPECT_EQ(entries, 2); // interior (with the calls), edges
  EXPECT_EQ(stencil.run_once_parts, 0u);
  jit::ColdCompile map = compile_first_kernel(
      "(program ((xs (array f32 1))) (map (lambda ((x f32)) (* x 2f32)) xs))", entries);
  EXPECT_EQ(map.parts, 1u);
  EXPECT_EQ(map.run_once_parts, 0u);
  // A permute: the defaults and the source in part 0; the targets, the
  // combining and (an operation every order treats alike) the bins in part 1.
  for (const char* combine : {"(+ new old)", "(+ (* new 2) old)"}) {
    jit::ColdCompile permute = compile_first_kernel(
        std::string("(program ((keys (array i32 1))) (permute (lambda ((new i64) (old i64)) ") +
            combine +
            ") (fill (ix 8) 0) (lambda ((i (ix 1))) (ix (cast i64 (band (! keys i) 7i32)))) (map "
            "(lambda ((k i32)) 1) keys)))",
        entries);
    EXPECT_EQ(permute.parts, 2u) << combine;
  }

  std::string ir = optimised_ir_of(
      "(program ((xs (array i32 1))) (fold (lambda ((a i32) (b i32)) (max a b)) 0i32 xs))");
  size_t optnone = 0;
  for (size_t at = ir.find("optnone"); at != std::string::npos; at = ir.find("optnone", at + 1))
    ++optnone;
  EXPECT_GT(optnone, 0u) << ir; // the combine, the closed seed/shape, the checked rows
  // An integer max folds each chunk left to right (one code for any length,
  // every check per element): only the rows entry calls another (the
  // checked rows, where a read checked once per row fails); a float sum's
  // chunk entry keeps only the vector code and calls the short chunks'
  // entry (optnone) for chunks shorter than its lanes or failing a test.
  EXPECT_EQ(calling_entries(ir).size(), 1u) << ir;
  std::string sum = optimised_ir_of(
      "(program ((xs (array f32 1))) (fold (lambda ((a f32) (b f32)) (+ a b)) 0f32 xs))");
  EXPECT_EQ(calling_entries(sum).size(), 2u) << sum;
}

// The SLP vectoriser runs on the parts of generates and permutes only
// (KernelBuilder::vectorisers): blackscholes' element code keeps its pairs
// of f32 operations, while the blur's vector loop no longer has its scalar
// remainder's loads paired (SLP made 12 operations on <2 x float> of it),
// and its edge runs have no vector code at all.
TEST(JitPipeline, StraightLineVectorsOnlyInElementKernels) {
  if (const char* p = std::getenv("STRATA_JIT_PIPELINE"); p && std::string(p) == "O3")
    GTEST_SKIP() << "STRATA_JIT_PIPELINE=O3";
  auto example = [](const char* name) {
    std::ifstream in(source_path(std::string("examples/") + name + ".strata"));
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  };
  std::string prices = optimised_ir_of(example("blackscholes"));
  EXPECT_NE(prices.find("<2 x float>"), std::string::npos) << prices;
  std::vector<std::string> blur = optimised_functions(example("blur"));
  ASSERT_EQ(blur.size(), 2u); // interior, edges
  EXPECT_EQ(blur[0].find("<2 x float>"), std::string::npos) << blur[0];
  EXPECT_TRUE(std::regex_search(blur[0], std::regex("<(4|8|16) x float>"))) << blur[0];
  EXPECT_EQ(blur[1].find(" x float>"), std::string::npos) << blur[1];
}

// The arrays an entry stores into share no memory with the others
// (FnBuilder::tag_array_accesses): the loop vectoriser runs a map's and a
// stencil's loops without run-time tests of whether the output overlaps an
// input or another leaf of the output (blocks named vector.memcheck).
TEST(JitPipeline, ResultsShareNoMemoryWithInputs) {
  if (const char* p = std::getenv("STRATA_JIT_PIPELINE"); p && std::string(p) == "O3")
    GTEST_SKIP() << "STRATA_JIT_PIPELINE=O3";
  for (const char* program :
       {"(program ((xs (array f32 1)) (ys (array f32 1))) (zipwith (lambda ((x f32) (y f32)) (+ "
        "(* 2f32 x) y)) xs ys))",
        "(program ((m (array f32 2))) (stencil (3 3) clamp (lambda ((nb (window f32 2))) (+ (at nb "
        "-1 0) (+ (at nb 0 0) (at nb 1 1)))) m))",
        "(program ((xs (array (tuple f32 f64) 1))) (map (lambda ((p (tuple f32 f64))) (tuple (proj "
        "1 p) (proj 0 p))) xs))"}) {
    std::string ir = optimised_ir_of(program);
    EXPECT_NE(ir.find("!noalias"), std::string::npos) << program << "\n" << ir;
    EXPECT_EQ(ir.find("memcheck"), std::string::npos) << program << "\n" << ir;
    EXPECT_TRUE(std::regex_search(ir, std::regex("<(4|8|16) x (float|double)>"))) << ir;
  }
}

// A float fold's chunk entry checks reads at positions affine in the
// element's once per chunk, ahead of its loops, and its rows entry once per
// row (jit/chunk_reads.cpp): with only such reads (a dot product's two)
// neither writes an error of its own; a read at 2 * j keeps its check per
// element (it writes the error slot, argument %1, where it fails: such a
// chunk's elements are not computed in lanes, jit/lane_codegen.h
// chunk_in_lanes).
TEST(JitPipeline, FoldEntriesCheckAffineReadsOncePerRun) {
  std::vector<std::string> dot = calling_entries(optimised_ir_of(
      "(program ((xs (array f32 1)) (ys (array f32 1))) (fold (lambda ((a f32) (b f32)) (+ a b)) "
      "0f32 (zipwith (lambda ((x f32) (y f32)) (* x y)) xs ys)))"));
  ASSERT_EQ(dot.size(), 2u); // rows, chunks
  for (const std::string& entry : dot)
    EXPECT_EQ(entry.find(", ptr %1, align"), std::string::npos) << entry;
  std::vector<std::string> strided = calling_entries(optimised_ir_of(
      "(program ((xs (array f32 1))) (fold (lambda ((a f32) (b f32)) (+ a b)) 0f32 (generate (ix "
      "(quot (size xs) 2)) (lambda ((i (ix 1))) (! xs (ix (* (proj 0 i) 2)))))))"));
  ASSERT_EQ(strided.size(), 1u); // the chunks: the rows have no read checked once per row
  EXPECT_NE(strided[0].find(", ptr %1, align"), std::string::npos) << strided[0];
  // n-body's shape: rows in lanes, three reads (x at j and at i, m at j),
  // none checked per element.
  std::vector<std::string> nbody = calling_entries(optimised_ir_of(
      "(program ((x (array f32 1)) (m (array f32 1))) (fold (lambda ((a (tuple f32 f32)) (b "
      "(tuple f32 f32))) (tuple (+ (proj 0 a) (proj 0 b)) (+ (proj 1 a) (proj 1 b)))) (tuple 0f32 "
      "0f32) (generate (ix (size x) (size x)) (lambda ((p (ix 2))) (let ((d (- (! x (ix (proj 1 "
      "p))) (! x (ix (proj 0 p)))))) (tuple (* d (! m (ix (proj 1 p)))) d))))))"));
  ASSERT_EQ(nbody.size(), 2u); // the rows, the chunks (a tuple's: the lanes in memory)
  EXPECT_NE(nbody[0].find("row_lanes"), std::string::npos) << nbody[0];
  for (const std::string& entry : nbody)
    EXPECT_EQ(entry.find(", ptr %1, align"), std::string::npos) << entry;
  // No row runs in scalar code (fold_rows_in_lanes): the last group's lanes
  // past the end are masked off, never stored.
  EXPECT_FALSE(std::regex_search(nbody[0], std::regex(R"(= f(add|sub|mul) float )"))) << nbody[0];
  EXPECT_NE(nbody[0].find("masked.store.v"), std::string::npos) << nbody[0];
}

} // namespace
} // namespace strata::test

namespace strata::test {
namespace {

// STRATA_JIT_DUMP=DIR makes DIR and names each module's files by program,
// kernel id, source operations (and part) and key, before and after the
// pipeline.
// A contraction's rows run in parallel/contraction.h's tiles wherever they
// pay: its rows entry folds one row at a time (no lanes), while any other
// fold of float rows keeps a row per lane.
TEST(JitPipeline, ContractionRowsAreNotInLanes) {
  auto row_lanes = [](const std::string& program) {
    Program p = parse_and_check(program);
    KernelGraph g = build_kernel_graph(p, FusionOptions{true});
    const Kernel& k = g.body.front();
    return jit::generate_kernel_code(g, k, jit::CodegenOptions{true, int(g.arrays.size()) + k.id},
                                     "strata_test_lanes")
        .row_lanes;
  };
  EXPECT_EQ(row_lanes(slurp(source_path("examples/matmul.strata"))), 0);
  // The same rows with a product of three reads are not a contraction.
  EXPECT_GT(row_lanes("(program ((a (array f64 2)) (b (array f64 2))) (fold (lambda (s p) (+ s p)) "
                      "0.0 (zipwith (lambda (x y) (* (* x y) x)) a b)))"),
            0);
}

TEST(JitPipeline, DumpMakesItsDirectoryAndNamesFilesByKernel) {
  TempDir tmp;
  std::filesystem::path dir = tmp / "dumps";
  dir /= "nested";
  ::setenv("STRATA_JIT_DUMP", dir.c_str(), 1);
  ::setenv("STRATA_CACHE", "off", 1); // every kernel compiled, so dumped
  CliResult r = run_cli("compile " + source_path("examples/kmeans_step.strata") + " --engine jit");
  ::unsetenv("STRATA_JIT_DUMP");
  ::unsetenv("STRATA_CACHE");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_TRUE(std::filesystem::is_directory(dir));
  std::set<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    names.insert(e.path().filename().string());
  bool fold = false;
  for (const std::string& n : names) {
    EXPECT_EQ(n.rfind("kmeans_step.k", 0), 0u) << n;
    if (n.size() > 6 && n.compare(n.size() - 6, 6, ".in.ll") == 0) {
      std::string optimised = n.substr(0, n.size() - 6) + ".ll";
      EXPECT_EQ(names.count(optimised), 1u) << n << " without " << optimised;
    }
    fold = fold || n.find("generate+fold1.") != std::string::npos; // a fused kernel
  }
  EXPECT_TRUE(fold) << "no file names the fold1 kernel";
  EXPECT_GE(names.size(), 8u); // four kernels, before and after
}

// A dumped module before the pipeline opens with what compiled it, as
// scripts/jit-pipeline-passes runs it again in opt and llc: the pipeline the
// kernel key names, the LLVM options, the target and the vector math library.
TEST(JitPipeline, DumpsSayWhichPipelineOptionsAndTargetCompiledThem) {
  if (const char* p = std::getenv("STRATA_JIT_PIPELINE"); p && std::string(p) == "O3")
    GTEST_SKIP() << "STRATA_JIT_PIPELINE=O3";
  for (std::string math : {"exact", "fast"}) {
    TempDir tmp;
    CliResult r = run_cli_env("STRATA_CACHE=off STRATA_JIT_DUMP=" + tmp.path().string(),
                              "compile " + source_path("examples/saxpy.strata") +
                                  " --engine jit --math " + math);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    int modules = 0;
    for (const auto& e : std::filesystem::directory_iterator(tmp.path())) {
      std::string name = e.path().filename().string();
      if (name.size() < 6 || name.compare(name.size() - 6, 6, ".in.ll") != 0) continue;
      ++modules;
      std::istringstream text(slurp(e.path().string()));
      std::string pipeline, options, target, veclib;
      std::getline(text, pipeline);
      std::getline(text, options);
      std::getline(text, target);
      std::getline(text, veclib);
      const std::string p = "; strata pipeline: ";
      ASSERT_EQ(pipeline.rfind(p + "function(", 0), 0u) << pipeline;
      EXPECT_NE(jit::target_description().find(pipeline.substr(p.size())), std::string::npos)
          << "the key does not name the dumped pipeline " << pipeline;
      EXPECT_EQ(options, "; strata llvm options: -enable-epilogue-vectorization=false "
                         "-simple-loop-unswitch-inject-invariant-conditions=false "
                         "-unswitch-threshold=25 -disable-lsr=true");
      EXPECT_EQ(target, "; strata target: " + jit::host_cpu_spec());
      EXPECT_EQ(veclib, math == "fast" ? "; strata veclib: libmvec" : "; strata veclib: none");
      std::string module;
      std::getline(text, module);
      EXPECT_EQ(module.rfind("; ModuleID = ", 0), 0u) << module;
    }
    EXPECT_EQ(modules, 1) << "saxpy: one kernel, one part";
  }
}

} // namespace
} // namespace strata::test
