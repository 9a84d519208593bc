// fold and fold1 over the innermost dimension of a delayed array, in the
// association order the executable was compiled with (CompileOptions::order,
// core/reduction_order.h; Runtime::order).
//
// Rows the order does not chunk (shorter than fold_chunked_from, or every
// row in the canonical order): one lane per row, each lane folding its row
// left to right from the seed exactly as the interpreter does, kBatch rows
// per batch, row batches in parallel. Chunked rows: the row is cut into
// chunks of fold_chunk elements; every (row, chunk) is folded in parallel by
// the chunk tree (tbb/chunk_tree.h: L = chunk_lanes(order, elem, f) strided
// lanes, folded by halves); then each row folds its chunk totals left to
// right from the seed (fold1: from the first total). The operator is never
// assumed associative or commutative: the result is the declared order's,
// bitwise, for any combining function.
//
// Chunked rows folded by a recognised operation (tbb/fold_native.h: `(op a
// b)` of the two parameters, op + * min max band bor bxor on an integer type,
// + * on a float type) take a faster path with the same tree: the element
// function runs on kBatch consecutive elements at a time (read in place) and
// the lanes are typed loops. Integer ops run in native_order() whatever order
// was declared: every order gives them the same bits.
//
// The chunks and the tree depend only on the row length and the order,
// never on the threads, so the results are the same for every thread count.
#include "core/combiner.h"
#include "core/runtime_errors.h"
#include "parallel/contraction.h"
#include "tbb/chunk_tree.h"
#include "tbb/fold_native.h"
#include "tbb/kernels.h"

