#include "jit/fn_builder.h"

#include <llvm/IR/MDBuilder.h>

#include "jit/prim_emit.h"

namespace strata::jit {

llvm::Type* reg_type(llvm::LLVMContext& c, ScalarKind k) {
  switch (k) {
  case ScalarKind::Bool: return llvm::Type::getInt1Ty(c);
  case ScalarKind::I8:
  case ScalarKind::U8: return llvm::Type::getInt8Ty(c);
  case ScalarKind::I16:
  case ScalarKind::U16: return llvm::Type::getInt16Ty(c);
  case ScalarKind::I32:
  case ScalarKind::U32: return llvm::Type::getInt32Ty(c);
  case ScalarKind::I64:
  case ScalarKind::U64: return llvm::Type::getInt64Ty(c);
  case ScalarKind::F32: return llvm::Type::getFloatTy(c);
  case ScalarKind::F64: return llvm::Type::getDoubleTy(c);
  }
  return nullptr;
}

llvm::Type* mem_type(llvm::LLVMContext& c, ScalarKind k) {
  return k == ScalarKind::Bool ? llvm::Type::getInt8Ty(c) : reg_type(c, k);
}

void leave_alone(llvm::LLVMContext& ctx, llvm::Instruction* latch) {
  llvm::MDNode* off =
      llvm::MDNode::get(ctx, {llvm::MDString::get(ctx, "llvm.loop.vectorize.enable"),
                              llvm::ConstantAsMetadata::get(llvm::ConstantInt::getFalse(ctx))});
  llvm::MDNode* unroll =
      llvm::MDNode::get(ctx, {llvm::MDString::get(ctx, "llvm.loop.unroll.disable")});
  llvm::MDNode* id = llvm::MDNode::getDistinct(ctx, {nullptr, off, unroll});
  id->replaceOperandWith(0, id);
  latch->setMetadata(llvm::LLVMContext::MD_loop, id);
}

FnBuilder::FnBuilder(llvm::Module& m, const KernelGraph& g, KernelCode& c, bool chk,
                     const std::string& name)
    : ctx(m.getContext()), mod(m), graph(g), code(c), checked(chk), b(m.getContext()),
      pb_(m.getContext()) {
  llvm::Type* ptr = llvm::PointerType::getUnqual(ctx);
  llvm::Type* i64t = llvm::Type::getInt64Ty(ctx);
  auto* type =
      llvm::FunctionType::get(llvm::Type::getInt32Ty(ctx), {ptr, ptr, i64t, i64t, ptr}, false);
  fn = llvm::Function::Create(type, llvm::Function::ExternalLinkage, name, m);
  fn->addFnAttr(llvm::Attribute::NoUnwind);
  fn->addParamAttr(1, llvm::Attribute::NoAlias);
  arrays = fn->getArg(0);
  error = fn->getArg(1);
  begin = fn->getArg(2);
  end = fn->getArg(3);
  aux = fn->getArg(4);
  prologue_ = llvm::BasicBlock::Create(ctx, "prologue", fn);
  pb_.SetInsertPoint(prologue_);
  b.SetInsertPoint(llvm::BasicBlock::Create(ctx, "body", fn));
}

void FnBuilder::finish() {
  b.CreateRet(b.getInt32(0));
  pb_.CreateBr(&*std::next(fn->begin()));
  tag_array_accesses();
}

// Each access of a leaf of an array gets that leaf's scope and, unless it is
// one of them, "no alias" with every leaf this entry stores into. Sound
// because the arrays a kernel stores into are fresh (jit/kernels.h
// result_array: new, or a pool array no one else holds), each leaf a buffer
// of its own, so no other leaf of any array in the table shares their
// memory; accesses of one leaf stay "may alias". Without it the loop
// vectoriser tested at run time whether a map's or stencil's output overlaps
// its inputs (a fifth of a blur interior's compile went to those tests).
void FnBuilder::tag_array_accesses() {
  if (stored_leaves_.empty()) return;
  llvm::MDBuilder mdb(ctx);
  llvm::MDNode* domain = mdb.createAnonymousAliasScopeDomain(fn->getName());
  std::map<Leaf, llvm::MDNode*> scopes;
  auto scope = [&](const Leaf& leaf) {
    llvm::MDNode*& s = scopes[leaf];
    if (!s)
      s = mdb.createAnonymousAliasScope(domain, "array " + std::to_string(leaf.first) + " leaf " +
                                                    std::to_string(leaf.second));
    return s;
  };
  for (const Leaf& w : stored_leaves_)
    scope(w);
  // Each leaf's two lists, made once (null: no leaf but itself is stored).
  std::map<Leaf, std::pair<llvm::MDNode*, llvm::MDNode*>> tags;
  auto tags_of = [&](const Leaf& leaf) {
    auto [it, made] = tags.try_emplace(leaf);
    if (made) {
      std::vector<llvm::Metadata*> others;
      for (const Leaf& w : stored_leaves_)
        if (w != leaf) others.push_back(scopes.at(w));
      it->second = {llvm::MDNode::get(ctx, {scope(leaf)}),
                    others.empty() ? nullptr : llvm::MDNode::get(ctx, others)};
    }
    return it->second;
  };
  for (auto& [access, leaf] : array_accesses_) {
    auto* inst = llvm::dyn_cast_or_null<llvm::Instruction>(access);
    if (!inst) continue;
    auto [own, others] = tags_of(leaf);
    inst->setMetadata(llvm::LLVMContext::MD_alias_scope, own);
    if (others) inst->setMetadata(llvm::LLVMContext::MD_noalias, others);
  }
}

void FnBuilder::run_once() {
  fn->addFnAttr(llvm::Attribute::OptimizeNone);
  fn->addFnAttr(llvm::Attribute::NoInline);
}

void FnBuilder::delegate_if(llvm::Value* cond, const std::string& callee) {
  llvm::BasicBlock* here = llvm::BasicBlock::Create(ctx, "own", fn);
  b.CreateCondBr(cond, delegate_block(callee), here);
  b.SetInsertPoint(here);
}

llvm::BasicBlock* FnBuilder::delegate_block(const std::string& callee) {
  llvm::BasicBlock*& call = delegates_[callee];
  if (!call) call = delegate_from(callee, begin);
  return call;
}

llvm::BasicBlock* FnBuilder::delegate_from(const std::string& callee, llvm::Value* from) {
  llvm::FunctionCallee target = mod.getOrInsertFunction(callee, fn->getFunctionType());
  llvm::BasicBlock* call = llvm::BasicBlock::Create(ctx, "delegate", fn);
  llvm::IRBuilder<> cb(call);
  cb.CreateRet(cb.CreateCall(target, {arrays, error, from, end, aux}));
  return call;
}

void FnBuilder::hand_over(const std::vector<llvm::BasicBlock*>& bails, llvm::Value* from,
                          const SrcLoc& loc, const std::string& what) {
  if (bails.empty()) return;
  if (checked_entry.empty()) throw Error(ErrorKind::Type, loc, "jit: internal: a check in " + what);
  llvm::BasicBlock* to = from ? delegate_from(checked_entry, from) : delegate_block(checked_entry);
  for (llvm::BasicBlock* bail : bails)
    llvm::IRBuilder<>(bail).CreateBr(to);
}

llvm::Value* FnBuilder::leaf_ptr(int array, size_t leaf) {
  auto key = std::make_pair(array, leaf);
  auto it = leaf_ptrs_.find(key);
  if (it != leaf_ptrs_.end()) return it->second;
  llvm::Type* ptr = llvm::PointerType::getUnqual(ctx);
  llvm::Value* entry = pb_.CreateConstGEP1_64(pb_.getInt8Ty(), arrays, uint64_t(array) * 24);
  llvm::Value* leaves = pb_.CreateLoad(ptr, entry);
  llvm::Value* p = pb_.CreateLoad(ptr, pb_.CreateConstGEP1_64(ptr, leaves, leaf));
  return leaf_ptrs_[key] = p;
}

llvm::Value* FnBuilder::extent(int array, int dim) {
  auto key = std::make_pair(array, dim);
  auto it = extents_.find(key);
  if (it != extents_.end()) return it->second;
  llvm::Type* ptr = llvm::PointerType::getUnqual(ctx);
  llvm::Value* entry = pb_.CreateConstGEP1_64(pb_.getInt8Ty(), arrays, uint64_t(array) * 24 + 8);
  llvm::Value* sh = pb_.CreateLoad(ptr, entry);
  llvm::Value* v =
      pb_.CreateLoad(pb_.getInt64Ty(), pb_.CreateConstGEP1_64(pb_.getInt64Ty(), sh, uint64_t(dim)));
  return extents_[key] = v;
}

llvm::Value* FnBuilder::size(int array) {
  auto it = sizes_.find(array);
  if (it != sizes_.end()) return it->second;
  llvm::Value* entry = pb_.CreateConstGEP1_64(pb_.getInt8Ty(), arrays, uint64_t(array) * 24 + 16);
  return sizes_[array] = pb_.CreateLoad(pb_.getInt64Ty(), entry);
}

Val FnBuilder::shape(int array, int rank) {
  Val v;
  for (int d = 0; d < rank; ++d)
    v.push_back(extent(array, d));
  return v;
}

// A value as memory holds it (bool: one byte; a float NaN canonical), and back.
static llvm::Value* to_mem(llvm::IRBuilder<>& b, ScalarKind k, llvm::Value* v) {
  return k == ScalarKind::Bool ? b.CreateZExt(v, b.getInt8Ty()) : emit_canonical(b, k, v);
}
static llvm::Value* from_mem(llvm::IRBuilder<>& b, ScalarKind k, llvm::Value* v) {
  return k == ScalarKind::Bool ? b.CreateICmpNE(v, b.getInt8(0)) : v;
}

llvm::Value* FnBuilder::load_mem(llvm::Value* ptr, ScalarKind k) {
  return from_mem(b, k, b.CreateLoad(mem_type(ctx, k), ptr));
}

void FnBuilder::store_mem(llvm::Value* ptr, ScalarKind k, llvm::Value* v) {
  b.CreateStore(to_mem(b, k, v), ptr);
}

Val FnBuilder::load_elem(int array, const Type& elem, llvm::Value* pos) {
  Val out;
  std::vector<ScalarKind> kinds = elem.leaves();
  for (size_t l = 0; l < kinds.size(); ++l) {
    llvm::Value* p = b.CreateGEP(mem_type(ctx, kinds[l]), leaf_ptr(array, l), pos);
    llvm::LoadInst* v = b.CreateLoad(mem_type(ctx, kinds[l]), p);
    array_accesses_.emplace_back(v, Leaf(array, l));
    out.push_back(from_mem(b, kinds[l], v));
  }
  return out;
}

void FnBuilder::store_elem(int array, const Type& elem, llvm::Value* pos, const Val& v) {
  std::vector<ScalarKind> kinds = elem.leaves();
  for (size_t l = 0; l < kinds.size(); ++l) {
    llvm::Value* p = b.CreateGEP(mem_type(ctx, kinds[l]), leaf_ptr(array, l), pos);
    array_accesses_.emplace_back(b.CreateStore(to_mem(b, kinds[l], v[l]), p), Leaf(array, l));
    stored_leaves_.insert(Leaf(array, l));
  }
}

llvm::Value* FnBuilder::slot_ptr(llvm::Value* base, int slot) {
  return b.CreateConstGEP1_64(b.getInt8Ty(), base, uint64_t(slot) * 8);
}

Val FnBuilder::load_slots(llvm::Value* base, int first, const Type& t) {
  Val out;
  std::vector<ScalarKind> kinds = t.leaves();
  for (size_t l = 0; l < kinds.size(); ++l)
    out.push_back(load_mem(slot_ptr(base, first + int(l)), kinds[l]));
  return out;
}

void FnBuilder::store_slots(llvm::Value* base, int first, const Type& t, const Val& v) {
  std::vector<ScalarKind> kinds = t.leaves();
  for (size_t l = 0; l < kinds.size(); ++l)
    store_mem(slot_ptr(base, first + int(l)), kinds[l], v[l]);
}

void FnBuilder::fail_if(llvm::Value* cond, Site site, const std::vector<llvm::Value*>& payload) {
  int id = int(code.sites.size());
  code.sites.push_back(std::move(site));
  llvm::BasicBlock* fail = llvm::BasicBlock::Create(ctx, "fail", fn);
  llvm::BasicBlock* ok = llvm::BasicBlock::Create(ctx, "ok", fn);
  llvm::MDBuilder md(ctx);
  b.CreateCondBr(cond, fail, ok, md.createBranchWeights(1, 1 << 20));
  b.SetInsertPoint(fail);
  b.CreateStore(i64(id), error);
  for (size_t k = 0; k < payload.size(); ++k)
    b.CreateStore(payload[k], slot_ptr(error, int(k) + 1));
  b.CreateRet(b.getInt32(1));
  b.SetInsertPoint(ok);
}

void FnBuilder::for_range(llvm::Value* lo, llvm::Value* hi,
                          const std::function<void(llvm::Value*)>& body, bool vectorise) {
  llvm::BasicBlock* pre = b.GetInsertBlock();
  llvm::BasicBlock* loop = llvm::BasicBlock::Create(ctx, "loop", fn);
  llvm::BasicBlock* exit = llvm::BasicBlock::Create(ctx, "exit", fn);
  b.CreateCondBr(b.CreateICmpSLT(lo, hi), loop, exit);
  b.SetInsertPoint(loop);
  llvm::PHINode* i = b.CreatePHI(b.getInt64Ty(), 2);
  i->addIncoming(lo, pre);
  body(i);
  llvm::Value* next = b.CreateAdd(i, i64(1));
  i->addIncoming(next, b.GetInsertBlock());
  llvm::BranchInst* latch = b.CreateCondBr(b.CreateICmpSLT(next, hi), loop, exit);
  // Short loops (a stencil's boundary runs): neither vectorised nor unrolled,
  // which only costs compile time there.
  if (!vectorise) leave_alone(ctx, latch);
  b.SetInsertPoint(exit);
}

Val FnBuilder::from_linear(const Val& shape, llvm::Value* pos) {
  // A vector of positions (lane code): the extents splatted.
  auto* lanes = llvm::dyn_cast<llvm::FixedVectorType>(pos->getType());
  Val ix(shape.size());
  llvm::Value* rem = pos;
  for (size_t d = shape.size(); d-- > 0;) {
    if (d == 0) {
      ix[d] = rem;
      break;
    }
    llvm::Value* n = b.CreateSelect(b.CreateICmpEQ(shape[d], i64(0)), i64(1), shape[d]);
    if (lanes) n = b.CreateVectorSplat(lanes->getNumElements(), n);
    ix[d] = b.CreateURem(rem, n);
    rem = b.CreateUDiv(rem, n);
  }
  return ix;
}

llvm::Value* FnBuilder::lane_numbers(unsigned w) {
  std::vector<uint64_t> iota(w);
  for (size_t l = 0; l < iota.size(); ++l)
    iota[l] = l;
  return llvm::ConstantDataVector::get(ctx, iota);
}

llvm::Value* FnBuilder::lanes_below(unsigned w, llvm::Value* count) {
  std::vector<uint32_t> iota(w);
  for (size_t l = 0; l < iota.size(); ++l)
    iota[l] = uint32_t(l);
  llvm::Value* left = b.CreateBinaryIntrinsic(llvm::Intrinsic::umin, count, i64(w));
  return b.CreateICmpULT(llvm::ConstantDataVector::get(ctx, iota),
                         b.CreateVectorSplat(w, b.CreateTrunc(left, b.getInt32Ty())));
}

llvm::Value* FnBuilder::like(llvm::Value* q, llvm::Value* x) {
  auto* lanes = llvm::dyn_cast<llvm::FixedVectorType>(q->getType());
  return lanes ? b.CreateVectorSplat(lanes->getNumElements(), x) : x;
}

Val FnBuilder::like(llvm::Value* q, const Val& xs) {
  Val out;
  for (llvm::Value* x : xs)
    out.push_back(like(q, x));
  return out;
}

llvm::Value* FnBuilder::to_linear(const Val& shape, const Val& index) {
  llvm::Value* pos = i64(0);
  for (size_t d = 0; d < shape.size(); ++d)
    pos = b.CreateAdd(b.CreateMul(pos, shape[d]), index[d]);
  return pos;
}

void FnBuilder::for_positions(const Val& shape, llvm::Value* lo, llvm::Value* hi,
                              const std::function<void(const Val&, llvm::Value*)>& body) {
  if (shape.empty()) {
    llvm::BasicBlock* one = llvm::BasicBlock::Create(ctx, "one", fn);
    llvm::BasicBlock* exit = llvm::BasicBlock::Create(ctx, "exit", fn);
    b.CreateCondBr(b.CreateICmpSLT(lo, hi), one, exit);
    b.SetInsertPoint(one);
    body({}, lo);
    b.CreateBr(exit);
    b.SetInsertPoint(exit);
    return;
  }
  for_rows(shape, lo, hi, [&](const Val& outer, llvm::Value* j0, llvm::Value* j1, llvm::Value* p0) {
    for_range(j0, j1, [&](llvm::Value* j) {
      Val ix = outer;
      ix.push_back(j);
      body(ix, b.CreateAdd(p0, b.CreateSub(j, j0)));
    });
  });
}

void FnBuilder::for_rows(
    const Val& shape, llvm::Value* lo, llvm::Value* hi,
    const std::function<void(const Val&, llvm::Value*, llvm::Value*, llvm::Value*)>& row_body) {
  size_t rank = shape.size();
  if (rank == 1) {
    llvm::BasicBlock* some = llvm::BasicBlock::Create(ctx, "some", fn);
    llvm::BasicBlock* exit = llvm::BasicBlock::Create(ctx, "exit", fn);
    b.CreateCondBr(b.CreateICmpSLT(lo, hi), some, exit);
    b.SetInsertPoint(some);
    row_body({}, lo, hi, lo);
    b.CreateBr(exit);
    b.SetInsertPoint(exit);
    return;
  }
  // Rows of the innermost dimension: an inner loop over j (vectorisable), the
  // outer components advanced with a carry between rows.
  llvm::BasicBlock* start = llvm::BasicBlock::Create(ctx, "rows", fn);
  llvm::BasicBlock* exit = llvm::BasicBlock::Create(ctx, "rows_exit", fn);
  b.CreateCondBr(b.CreateICmpSLT(lo, hi), start, exit);
  b.SetInsertPoint(start);
  Val ix0 = from_linear(shape, lo);
  llvm::BasicBlock* pre = b.GetInsertBlock();
  llvm::BasicBlock* row = llvm::BasicBlock::Create(ctx, "row", fn);
  b.CreateBr(row);
  b.SetInsertPoint(row);
  llvm::PHINode* pos = b.CreatePHI(b.getInt64Ty(), 2);
  pos->addIncoming(lo, pre);
  std::vector<llvm::PHINode*> outer;
  for (size_t d = 0; d + 1 < rank; ++d) {
    outer.push_back(b.CreatePHI(b.getInt64Ty(), 2));
    outer.back()->addIncoming(ix0[d], pre);
  }
  llvm::PHINode* j = b.CreatePHI(b.getInt64Ty(), 2);
  j->addIncoming(ix0[rank - 1], pre);
  llvm::Value* n = shape[rank - 1];
  llvm::Value* left_in_row = b.CreateSub(n, j);
  llvm::Value* left = b.CreateSub(hi, pos);
  llvm::Value* count = b.CreateSelect(b.CreateICmpSLT(left_in_row, left), left_in_row, left);
  Val fixed(outer.begin(), outer.end());
  row_body(fixed, j, b.CreateAdd(j, count), pos);
  llvm::Value* next_pos = b.CreateAdd(pos, count);
  llvm::BasicBlock* advance = llvm::BasicBlock::Create(ctx, "advance", fn);
  b.CreateCondBr(b.CreateICmpSLT(next_pos, hi), advance, exit);
  b.SetInsertPoint(advance);
  llvm::Value* carry = b.getTrue();
  std::vector<llvm::Value*> next(outer.size());
  for (size_t d = outer.size(); d-- > 0;) {
    llvm::Value* inc = b.CreateSelect(carry, b.CreateAdd(outer[d], i64(1)), outer[d]);
    llvm::Value* wrap = b.CreateAnd(carry, b.CreateICmpEQ(inc, shape[d]));
    next[d] = b.CreateSelect(wrap, i64(0), inc);
    carry = wrap;
  }
  pos->addIncoming(next_pos, advance);
  for (size_t d = 0; d < outer.size(); ++d)
    outer[d]->addIncoming(next[d], advance);
  j->addIncoming(i64(0), advance);
  b.CreateBr(row);
  b.SetInsertPoint(exit);
}

} // namespace strata::jit
