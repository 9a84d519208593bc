#include "jit/kernels.h"

#include <optional>

#include "core/runtime_errors.h"

namespace strata::jit {
namespace {

constexpr int64_t kGrain = 16384; // elements per parallel chunk

Shape outer_of(const Shape& sh) {
  return Shape(sh.begin(), sh.end() - 1);
}

// Rows per chunk so that a chunk holds about kGrain elements.
int64_t row_grain(int64_t n) {
  return std::max<int64_t>(1, kGrain / std::max<int64_t>(n, 1));
}

std::vector<Slot> shape_slots(const Shape& sh, size_t extra) {
  std::vector<Slot> s(sh.begin(), sh.end());
  s.resize(sh.size() + extra, 0);
  return s;
}

// Result arrays come uninitialised from the executable's pool
// (jit/runtime.h ArrayPool): each kernel writes every element of its results
// (or fails, and the array is dropped), so zero-filling would only add a pass
// over memory.
Array result_array(Runtime& rt, const Type& elem, const Shape& shape) {
  return rt.pool.take(elem, shape);
}

} // namespace

void run_generate(Runtime& rt, const CompiledKernel& c, const Kernel& k, const kn::Generate& g) {
  Shape sh = rt.prepare(c, g.body);
  rt.set(k.outputs[0], result_array(rt, g.body.type.elem(), sh));
  rt.parallel(c, c.code.generate.at(&g.body), rt.get(k.outputs[0]).size(), kGrain, nullptr);
}

void run_fold(Runtime& rt, const CompiledKernel& c, const Kernel& k, const kn::Fold& f,
              const ReductionOrder& order) {
  Shape sh = rt.prepare(c, f.input);
  int64_t n = sh.back();
  Shape outer = outer_of(sh);
  int64_t rows = shape_size(outer);
  size_t leaves = f.input.type.elem().leaves().size();
  rt.set(k.outputs[0], result_array(rt, f.input.type.elem(), outer));
  // The seed: only for a non-empty result, after the result is allocated and
  // before any element, as in the interpreter (docs/language.md, Errors).
  std::vector<Slot> seed(leaves);
  if (f.seed && rows > 0) seed = rt.eval(c, *f.seed);
  if (!f.seed && n == 0 && rows > 0) throw fold1_empty_row(sh, k.ops.back().loc);
  Array& out = rt.get_mutable(k.outputs[0]);
  int rank = int(sh.size());
  if (!order.fold_chunked(n)) {
    std::vector<Slot> aux = shape_slots(sh, leaves);
    std::copy(seed.begin(), seed.end(), aux.begin() + rank);
    rt.parallel(c, c.code.main, rows, row_grain(n), aux.data());
    return;
  }
  // Long rows: chunks of the order's fold_chunk, each's lane tree in
  // parallel, combined left to right from the seed.
  int64_t chunk = order.fold_chunk;
  int64_t chunks = (n + chunk - 1) / chunk;
  for (int64_t row = 0; row < rows; ++row) {
    std::vector<std::vector<Slot>> partial(static_cast<size_t>(chunks), std::vector<Slot>(leaves));
    JitError first;
    bool failed = parallel_ranges(
        chunks, 1,
        [&](int64_t b, int64_t, JitError& err) {
          std::vector<Slot> aux = shape_slots(sh, leaves);
          int64_t start = row * n + b * chunk;
          int64_t len = std::min(chunk, n - b * chunk);
          if (c.fn(c.code.chunk)(rt.table(), &err, start, start + len, aux.data()) != 0)
            return true;
          std::copy(aux.begin() + rank, aux.end(), partial[size_t(b)].begin());
          return false;
        },
        first);
    if (failed) rt.fail(c, first);
    std::vector<Slot> acc(2 * leaves);
    size_t next = 0;
    if (f.seed)
      std::copy(seed.begin(), seed.end(), acc.begin());
    else
      std::copy(partial[next].begin(), partial[next].end(), acc.begin()), ++next;
    for (; next < partial.size(); ++next) {
      std::copy(partial[next].begin(), partial[next].end(), acc.begin() + long(leaves));
      rt.call(c, c.code.combine, 0, 1, acc.data());
    }
    slots_to_array(acc.data(), out, row);
  }
}

void run_foldseg(Runtime& rt, const CompiledKernel& c, const Kernel& k, const kn::FoldSeg& f) {
  Shape sh = rt.prepare(c, f.input);
  const Array& segs = rt.get(f.segs);
  const SrcLoc& loc = k.ops.back().loc;
  const int64_t* lengths = segs.leaf_data<int64_t>(0);
  int64_t nsegs = segs.size();
  std::vector<int64_t> offset = foldseg_segment_starts(lengths, nsegs, sh, loc);
  Shape out_shape = outer_of(sh);
  int64_t rows = shape_size(out_shape);
  out_shape.push_back(nsegs);
  rt.set(k.outputs[0], result_array(rt, f.input.type.elem(), out_shape));
  // The seed: only for a non-empty result, before any element (as in fold).
  std::vector<Slot> seed(f.input.type.elem().leaves().size());
  if (rows * nsegs > 0) seed = rt.eval(c, *f.seed);
  int rank = int(sh.size());
  std::vector<Slot> aux = shape_slots(sh, 3 + seed.size());
  aux[size_t(rank)] = Slot(reinterpret_cast<intptr_t>(offset.data()));
  aux[size_t(rank) + 1] = Slot(reinterpret_cast<intptr_t>(lengths));
  aux[size_t(rank) + 2] = nsegs;
  std::copy(seed.begin(), seed.end(), aux.begin() + rank + 3);
  int64_t avg = nsegs > 0 ? sh.back() / nsegs : 0;
  rt.parallel(c, c.code.main, rows * nsegs, row_grain(avg), aux.data());
}

namespace {

struct ScanPlan {
  Shape shape;
  int64_t n = 0, m = 0, rows = 0;
  int rank = 0;
  size_t leaves = 0;
  std::optional<std::vector<Slot>> seed;
};

// aux for the scan entry: shape, row, write, has, acc.
std::vector<Slot> scan_aux(const ScanPlan& p, int64_t row, bool write,
                           const std::optional<std::vector<Slot>>& acc) {
  std::vector<Slot> aux = shape_slots(p.shape, 3 + p.leaves);
  aux[size_t(p.rank)] = row;
  aux[size_t(p.rank) + 1] = write ? 1 : 0;
  aux[size_t(p.rank) + 2] = acc ? 1 : 0;
  if (acc) std::copy(acc->begin(), acc->end(), aux.begin() + p.rank + 3);
  return aux;
}

std::optional<std::vector<Slot>> scan_result(const ScanPlan& p, const std::vector<Slot>& aux) {
  if ((aux[size_t(p.rank) + 2] & 0xff) == 0) return std::nullopt;
  return std::vector<Slot>(aux.begin() + p.rank + 3, aux.end());
}

} // namespace

void run_scan(Runtime& rt, const CompiledKernel& c, const Kernel& k, const kn::Scan& s,
              const ReductionOrder& order) {
  using ac::ScanKind;
  ScanPlan p;
  p.shape = rt.prepare(c, s.input);
  p.rank = int(p.shape.size());
  p.n = p.shape.back();
  Shape outer = outer_of(p.shape);
  p.rows = shape_size(outer);
  p.leaves = s.input.type.elem().leaves().size();
  bool plus_one = s.kind == ScanKind::Scanl || s.kind == ScanKind::Scanr;
  bool right = s.kind == ScanKind::Scanr || s.kind == ScanKind::Scanr1;
  p.m = plus_one ? p.n + 1 : p.n;
  Shape out_shape = outer;
  out_shape.push_back(p.m);
  const Type& elem = s.input.type.elem();
  rt.set(k.outputs[0], result_array(rt, elem, out_shape));
  bool prime = s.kind == ScanKind::ScanlPrime;
  if (prime) rt.set(k.outputs[1], result_array(rt, elem, outer));
  // The seed: only for a non-empty result (one with rows), after the results
  // are allocated and before any element (as in fold).
  if (s.seed) p.seed = p.rows > 0 ? rt.eval(c, *s.seed) : std::vector<Slot>(p.leaves);
  Array& out = rt.get_mutable(k.outputs[0]);

  // The seed's own place in each row, and scanl's totals.
  auto finish_row = [&](int64_t row, const std::optional<std::vector<Slot>>& acc) {
    if (p.seed) {
      if (s.kind == ScanKind::Scanl) slots_to_array(p.seed->data(), out, row * p.m);
      if (s.kind == ScanKind::Scanr) slots_to_array(p.seed->data(), out, row * p.m + p.n);
      if (prime && p.n > 0) slots_to_array(p.seed->data(), out, row * p.m);
    }
    if (prime) slots_to_array(acc->data(), rt.get_mutable(k.outputs[1]), row);
  };

  if (!order.scan_chunked(p.n)) {
    JitError first;
    bool failed = parallel_ranges(
        p.rows, row_grain(p.n),
        [&](int64_t b, int64_t e, JitError& err) {
          for (int64_t row = b; row < e; ++row) {
            std::vector<Slot> aux = scan_aux(p, row, true, p.seed);
            if (c.fn(c.code.main)(rt.table(), &err, 0, p.n, aux.data()) != 0) return true;
            finish_row(row, scan_result(p, aux));
          }
          return false;
        },
        first);
    if (failed) rt.fail(c, first);
    return;
  }
  // Long rows: the lane tree of every chunk but the last (the chunk entry),
  // the carries in order, every chunk scanned from its carry.
  int64_t chunk = order.scan_chunk;
  int64_t chunks = (p.n + chunk - 1) / chunk;
  for (int64_t row = 0; row < p.rows; ++row) {
    std::vector<std::vector<Slot>> totals(static_cast<size_t>(chunks));
    JitError first;
    bool failed = parallel_ranges(
        chunks - 1, 1,
        [&](int64_t ch, int64_t, JitError& err) {
          std::vector<Slot> aux = shape_slots(p.shape, 1 + p.leaves);
          aux[size_t(p.rank)] = row;
          int64_t q0 = ch * chunk, q1 = std::min(p.n, q0 + chunk);
          if (c.fn(c.code.chunk)(rt.table(), &err, q0, q1, aux.data()) != 0) return true;
          totals[size_t(ch)].assign(aux.begin() + p.rank + 1, aux.end());
          return false;
        },
        first);
    if (failed) rt.fail(c, first);
    std::vector<std::optional<std::vector<Slot>>> carry(static_cast<size_t>(chunks));
    carry[0] = p.seed;
    for (int64_t ch = 1; ch < chunks; ++ch) {
      const auto& before = carry[size_t(ch - 1)];
      if (!before) {
        carry[size_t(ch)] = totals[size_t(ch - 1)];
        continue;
      }
      std::vector<Slot> acc = *before;
      acc.insert(acc.end(), totals[size_t(ch - 1)].begin(), totals[size_t(ch - 1)].end());
      rt.call(c, right ? c.code.combine_swapped : c.code.combine, 0, 1, acc.data());
      acc.resize(p.leaves);
      carry[size_t(ch)] = acc;
    }
    std::vector<std::optional<std::vector<Slot>>> last(static_cast<size_t>(chunks));
    failed = parallel_ranges(
        chunks, 1,
        [&](int64_t ch, int64_t, JitError& err) {
          std::vector<Slot> aux = scan_aux(p, row, true, carry[size_t(ch)]);
          int64_t q0 = ch * chunk, q1 = std::min(p.n, q0 + chunk);
          if (c.fn(c.code.main)(rt.table(), &err, q0, q1, aux.data()) != 0) return true;
          last[size_t(ch)] = scan_result(p, aux);
          return false;
        },
        first);
    if (failed) rt.fail(c, first);
    finish_row(row, last.back());
  }
}

void run_permute(Runtime& rt, const CompiledKernel& c, const Kernel& k, const kn::Permute& p,
                 int temp_id) {
  Shape dsh = rt.prepare(c, p.defaults);
  rt.set(k.outputs[0], result_array(rt, p.defaults.type.elem(), dsh));
  rt.parallel(c, c.code.generate.at(&p.defaults), shape_size(dsh), kGrain, nullptr);
  Shape ssh = rt.prepare(c, p.source);
  rt.set(temp_id, result_array(rt, p.source.type.elem(), ssh));
  int64_t n = shape_size(ssh);
  rt.parallel(c, c.code.generate.at(&p.source), n, kGrain, nullptr);
  // Every target is written by the targets entry (no zero fill); the buffer
  // comes from the pool like results, so repeated runs reuse it.
  Array targets = rt.pool.take(Type::scalar(ScalarKind::I64), Shape{n});
  Slot aux[1] = {Slot(reinterpret_cast<intptr_t>(targets.leaf(0).data()))};
  rt.parallel(c, c.code.targets, n, kGrain, aux);
  // Combining follows source order, on one thread.
  if (n > 0) rt.call(c, c.code.main, 0, n, aux);
  rt.set(temp_id, Array());
}

void run_stencil(Runtime& rt, const CompiledKernel& c, const Kernel& k, const kn::Stencil& s) {
  const Array& in = rt.get(s.input);
  rt.set(k.outputs[0],
         result_array(rt, rt.graph.arrays[size_t(k.outputs[0])].type.elem(), in.shape()));
  if (c.code.edges < 0) return rt.parallel(c, c.code.main, in.size(), kGrain, nullptr); // rank 0
  // No element has the whole window inside (an extent below the window's):
  // the edge entry alone, in order.
  bool interior = true;
  for (size_t d = 0; d < s.window.size(); ++d)
    interior = interior && in.shape()[d] > 2 * (s.window[d] / 2);
  if (!interior) return rt.parallel(c, c.code.edges, in.size(), kGrain, nullptr);
  // Each chunk: the rows' interiors, then their edge runs (two entries,
  // compiled at the same time: jit/kernel_codegen.cpp). After a failure the
  // chunk runs again element by element in row-major order, so that the
  // error is the first failing element's, as in the interpreter (the entries
  // only write the result: running an element twice writes the same value).
  // The edge entry goes first for each element: it evaluates a constant
  // boundary before anything else, so that the boundary's error comes before
  // any element's even when the first element is interior (a window of 1).
  EntryFn interiors = c.fn(c.code.main), edges = c.fn(c.code.edges);
  const JitArray* table = rt.table();
  JitError first;
  bool failed = parallel_ranges(
      in.size(), kGrain,
      [&](int64_t b, int64_t e, JitError& err) {
        if (interiors(table, &err, b, e, nullptr) == 0 && edges(table, &err, b, e, nullptr) == 0)
          return false;
        JitError seen = err;
        for (int64_t p = b; p < e; ++p) {
          err = JitError{};
          if (edges(table, &err, p, p + 1, nullptr) != 0 ||
              interiors(table, &err, p, p + 1, nullptr) != 0)
            return true;
        }
        err = seen; // not failing again cannot happen (the entries are pure); keep the error
        return true;
      },
      first);
  if (failed) rt.fail(c, first);
}

} // namespace strata::jit