namespace strata::tbbe {
namespace {

struct FoldPlan {
  Shape shape;   // of the input
  int64_t n = 0; // row length
  int64_t rows = 0;
  bool has_seed = false;
  Leaves seed;
};

// Folds rows [first, first+count) with one lane per row, in element order.
// The index registers hold the row's outer components (set once) and the
// column, advanced for all lanes at once.
void fold_rows(Runtime& rt, const kn::Fold& fold, const FoldPlan& p, int64_t first, int count,
               Array& out) {
  const ScalarFunction& elem = rt.functions.of(fold.input.elem);
  Frame ef(elem.registers(), rt.table, count);
  elem.prepare(ef);
  const std::vector<int>& ix = elem.params()[0].regs;
  for (int lane = 0; lane < count; ++lane) {
    int64_t rest = first + lane;
    for (size_t k = ix.size(); k-- > 1;) {
      ef.reg<int64_t>(ix[k - 1])[lane] = rest % p.shape[k - 1];
      rest /= p.shape[k - 1];
    }
  }
  Combiner c(rt.functions.of(fold.f), rt.table, true, count);
  if (p.has_seed) c.fill_acc(p.seed, count);
  int64_t* column = ef.reg<int64_t>(ix.back());
  int64_t row_base = ix.size() == 1 ? p.n : 0; // rank 1: the index is the position
  for (int64_t j = 0; j < p.n; ++j) {
    for (int lane = 0; lane < count; ++lane)
      column[lane] = (first + lane) * row_base + j;
    run_lanes_in_order(elem, ef, count);
    bool first_element = j == 0 && !p.has_seed;
    copy_lanes(ef, elem.result().regs, c.frame(), first_element ? c.acc().regs : c.x().regs,
               c.sizes(), count);
    if (!first_element) c.step(Selection::dense(count));
  }
  store_lanes(c.frame(), c.acc().regs, out, first, count);
}

// Folds rows with one lane per row; on an error, again one row at a time so
// that the error is the one of the first row in order.
void fold_rows_in_order(Runtime& rt, const kn::Fold& fold, const FoldPlan& p, int64_t first,
                        int count, Array& out) {
  try {
    fold_rows(rt, fold, p, first, count, out);
  } catch (const Error&) {
    for (int r = 0; r < count; ++r)
      fold_rows(rt, fold, p, first + r, 1, out);
    throw;
  }
}

// Rows cut into chunks of `chunk` elements: every chunk's total by the chunk
// tree with `lanes` lanes (typed loops when `native`), then each row's totals
// left to right from the seed, kBatch rows at a time.
void fold_chunked_rows(Runtime& rt, const kn::Fold& fold, const FoldPlan& p, int64_t chunk,
                       int64_t lanes, const std::optional<NativeFold>& native, Array& out) {
  const ScalarFunction& f = rt.functions.of(fold.f);
  int64_t chunks = (p.n + chunk - 1) / chunk;
  std::vector<Leaves> partial(static_cast<size_t>(p.rows * chunks));
  // (row, chunk) units in row-major order: the lowest failing unit's error
  // is the first in order.
  parallel_ranges(p.rows * chunks, 1, [&](int64_t begin, int64_t end) {
    std::optional<ChunkTree> tree;
    for (int64_t u = begin; u < end; ++u) {
      int64_t row = u / chunks, ch = u % chunks;
      int64_t start = row * p.n + ch * chunk;
      int64_t len = std::min(chunk, p.n - ch * chunk);
      if (native) {
        // Errors: batches run in order, each re-run lane by lane on an
        // error, so the first failing element of the chunk is reported.
        partial[size_t(u)] = fold_chunk_native(rt, fold.input.elem, p.shape, start, len, *native);
        continue;
      }
      if (!tree) tree.emplace(rt, rt.functions.of(fold.input.elem), p.shape, f, true, lanes);
      partial[size_t(u)] = tree->total(start, len, false);
    }
  });
  // Rows [first, first+count): their totals from the seed, in order.
  auto combine = [&](int64_t first, int count) {
    Combiner c(f, rt.table, true, count);
    for (int lane = 0; lane < count; ++lane)
      write_lane(c.frame(), c.acc().regs, lane,
                 p.has_seed ? p.seed : partial[size_t((first + lane) * chunks)]);
    for (int64_t ch = p.has_seed ? 0 : 1; ch < chunks; ++ch) {
      for (int lane = 0; lane < count; ++lane)
        write_lane(c.frame(), c.x().regs, lane, partial[size_t((first + lane) * chunks + ch)]);
      c.step(Selection::dense(count));
    }
    store_lanes(c.frame(), c.acc().regs, out, first, count);
  };
  for (int64_t first = 0; first < p.rows; first += kBatch) {
    int count = int(std::min<int64_t>(kBatch, p.rows - first));
    try {
      combine(first, count);
    } catch (const Error&) {
      for (int r = 0; r < count; ++r) // the error of the first row in order
        combine(first + r, 1);
      throw;
    }
  }
}

} // namespace

void run_fold(Runtime& rt, const Kernel& k, const kn::Fold& fold) {
  FoldPlan p;
  p.shape = rt.prepare(fold.input);
  p.n = p.shape.back();
  Shape outer(p.shape.begin(), p.shape.end() - 1);
  p.rows = shape_size(outer);
  p.has_seed = fold.seed != nullptr;
  Array out = rt.allocate(k.outputs[0], fold.input.type.elem(), outer);
  // The seed: only for a non-empty result, after the result is allocated and
  // before any element, as in the interpreter (docs/language.md, Errors).
  if (p.has_seed && p.rows > 0) p.seed = rt.eval(*fold.seed);
  if (!p.has_seed && p.n == 0 && p.rows > 0) throw fold1_empty_row(p.shape, k.ops.back().loc);
  // A sum of products of two arrays (a matrix product...): tiled loops in the
  // same order (parallel/contraction.h).
  if (p.rows > 0 && !rt.order.fold_chunked(p.n)) {
    const void* seed = p.has_seed ? p.seed[0].data() : nullptr;
    if (parallel::fold_as_contraction(rt.graph, fold, rt.arrays, p.shape, seed, out)) {
      rt.set(k.outputs[0], std::move(out));
      return;
    }
  }
  std::optional<NativeFold> native = recognise_fold(fold.f);
  if (native && !native_runs(rt.order, *native)) native.reset();
  ReductionOrder order = native ? native_order(rt.order, *native) : rt.order;
  if (p.rows > 0 && order.fold_chunked(p.n)) {
    int64_t lanes = chunk_lanes(order, fold.input.type.elem(), fold.f);
    fold_chunked_rows(rt, fold, p, order.fold_chunk, lanes, native, out);
  } else if (p.rows > 0) {
    int64_t batches = (p.rows + kBatch - 1) / kBatch;
    parallel_ranges(batches, 1, [&](int64_t begin, int64_t end) {
      for (int64_t b = begin; b < end; ++b) {
        int64_t first = b * kBatch;
        fold_rows_in_order(rt, fold, p, first, int(std::min<int64_t>(kBatch, p.rows - first)), out);
      }
    });
  }
  rt.set(k.outputs[0], std::move(out));
}

} // namespace strata::tbbe
