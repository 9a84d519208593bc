// jit permute: the defaults into the result and the source values into a
// temporary (materialised like generate, in parallel); then the targets
// entry writes every source position's linear target into an i64 buffer
// (-1: ignored; checked against the result's shape), positions in parallel;
// then the main entry combines the source values into the result in source
// order, on one thread. A combining function for which every order gives the
// same bits (parallel/permute_native.h: integer + * min max band bor bxor,
// bool and/or, `new`, `old`) is combined by the shared typed loops instead,
// large sources in parallel with private bins per chunk. When it is an
// operation (not `new` or `old`), the chunk entry computes each source
// position's value and target on the fly and combines it into its chunk's
// bins (parallel::PermuteBins): no source values or targets are made manifest
// (a histogram of 2^24 keys wrote 2^24 values and 2^24 i64 targets first).
// A failing element makes the host run the ordered path above from the
// start, which raises the interpreter's error (every source value is
// computed before any target).
//
// Deterministic: the combining pass visits the sources in their order on one
// thread, so every target's values combine in the interpreter's order
// whatever the combining function, or the function is one that every order
// gives the same bits; the parallel passes write each position once, and the
// chunks of private bins are cut by sizes only.
#include "core/error.h"
#include "jit/kernel_builder.h"
#include "jit/kernel_slots.h"
#include "jit/kernels.h"
#include "parallel/permute_native.h"

