// jit scans (scanl scanl1 scanl' scanr scanr1), along each row of the
// innermost dimension, in the association order the executable declares
// (core/reduction_order.h):
// - rows shorter than the order's scan_chunked_from: the main entry scans
//   whole rows from the seed (or from the first element), rows in parallel;
// - longer rows, three passes per row: (1) the total of every chunk of
//   scan_chunk positions but the last, by the chunk entry (part 1: the lane
//   tree of jit/fold_codegen.h chunk_total, right scans with f's operands
//   swapped), chunks in parallel; (2) the carries, left to right on the host
//   with the combine entry; (3) every chunk scanned from its carry by the
//   main entry, in parallel, the last chunk giving the row's total.
//
// Deterministic: the chunks and lanes depend on the row length and the
// declared order only; each chunk writes its own positions and totals, and
// the carries are combined in order on one thread; the oracle replays the
// same order.
#include "core/scan_layout.h"
#include "jit/kernel_builder.h"
#include "jit/kernel_slots.h"
#include "jit/kernels.h"
#include <optional>

#include "jit/fold_codegen.h"

namespace strata::jit {

using llvm::Value;
using namespace host;

// ------------------------------------------------------------ entry points

// scan positions [begin, end) of one row: aux = shape (R), row, write flag,
// has-accumulator flag, accumulator (L) — read at the start, written at the end.
void KernelBuilder::scan(const kn::Scan& x) {
  const Type& t = x.input.type.elem();
  run_once_part_ = run_once_part(t, x.f);
  closed_parts(x.input);
  if (x.seed) closed(*x.seed);
  int rank = x.input.type.rank();
  bool right = scans_from_the_right(x.kind);
  int out = k_.outputs[0];
  FnBuilder f = entry(code_.main);
  llvm::IRBuilder<>& b = f.b;
  Val sh = load_shape(f, rank);
  Val outer(sh.begin(), sh.end() - 1);
  Value* n = sh.back();
  using slots::Scan;
  Value* row = b.CreateLoad(b.getInt64Ty(), f.slot_ptr(f.aux, Scan::row(rank)));
  Value* write =
      b.CreateICmpNE(b.CreateLoad(b.getInt64Ty(), f.slot_ptr(f.aux, Scan::write(rank))), f.i64(0));
  Value* has0 = f.load_mem(f.slot_ptr(f.aux, Scan::has_accumulator(rank)), ScalarKind::Bool);
  Val acc0 = f.load_slots(f.aux, Scan::accumulator(rank), t);
  bool plus_one = x.kind == ac::ScanKind::Scanl || x.kind == ac::ScanKind::Scanr;
  Value* m = plus_one ? b.CreateAdd(n, f.i64(1)) : n;
  Val oix = f.from_linear(outer, row);
  // Position q: its element, and the store of `value` where the scan kind
  // writes one.
  auto element = [&](Value* q) {
    Value* j = right ? b.CreateSub(b.CreateSub(n, f.i64(1)), q) : q;
    return f.apply(x.input.elem, {with(oix, j)});
  };
  auto store = [&](Value* q, const Val& value) {
    Value* pos = nullptr;
    Value* cond = write;
    switch (x.kind) {
    case ac::ScanKind::Scanl: pos = b.CreateAdd(q, f.i64(1)); break;
    case ac::ScanKind::ScanlPrime:
      pos = b.CreateAdd(q, f.i64(1));
      cond = b.CreateAnd(cond, b.CreateICmpSLT(pos, n));
      break;
    case ac::ScanKind::Scanl1: pos = q; break;
    case ac::ScanKind::Scanr:
    case ac::ScanKind::Scanr1: pos = b.CreateSub(b.CreateSub(n, f.i64(1)), q); break;
    }
    llvm::BasicBlock* yes = llvm::BasicBlock::Create(f.ctx, "scan_store", f.fn);
    llvm::BasicBlock* after = llvm::BasicBlock::Create(f.ctx, "scan_next", f.fn);
    b.CreateCondBr(cond, yes, after);
    b.SetInsertPoint(yes);
    f.store_elem(out, t, b.CreateAdd(b.CreateMul(row, m), pos), value);
    b.CreateBr(after);
    b.SetInsertPoint(after);
  };
  // Without an accumulator yet (scanl1/scanr1 from the row's start), the
  // first position is peeled: acc := its element. The loop then always
  // combines, with no per-element test of the flag.
  llvm::BasicBlock* pre = b.GetInsertBlock();
  llvm::BasicBlock* first = llvm::BasicBlock::Create(f.ctx, "scan_first", f.fn);
  llvm::BasicBlock* rest = llvm::BasicBlock::Create(f.ctx, "scan_rest", f.fn);
  b.CreateCondBr(b.CreateAnd(b.CreateNot(has0), b.CreateICmpSLT(f.begin, f.end)), first, rest);
  b.SetInsertPoint(first);
  Val v0 = element(f.begin);
  store(f.begin, v0);
  Value* begin1 = b.CreateAdd(f.begin, f.i64(1));
  llvm::BasicBlock* first_end = b.GetInsertBlock();
  b.CreateBr(rest);
  b.SetInsertPoint(rest);
  Val init;
  for (size_t l = 0; l < acc0.size(); ++l) {
    llvm::PHINode* phi = b.CreatePHI(acc0[l]->getType(), 2);
    phi->addIncoming(acc0[l], pre);
    phi->addIncoming(v0[l], first_end);
    init.push_back(phi);
  }
  llvm::PHINode* q0 = b.CreatePHI(b.getInt64Ty(), 2);
  q0->addIncoming(f.begin, pre);
  q0->addIncoming(begin1, first_end);
  llvm::PHINode* has = b.CreatePHI(b.getInt1Ty(), 2);
  has->addIncoming(has0, pre);
  has->addIncoming(b.getTrue(), first_end);
  Val acc = fold_loop(f, q0, f.end, init, [&](const Val& a, Value* q) {
    Val v = element(q);
    Val next = right ? f.apply(x.f, {v, a}) : f.apply(x.f, {a, v});
    store(q, next);
    return next;
  });
  f.store_mem(f.slot_ptr(f.aux, Scan::has_accumulator(rank)), ScalarKind::Bool, has);
  f.store_slots(f.aux, Scan::accumulator(rank), t, acc);
  f.finish();
  scan_chunk(x, right);
  combine(x.f, t, false, code_.combine);
  combine(x.f, t, true, code_.combine_swapped);
}

// The total of scan positions [begin, end) of one row (a chunk of a long
// row, fold_codegen.h chunk_total, combining with g(acc, x) = f(x, acc) for
// right scans): aux = shape (R), row; the total at R + 1.
void KernelBuilder::scan_chunk(const kn::Scan& x, bool right) {
  const Type& t = x.input.type.elem();
  int rank = x.input.type.rank();
  chunk_entry(t, x.f, [&](FnBuilder& f, ChunkLengths lengths) {
    llvm::IRBuilder<>& b = f.b;
    Val sh = load_shape(f, rank);
    Val outer(sh.begin(), sh.end() - 1);
    Value* n = sh.back();
    Val oix = f.from_linear(
        outer, b.CreateLoad(b.getInt64Ty(), f.slot_ptr(f.aux, slots::Scan::row(rank))));
    ChunkElement element{&x.input.elem, [&](Value* q) {
                           Value* p = b.CreateAdd(f.like(q, f.begin), q);
                           Value* j =
                               right ? b.CreateSub(f.like(q, b.CreateSub(n, f.i64(1))), p) : p;
                           return with(f.like(q, oix), j);
                         }};
    Val acc =
        chunk_total(f, t, x.f, right, lanes(t, x.f), b.CreateSub(f.end, f.begin), element, lengths);
    f.store_slots(f.aux, slots::Scan::chunk_total(rank), t, acc);
  });
}

// ------------------------------------------------------------ host

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
  using slots::Scan;
  std::vector<Slot> aux = shape_slots(p.shape, Scan::count(p.rank, p.leaves));
  aux[size_t(Scan::row(p.rank))] = row;
  aux[size_t(Scan::write(p.rank))] = write ? 1 : 0;
  aux[size_t(Scan::has_accumulator(p.rank))] = acc ? 1 : 0;
  if (acc) std::copy(acc->begin(), acc->end(), aux.begin() + Scan::accumulator(p.rank));
  return aux;
}

