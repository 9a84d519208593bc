// The pinned semantics of the scalar operations (docs/language.md, Pinned semantics;
// core/semantics.h) as LLVM IR, shared by the scalar code generator
// (jit/scalar_codegen.cpp, jit/prim_codegen.cpp) and the lane code generator
// (jit/lane_codegen.cpp): the primitives but `and`/`or` (control flow in one,
// masks in the other), casts, and the intrinsic and C library calls they use.
//
// Every function here takes its operands as they are, either scalars or
// fixed vectors of them (one lane per element), and emits the same
// instructions for both (IRBuilder's Create* and the intrinsics used are
// polymorphic over the two; a C library function is called once per lane).
// So a lane computes exactly what the scalar code computes for its element:
// integers wrap (no nsw/nuw), shift amounts are masked, integer divisors are
// replaced by 1 where 0 or -1 (the -1 case computed apart), float -> int
// casts saturate (llvm.fptosi.sat / fptoui.sat), float min/max are
// compare-and-select returning the non-NaN operand, and no fast-math flag is
// set.
#pragma once

#include <functional>
#include <vector>

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>

#include "core/prim.h"
#include "core/scalar.h"

namespace strata::jit {

// `s` as an LLVM constant of its register type (i1 for bool).
llvm::Constant* scalar_constant(llvm::LLVMContext& ctx, const Scalar& s);

// The register type of `k` (i1 for bool), or a vector of it with as many
// lanes as `like` has where `like` is a vector.
llvm::Type* reg_type_like(ScalarKind k, llvm::Type* like);

// A call to the overloaded intrinsic `id`.
llvm::Value* emit_intrinsic(llvm::IRBuilder<>& b, llvm::Intrinsic::ID id,
                            const std::vector<llvm::Value*>& args,
                            const std::vector<llvm::Type*>& types);

// The C library's function `name` (`sinf` for f32), exactly as the
// interpreter's std:: call, once per lane for vector operands; `nobuiltin`
// keeps LLVM from replacing it (for example pow(2, x) by exp2(x)) or
// vectorising it, either of which could change the last bit.
llvm::Value* emit_libm(llvm::IRBuilder<>& b, const char* name, ScalarKind k,
                       const std::vector<llvm::Value*>& args);

// (cast to v) for `v` of kind `from`.
llvm::Value* emit_cast(llvm::IRBuilder<>& b, llvm::Value* v, ScalarKind from, ScalarKind to);

// sem::canonical(v) for a value of kind `k` (scalar or vector): a float
// NaN becomes the one canonical quiet NaN (an unordered compare and a
// select); any other value is returned as it is. Every store of a computed
// float goes through it, so the quick and the optimised tier (which folds
// constants where the quick one computes) store the same bits.
llvm::Value* emit_canonical(llvm::IRBuilder<>& b, ScalarKind k, llvm::Value* v);

// Called before an integer division (quot, rem, div, mod) with the divisor's
// "is zero" (i1, or a vector of i1): the scalar path's checked division site.
// Empty: unchecked, a zero divisor is replaced as above.
using ZeroDivisorCheck = std::function<void(llvm::Value* is_zero)>;

// (op a c) for operands of kind `k` (`c` null for a unary primitive).
// Null for `and` and `or`, which the callers emit themselves.
llvm::Value* emit_prim(llvm::IRBuilder<>& b, Prim op, ScalarKind k, llvm::Value* a, llvm::Value* c,
                       const ZeroDivisorCheck& check_divisor);

} // namespace strata::jit
