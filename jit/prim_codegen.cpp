// The primitives `(op e ...)` as LLVM IR, one case per primitive, following
// core/semantics.h exactly (see the notes there for each definition).
#include <llvm/IR/Intrinsics.h>

#include "jit/fn_builder.h"

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
  Value* r = exp(*p.args[1])[0];
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
  llvm::Type* t = a->getType();
  bool fl = is_float(k), sg = is_signed(k);
  auto zero = [&] { return fl ? llvm::ConstantFP::get(t, 0.0) : llvm::ConstantInt::get(t, 0); };
  auto isnan = [&](Value* v) { return b.CreateFCmpUNO(v, v); };
  auto less = [&](Value* x, Value* y) {
    if (fl) return b.CreateFCmpOLT(x, y);
    return sg ? b.CreateICmpSLT(x, y) : b.CreateICmpULT(x, y);
  };
  auto int_c = [&](int64_t v) { return llvm::ConstantInt::get(t, uint64_t(v), true); };
  // Integer division: the divisor checked, then replaced by 1 where it is 0
  // or -1 (MIN / -1 is undefined in LLVM), the -1 case computed apart.
  auto divide = [&](bool want_rem) -> Value* {
    Value* is0 = b.CreateICmpEQ(c, int_c(0));
    if (checked) {
      Site s{Site::Kind::DivisionByZero, e.loc};
      s.op = p.op;
      s.operand = k;
      describe_site(s, e, graph);
      fail_if(is0, s, {a, c});
    }
    if (!sg) {
      Value* d = b.CreateSelect(is0, int_c(1), c);
      return want_rem ? b.CreateURem(a, d) : b.CreateUDiv(a, d);
    }
    Value* m1 = b.CreateICmpEQ(c, int_c(-1));
    Value* d = b.CreateSelect(b.CreateOr(is0, m1), int_c(1), c);
    if (want_rem) return b.CreateSelect(m1, int_c(0), b.CreateSRem(a, d));
    return b.CreateSelect(m1, b.CreateSub(int_c(0), a), b.CreateSDiv(a, d));
  };
  switch (p.op) {
  case Prim::Add: return {fl ? b.CreateFAdd(a, c) : b.CreateAdd(a, c)};
  case Prim::Sub: return {fl ? b.CreateFSub(a, c) : b.CreateSub(a, c)};
  case Prim::Mul: return {fl ? b.CreateFMul(a, c) : b.CreateMul(a, c)};
  case Prim::Neg: return {fl ? b.CreateFNeg(a) : b.CreateSub(zero(), a)};
  case Prim::Abs:
    if (fl) return {intrinsic(llvm::Intrinsic::fabs, {a}, {t})};
    if (!sg) return {a};
    return {b.CreateSelect(b.CreateICmpSLT(a, zero()), b.CreateSub(zero(), a), a)};
  case Prim::Signum: {
    if (fl) {
      Value *one = llvm::ConstantFP::get(t, 1.0), *m1 = llvm::ConstantFP::get(t, -1.0);
      return {b.CreateSelect(b.CreateFCmpOGT(a, zero()), one,
                             b.CreateSelect(b.CreateFCmpOLT(a, zero()), m1, a))};
    }
    Value* pos = sg ? b.CreateICmpSGT(a, zero()) : b.CreateICmpNE(a, zero());
    Value* neg = sg ? b.CreateICmpSLT(a, zero()) : b.getFalse();
    return {b.CreateSelect(pos, int_c(1), b.CreateSelect(neg, int_c(-1), zero()))};
  }
  case Prim::Min:
  case Prim::Max: {
    Value* better = p.op == Prim::Min ? less(c, a) : less(a, c);
    Value* r = b.CreateSelect(better, c, a);
    if (fl) {
      r = b.CreateSelect(isnan(c), a, r);
      r = b.CreateSelect(isnan(a), c, r);
    }
    return {r};
  }
  case Prim::Div: return {b.CreateFDiv(a, c)};
  case Prim::Quot: return {divide(false)};
  case Prim::Rem: return {divide(true)};
  case Prim::IDiv: {
    Value* q = divide(false);
    if (!sg) return {q};
    Value* r =
        b.CreateSelect(b.CreateICmpEQ(c, int_c(-1)), int_c(0),
                       b.CreateSRem(a, b.CreateSelect(b.CreateOr(b.CreateICmpEQ(c, int_c(0)),
                                                                 b.CreateICmpEQ(c, int_c(-1))),
                                                      int_c(1), c)));
    Value* adjust =
        b.CreateAnd(b.CreateICmpNE(r, zero()),
                    b.CreateICmpNE(b.CreateICmpSLT(a, zero()), b.CreateICmpSLT(c, zero())));
    return {b.CreateSelect(adjust, b.CreateSub(q, int_c(1)), q)};
  }
  case Prim::Mod: {
    Value* r = divide(true);
    if (!sg) return {r};
    Value* adjust =
        b.CreateAnd(b.CreateICmpNE(r, zero()),
                    b.CreateICmpNE(b.CreateICmpSLT(r, zero()), b.CreateICmpSLT(c, zero())));
    return {b.CreateSelect(adjust, b.CreateAdd(r, c), r)};
  }
  case Prim::Eq: return {fl ? b.CreateFCmpOEQ(a, c) : b.CreateICmpEQ(a, c)};
  case Prim::Ne: return {fl ? b.CreateFCmpUNE(a, c) : b.CreateICmpNE(a, c)};
  case Prim::Lt: return {less(a, c)};
  case Prim::Le:
    if (fl) return {b.CreateFCmpOLE(a, c)};
    return {sg ? b.CreateICmpSLE(a, c) : b.CreateICmpULE(a, c)};
  case Prim::Gt: return {less(c, a)};
  case Prim::Ge:
    if (fl) return {b.CreateFCmpOGE(a, c)};
    return {sg ? b.CreateICmpSGE(a, c) : b.CreateICmpUGE(a, c)};
  case Prim::Not: return {b.CreateNot(a)};
  case Prim::BAnd: return {b.CreateAnd(a, c)};
  case Prim::BOr: return {b.CreateOr(a, c)};
  case Prim::BXor: return {b.CreateXor(a, c)};
  case Prim::BNot: return {b.CreateNot(a)};
  case Prim::Shl:
  case Prim::Shr: {
    Value* amount = b.CreateAnd(c, int_c(bit_width(k) - 1));
    if (p.op == Prim::Shl) return {b.CreateShl(a, amount)};
    return {sg ? b.CreateAShr(a, amount) : b.CreateLShr(a, amount)};
  }
  case Prim::Popcount: return {intrinsic(llvm::Intrinsic::ctpop, {a}, {t})};
  case Prim::Clz: return {intrinsic(llvm::Intrinsic::ctlz, {a, b.getFalse()}, {t})};
  case Prim::Ctz: return {intrinsic(llvm::Intrinsic::cttz, {a, b.getFalse()}, {t})};
  case Prim::Sqrt: return {intrinsic(llvm::Intrinsic::sqrt, {a}, {t})};
  case Prim::Exp: return {libm("exp", k, {a})};
  case Prim::Log: return {libm("log", k, {a})};
  case Prim::Sin: return {libm("sin", k, {a})};
  case Prim::Cos: return {libm("cos", k, {a})};
  case Prim::Tan: return {libm("tan", k, {a})};
  case Prim::Asin: return {libm("asin", k, {a})};
  case Prim::Acos: return {libm("acos", k, {a})};
  case Prim::Atan: return {libm("atan", k, {a})};
  case Prim::Sinh: return {libm("sinh", k, {a})};
  case Prim::Cosh: return {libm("cosh", k, {a})};
  case Prim::Tanh: return {libm("tanh", k, {a})};
  case Prim::Atan2: return {libm("atan2", k, {a, c})};
  case Prim::Pow: return {libm("pow", k, {a, c})};
  case Prim::Floor: return {intrinsic(llvm::Intrinsic::floor, {a}, {t})};
  case Prim::Ceil: return {intrinsic(llvm::Intrinsic::ceil, {a}, {t})};
  case Prim::Round: return {intrinsic(llvm::Intrinsic::round, {a}, {t})};
  case Prim::Trunc: return {intrinsic(llvm::Intrinsic::trunc, {a}, {t})};
  case Prim::IsNaN: return {isnan(a)};
  case Prim::IsInf: {
    Value* m = intrinsic(llvm::Intrinsic::fabs, {a}, {t});
    return {b.CreateFCmpOEQ(m, llvm::ConstantFP::getInfinity(t))};
  }
  case Prim::And:
  case Prim::Or: break;
  }
  throw Error(ErrorKind::Type, e.loc, "jit: unknown primitive");
}

} // namespace strata::jit