std::optional<std::vector<Slot>> scan_result(const ScanPlan& p, const std::vector<Slot>& aux) {
  using slots::Scan;
  if ((aux[size_t(Scan::has_accumulator(p.rank))] & 0xff) == 0) return std::nullopt;
  auto acc = aux.begin() + Scan::accumulator(p.rank);
  return std::vector<Slot>(acc, acc + long(p.leaves));
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
  bool right = scans_from_the_right(s.kind);
  p.m = scan_output_extent(s.kind, p.n);
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
    if (int64_t pos = scan_seed_output(s.kind, p.n); p.seed && pos >= 0)
      slots_to_array(p.seed->data(), out, row * p.m + pos);
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
          std::vector<Slot> aux = shape_slots(p.shape, slots::Scan::chunk_count(p.rank, p.leaves));
          aux[size_t(slots::Scan::row(p.rank))] = row;
          int64_t q0 = ch * chunk, q1 = std::min(p.n, q0 + chunk);
          if (c.fn(c.code.chunk)(rt.table(), &err, q0, q1, aux.data()) != 0) return true;
          auto total = aux.begin() + slots::Scan::chunk_total(p.rank);
          totals[size_t(ch)].assign(total, total + long(p.leaves));
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
      using slots::Combine;
      std::vector<Slot> acc(Combine::count(p.leaves));
      std::copy(before->begin(), before->end(), acc.begin() + Combine::accumulator);
      std::copy(totals[size_t(ch - 1)].begin(), totals[size_t(ch - 1)].end(),
                acc.begin() + Combine::operand(p.leaves));
      rt.call(c, right ? c.code.combine_swapped : c.code.combine, 0, 1, acc.data());
      auto total = acc.begin() + Combine::accumulator;
      carry[size_t(ch)] = std::vector<Slot>(total, total + long(p.leaves));
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

} // namespace strata::jit
