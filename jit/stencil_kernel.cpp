// jit stencil: every result element from the window around the same index
// of the input. Each run of a row is split into its interior (every index at
// least the window's radius from the edges: plain loads the loop vectoriser
// sees as consecutive, the main entry) and its edge runs (reads through the
// boundary: clamp, mirror, wrap or a constant; the edges entry, part 1),
// both run on every chunk of kGrain positions in parallel.
//
// Deterministic: every element is computed from the input alone and written
// once. After a failure the chunk runs again element by element in
// row-major order, so that the error is the first failing element's, as in
// the interpreter.
#include "jit/kernel_builder.h"
#include "jit/kernel_slots.h"
#include "jit/kernels.h"

namespace strata::jit {

using llvm::Value;
using namespace host;

// ------------------------------------------------------------ entry points

// stencil positions [begin, end) of the result (the input's shape). Each
// run of a row is split into the parts near the edges, where reads go
// through the boundary, and the interior (every outer index and the
// innermost one at least the window's radius from the edges), where reads
// are plain loads the loop vectoriser sees as consecutive: main computes
// the interiors, `edges` (part 1) the rest.
void KernelBuilder::stencil(const kn::Stencil& x) {
  int in = x.input, out = k_.outputs[0];
  int rank = g_.arrays[size_t(in)].type.rank();
  FnBuilder f = entry(code_.main);
  Window w;
  w.name = x.f.params[0].name;
  w.array = in;
  w.boundary = x.boundary;
  Val sh = f.shape(in, rank);
  const Type& t = g_.arrays[size_t(out)].type.elem();
  auto element = [&](FnBuilder& fb, const Val& ix, Value* pos, bool interior) {
    w.center = ix;
    w.interior = interior;
    fb.window = w;
    fb.store_elem(out, t, pos, fb.apply(x.f, {Val{}}));
  };
  if (rank == 0) {
    if (x.boundary.kind == ac::BoundaryKind::Constant) w.constant = f.exp(*x.boundary.constant);
    f.for_positions(sh, f.begin, f.end,
                    [&](const Val& ix, Value* pos) { element(f, ix, pos, false); });
    f.finish();
    return;
  }
  auto run = [&](FnBuilder& fb, const Val& outer, Value* j0, Value* p0, Value* lo, Value* hi,
                 bool interior) {
    fb.for_range(
        lo, hi,
        [&](Value* j) {
          Val ix = outer;
          ix.push_back(j);
          element(fb, ix, fb.b.CreateAdd(p0, fb.b.CreateSub(j, j0)), interior);
        },
        interior);
  };
  // The interior [mlo, mhi) of the run [j0, j1) of a row (empty: mlo = mhi
  // = j1): every index at least the window's radius from the edges.
  auto split = [&](FnBuilder& fb, const Val& shape, const Val& outer, Value* j0, Value* j1) {
    llvm::IRBuilder<>& ib = fb.b;
    auto radius = [&](int d) { return fb.i64(x.window[size_t(d)] / 2); };
    Value* inside = ib.getTrue();
    for (int d = 0; d + 1 < rank; ++d) {
      Value* o = outer[size_t(d)];
      Value* r = radius(d);
      inside = ib.CreateAnd(inside,
                            ib.CreateAnd(ib.CreateICmpSGE(o, r),
                                         ib.CreateICmpSLT(o, ib.CreateSub(shape[size_t(d)], r))));
    }
    Value* r = radius(rank - 1);
    Value* a = ib.CreateSelect(ib.CreateICmpSGT(j0, r), j0, r);
    Value* last = ib.CreateSub(shape.back(), r);
    Value* c = ib.CreateSelect(ib.CreateICmpSLT(j1, last), j1, last);
    Value* mid = ib.CreateAnd(inside, ib.CreateICmpSLT(a, c));
    return std::make_pair(ib.CreateSelect(mid, a, j1), ib.CreateSelect(mid, c, j1));
  };
  // This entry: the interiors of the rows of [begin, end), plain loads the
  // loop vectoriser sees as consecutive.
  f.for_rows(sh, f.begin, f.end, [&](const Val& outer, Value* j0, Value* j1, Value* p0) {
    auto [mlo, mhi] = split(f, sh, outer, j0, j1);
    run(f, outer, j0, p0, mlo, mhi, true);
  });
  f.finish();
  // The edge runs [j0, mlo) and [mhi, j1) of the same rows, reads through
  // the boundary: an entry of its own in part 1, compiled beside the
  // interiors (run_stencil below runs both on each chunk, and element by element
  // in row-major order after a failure, so that the error is the first
  // element's, as in the interpreter).
  FnBuilder e = entry(code_.edges, 1);
  if (x.boundary.kind == ac::BoundaryKind::Constant) w.constant = e.exp(*x.boundary.constant);
  Val esh = e.shape(in, rank);
  e.for_rows(esh, e.begin, e.end, [&](const Val& outer, Value* j0, Value* j1, Value* p0) {
    auto [mlo, mhi] = split(e, esh, outer, j0, j1);
    // One loop over the two runs: one copy of the boundary code.
    e.for_range(
        e.i64(0), e.i64(2),
        [&](Value* part) {
          Value* first = e.b.CreateICmpEQ(part, e.i64(0));
          run(e, outer, j0, p0, e.b.CreateSelect(first, j0, mhi), e.b.CreateSelect(first, mlo, j1),
              false);
        },
        false);
  });
  e.finish();
}

// ------------------------------------------------------------ host

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
  // compiled at the same time, above). After a failure the
  // chunk runs again element by element in row-major order, so that the
  // error is the first failing element's, as in the interpreter (the entries
  // only write the result: running an element twice writes the same value).
  // The edge entry goes first for each element: it evaluates a constant
  // boundary before anything else, so that the boundary's error comes before
  // any element's even when the first element is interior (a window of 1).
  const JitArray* table = rt.table();
  JitError first;
  bool failed = parallel_ranges(
      in.size(), kGrain,
      [&](int64_t b, int64_t e, JitError& err) {
        EntryFn interiors = c.fn(c.code.main), edges = c.fn(c.code.edges);
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
