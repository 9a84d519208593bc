// Reads checked once per chunk (jit/fn_builder.h ChunkReads).
//
// In a float fold's or scan's vector chunk code, element q of the chunk
// (q in [0, m)) usually reads its inputs at (row..., j0 + q): each component
// of the index is c * q + r with c in {-1, 0, 1} and r made before the
// chunk's loops. Whether such a read is in range for every q is one test per
// component, of its first and last value:
//   c = 0:  r <u n
//   c = 1:  r <u n and r + (m - 1) <u n
//   c = -1: r <u n and r - (m - 1) <u n
// (unsigned: a negative index is huge; r + (m - 1) cannot wrap once r <u n,
// as n is an extent and m a chunk's length, and r - (m - 1) wraps to a huge
// value exactly when some element's index is negative). The tests run ahead
// of the chunk's loops, so the loop the vectoriser sees has no branch for
// these reads, and the test is exact: the chunk goes to the entry that checks
// every element (the array code, which also takes the chunks shorter than
// the lanes) only where some element's read would fail. That entry starts
// the chunk before any element is computed and raises the first error in
// element order, as the interpreter does, whichever check it comes from.
// Reads inside a branch of the element code (if, while, and/or) keep their
// check per element: they may never run for the elements out of range.
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
  Value* last = cb.CreateSub(c.m, i64(1));
  for (size_t k = 0; k < index.size(); ++k) {
    Value* r = nullptr; // the sum of the terms
    for (auto [sign, term] : parts[k].terms)
      r = sign > 0 ? (r ? cb.CreateAdd(r, term) : term) : cb.CreateSub(r ? r : i64(0), term);
    if (!r) r = i64(0);
    Value* top = r;
    if (parts[k].coeff != 0) {
      Value* far = parts[k].coeff > 0 ? cb.CreateAdd(r, last) : cb.CreateSub(r, last);
      top = cb.CreateBinaryIntrinsic(llvm::Intrinsic::umax, r, far);
    }
    Value* bad = cb.CreateICmpUGE(top, bounds[k]);
    c.fails = c.fails ? cb.CreateOr(c.fails, bad) : bad;
  }
  return true;
}

void FnBuilder::open_chunk_checks(llvm::Value* m) {
  if (!chunk_reads) return;
  ChunkReads& c = *chunk_reads;
  c.m = m;
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
  if (c.fails)
    cb.CreateCondBr(c.fails, delegate_block(c.callee), c.loops);
  else
    cb.CreateBr(c.loops);
}

} // namespace strata::jit
