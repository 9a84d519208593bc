// The distributed engine (mpi/, docs/mpi.md) at 1 to 4 ranks as threads of
// this process: every result bitwise the interpreter's in the declared order
// (so the same for every number of ranks), each kernel's plan and the bytes
// it moved as the partitioning rules say, errors as the interpreter's, and
// a rank that stops never leaves the others waiting. The transport between
// processes (mpirun) is tested by the MpiRun* tests of tests/CMakeLists.txt.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <limits>
#include <thread>

#include "mpi/blocks.h"
#include "mpi/comm.h"
#include "mpi/engine.h"
#include "oracle/differential.h"
#include "oracle/registry.h"
#include "tests/cli_util.h"
#include "tests/test_util.h"

namespace strata::test {
namespace {

const Engine& local_engine() {
  const Engine* e = find_engine("jit");
  return e ? *e : *find_engine("tbb");
}

std::vector<double> ramp(int64_t n, double scale) {
  std::vector<double> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    v[size_t(i)] = scale * double((i * 7919) % 1000) / 7.0 - 3.0;
  return v;
}

struct Ran {
  std::vector<std::map<int, KernelExchange>> traffic; // per rank
};

// Runs `text` on `ranks` ranks (every array in blocks, or those of at least
// `min_block_bytes`), checks it against the
// oracle (bitwise, every element) fused and unfused, and returns the fused
// run's traffic.
Ran check_on(int ranks, const std::string& text, const std::vector<Array>& inputs,
             int64_t min_block_bytes = 0) {
  Program p = parse_and_check(text);
  auto engine = make_mpi_threads_engine(local_engine(), ranks, MpiOptions{min_block_bytes});
  for (bool fused : {false, true}) {
    CompileOptions o;
    o.fusion = fused;
    DiffReport r = differential_check(p, inputs, *engine, o);
    EXPECT_TRUE(r.agree) << text << " on " << ranks << " ranks, fused " << fused << ": "
                         << r.disagreement;
    EXPECT_EQ(r.counts.not_compared, 0);
  }
  auto exe = engine->compile(p, CompileOptions{});
  try {
    exe->run(inputs);
  } catch (const Error&) {
    // a program that raises: the differential check compared the errors
  }
  return Ran{mpi_traffic(*exe)};
}

// The ranks compile with the local engine, so preparing an mpi engine
// prepares that one (core/engine.h, Engine::prepare).
TEST(MpiEngine, PreparingPreparesTheLocalEngine) {
  struct Local final : Engine {
    mutable std::atomic<int> prepared{0};
    std::string name() const override { return "local"; }
    bool available(std::string&) const override { return true; }
    std::unique_ptr<Executable> compile(const Program&, const CompileOptions&) const override {
      return nullptr;
    }
    std::jthread prepare() const override {
      return std::jthread([this] { ++prepared; });
    }
  } local;
  EXPECT_TRUE(make_mpi_engine(local)->prepare().joinable());
  EXPECT_EQ(local.prepared, 1);
  std::vector<std::jthread> both =
      prepare_engines({make_mpi_threads_engine(local, 2, MpiOptions{}).get()});
  both.clear(); // joined
  EXPECT_EQ(local.prepared, 2);
}

TEST(MpiEngine, ElementWiseWorkOnAlignedBlocksMovesNothing) {
  int64_t n = 1000;
  std::vector<Array> in = {array_of(ramp(n, 1.0), {n}), array_of(ramp(n, 0.5), {n})};
  for (int ranks = 1; ranks <= 4; ++ranks) {
    Ran r = check_on(ranks,
                     "(program ((xs (array f64 1)) (ys (array f64 1)))"
                     "  (map (lambda (x) (* x 3.0)) (zipwith + xs ys)))",
                     in);
    ASSERT_EQ(r.traffic.size(), size_t(ranks));
    for (const auto& rank : r.traffic) {
      ASSERT_EQ(rank.size(), 1u); // one fused kernel
      for (const auto& [id, t] : rank) {
        EXPECT_EQ(t.plan, ranks == 1 ? "whole" : "rows"); // one rank runs all
        EXPECT_EQ(t.sent, 0u);
        EXPECT_EQ(t.received, 0u);
      }
    }
  }
}

TEST(MpiEngine, RowFoldsKeepRowsApartAndFullFoldsGatherTheirInput) {
  int64_t rows = 37, cols = 50;
  std::vector<Array> in = {array_of(ramp(rows * cols, 1.0), {rows, cols})};
  for (int ranks = 1; ranks <= 4; ++ranks) {
    Ran r = check_on(ranks, "(program ((m (array f64 2))) (fold + 0.0 m))", in);
    for (const auto& rank : r.traffic)
      for (const auto& [id, t] : rank) {
        EXPECT_EQ(t.plan, ranks == 1 ? "whole" : "rows");
        EXPECT_EQ(t.sent, 0u);
      }
    r = check_on(ranks, "(program ((m (array f64 2))) (fold + 0.0 (reshape (ix (size m)) m)))", in);
    for (int k = 0; k < ranks; ++k)
      for (const auto& [id, t] : r.traffic[size_t(k)]) {
        // A float sum over the distributed dimension: every rank's rows go
        // to every other rank (the deterministic combine of partials is
        // future work, docs/mpi.md).
        uint64_t own = uint64_t(mpi::block_rows(rows, ranks, k).count() * cols * 8);
        EXPECT_EQ(t.sent, own * uint64_t(ranks - 1)) << ranks << " ranks, rank " << k;
        if (ranks > 1) {
          EXPECT_EQ(t.plan, "whole after gathering m");
        }
      }
  }
}

TEST(MpiEngine, SegmentedFoldsOfRowsKeepRowsApart) {
  // foldseg over rank 2: each rank folds the segments of its own rows; the
  // segment lengths (held in blocks here, every array is) come whole.
  int64_t rows = 37, cols = 50;
  std::vector<int64_t> lengths = {7, 0, 13, 1, 29};
  std::vector<Array> in = {array_of(ramp(rows * cols, 1.0), {rows, cols}),
                           array_of<int64_t>(lengths)};
  for (int ranks = 1; ranks <= 4; ++ranks) {
    Ran r = check_on(ranks,
                     "(program ((m (array f64 2)) (segs (array i64 1)))"
                     " (foldseg (lambda ((a f64) (b f64)) (- a b)) 0.5 m segs))",
                     in);
    for (int k = 0; k < ranks; ++k)
      for (const auto& [id, t] : r.traffic[size_t(k)]) {
        EXPECT_EQ(t.plan, ranks == 1 ? "whole" : "rows after gathering segs");
        // Only segs' own block, to each other rank; no row of m moves.
        uint64_t own = uint64_t(mpi::block_rows(int64_t(lengths.size()), ranks, k).count() * 8);
        EXPECT_EQ(t.sent, own * uint64_t(ranks - 1)) << ranks << " ranks, rank " << k;
      }
    // Lengths that do not sum to the row: the interpreter's error (compared
    // by check_on), at every rank count.
    check_on(ranks,
             "(program ((m (array f64 2)) (segs (array i64 1)))"
             " (foldseg + 0.0 m (map (lambda ((l i64)) (+ l 1)) segs)))",
             in);
  }
}

TEST(MpiEngine, SegmentedFoldsOfOneRowPassCarriesAlongTheRanks) {
  // foldseg of one row: each rank folds the segments that start in its rows;
  // a segment that crosses ranks continues from the carry of the rank before
  // (through every rank of a segment longer than a block). The function is
  // neither associative nor commutative: any other grouping changes bits.
  int64_t n = 20000;
  std::vector<double> xs = ramp(n, 1.0);
  const char* sub = "(program ((xs (array f64 1)) (segs (array i64 1)))"
                    " (foldseg (lambda ((a f64) (b f64)) (- (* 0.75 a) b)) 0.5 xs segs))";
  std::vector<std::vector<int64_t>> layouts = {
      {1400, 0, 2600, 1, 5799, 0, 8000, 2200, 0}, // empty segments inside and at the end
      {20000},                                    // one segment across every rank
      {0, 0, 10000, 10000, 0, 0},                 // empty ones at both ends
      {1, 19998, 1},                              // through ranks, a head and a tail
      {5000, 5000, 5000, 5000},                   // ends at (some) ranks' ends
  };
  for (int ranks = 1; ranks <= 4; ++ranks) {
    for (const std::vector<int64_t>& lengths : layouts) {
      std::vector<Array> in = {array_of(xs, {n}), array_of<int64_t>(lengths)};
      Ran r = check_on(ranks, sub, in);
      for (int d = 0; d < ranks; ++d)
        for (const auto& [id, t] : r.traffic[size_t(d)]) {
          EXPECT_EQ(t.plan, ranks == 1 ? "whole" : "segments with carries");
          // Small messages only: a sum, the starts of segments in other
          // ranks' rows, a carry, a range of segments made and their values
          // (at most 9 here) to each other rank. No element of xs moves (a
          // block of it is 40,000 bytes at 4 ranks).
          EXPECT_LE(t.sent, uint64_t(ranks - 1) * 200) << ranks << " ranks, rank " << d;
        }
      // The lengths held whole (small) and xs in blocks: nothing but carries
      // and values made moves.
      r = check_on(ranks, sub, in, 1024);
      for (const auto& rank : r.traffic)
        for (const auto& [id, t] : rank) {
          EXPECT_EQ(t.plan, ranks == 1 ? "whole" : "segments with carries");
          EXPECT_LE(t.sent, uint64_t(ranks - 1) * 120);
        }
    }
    // No segment crosses a rank (as many segments as elements); fewer
    // elements than ranks; an empty row; a tuple accumulator over a fused
    // input; lengths that do not fit the row (too long, negative, summing
    // past 2^63); an error in the function on one rank's elements: the
    // interpreter's results and errors.
    check_on(ranks, sub, {array_of(xs, {n}), array_of<int64_t>(std::vector<int64_t>(20000, 1))});
    check_on(ranks, sub, {array_of(ramp(2, 1.0), {2}), array_of<int64_t>({0, 2, 0})});
    check_on(ranks, sub, {array_of(ramp(0, 1.0), {0}), array_of<int64_t>({0, 0})});
    check_on(ranks, sub, {array_of(ramp(0, 1.0), {0}), array_of<int64_t>({})});
    std::vector<Array> in = {array_of(xs, {n}), array_of<int64_t>({6000, 0, 8000, 6000})};
    check_on(
        ranks,
        "(program ((xs (array f64 1)) (segs (array i64 1)))"
        " (foldseg (lambda ((a (tuple f64 i64)) (b (tuple f64 i64)))"
        "            (tuple (- (proj 0 b) (* 0.5 (proj 0 a))) (+ (* 3 (proj 1 a)) (proj 1 b))))"
        "          (tuple 0.25 1) (map (lambda ((x f64)) (tuple (* x x) (cast i64 x))) xs)"
        "          segs))",
        in);
    check_on(ranks,
             "(program ((xs (array f64 1)) (segs (array i64 1)))"
             " (foldseg + 0.0 xs (map (lambda ((l i64)) (+ l 1)) segs)))",
             in);
    check_on(ranks, sub, {array_of(xs, {n}), array_of<int64_t>({6000, -1, 8001, 6000})});
    int64_t big = std::numeric_limits<int64_t>::max() / 2 + 1;
    check_on(ranks, sub, {array_of(xs, {n}), array_of<int64_t>({big, big, 5})});
    check_on(ranks,
             "(program ((xs (array f64 1)) (segs (array i64 1)))"
             " (foldseg (lambda ((a f64) (b f64)) (if (> a 4000.0) (! xs (ix 99999)) (+ a b)))"
             "          0.0 (map abs xs) segs))",
             in);
  }
}

TEST(MpiEngine, LongFoldsToOneValueMoveChunkEdgesAndPartialsOnly) {
  // 100000 elements: 7 chunks of the blocked order (16384 elements each).
  int64_t n = 100000, chunk = ReductionOrder::blocked().fold_chunk;
  // Large values of both signs in every chunk: the chunk totals cancel, so
  // combining them in any other order changes the sum's bits.
  std::vector<double> xs = ramp(n, 1.0);
  for (int64_t j = 0; j * chunk < n; ++j)
    xs[size_t(j * chunk + 7)] += (j % 2 ? 1e16 : -1e16) * double(j + 1);
  std::vector<Array> in = {array_of(xs, {n})};
  for (int ranks = 2; ranks <= 4; ++ranks)
    for (const char* text :
         {"(program ((xs (array f64 1))) (fold + 0.5 xs))",
          "(program ((xs (array f64 1))) (fold1 max (map (lambda (x) (* x x)) xs)))"}) {
      Ran r = check_on(ranks, text, in);
      for (const auto& rank : r.traffic)
        for (const auto& [id, t] : rank) {
          EXPECT_EQ(t.plan, "fold of partials") << text;
          // Fewer than one chunk of elements to the previous rank, and this
          // rank's chunk totals (at most all 7) to every other rank.
          EXPECT_LT(t.sent, uint64_t(chunk * 8 + 7 * 8 * (ranks - 1))) << text;
        }
    }
}

TEST(MpiEngine, LongScansMoveChunkEdgesTotalsAndTheirResultsOnly) {
  int64_t n = 100000, chunk = ReductionOrder::blocked().scan_chunk;
  std::vector<double> xs = ramp(n, 1.0);
  // Spikes in every chunk counted from either end: sums in another order differ.
  for (int64_t j = 0; j * chunk < n; ++j) {
    xs[size_t(j * chunk + 7)] += (j % 2 ? 1e16 : -1e16) * double(j + 1);
    xs[size_t(n - 1 - j * chunk - 11)] += (j % 2 ? -1e16 : 1e16) * double(j + 2);
  }
  std::vector<Array> in = {array_of(xs, {n})};
  for (int ranks = 2; ranks <= 4; ++ranks)
    for (const char* text :
         {"(program ((xs (array f64 1))) (scanl + 0.5 xs))",
          "(program ((xs (array f64 1))) (scanl1 + xs))",
          "(program ((xs (array f64 1))) (scanl' + 0.25 xs))",
          "(program ((xs (array f64 1))) (scanl1 max (map (lambda (x) (* x x)) xs)))",
          // Right scans: from the row's end, f(x, acc) (neither associative
          // nor commutative below), blocks in reverse rank order.
          "(program ((xs (array f64 1))) (scanr + 0.5 xs))",
          "(program ((xs (array f64 1))) (scanr1 + xs))",
          "(program ((xs (array f64 1))) (scanr (lambda (x acc) (- x (* 0.5 acc))) 0.5 xs))",
          "(program ((xs (array f64 1))) (scanr1 (lambda (x acc) (- (* 2.0 x) acc)) xs))"}) {
      Ran r = check_on(ranks, text, in);
      for (const auto& rank : r.traffic)
        for (const auto& [id, t] : rank) {
          EXPECT_EQ(t.plan, "scan from carries") << text;
          // A chunk's worth of input to the previous rank and of results
          // back to the next (the output's blocks are not chunk-aligned), and
          // this rank's totals (at most all 7) to every other rank.
          EXPECT_LT(t.sent, uint64_t(2 * chunk * 8 + 7 * 8 * (ranks - 1))) << text;
        }
    }
}

TEST(MpiEngine, SmallPermutesCombineInSourceOrderAlongTheRanks) {
  int64_t n = 5000;
  // Large values of both signs: float sums in any other order differ.
  std::vector<double> xs = ramp(n, 1.0);
  for (int64_t i = 0; i < n; i += 97)
    xs[size_t(i)] += (i % 2 ? 1e16 : -1e16) * double(i % 13 + 1);
  std::vector<Array> in = {array_of(xs, {n})};
  for (int ranks = 2; ranks <= 4; ++ranks)
    for (const char* text :
         {"(program ((xs (array f64 1)))"
          "  (permute + (fill (ix 16) 0.5) (lambda (i) (ix (rem (proj 0 i) 16))) xs))",
          // the last source element in row-major order wins; odd ones ignored
          "(program ((xs (array f64 1)))"
          "  (permute (lambda (new old) new) (fill (ix 7) 0.0)"
          "    (lambda (i) (if (== (rem (proj 0 i) 2) 0) (ix (rem (proj 0 i) 7)) (ignore 1))) xs))",
          "(program ((xs (array f64 1)))"
          "  (permute (lambda (a b) (- (* 0.5 a) b)) (fill (ix 3) 1.0)"
          "    (lambda (i) (ix (rem (proj 0 i) 3))) (map (lambda (x) (* x 3.0)) xs)))"}) {
      Ran r = check_on(ranks, text, in);
      for (const auto& rank : r.traffic)
        for (const auto& [id, t] : rank) {
          EXPECT_EQ(t.plan, "permute in order along the ranks") << text;
          // The result (at most 16 f64) to the next rank and to every rank.
          EXPECT_LE(t.sent, uint64_t(16 * 8 * ranks)) << text;
        }
    }
  // A target out of range on some rank: the interpreter's error.
  check_on(3,
           "(program ((xs (array f64 1)))"
           "  (permute + (fill (ix 16) 0.0) (lambda (i) (ix (- 4900 (proj 0 i)))) xs))",
           in);
}

TEST(MpiEngine, LargePermutesSendEachElementToTheRankOfItsTarget) {
  int64_t n = 1000;
  std::vector<double> xs = ramp(n, 1.0);
  for (int64_t i = 0; i < n; i += 7)
    xs[size_t(i)] += (i % 2 ? 1e16 : -1e16); // order-sensitive sums
  std::vector<Array> in = {array_of(xs, {n})};
  for (int ranks = 2; ranks <= 4; ++ranks) {
    // Reversal: every element to the rank that holds its mirrored row, with
    // its 8-byte target; nothing else moves.
    Ran r = check_on(ranks,
                     "(program ((xs (array f64 1)))"
                     "  (permute + (fill (shape xs) 0.5) (lambda (i) (ix (- 999 (proj 0 i)))) xs))",
                     in);
    uint64_t moved = 0, sent = 0;
    for (int64_t i = 0; i < n; ++i)
      moved += mpi::owner_of_row(n, ranks, i) != mpi::owner_of_row(n, ranks, n - 1 - i);
    for (const auto& rank : r.traffic)
      for (const auto& [id, t] : rank) {
        EXPECT_EQ(t.plan, "permute at the targets' ranks");
        sent += t.sent;
      }
    EXPECT_EQ(sent, moved * 16) << ranks << " ranks";
    for (const char* text :
         {// Collisions, combined in source order by a function that is not
          // associative; every fifth element ignored.
          "(program ((xs (array f64 1)))"
          "  (permute (lambda (new old) (- (* 0.5 old) new)) (fill (ix 700) 1.0)"
          "    (lambda (i) (if (== (rem (proj 0 i) 5) 0) (ignore 1)"
          "      (ix (quot (* (proj 0 i) 2) 3)))) xs))",
          // A transposing scatter into a matrix.
          "(program ((xs (array f64 1)))"
          "  (permute + (fill (ix 20 50) 0.0)"
          "    (lambda (i) (ix (rem (proj 0 i) 20) (quot (proj 0 i) 20))) xs))",
          // Targets past the end on the last rank's elements: the
          // interpreter's error.
          "(program ((xs (array f64 1)))"
          "  (permute + (fill (shape xs) 0.0) (lambda (i) (ix (+ (proj 0 i) 3))) xs))",
          // An error in the combining function on some rank's targets.
          "(program ((xs (array f64 1)))"
          "  (permute (lambda (new old) (+ old (cast f64 (quot 7 (cast i64 (* new 0.0))))))"
          "    (fill (shape xs) 0.0) (lambda (i) (ix (- 999 (proj 0 i)))) xs))"}) {
      r = check_on(ranks, text, in);
      for (const auto& rank : r.traffic)
        for (const auto& [id, t] : rank)
          EXPECT_EQ(t.plan, "permute at the targets' ranks") << text;
    }
  }
}

// Found by `strata fuzz --engine mpi:2`: a plan's own programs (chunk
// totals, carries, defaults, halo rows) must pass the arrays its functions
// read, blocks through their whole shape and size, the rest gathered.
TEST(MpiEngine, FunctionsAndSeedsReadingOtherArraysSeeThemWhole) {
  int64_t n = 70000;
  std::vector<Array> in = {array_of(ramp(n, 1.0), {n}), array_of(ramp(n, 0.25), {n})};
  for (int ranks = 2; ranks <= 3; ++ranks)
    for (const char* text :
         {"(program ((xs (array f64 1)) (ys (array f64 1)))"
          "  (fold + (cast f64 (size ys)) xs))",
          "(program ((xs (array f64 1)) (ys (array f64 1)))"
          "  (fold (lambda (a x) (+ a (* x (! ys (ix 3))))) (! ys (ix 69999)) xs))",
          "(program ((xs (array f64 1)) (ys (array f64 1)))"
          "  (scanl (lambda (a x) (max a (- x (cast f64 (size ys))))) (! ys (ix 5)) xs))",
          "(program ((xs (array f64 1)) (ys (array f64 1)))"
          "  (permute (lambda (a b) (+ a (+ b (! ys (ix 7))))) (fill (ix 4) (cast f64 (size ys)))"
          "    (lambda (i) (ix (rem (proj 0 i) 4))) xs))"}) {
      Ran r = check_on(ranks, text, in);
      for (const auto& rank : r.traffic)
        for (const auto& [id, t] : rank)
          EXPECT_NE(t.plan.rfind("whole", 0), 0u) << text << ": " << t.plan;
    }
  std::vector<Array> m = {array_of(ramp(40 * 11, 1.0), {40, 11}), array_of(ramp(n, 0.25), {n})};
  check_on(3,
           "(program ((m (array f64 2)) (ys (array f64 1)))"
           "  (stencil (3 3) (constant (! ys (ix 2)))"
           "    (lambda (nb) (+ (at nb -1 1) (cast f64 (size ys)))) m))",
           m);
}

TEST(MpiEngine, StencilsMoveOnlyTheirHalos) {
  int64_t rows = 40, cols = 11;
  std::vector<Array> in = {array_of(ramp(rows * cols, 1.0), {rows, cols})};
  for (int ranks = 2; ranks <= 4; ++ranks)
    for (const char* boundary : {"clamp", "mirror", "(constant 0.5)"}) {
      std::string text = std::string("(program ((m (array f64 2)))"
                                     "  (stencil (5 3) ") +
                         boundary + " (lambda (nb) (+ (at nb -2 0) (* 2.0 (at nb 1 1)))) m))";
      Ran r = check_on(ranks, text, in);
      for (const auto& rank : r.traffic)
        for (const auto& [id, t] : rank) {
          EXPECT_EQ(t.plan, "rows with halos") << text;
          // Two rows (half the window's 5) to each neighbour at most.
          EXPECT_LE(t.sent, uint64_t(2 * 2 * cols * 8)) << text;
        }
    }
}

TEST(MpiEngine, GathersAtComputedIndicesMoveOnlyTheElementsRead) {
  int64_t n = 101;
  std::vector<Array> in = {array_of(ramp(n, 1.0), {n})};
  for (int ranks = 2; ranks <= 4; ++ranks) {
    // Reversal: each element from the rank holding the mirrored row, by
    // request (8 bytes) and reply (the element).
    Ran r = check_on(ranks,
                     "(program ((xs (array f64 1)))"
                     "  (backpermute (shape xs) (lambda (i) (ix (- (- (size xs) 1) (proj 0 i))))"
                     "    xs))",
                     in);
    // At 2 ranks nearly every read is of the other rank's rows: requests
    // (16 bytes each) would move twice what gathering does, so it gathers.
    for (int k = 0; k < ranks; ++k)
      for (const auto& [id, t] : r.traffic[size_t(k)]) {
        uint64_t own = uint64_t(mpi::block_rows(n, ranks, k).count());
        if (ranks == 2) {
          EXPECT_EQ(t.plan, "rows after gathering xs");
          EXPECT_EQ(t.sent, own * 8 + 8) << "rank " << k; // and the byte count
        } else {
          EXPECT_EQ(t.plan, "rows by request and reply of xs");
          EXPECT_LE(t.sent, 2 * own * 8 + 8 * uint64_t(ranks - 1)) << ranks << " ranks, rank " << k;
        }
      }
    // Indices read from another array, one out of range on some rank: the
    // interpreter's bounds error.
    check_on(ranks,
             "(program ((xs (array f64 1)))"
             "  (generate (ix 50) (lambda (i) (! xs (ix (* 3 (proj 0 i)))))))",
             in);
  }
}

TEST(MpiEngine, ReadsAtComputedIndicesInsideLargerElementsAreFetched) {
  // Reads every element makes at a computed index, inside larger element
  // expressions and in every plan that computes rows: each index goes to
  // the rank holding its row, the element comes back, and the element is
  // computed on this rank's rows. The arrays read are ten times larger than
  // what is read of them, so requests always move less than gathering.
  int64_t n = 1001, rows = 9, cols = 101;
  std::vector<int64_t> perm(101);
  for (int64_t i = 0; i < 101; ++i)
    perm[size_t(i)] = (i * 37 + 11) % n;
  std::vector<Array> in = {
      array_of(ramp(n, 1.0), {n}), array_of(ramp(n, 0.5), {n}), array_of<int64_t>(perm, {101}),
      array_of(ramp(rows * cols, 1.0), {rows, cols}), array_of<int64_t>({25, 0, 25, 25, 26})};
  const std::string params = "(program ((xs (array f64 1)) (ys (array f64 1)) (idx (array i64 1))"
                             " (m (array f64 2)) (segs (array i64 1)))";
  struct Case {
    const char* body;
    const char* plan;
    int64_t out_rows = 0; // of the rows computed
    int sites = 0;        // reads requested per element
    int64_t row = 1;      // elements per row
  };
  std::vector<Case> cases = {
      {"(generate (ix 50) (lambda (i) (+ 1.0 (! xs (ix (* 2 (proj 0 i)))))))",
       "rows by request and reply of xs", 50, 1},
      // Three sites over two arrays, their indices under `let`s.
      {"(generate (ix 51) (lambda (i) (let ((j (* (proj 0 i) 2)) (k (- 100 j)))"
       "  (* (! xs (ix j)) (- (! ys (ix k)) (! xs (ix k)))))))",
       "rows by request and reply of xs ys", 51, 3},
      // A backpermute fused into a map.
      {"(map (lambda (x) (* x x))"
       "  (backpermute (ix 50) (lambda (i) (ix (- 100 (* 2 (proj 0 i))))) xs))",
       "rows by request and reply of xs", 50, 1},
      // Indices read from another array at the element's own index.
      {"(generate (shape idx) (lambda (i) (* 2.0 (! xs (ix (! idx i))))))",
       "rows by request and reply of xs", 101, 1},
      // A transpose of a matrix, less one.
      {"(generate (ix 5 9) (lambda (i) (- (! m (ix (proj 1 i) (proj 0 i))) 1.0)))",
       "rows by request and reply of m", 5, 1, 9},
      // A reversal into fewer rows, through the source's shape.
      {"(generate (ix 50) (lambda (i) (! xs (ix (- (proj 0 (shape xs)) (+ 1 (proj 0 i)))))))",
       "rows by request and reply of xs", 50, 1},
      // The element's index rebound to a computed one.
      {"(generate (ix 50) (lambda (i) (let ((i (ix (- 100 (proj 0 i))))) (+ 1.0 (! xs i)))))",
       "rows by request and reply of xs", 50, 1},
      // The input of a fold of rows, of a foldseg of one row and of a scan
      // of one row, and a permute's source: a backpermute fused into each.
      {"(fold + 0.0 (generate (ix 5 9) (lambda (i) (! m (ix (proj 1 i) (proj 0 i))))))",
       "rows by request and reply of m", 5, 1, 9},
      {"(foldseg (lambda ((a f64) (b f64)) (- (* 0.75 a) b)) 0.5"
       "  (backpermute (ix 101) (lambda (i) (ix (- 1000 (* 3 (proj 0 i))))) xs) segs)",
       "segments with carries by request and reply of xs", 101, 1},
      {"(scanl1 (lambda ((a f64) (b f64)) (- (* 0.75 a) b))"
       "  (backpermute (ix 101) (lambda (i) (ix (- 1000 (proj 0 i)))) xs))",
       "whole after gathering xs", 101, 0}, // too short to be chunked: whole
      {"(permute + (fill (ix 7) 0.0) (lambda (i) (ix (rem (proj 0 i) 7)))"
       "  (backpermute (shape idx) (lambda (i) (ix (! idx i))) xs))",
       "permute in order along the ranks by request and reply of xs", 101, 1},
      // Reads not every element makes: requested by those that make them
      // (an `if`'s branch; `and`'s second operand, never run here and out of
      // range if it were; `or`'s; a read out of range where its branch is
      // not taken; nested branches with a binding between them; a shift
      // with a boundary test, whose reads are nearly all of the rank's own
      // rows).
      {"(generate (ix 50) (lambda (i) (if (> (proj 0 i) 10) (! xs (ix (* 2 (proj 0 i)))) 0.0)))",
       "rows by request and reply of xs", 50, 1},
      {"(generate (ix 50) (lambda (i) (and (> (proj 0 i) 100) (> (! xs (ix (* 5 (proj 0 i))))"
       " 0.0))))",
       "rows by request and reply of xs", 50, 1},
      {"(generate (ix 50) (lambda (i) (or (< (proj 0 i) 10) (> (! xs (ix (* 3 (proj 0 i))))"
       " 0.0))))",
       "rows by request and reply of xs", 50, 1},
      {"(generate (ix 50) (lambda (i) (if (< (proj 0 i) 20) (! xs (ix (* 52 (proj 0 i)))) 0.0)))",
       "rows by request and reply of xs", 50, 1},
      {"(generate (ix 50) (lambda (i) (if (> (proj 0 i) 5)"
       "  (let ((k (- 1000 (proj 0 i)))) (if (< k 998) (* 2.0 (! xs (ix k))) 1.0)) 2.0)))",
       "rows by request and reply of xs", 50, 1},
      {"(generate (shape xs) (lambda (i)"
       "  (if (> (proj 0 i) 0) (- (! xs i) (! xs (ix (- (proj 0 i) 1)))) 0.0)))",
       "rows by request and reply of xs", 1001, 1},
      // A read whose index reads the same array: gathered.
      {"(generate (ix 50) (lambda (i)"
       "  (! xs (ix (rem (cast i64 (abs (! xs (ix (* 2 (proj 0 i)))))) 101)))))",
       "rows after gathering xs"},
      // A read whose index depends on a binding that reads the same array
      // in a branch.
      {"(generate (ix 50) (lambda (i)"
       "  (let ((j (if (> (proj 0 i) 3) (rem (cast i64 (abs (! xs (ix (* 2 (proj 0 i)))))) 101) "
       "7)))"
       "    (! xs (ix j)))))",
       "rows after gathering xs"},
  };
  for (int ranks = 2; ranks <= 4; ++ranks) {
    for (const Case& c : cases) {
      Ran r = check_on(ranks, params + c.body + ")", in);
      for (int d = 0; d < ranks; ++d) {
        ASSERT_FALSE(r.traffic[size_t(d)].empty());
        const KernelExchange& t = r.traffic[size_t(d)].rbegin()->second; // the result's
        EXPECT_EQ(t.plan, c.plan) << c.body;
        if (c.sites == 0) continue;
        // At most an 8-byte request per index component and the element
        // (8 bytes) back, per site and element of this rank's rows, and a
        // count per site to each other rank, and the plan's own traffic
        // (carries, partial results: under 400 bytes here): no array
        // moves whole.
        int64_t own = mpi::block_rows(c.out_rows, ranks, d).count() * c.row;
        EXPECT_LE(t.sent, uint64_t(c.sites * (own * 24 + 8 * (ranks - 1)) + 400))
            << c.body << " on " << ranks << " ranks, rank " << d;
      }
    }
    // A read out of range inside a larger expression, and in a branch taken:
    // the interpreter's error.
    check_on(ranks,
             params + "(generate (ix 50) (lambda (i) (+ 1.0 (! xs (ix (* 3 (proj 0 i))))))))", in);
    check_on(ranks,
             params + "(generate (ix 50) (lambda (i)"
                      "  (if (> (proj 0 i) 45) (! xs (ix (* 30 (proj 0 i)))) 0.0))))",
             in);
  }
}

TEST(MpiEngine, ScansStencilsPermutesLoopsAndBranchesAgreeAtEveryRankCount) {
  int64_t rows = 9, cols = 11;
  std::vector<Array> in = {array_of(ramp(rows * cols, 1.0), {rows, cols})};
  for (int ranks = 2; ranks <= 4; ++ranks) {
    check_on(ranks, "(program ((m (array f64 2))) (scanl1 + m))", in);
    check_on(ranks, "(program ((m (array f64 2))) (scanl' max 0.0 m))", in);
    check_on(ranks,
             "(program ((m (array f64 2)))"
             "  (stencil (3 3) clamp (lambda (nb) (+ (at nb -1 0) (* 2.0 (at nb 1 1)))) m))",
             in);
    check_on(ranks,
             "(program ((m (array f64 2)))"
             "  (awhile (lambda (a) (map (lambda (s) (< s 100.0)) (fold max 0.0 (reshape (ix (size "
             "a)) a))))"
             "          (lambda (a) (map (lambda (x) (* x 1.5)) a)) m))",
             in);
    check_on(ranks,
             "(program ((m (array f64 2)))"
             "  (permute + (fill (ix 5) 0.0) (lambda (i) (ix (rem (proj 0 i) 5)))"
             "           (reshape (ix (size m)) m)))",
             in);
    check_on(ranks,
             "(program ((m (array f64 2)))"
             "  (acond (> (! m (ix 8 10)) 0.0) (map abs m) (map neg m)))",
             in);
  }
}

TEST(MpiEngine, ErrorsAreTheInterpretersAtEveryRankCount) {
  int64_t n = 30;
  std::vector<Array> in = {array_of(ramp(n, 1.0), {n})};
  for (int ranks = 1; ranks <= 4; ++ranks) {
    // Element 25 reads out of range: on the last rank's rows only.
    check_on(ranks,
             "(program ((xs (array f64 1)))"
             "  (generate (ix 30) (lambda (i) (if (> (proj 0 i) 24) (! xs (ix 99)) 1.0))))",
             in);
    check_on(ranks,
             "(program ((xs (array f64 1))) (map (lambda (x) (quot 7 (cast i64 (* x 0.0)))) xs))",
             in);
  }
}

TEST(MpiEngine, ARankThatLeavesStopsTheOthersWithItsName) {
  auto comms = mpi::make_thread_comms(3);
  std::string seen[3];
  auto rank = [&](int r) {
    try {
      if (r == 2) {
        comms[2]->abandon();
        return;
      }
      comms[size_t(r)]->allgather(mpi::Bytes{std::byte(r)});
    } catch (const Error& e) {
      seen[r] = e.message();
    }
  };
  std::thread a(rank, 0), b(rank, 1), c(rank, 2);
  a.join();
  b.join();
  c.join();
  EXPECT_NE(seen[0].find("rank 2 stopped"), std::string::npos) << seen[0];
  EXPECT_NE(seen[1].find("rank 2 stopped"), std::string::npos) << seen[1];
}

TEST(MpiEngine, ReportAndDumpPhasesShowEachKernelsExchange) {
  TempDir dir;
  std::string report = (dir / "r.json").string();
  CliResult r = run_cli("run " + source_path("examples/blur.strata") +
                        " --engine mpi:2 --dump-phases --report " + report + " -o " +
                        (dir / "out.npy").string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // blur's 3x3 stencil over a 12x16 f32 image: one row of 16 f32 each way,
  // summed over the two ranks.
  EXPECT_NE(r.err.find("exchange (this process's ranks): kernel 0 stencil: rows with halos, "
                       "sent 128 B, received 128 B"),
            std::string::npos)
      << r.err;
  std::ifstream in(report);
  std::string json((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(json.find("\"exchange\": {\"plan\": \"rows with halos\", \"sent_bytes\": 128, "
                      "\"received_bytes\": 128}"),
            std::string::npos)
      << json;
}

TEST(MpiEngine, BlocksCoverEveryRowOnce) {
  for (int64_t n : {0, 1, 5, 37, 1000})
    for (int ranks = 1; ranks <= 5; ++ranks) {
      int64_t next = 0;
      for (int r = 0; r < ranks; ++r) {
        mpi::Rows rows = mpi::block_rows(n, ranks, r);
        EXPECT_EQ(rows.lo, next);
        EXPECT_GE(rows.count(), n / ranks);
        EXPECT_LE(rows.count(), n / ranks + 1);
        next = rows.hi;
      }
      EXPECT_EQ(next, n);
    }
}

TEST(MpiEngine, MinBlockBytesFromTheEnvironment) {
  ::setenv("STRATA_MPI_MIN_BLOCK_BYTES", "1M", 1);
  EXPECT_EQ(MpiOptions::from_environment().min_block_bytes, 1 << 20);
  ::setenv("STRATA_MPI_MIN_BLOCK_BYTES", "0", 1);
  EXPECT_EQ(MpiOptions::from_environment().min_block_bytes, 0);
  ::setenv("STRATA_MPI_MIN_BLOCK_BYTES", "lots", 1);
  EXPECT_THROW(MpiOptions::from_environment(), Error);
  ::unsetenv("STRATA_MPI_MIN_BLOCK_BYTES");
  EXPECT_EQ(MpiOptions::from_environment().min_block_bytes, 1 << 16);
}

} // namespace
} // namespace strata::test
