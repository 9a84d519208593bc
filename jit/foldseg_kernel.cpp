// jit foldseg: one result per (row, segment); each segment folded left to
// right from the seed by the main entry (W segments at a time in vectors, a
// segment per lane, where the combiner does not reorder exactly: as fold's
// rows, jit/fold_codegen.h), units (row * segments + segment) in parallel,
// chunks sized by the mean segment length. The host checks the
// segment lengths and computes every segment's start first
// (core/runtime_errors.h foldseg_segment_starts).
//
// Deterministic: every unit is folded sequentially in the canonical order
// and written once; the units' chunks depend on the data only.
#include "core/runtime_errors.h"
#include "jit/fold_codegen.h"
#include "jit/kernel_builder.h"
#include "jit/kernel_slots.h"
#include "jit/kernels.h"

namespace strata::jit {

using llvm::Value;
using namespace host;

// ------------------------------------------------------------ entry points

// foldseg units [begin, end) (row * nsegs + segment), slots::FoldSeg.
void KernelBuilder::foldseg(const kn::FoldSeg& x) {
  closed_parts(x.input);
  closed(*x.seed);
  const Type& t = x.input.type.elem();
  int rank = x.input.type.rank();
  FnBuilder f = entry(code_.main);
  llvm::IRBuilder<>& b = f.b;
  Val sh = load_shape(f, rank);
  Val outer(sh.begin(), sh.end() - 1);
  llvm::Type* ptr = llvm::PointerType::getUnqual(f.ctx);
  using slots::FoldSeg;
  Value* offsets = b.CreateLoad(ptr, f.slot_ptr(f.aux, FoldSeg::offsets(rank)));
  Value* lengths = b.CreateLoad(ptr, f.slot_ptr(f.aux, FoldSeg::lengths(rank)));
  Value* nsegs = b.CreateLoad(b.getInt64Ty(), f.slot_ptr(f.aux, FoldSeg::segments(rank)));
  Val seed = f.load_slots(f.aux, FoldSeg::seed(rank), t);
  auto unit = [&](Value* u) {
    Value* row = b.CreateUDiv(u, nsegs);
    Value* s = b.CreateURem(u, nsegs);
    Value* off = b.CreateLoad(b.getInt64Ty(), b.CreateGEP(b.getInt64Ty(), offsets, s));
    Value* len = b.CreateLoad(b.getInt64Ty(), b.CreateGEP(b.getInt64Ty(), lengths, s));
    Val oix = f.from_linear(outer, row);
    Val acc = fold_loop(f, f.i64(0), len, seed, [&](const Val& a, Value* q) {
      return f.apply(x.f, {a, f.apply(x.input.elem, {with(oix, b.CreateAdd(off, q))})});
    });
    f.store_elem(k_.outputs[0], t, u, acc);
  };
  // As fold's rows (jit/fold_kernel.cpp): W segments at a time, a segment per lane.
  code_.row_lanes = rows_in_lanes(x.input.elem, x.f, t, o_.checked);
  if (code_.row_lanes > 0)
    foldseg_units_in_lanes(f, x.input.elem, x.f, t, k_.outputs[0], code_.row_lanes, outer, nsegs,
                           offsets, lengths, f.begin, f.end, seed, unit);
  else
    f.for_range(f.begin, f.end, unit);
  f.finish();
}

// ------------------------------------------------------------ host

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
  using slots::FoldSeg;
  std::vector<Slot> aux = shape_slots(sh, FoldSeg::count(rank, seed.size()));
  aux[size_t(FoldSeg::offsets(rank))] = Slot(reinterpret_cast<intptr_t>(offset.data()));
  aux[size_t(FoldSeg::lengths(rank))] = Slot(reinterpret_cast<intptr_t>(lengths));
  aux[size_t(FoldSeg::segments(rank))] = nsegs;
  std::copy(seed.begin(), seed.end(), aux.begin() + FoldSeg::seed(rank));
  int64_t avg = nsegs > 0 ? sh.back() / nsegs : 0;
  // Segments in lanes: chunks of whole groups of lanes.
  rt.parallel(c, c.code.main, rows * nsegs, whole_groups(row_grain(avg), c.code.row_lanes),
              aux.data());
}

} // namespace strata::jit
