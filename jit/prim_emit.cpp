#include "jit/prim_emit.h"

#include <cstring>
#include <string>

#include <llvm/IR/Intrinsics.h>

#include "jit/fn_builder.h"

namespace strata::jit {

using llvm::Value;

llvm::Constant* scalar_constant(llvm::LLVMContext& ctx, const Scalar& s) {
  llvm::Type* t = reg_type(ctx, s.kind());
  if (s.kind() == ScalarKind::Bool) return llvm::ConstantInt::getBool(ctx, s.get<bool>());
  if (s.kind() == ScalarKind::F32) return llvm::ConstantFP::get(t, double(s.get<float>()));
  if (s.kind() == ScalarKind::F64) return llvm::ConstantFP::get(t, s.get<double>());
  uint64_t bits = 0;
  std::memcpy(&bits, s.data(), scalar_size(s.kind()));
  return llvm::ConstantInt::get(t, bits);
}

llvm::Type* reg_type_like(ScalarKind k, llvm::Type* like) {
  llvm::Type* t = reg_type(like->getContext(), k);
  if (auto* v = llvm::dyn_cast<llvm::VectorType>(like))
    return llvm::VectorType::get(t, v->getElementCount());
  return t;
}

Value* emit_intrinsic(llvm::IRBuilder<>& b, llvm::Intrinsic::ID id, const std::vector<Value*>& args,
                      const std::vector<llvm::Type*>& types) {
  llvm::Module* mod = b.GetInsertBlock()->getModule();
  return b.CreateCall(llvm::Intrinsic::getDeclaration(mod, id, types), args);
}

Value* emit_libm(llvm::IRBuilder<>& b, const char* name, ScalarKind k,
                 const std::vector<Value*>& args) {
  std::string n = name;
  if (k == ScalarKind::F32) n += "f";
  llvm::Type* t = reg_type(b.getContext(), k);
  std::vector<llvm::Type*> params(args.size(), t);
  llvm::Module* mod = b.GetInsertBlock()->getModule();
  llvm::FunctionCallee callee =
      mod->getOrInsertFunction(n, llvm::FunctionType::get(t, params, false));
  if (auto* f = llvm::dyn_cast<llvm::Function>(callee.getCallee())) {
    f->addFnAttr(llvm::Attribute::NoUnwind);
    f->addFnAttr(llvm::Attribute::WillReturn);
  }
  auto call = [&](const std::vector<Value*>& scalars) {
    llvm::CallInst* c = b.CreateCall(callee, scalars);
    c->addFnAttr(llvm::Attribute::NoBuiltin);
    return c;
  };
  auto* vt = llvm::dyn_cast<llvm::FixedVectorType>(args[0]->getType());
  if (!vt) return call(args);
  Value* out = llvm::PoisonValue::get(vt);
  for (unsigned lane = 0; lane < vt->getNumElements(); ++lane) {
    std::vector<Value*> scalars;
    for (Value* a : args)
      scalars.push_back(b.CreateExtractElement(a, uint64_t(lane)));
    out = b.CreateInsertElement(out, call(scalars), uint64_t(lane));
  }
  return out;
}

Value* emit_canonical(llvm::IRBuilder<>& b, ScalarKind k, Value* v) {
  if (!is_float(k)) return v;
  Value* nan = llvm::ConstantFP::getQNaN(v->getType()); // positive, no payload
  return b.CreateSelect(b.CreateFCmpUNO(v, v), nan, v);
}

Value* emit_cast(llvm::IRBuilder<>& b, Value* v, ScalarKind from, ScalarKind to) {
  llvm::Type* t = reg_type_like(to, v->getType());
  if (from == to) return v;
  if (to == ScalarKind::Bool) {
    if (is_float(from)) return b.CreateFCmpUNE(v, llvm::ConstantFP::get(v->getType(), 0.0));
    return b.CreateICmpNE(v, llvm::ConstantInt::get(v->getType(), 0));
  }
  if (from == ScalarKind::Bool) return is_float(to) ? b.CreateUIToFP(v, t) : b.CreateZExt(v, t);
  if (is_float(from) && is_float(to)) return b.CreateFPCast(v, t);
  if (is_float(to)) return is_signed(from) ? b.CreateSIToFP(v, t) : b.CreateUIToFP(v, t);
  if (is_float(from))
    return emit_intrinsic(b,
                          is_signed(to) ? llvm::Intrinsic::fptosi_sat : llvm::Intrinsic::fptoui_sat,
                          {v}, {t, v->getType()});
  return b.CreateIntCast(v, t, is_signed(from));
}

Value* emit_prim(llvm::IRBuilder<>& b, Prim op, ScalarKind k, Value* a, Value* c,
                 const ZeroDivisorCheck& check_divisor) {
  llvm::Type* t = a->getType();
  bool fl = is_float(k), sg = is_signed(k);
  auto intrinsic = [&](llvm::Intrinsic::ID id, const std::vector<Value*>& args) {
    return emit_intrinsic(b, id, args, {t});
  };
  auto zero = [&]() -> Value* {
    return fl ? llvm::ConstantFP::get(t, 0.0) : llvm::ConstantInt::get(t, 0);
  };
  auto isnan = [&](Value* v) { return b.CreateFCmpUNO(v, v); };
  auto less = [&](Value* x, Value* y) {
    if (fl) return b.CreateFCmpOLT(x, y);
    return sg ? b.CreateICmpSLT(x, y) : b.CreateICmpULT(x, y);
  };
  auto int_c = [&](int64_t v) { return llvm::ConstantInt::get(t, uint64_t(v), true); };
  // Integer division: the divisor checked (the scalar path, checked), then
  // replaced by 1 where it is 0 or -1 (MIN / -1 is undefined in LLVM), the -1
  // case computed apart.
  auto divide = [&](bool want_rem) -> Value* {
    Value* is0 = b.CreateICmpEQ(c, int_c(0));
    if (check_divisor) check_divisor(is0);
    if (!sg) {
      Value* d = b.CreateSelect(is0, int_c(1), c);
      return want_rem ? b.CreateURem(a, d) : b.CreateUDiv(a, d);
    }
    Value* m1 = b.CreateICmpEQ(c, int_c(-1));
    Value* d = b.CreateSelect(b.CreateOr(is0, m1), int_c(1), c);
    if (want_rem) return b.CreateSelect(m1, int_c(0), b.CreateSRem(a, d));
    return b.CreateSelect(m1, b.CreateSub(int_c(0), a), b.CreateSDiv(a, d));
  };
  switch (op) {
  case Prim::Add: return fl ? b.CreateFAdd(a, c) : b.CreateAdd(a, c);
  case Prim::Sub: return fl ? b.CreateFSub(a, c) : b.CreateSub(a, c);
  case Prim::Mul: return fl ? b.CreateFMul(a, c) : b.CreateMul(a, c);
  case Prim::Neg: return fl ? b.CreateFNeg(a) : b.CreateSub(zero(), a);
  case Prim::Abs:
    if (fl) return intrinsic(llvm::Intrinsic::fabs, {a});
    if (!sg) return a;
    return b.CreateSelect(b.CreateICmpSLT(a, zero()), b.CreateSub(zero(), a), a);
  case Prim::Signum: {
    if (fl) {
      Value *one = llvm::ConstantFP::get(t, 1.0), *m1 = llvm::ConstantFP::get(t, -1.0);
      return b.CreateSelect(b.CreateFCmpOGT(a, zero()), one,
                            b.CreateSelect(b.CreateFCmpOLT(a, zero()), m1, a));
    }
    Value* pos = sg ? b.CreateICmpSGT(a, zero()) : b.CreateICmpNE(a, zero());
    Value* neg = sg ? b.CreateICmpSLT(a, zero())
                    : llvm::ConstantInt::getFalse(reg_type_like(ScalarKind::Bool, t));
    return b.CreateSelect(pos, int_c(1), b.CreateSelect(neg, int_c(-1), zero()));
  }
  case Prim::Min:
  case Prim::Max: {
    Value* better = op == Prim::Min ? less(c, a) : less(a, c);
    Value* r = b.CreateSelect(better, c, a);
    if (fl) {
      r = b.CreateSelect(isnan(c), a, r);
      r = b.CreateSelect(isnan(a), c, r);
    }
    return r;
  }
  case Prim::Div: return b.CreateFDiv(a, c);
  case Prim::Quot: return divide(false);
  case Prim::Rem: return divide(true);
  case Prim::IDiv: {
    Value* q = divide(false);
    if (!sg) return q;
    Value* r =
        b.CreateSelect(b.CreateICmpEQ(c, int_c(-1)), int_c(0),
                       b.CreateSRem(a, b.CreateSelect(b.CreateOr(b.CreateICmpEQ(c, int_c(0)),
                                                                 b.CreateICmpEQ(c, int_c(-1))),
                                                      int_c(1), c)));
    Value* adjust =
        b.CreateAnd(b.CreateICmpNE(r, zero()),
                    b.CreateICmpNE(b.CreateICmpSLT(a, zero()), b.CreateICmpSLT(c, zero())));
    return b.CreateSelect(adjust, b.CreateSub(q, int_c(1)), q);
  }
  case Prim::Mod: {
    Value* r = divide(true);
    if (!sg) return r;
    Value* adjust =
        b.CreateAnd(b.CreateICmpNE(r, zero()),
                    b.CreateICmpNE(b.CreateICmpSLT(r, zero()), b.CreateICmpSLT(c, zero())));
    return b.CreateSelect(adjust, b.CreateAdd(r, c), r);
  }
  case Prim::Eq: return fl ? b.CreateFCmpOEQ(a, c) : b.CreateICmpEQ(a, c);
  case Prim::Ne: return fl ? b.CreateFCmpUNE(a, c) : b.CreateICmpNE(a, c);
  case Prim::Lt: return less(a, c);
  case Prim::Le:
    if (fl) return b.CreateFCmpOLE(a, c);
    return sg ? b.CreateICmpSLE(a, c) : b.CreateICmpULE(a, c);
  case Prim::Gt: return less(c, a);
  case Prim::Ge:
    if (fl) return b.CreateFCmpOGE(a, c);
    return sg ? b.CreateICmpSGE(a, c) : b.CreateICmpUGE(a, c);
  case Prim::Not: return b.CreateNot(a);
  case Prim::BAnd: return b.CreateAnd(a, c);
  case Prim::BOr: return b.CreateOr(a, c);
  case Prim::BXor: return b.CreateXor(a, c);
  case Prim::BNot: return b.CreateNot(a);
  case Prim::Shl:
  case Prim::Shr: {
    Value* amount = b.CreateAnd(c, int_c(bit_width(k) - 1));
    if (op == Prim::Shl) return b.CreateShl(a, amount);
    return sg ? b.CreateAShr(a, amount) : b.CreateLShr(a, amount);
  }
  case Prim::Popcount: return intrinsic(llvm::Intrinsic::ctpop, {a});
  case Prim::Clz: return intrinsic(llvm::Intrinsic::ctlz, {a, b.getFalse()});
  case Prim::Ctz: return intrinsic(llvm::Intrinsic::cttz, {a, b.getFalse()});
  case Prim::Sqrt: return intrinsic(llvm::Intrinsic::sqrt, {a});
  case Prim::Exp: return emit_libm(b, "exp", k, {a});
  case Prim::Log: return emit_libm(b, "log", k, {a});
  case Prim::Sin: return emit_libm(b, "sin", k, {a});
  case Prim::Cos: return emit_libm(b, "cos", k, {a});
  case Prim::Tan: return emit_libm(b, "tan", k, {a});
  case Prim::Asin: return emit_libm(b, "asin", k, {a});
  case Prim::Acos: return emit_libm(b, "acos", k, {a});
  case Prim::Atan: return emit_libm(b, "atan", k, {a});
  case Prim::Sinh: return emit_libm(b, "sinh", k, {a});
  case Prim::Cosh: return emit_libm(b, "cosh", k, {a});
  case Prim::Tanh: return emit_libm(b, "tanh", k, {a});
  case Prim::Atan2: return emit_libm(b, "atan2", k, {a, c});
  case Prim::Pow: return emit_libm(b, "pow", k, {a, c});
  case Prim::Floor: return intrinsic(llvm::Intrinsic::floor, {a});
  case Prim::Ceil: return intrinsic(llvm::Intrinsic::ceil, {a});
  case Prim::Round: return intrinsic(llvm::Intrinsic::round, {a});
  case Prim::Trunc: return intrinsic(llvm::Intrinsic::trunc, {a});
  case Prim::IsNaN: return isnan(a);
  case Prim::IsInf:
    return b.CreateFCmpOEQ(intrinsic(llvm::Intrinsic::fabs, {a}), llvm::ConstantFP::getInfinity(t));
  case Prim::And:
  case Prim::Or: break;
  }
  return nullptr;
}

} // namespace strata::jit
