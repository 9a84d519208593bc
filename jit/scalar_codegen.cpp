// Scalar code (core/ir.h Exp) to LLVM IR with the pinned semantics of
// docs/language.md, Pinned semantics (core/semantics.h): integers wrap (no nsw/nuw),
// division by zero and bounds are checked through the error slot, float->int
// casts saturate, float min/max return the non-NaN operand, and no fast-math
// flag is set. `if`, `and`, `or` and `while` are real control flow, so an
// untaken branch never fails a check.
#include "core/check.h"
#include "core/overload.h"
#include "jit/fn_builder.h"
#include "jit/prim_emit.h"

namespace strata::jit {

using llvm::Value;

int FnBuilder::array_id(const Acc& a) const {
  const auto* v = std::get_if<ac::Var>(&a.node);
  int id = v ? graph.id_of(v->name) : -1;
  if (id < 0) throw Error(ErrorKind::Type, a.loc, "jit: kernel code reads an unknown array");
  return id;
}

const Val& Scope::lookup(const ex::Var& v, const Exp& e) const {
  for (auto it = vars_.rbegin(); it != vars_.rend(); ++it)
    if (it->first == v.name) return it->second;
  throw Error(ErrorKind::Type, e.loc, "jit: kernel code reads unknown variable `" + v.name + "`");
}

Val proj_leaves(const ex::Proj& p, const Exp& e, const Val& tuple) {
  size_t first = 0;
  for (int k = 0; k < p.index; ++k)
    first += p.tuple->type.elems()[size_t(k)].leaves().size();
  size_t n = e.type.leaves().size();
  return Val(tuple.begin() + long(first), tuple.begin() + long(first + n));
}

Val FnBuilder::apply(const Lambda& f, const std::vector<Val>& args) {
  return scope_.apply(f, args, [&](const Exp& x) { return exp(x); });
}

// ---------------------------------------------------------------- forms
template <> Val FnBuilder::form(const ex::Const& c, const Exp&) {
  return {scalar_constant(ctx, c.value)};
}

template <> Val FnBuilder::form(const ex::Var& v, const Exp& e) {
  return scope_.lookup(v, e);
}

template <> Val FnBuilder::form(const ex::Let& l, const Exp&) {
  return scope_.let(l, [&](const Exp& x) { return exp(x); });
}

template <> Val FnBuilder::form(const ex::If& i, const Exp&) {
  Value* c = exp(*i.cond)[0];
  llvm::BasicBlock* yes = llvm::BasicBlock::Create(ctx, "then", fn);
  llvm::BasicBlock* no = llvm::BasicBlock::Create(ctx, "else", fn);
  llvm::BasicBlock* join = llvm::BasicBlock::Create(ctx, "join", fn);
  b.CreateCondBr(c, yes, no);
  ++branches_;
  b.SetInsertPoint(yes);
  Val t = exp(*i.then_branch);
  llvm::BasicBlock* yes_end = b.GetInsertBlock();
  b.CreateBr(join);
  b.SetInsertPoint(no);
  Val f = exp(*i.else_branch);
  llvm::BasicBlock* no_end = b.GetInsertBlock();
  --branches_;
  b.CreateBr(join);
  b.SetInsertPoint(join);
  Val out;
  for (size_t l = 0; l < t.size(); ++l) {
    llvm::PHINode* phi = b.CreatePHI(t[l]->getType(), 2);
    phi->addIncoming(t[l], yes_end);
    phi->addIncoming(f[l], no_end);
    out.push_back(phi);
  }
  return out;
}

template <> Val FnBuilder::form(const ex::Tuple& t, const Exp&) {
  return concat_leaves(t.elems, [&](const Exp& x) { return exp(x); });
}

template <> Val FnBuilder::form(const ex::Proj& p, const Exp& e) {
  return proj_leaves(p, e, exp(*p.tuple));
}

template <> Val FnBuilder::form(const ex::Index& ix, const Exp&) {
  return concat_leaves(ix.components, [&](const Exp& x) { return exp(x); });
}

template <> Val FnBuilder::form(const ex::Cast& c, const Exp&) {
  Value* v = exp(*c.arg)[0];
  return {emit_cast(b, v, c.arg->type.scalar_kind(), c.target)};
}

// (while cond step init): the state as phis of a loop; the next state is
// computed whole before it replaces the old one.
template <> Val FnBuilder::form(const ex::While& w, const Exp&) {
  Val init = exp(*w.init);
  llvm::BasicBlock* pre = b.GetInsertBlock();
  llvm::BasicBlock* head = llvm::BasicBlock::Create(ctx, "while", fn);
  llvm::BasicBlock* step = llvm::BasicBlock::Create(ctx, "while_step", fn);
  llvm::BasicBlock* done = llvm::BasicBlock::Create(ctx, "while_done", fn);
  b.CreateBr(head);
  b.SetInsertPoint(head);
  ++branches_; // the condition and step run as often as the state says
  std::vector<llvm::PHINode*> phis;
  Val state;
  for (Value* v : init) {
    phis.push_back(b.CreatePHI(v->getType(), 2));
    phis.back()->addIncoming(v, pre);
    state.push_back(phis.back());
  }
  Value* c = apply(w.cond, {state})[0];
  b.CreateCondBr(c, step, done);
  b.SetInsertPoint(step);
  Val next = apply(w.step, {state});
  for (size_t l = 0; l < phis.size(); ++l)
    phis[l]->addIncoming(next[l], b.GetInsertBlock());
  b.CreateBr(head);
  b.SetInsertPoint(done);
  --branches_;
  return state;
}

template <> Val FnBuilder::form(const ex::ShapeOf& s, const Exp&) {
  int id = array_id(*s.array);
  return shape(id, graph.arrays[size_t(id)].type.rank());
}

template <> Val FnBuilder::form(const ex::SizeOf& s, const Exp&) {
  return {size(array_id(*s.array))};
}

template <> Val FnBuilder::form(const ex::The& t, const Exp&) {
  int id = array_id(*t.array);
  return load_elem(id, graph.arrays[size_t(id)].type.elem(), i64(0));
}

template <> Val FnBuilder::form(const ex::Read& r, const Exp& e) {
  int id = array_id(*r.array);
  const Type& t = graph.arrays[size_t(id)].type;
  Val ix = exp(*r.index);
  Val sh = shape(id, t.rank());
  if (checked && !ix.empty() && !check_per_chunk(ix, sh)) {
    Value* bad = b.getFalse();
    for (size_t k = 0; k < ix.size(); ++k)
      bad = b.CreateOr(bad, b.CreateICmpUGE(ix[k], sh[k])); // negative: huge unsigned
    Site s{Site::Kind::Read, e.loc};
    s.array_id = id;
    s.rank = int(ix.size());
    describe_site(s, e, graph);
    fail_if(bad, s, ix);
  }
  return load_elem(id, t.elem(), to_linear(sh, ix));
}

template <> Val FnBuilder::form(const ex::LinearRead& r, const Exp& e) {
  int id = array_id(*r.array);
  Value* i = exp(*r.index)[0];
  if (checked && !check_per_chunk({i}, {size(id)})) {
    Site s{Site::Kind::LinearRead, e.loc};
    s.array_id = id;
    describe_site(s, e, graph);
    fail_if(b.CreateICmpUGE(i, size(id)), s, {i});
  }
  return load_elem(id, graph.arrays[size_t(id)].type.elem(), i);
}

template <> Val FnBuilder::form(const ex::ToIndex& t, const Exp& e) {
  Val sh = exp(*t.shape), ix = exp(*t.index);
  if (checked && !ix.empty()) {
    Value* bad = b.getFalse();
    for (size_t k = 0; k < ix.size(); ++k)
      bad = b.CreateOr(bad,
                       b.CreateOr(b.CreateICmpSLT(ix[k], i64(0)), b.CreateICmpSGE(ix[k], sh[k])));
    Site s{Site::Kind::ToIndex, e.loc};
    s.rank = int(ix.size());
    describe_site(s, e, graph);
    if (s.rank > kPayloadSlots / 2)
      throw Error(ErrorKind::Type, e.loc, "jit: to-index of rank above 8 is not supported");
    Val payload = sh;
    payload.insert(payload.end(), ix.begin(), ix.end());
    fail_if(bad, s, payload);
  }
  return {to_linear(sh, ix)};
}

template <> Val FnBuilder::form(const ex::FromIndex& f, const Exp& e) {
  Val sh = exp(*f.shape);
  Value* i = exp(*f.index)[0];
  if (checked) {
    Value* total = i64(1);
    for (Value* x : sh)
      total = b.CreateMul(total, x);
    Site s{Site::Kind::FromIndex, e.loc};
    s.rank = int(sh.size());
    describe_site(s, e, graph);
    if (s.rank >= kPayloadSlots)
      throw Error(ErrorKind::Type, e.loc, "jit: from-index of rank above 15 is not supported");
    Val payload{i};
    payload.insert(payload.end(), sh.begin(), sh.end());
    fail_if(b.CreateOr(b.CreateICmpSLT(i, i64(0)), b.CreateICmpSGE(i, total)), s, payload);
  }
  return from_linear(sh, i);
}

template <> Val FnBuilder::form(const ex::Ignore& i, const Exp&) {
  return Val(size_t(i.rank), i64(-1));
}

template <> Val FnBuilder::form(const ex::Trace& t, const Exp&) {
  return exp(*t.arg);
}

template <> Val FnBuilder::form(const ex::PrimApp& p, const Exp& e) {
  return prim(p, e);
}

template <> Val FnBuilder::form(const ex::Call&, const Exp& e) {
  unexpanded_call(e.loc); // checking expanded it
}

// A window read: each coordinate of (center + offset) through the boundary.
template <> Val FnBuilder::form(const ex::At& at, const Exp& e) {
  if (!window) throw Error(ErrorKind::Type, e.loc, "jit: `at` outside a stencil");
  const Window& w = *window;
  int rank = int(w.center.size());
  Val sh = shape(w.array, rank);
  const Type& elem = graph.arrays[size_t(w.array)].type.elem();
  if (w.interior) {
    Val ix;
    for (int k = 0; k < rank; ++k)
      ix.push_back(b.CreateAdd(w.center[size_t(k)], i64(at.offsets[size_t(k)])));
    return load_elem(w.array, elem, to_linear(sh, ix));
  }
  // Each mapping is the identity on indices inside [0, n): no test for them.
  Value* outside = b.getFalse();
  Val ix;
  for (int k = 0; k < rank; ++k) {
    Value* i = b.CreateAdd(w.center[size_t(k)], i64(at.offsets[size_t(k)]));
    Value* n = sh[size_t(k)];
    Value* mapped = i;
    switch (w.boundary.kind) {
    case ac::BoundaryKind::Clamp: {
      Value* lo = b.CreateBinaryIntrinsic(llvm::Intrinsic::smax, i, i64(0));
      Value* last = b.CreateSub(n, i64(1));
      mapped = b.CreateBinaryIntrinsic(llvm::Intrinsic::smin, lo, last);
      break;
    }
    case ac::BoundaryKind::Wrap: {
      Value* r = b.CreateSRem(i, n);
      mapped = b.CreateSRem(b.CreateAdd(r, n), n);
      break;
    }
    case ac::BoundaryKind::Mirror: {
      Value* one = b.CreateICmpEQ(n, i64(1));
      Value* period = b.CreateSelect(one, i64(1), b.CreateMul(i64(2), b.CreateSub(n, i64(1))));
      Value* r = b.CreateSRem(b.CreateAdd(b.CreateSRem(i, period), period), period);
      Value* m = b.CreateSelect(b.CreateICmpSLT(r, n), r, b.CreateSub(period, r));
      mapped = b.CreateSelect(one, i64(0), m);
      break;
    }
    case ac::BoundaryKind::Constant: {
      Value* in = b.CreateAnd(b.CreateICmpSGE(i, i64(0)), b.CreateICmpSLT(i, n));
      outside = b.CreateOr(outside, b.CreateNot(in));
      mapped = b.CreateSelect(in, i, i64(0));
      break;
    }
    }
    ix.push_back(mapped);
  }
  if (w.boundary.kind != ac::BoundaryKind::Constant)
    return load_elem(w.array, elem, to_linear(sh, ix));
  // Read only inside: the position of an outside read may be past the end.
  llvm::BasicBlock* read = llvm::BasicBlock::Create(ctx, "at_read", fn);
  llvm::BasicBlock* join = llvm::BasicBlock::Create(ctx, "at_join", fn);
  llvm::BasicBlock* from = b.GetInsertBlock();
  b.CreateCondBr(outside, join, read);
  b.SetInsertPoint(read);
  Val v = load_elem(w.array, elem, to_linear(sh, ix));
  llvm::BasicBlock* read_end = b.GetInsertBlock();
  b.CreateBr(join);
  b.SetInsertPoint(join);
  Val out;
  for (size_t l = 0; l < v.size(); ++l) {
    llvm::PHINode* phi = b.CreatePHI(v[l]->getType(), 2);
    phi->addIncoming(w.constant[l], from);
    phi->addIncoming(v[l], read_end);
    out.push_back(phi);
  }
  return out;
}

// After every specialisation of `form`, which it instantiates.
Val FnBuilder::exp(const Exp& e) {
  return std::visit([&](const auto& n) { return form(n, e); }, e.node);
}

} // namespace strata::jit
