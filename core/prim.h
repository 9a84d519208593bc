// Scalar primitive operations `(op e ...)` of docs/language.md, Primitives: their
// names in the text form and their arity.
#pragma once

#include <optional>
#include <string_view>

namespace strata {

enum class Prim {
  // arithmetic (any numeric; Div floating only; Quot..Mod integral only)
  Add,
  Sub,
  Mul,
  Neg,
  Abs,
  Signum,
  Min,
  Max,
  Div,
  Quot,
  Rem,
  IDiv,
  Mod,
  // comparison (any scalar) and logic (bool)
  Eq,
  Ne,
  Lt,
  Le,
  Gt,
  Ge,
  And,
  Or,
  Not,
  // bitwise (integral)
  BAnd,
  BOr,
  BXor,
  BNot,
  Shl,
  Shr,
  Popcount,
  Clz,
  Ctz,
  // floating
  Sqrt,
  Exp,
  Log,
  Sin,
  Cos,
  Tan,
  Asin,
  Acos,
  Atan,
  Sinh,
  Cosh,
  Tanh,
  Atan2,
  Pow,
  Floor,
  Ceil,
  Round,
  Trunc,
  IsNaN,
  IsInf,
};

constexpr int kNumPrims = int(Prim::IsInf) + 1;

std::string_view prim_name(Prim p); // text form: "+", "quot", "div" (for IDiv), "isnan", ...
std::optional<Prim> prim_from_name(std::string_view name);
int prim_arity(Prim p);
// exp log sin cos tan asin acos atan sinh cosh tanh atan2 pow: the C
// library's functions (docs/language.md), where an engine's math library may
// differ from the interpreter's in the last bits (Executable::math_ulps).
bool is_libm_function(Prim p);

} // namespace strata
