// fold and fold1 over the innermost dimension of a delayed array.
//
// Rows shorter than kLongRow: one lane per row, each lane folding its row
// left to right exactly as the interpreter does, kBatch rows per batch, row
// batches in parallel. Longer rows: the row is cut into chunks of kChunk
// elements, folded in parallel; inside a chunk lane l folds the contiguous
// block [l*B, (l+1)*B) and the lane results are combined by a fixed pairwise
// tree; chunk results are combined left to right from the seed. The operator
// is only assumed associative (never commutative), and the tree depends only
// on the row length, so results are the same for every thread count.
//
// Long rows folded by a recognised commutative operation (tbb/fold_native.h:
// `(op a b)` of the two parameters, op + * min max band bor bxor on an
// integer type, + * on a float type) take a faster path: the element function
// runs on kBatch consecutive elements at a time (read in place), accumulator
// lane l of a chunk takes elements l, l+L, l+2L, ... (tbb/fold_native.h), and
// the lanes are combined by a fixed tree of halves.
#include "core/runtime_errors.h"
#include "tbb/combiner.h"
#include "tbb/fold_native.h"
#include "tbb/kernels.h"

namespace strata::tbbe {
namespace {

constexpr int64_t kLongRow = 32768;
constexpr int64_t kBlock = 16;              // elements per lane in a chunk
constexpr int64_t kChunk = kBatch * kBlock; // 16384

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

// Folds elements [start, start+len) of the input (len >= 1, within one row)
// without a seed; the result is in lane 0 of the combiner's accumulator.
void fold_chunk(Runtime& rt, const kn::Fold& fold, const FoldPlan& p, int64_t start, int64_t len,
                Combiner& c) {
  const ScalarFunction& elem = rt.functions.of(fold.input.elem);
  int lanes = int((len + kBlock - 1) / kBlock);
  Frame ef(elem.registers(), rt.table, lanes);
  elem.prepare(ef);
  int64_t last_len = len - int64_t(lanes - 1) * kBlock;
  for (int64_t j = 0; j < kBlock; ++j) {
    // Lanes whose block still has an element j (only the last block can be short).
    Selection s = Selection::dense(lanes);
    if (j >= last_len) s = Selection::dense(lanes - 1);
    if (s.count == 0) break;
    for (int lane = 0; lane < s.count; ++lane)
      set_position(ef, elem.params()[0].regs, p.shape, start + lane * kBlock + j, lane);
    run_lanes_in_order(elem, ef, s.count);
    copy_lanes(ef, elem.result().regs, c.frame(), j == 0 ? c.acc().regs : c.x().regs, c.sizes(),
               s.count);
    if (j > 0) c.step(s);
  }
  tree_reduce_lanes(c, lanes);
}

void fold_long_rows(Runtime& rt, const kn::Fold& fold, const FoldPlan& p, Array& out) {
  const ScalarFunction& f = rt.functions.of(fold.f);
  std::optional<NativeFold> native = recognise_fold(fold.f);
  int64_t chunks = (p.n + kChunk - 1) / kChunk;
  for (int64_t row = 0; row < p.rows; ++row) {
    std::vector<Leaves> partial(static_cast<size_t>(chunks));
    parallel_ranges(chunks, 1, [&](int64_t begin, int64_t end) {
      for (int64_t ch = begin; ch < end; ++ch) {
        int64_t start = row * p.n + ch * kChunk;
        int64_t len = std::min(kChunk, p.n - ch * kChunk);
        if (native) {
          // Errors: batches run in order, each re-run lane by lane on an
          // error, so the first failing element of the chunk is reported.
          partial[size_t(ch)] =
              fold_chunk_native(rt, fold.input.elem, p.shape, start, len, *native);
          continue;
        }
        Combiner c(f, rt.table, true, int((len + kBlock - 1) / kBlock));
        try {
          fold_chunk(rt, fold, p, start, len, c);
        } catch (const Error&) {
          // Find the first failing element in order: fold the chunk one element at a time.
          for (int64_t i = 0; i < len; ++i) {
            Combiner one(f, rt.table, true, 1);
            fold_chunk(rt, fold, p, start + i, 1, one);
          }
          throw;
        }
        partial[size_t(ch)] = read_lane(c.frame(), c.acc(), 0);
      }
    });
    // Combine the chunk results left to right, starting from the seed.
    Combiner c(f, rt.table, true, 1);
    size_t k = 0;
    if (p.has_seed)
      c.fill_acc(p.seed, 1);
    else
      c.fill_acc(partial[k++], 1);
    for (; k < partial.size(); ++k) {
      write_lane(c.frame(), c.x().regs, 0, partial[k]);
      c.step(Selection::dense(1));
    }
    store_lanes(c.frame(), c.acc().regs, out, row, 1);
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
  if (p.has_seed) p.seed = rt.eval(*fold.seed);
  Array out = rt.allocate(k.outputs[0], fold.input.type.elem(), outer);
  if (!p.has_seed && p.n == 0 && p.rows > 0) throw fold1_empty_row(p.shape, k.ops.back().loc);
  if (p.n >= kLongRow) {
    fold_long_rows(rt, fold, p, out);
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