namespace strata::jit {

using llvm::Value;
using namespace host;

// ------------------------------------------------------------ entry points

// permute: defaults into the result, source values into the temporary;
// targets of source positions [begin, end) into the i64 buffer
// (slots::Permute; -1: ignored); then combine positions [begin, end) in order.
namespace {

// The target of source position `pos` (index `ix`) in a result of shape
// `dsh`, and whether it is ignored.
struct Target {
  Val index;
  Value* ignored;
};
Target target_of(FnBuilder& f, const kn::Permute& x, const Val& ix, int rank) {
  Target t{f.apply(x.target, {ix}), rank > 0 ? f.b.getTrue() : f.b.getFalse()};
  for (int d = 0; d < rank; ++d)
    t.ignored = f.b.CreateAnd(t.ignored, f.b.CreateICmpEQ(t.index[size_t(d)], f.i64(-1)));
  return t;
}

// The linear position of a target that is not ignored (or where `ignored`
// holds); one outside the result fails (checked).
Value* linear_position(FnBuilder& f, const Kernel& k, bool checked, const Val& target,
                       Value* ignored, Value* pos, const Val& dsh, int out, int src) {
  llvm::IRBuilder<>& b = f.b;
  int rd = int(dsh.size());
  if (checked) {
    Value* outside = b.getFalse();
    for (int d = 0; d < rd; ++d)
      outside = b.CreateOr(outside, b.CreateICmpUGE(target[size_t(d)], dsh[size_t(d)]));
    Site s{Site::Kind::PermuteTarget, k.ops.back().loc};
    s.array_id = out;
    s.source_id = src;
    s.rank = rd;
    Val payload = target;
    payload.push_back(pos);
    f.fail_if(b.CreateAnd(b.CreateNot(ignored), outside), s, payload);
  }
  return f.to_linear(dsh, target);
}

} // namespace

// permute: defaults into the result, source values into the temporary;
// targets of source positions [begin, end) into the i64 buffer
// (slots::Permute; -1: ignored); then combine positions [begin, end) in order.
// With an operation every order treats alike, also the chunk entry
// (slots::PermuteBins): source positions [begin, end) computed and combined
// into the bins.
void KernelBuilder::permute(const kn::Permute& x) {
  int out = k_.outputs[0], src = o_.temp_id;
  materialise(x.defaults, out);
  materialise(x.source, src);
  const Type& t = x.defaults.type.elem();
  int rd = x.defaults.type.rank(), rs = x.source.type.rank();
  if (rd + 1 > kPayloadSlots)
    throw Error(ErrorKind::Type, k_.ops.back().loc,
                "jit: permute of rank above 15 is not supported");
  // The targets and combining entries in part 1 (with the chunk entry),
  // compiled at the same time as the defaults and the source in part 0: a
  // histogram's longest part 33.8 -> 25.4 M instructions.
  {
    FnBuilder f = entry(code_.targets, 1);
    llvm::IRBuilder<>& b = f.b;
    Value* buf = b.CreateLoad(llvm::PointerType::getUnqual(f.ctx),
                              f.slot_ptr(f.aux, slots::Permute::targets));
    Val ssh = f.shape(src, rs), dsh = f.shape(out, rd);
    f.for_positions(ssh, f.begin, f.end, [&](const Val& ix, Value* pos) {
      Target tgt = target_of(f, x, ix, rd);
      Value* lin = linear_position(f, k_, o_.checked, tgt.index, tgt.ignored, pos, dsh, out, src);
      b.CreateStore(b.CreateSelect(tgt.ignored, f.i64(-1), lin),
                    b.CreateGEP(b.getInt64Ty(), buf, pos));
    });
    f.finish();
  }
  {
    FnBuilder f = entry(code_.main, 1);
    llvm::IRBuilder<>& b = f.b;
    Value* buf = b.CreateLoad(llvm::PointerType::getUnqual(f.ctx),
                              f.slot_ptr(f.aux, slots::Permute::targets));
    f.for_range(f.begin, f.end, [&](Value* i) {
      Value* tgt = b.CreateLoad(b.getInt64Ty(), b.CreateGEP(b.getInt64Ty(), buf, i));
      llvm::BasicBlock* yes = llvm::BasicBlock::Create(f.ctx, "combine", f.fn);
      llvm::BasicBlock* next = llvm::BasicBlock::Create(f.ctx, "combine_next", f.fn);
      b.CreateCondBr(b.CreateICmpSGE(tgt, f.i64(0)), yes, next);
      b.SetInsertPoint(yes);
      Val nv = f.load_elem(src, t, i), old = f.load_elem(out, t, tgt);
      f.store_elem(out, t, tgt, f.apply(x.combine, {nv, old}));
      b.CreateBr(next);
      b.SetInsertPoint(next);
    });
    f.finish();
  }
  std::optional<parallel::NativeCombine> native = parallel::recognise_combine(x.combine);
  if (native && native->kind == parallel::NativeCombine::Kind::Op) {
    FnBuilder f = entry(code_.chunk, 1);
    llvm::IRBuilder<>& b = f.b;
    Value* bins = b.CreateLoad(llvm::PointerType::getUnqual(f.ctx),
                               f.slot_ptr(f.aux, slots::PermuteBins::bins(rs)));
    ScalarKind kind = t.scalar_kind();
    Val ssh = load_shape(f, rs), dsh = f.shape(out, rd);
    f.for_positions(ssh, f.begin, f.end, [&](const Val& ix, Value* pos) {
      Val nv = f.apply(x.source.elem, {ix});
      Target tgt = target_of(f, x, ix, rd);
      llvm::BasicBlock* yes = llvm::BasicBlock::Create(f.ctx, "combine", f.fn);
      llvm::BasicBlock* next = llvm::BasicBlock::Create(f.ctx, "combine_next", f.fn);
      b.CreateCondBr(tgt.ignored, next, yes);
      b.SetInsertPoint(yes);
      Value* lin = linear_position(f, k_, o_.checked, tgt.index, b.getFalse(), pos, dsh, out, src);
      Value* at = b.CreateGEP(mem_type(f.ctx, kind), bins, lin);
      Val old{f.load_mem(at, kind)};
      f.store_mem(at, kind, f.apply(x.combine, {nv, old})[0]);
      b.CreateBr(next);
      b.SetInsertPoint(next);
    });
    f.finish();
  }
}

// ------------------------------------------------------------ host

namespace {

// permute with an operation every order treats alike, by the chunk entry:
// false when the kernel has none, or when an element failed (the caller
// then runs the ordered path, which raises the interpreter's error).
bool run_permute_in_bins(Runtime& rt, const CompiledKernel& c, const Kernel& k,
                         const kn::Permute& p) {
  std::optional<parallel::NativeCombine> native = parallel::recognise_combine(p.combine);
  if (c.code.chunk < 0 || !native) return false;
  Shape dsh = rt.prepare(c, p.defaults);
  rt.set(k.outputs[0], result_array(rt, p.defaults.type.elem(), dsh));
  rt.parallel(c, c.code.generate.at(&p.defaults), shape_size(dsh), kGrain, nullptr);
  Shape ssh = rt.prepare(c, p.source);
  int rs = int(ssh.size());
  parallel::PermuteBins bins(*native, shape_size(ssh), rt.get_mutable(k.outputs[0]));
  JitError first;
  bool failed = parallel_ranges(
      shape_size(ssh), bins.chunk_length(),
      [&](int64_t begin, int64_t end, JitError& err) {
        std::vector<Slot> aux(slots::PermuteBins::count(rs));
        std::copy(ssh.begin(), ssh.end(), aux.begin());
        aux[size_t(slots::PermuteBins::bins(rs))] =
            Slot(reinterpret_cast<intptr_t>(bins.bins(begin)));
        return c.fn(c.code.chunk)(rt.table(), &err, begin, end, aux.data()) != 0;
      },
      first);
  if (failed) return false;
  bins.merge();
  return true;
}

} // namespace

void run_permute(Runtime& rt, const CompiledKernel& c, const Kernel& k, const kn::Permute& p,
                 int temp_id) {
  if (run_permute_in_bins(rt, c, k, p)) return;
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
  Slot aux[slots::Permute::count] = {};
  aux[slots::Permute::targets] = Slot(reinterpret_cast<intptr_t>(targets.leaf(0).data()));
  rt.parallel(c, c.code.targets, n, kGrain, aux);
  if (std::optional<parallel::NativeCombine> native = parallel::recognise_combine(p.combine)) {
    // Every order gives the same bits: private bins per chunk, in parallel.
    parallel::permute_native(*native, rt.get(temp_id), targets.leaf_data<int64_t>(0), n,
                             rt.get_mutable(k.outputs[0]));
  } else if (n > 0) {
    // Combining follows source order, on one thread.
    rt.call(c, c.code.main, 0, n, aux);
  }
  rt.set(temp_id, Array());
}

} // namespace strata::jit
