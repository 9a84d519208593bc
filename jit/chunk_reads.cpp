// Reads checked once per run of elements (jit/fn_builder.h ChunkReads).
//
// A run is a fold's or scan's chunk in its chunk code (jit/fold_codegen.h
// chunk_total: the vector code, the lanes in memory, or left to right), a
// row of a fold, or a group of rows of a fold in lanes (one row per lane):
// element q of the run (q in [0, m)) usually reads its inputs at
// (row..., j0 + q): each component of the index is c * q + r with c in
// {-1, 0, 1} and r made before the run's loops (a vector of one r per lane
// in lane code). Whether such a read is in range for every q is one test
// per component, of its first and last value:
//   c = 0:  r <u n
//   c = 1:  r <u n and r + (m - 1) <u n
//   c = -1: r <u n and r - (m - 1) <u n
// (unsigned: a negative index is huge; r + (m - 1) cannot wrap once r <u n,
// as n is an extent and m a run's length, and r - (m - 1) wraps to a huge
// value exactly when some element's index is negative; in lanes, every lane
// of the run is tested: a group's lanes past the last row are masked off).
// The tests run ahead of the run's loops, so the loop the vectoriser sees
// has no branch for these reads, and the test is exact: the run goes to the
// code that checks every element only where some element's read would fail
// (m = 0 never fails: no element runs). That code starts the run over
// before any element is computed and raises the first error in element
// order, as the interpreter does, whichever check it comes from: for a
// chunk, the checked chunk entry (the one that also takes the chunks shorter
// than the lanes, where the chunk code has them apart); for a row, an entry
// of the same rows with every check, from that row on; for a group of rows
// in lanes, the same entry from the group's first row. Reads inside a branch
// of the element code (if, while, and/or; in lane code, any read under a
// mask narrower than the run's lanes) keep their check per element: they
// may never run for the elements out of range.
#include <llvm/Analysis/VectorUtils.h>
#include <llvm/IR/Instructions.h>

#include "jit/fn_builder.h"

namespace strata::jit {
namespace {

using llvm::Value;

// v as coeff * q + sum of sign * term, the terms made before the chunk's loops.
struct Affine {
  int coeff = 0;
  std::vector<std::pair<int, Value*>> terms;
};

bool made_before(const ChunkReads& c, Value* v) {
  auto* inst = llvm::dyn_cast<llvm::Instruction>(v);
  return !inst || c.before.count(inst->getParent()) > 0;
}

bool affine(const ChunkReads& c, Value* v, int sign, int depth, Affine& out) {
  if (v == c.q) {
    out.coeff += sign;
    return true;
  }
  if (made_before(c, v)) {
    out.terms.emplace_back(sign, v);
    return true;
  }
  // Lane code: the same scalar in every lane.
  if (v->getType()->isVectorTy())
    if (Value* s = llvm::getSplatValue(v)) return affine(c, s, sign, depth, out);
  auto* op = llvm::dyn_cast<llvm::BinaryOperator>(v);
  if (!op || depth == 0) return false;
  if (op->getOpcode() == llvm::Instruction::Add)
    return affine(c, op->getOperand(0), sign, depth - 1, out) &&
           affine(c, op->getOperand(1), sign, depth - 1, out);
  if (op->getOpcode() == llvm::Instruction::Sub)
    return affine(c, op->getOperand(0), sign, depth - 1, out) &&
           affine(c, op->getOperand(1), -sign, depth - 1, out);
  return false;
}

} // namespace

bool FnBuilder::check_per_chunk(const Val& index, const Val& bounds) {
  if (!chunk_reads || !chunk_reads->q || branches_ > 0) return false;
  ChunkReads& c = *chunk_reads;
  std::vector<Affine> parts(index.size());
  for (size_t k = 0; k < index.size(); ++k)
    if (!affine(c, index[k], 1, 6, parts[k]) || parts[k].coeff < -1 || parts[k].coeff > 1)
      return false;
  llvm::IRBuilder<> cb(c.checks);
  for (size_t k = 0; k < index.size(); ++k) {
    // Lane code: a vector of one index per lane, each lane tested, where a
    // term differs from lane to lane (a row per lane); where the lanes
    // differ only by their position in the run (a chunk's lanes), one test.
    auto* vt = llvm::dyn_cast<llvm::FixedVectorType>(index[k]->getType());
    bool per_lane = false;
    for (auto [sign, term] : parts[k].terms)
      per_lane = per_lane || term->getType()->isVectorTy();
    if (!per_lane) vt = nullptr;
    auto lanes = [&](Value* v) {
      return vt && !v->getType()->isVectorTy() ? cb.CreateVectorSplat(vt->getNumElements(), v) : v;
    };
    Value* r = nullptr; // the sum of the terms
    for (auto [sign, term] : parts[k].terms) {
      term = lanes(term);
      r = sign > 0 ? (r ? cb.CreateAdd(r, term) : term) : cb.CreateSub(r ? r : lanes(i64(0)), term);
    }
    if (!r) r = lanes(i64(0));
    Value* top = r;
    if (parts[k].coeff != 0) {
      Value* last = lanes(cb.CreateSub(c.m, i64(1)));
      Value* far = parts[k].coeff > 0 ? cb.CreateAdd(r, last) : cb.CreateSub(r, last);
      top = cb.CreateBinaryIntrinsic(llvm::Intrinsic::umax, r, far);
    }
    Value* bad = cb.CreateICmpUGE(top, lanes(bounds[k]));
    if (vt && c.active) bad = cb.CreateAnd(bad, c.active);
    if (vt) bad = cb.CreateOrReduce(bad);
    c.fails = c.fails ? cb.CreateOr(c.fails, bad) : bad;
  }
  return true;
}

void FnBuilder::open_chunk_checks(llvm::Value* m, const std::function<llvm::BasicBlock*()>& on_fail,
                                  llvm::Value* active) {
  if (checked_entry.empty()) return;
  ChunkReads& c = chunk_reads.emplace();
  c.m = m;
  c.active = active;
  c.on_fail = on_fail;
  for (llvm::BasicBlock& bb : *fn)
    c.before.insert(&bb);
  c.checks = llvm::BasicBlock::Create(ctx, "chunk_checks", fn);
  c.loops = llvm::BasicBlock::Create(ctx, "chunk_loops", fn);
  b.CreateBr(c.checks);
  b.SetInsertPoint(c.loops);
}

void FnBuilder::chunk_element(llvm::Value* q) {
  if (chunk_reads) chunk_reads->q = q;
}

void FnBuilder::close_chunk_checks() {
  if (!chunk_reads) return;
  ChunkReads& c = *chunk_reads;
  llvm::IRBuilder<> cb(c.checks);
  if (c.fails) {
    // An empty run computes no element: nothing to fail.
    Value* fails = cb.CreateAnd(c.fails, cb.CreateICmpNE(c.m, i64(0)));
    cb.CreateCondBr(fails, c.on_fail(), c.loops);
  } else {
    cb.CreateBr(c.loops);
  }
  chunk_reads.reset();
}

} // namespace strata::jit
