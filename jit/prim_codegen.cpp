// The primitives `(op e ...)` as LLVM IR on the scalar path: `and` and `or`
// as control flow, the others through jit/prim_emit.h (shared with the lane
// path), which follows core/semantics.h exactly.
#include "jit/fn_builder.h"
#include "jit/prim_emit.h"

namespace strata::jit {

using llvm::Value;

// (and a b) = (if a b false); (or a b) = (if a true b): b runs only when needed.
Val FnBuilder::short_circuit(const ex::PrimApp& p) {
  Value* a = exp(*p.args[0])[0];
  llvm::BasicBlock* from = b.GetInsertBlock();
  llvm::BasicBlock* rhs = llvm::BasicBlock::Create(ctx, "rhs", fn);
  llvm::BasicBlock* join = llvm::BasicBlock::Create(ctx, "sc_join", fn);
  bool is_and = p.op == Prim::And;
  if (is_and)
    b.CreateCondBr(a, rhs, join);
  else
    b.CreateCondBr(a, join, rhs);
  b.SetInsertPoint(rhs);
  ++branches_;
  Value* r = exp(*p.args[1])[0];
  --branches_;
  llvm::BasicBlock* rhs_end = b.GetInsertBlock();
  b.CreateBr(join);
  b.SetInsertPoint(join);
  llvm::PHINode* phi = b.CreatePHI(b.getInt1Ty(), 2);
  phi->addIncoming(b.getInt1(!is_and), from);
  phi->addIncoming(r, rhs_end);
  return {phi};
}

Val FnBuilder::prim(const ex::PrimApp& p, const Exp& e) {
  if (p.op == Prim::And || p.op == Prim::Or) return short_circuit(p);
  ScalarKind k = p.args[0]->type.scalar_kind();
  Value* a = exp(*p.args[0])[0];
  Value* c = p.args.size() > 1 ? exp(*p.args[1])[0] : nullptr;
  // Checked integer division: the divisor's site (the lane path has none).
  ZeroDivisorCheck check;
  if (checked)
    check = [&](Value* is0) {
      Site s{Site::Kind::DivisionByZero, e.loc};
      s.op = p.op;
      s.operand = k;
      describe_site(s, e, graph);
      fail_if(is0, s, {a, c});
    };
  if (Value* r = emit_prim(b, p.op, k, a, c, check)) return {r};
  throw Error(ErrorKind::Type, e.loc, "jit: unknown primitive");
}

} // namespace strata::jit
