// Faults in scalar code: the arithmetic, comparison, bitwise and conversion
// rules of docs/language.md, Pinned semantics, that a code generator most easily gets wrong.
#include "oracle/faults/catalog.h"

namespace strata::faults {
namespace {

ex::PrimApp* prim(Exp& e, std::initializer_list<Prim> ops) {
  auto* p = std::get_if<ex::PrimApp>(&e.node);
  if (!p) return nullptr;
  for (Prim op : ops)
    if (p->op == op) return p;
  return nullptr;
}

ScalarKind arg_kind(const ex::PrimApp& p) {
  return p.args[0]->type.scalar_kind();
}

std::string name(Prim op) {
  return std::string(prim_name(op));
}

// The same-width signed / unsigned kind.
ScalarKind signed_kind(ScalarKind k) {
  switch (bit_width(k)) {
  case 8: return ScalarKind::I8;
  case 16: return ScalarKind::I16;
  case 32: return ScalarKind::I32;
  default: return ScalarKind::I64;
  }
}
ScalarKind unsigned_kind(ScalarKind k) {
  switch (bit_width(k)) {
  case 8: return ScalarKind::U8;
  case 16: return ScalarKind::U16;
  case 32: return ScalarKind::U32;
  default: return ScalarKind::U64;
  }
}
std::string kind(ScalarKind k) {
  return std::string(scalar_name(k));
}

} // namespace

void add_scalar_faults(std::vector<Fault>& out) {
  out.push_back({"div_truncates",
                 "integer `div` rounds toward zero (like `quot`) instead of down",
                 [](Exp& e, RewriteContext&) -> std::optional<std::string> {
                   if (auto* p = prim(e, {Prim::IDiv}); p && is_signed(arg_kind(*p)))
                     p->op = Prim::Quot;
                   return std::nullopt;
                 },
                 {},
                 {},
                 false,
                 "(program () (unit (div -7 2)))"});

  out.push_back({"mod_sign_of_dividend",
                 "integer `mod` takes the sign of the dividend (like `rem`), not of the divisor",
                 [](Exp& e, RewriteContext&) -> std::optional<std::string> {
                   if (auto* p = prim(e, {Prim::Mod}); p && is_signed(arg_kind(*p)))
                     p->op = Prim::Rem;
                   return std::nullopt;
                 },
                 {},
                 {},
                 false,
                 "(program () (unit (mod -7 2)))"});

  out.push_back({"saturating_cast_wraps",
                 "float -> integer casts saturate at the i64 range, then wrap to the target",
                 [](Exp& e, RewriteContext&) -> std::optional<std::string> {
                   auto* c = std::get_if<ex::Cast>(&e.node);
                   if (!c || !is_integral(c->target) || c->target == ScalarKind::I64) return {};
                   if (!is_float(c->arg->type.scalar_kind())) return {};
                   return "(cast " + kind(c->target) + " (cast i64 " + text(*c->arg) + "))";
                 },
                 {},
                 {},
                 false,
                 "(program () (unit (cast i8 300.0)))"});

  out.push_back({"int_to_f64_via_f32",
                 "integer -> f64 casts round through f32 (rounding twice)",
                 [](Exp& e, RewriteContext&) -> std::optional<std::string> {
                   auto* c = std::get_if<ex::Cast>(&e.node);
                   if (!c || c->target != ScalarKind::F64) return {};
                   if (!is_integral(c->arg->type.scalar_kind())) return {};
                   return "(cast f64 (cast f32 " + text(*c->arg) + "))";
                 },
                 {},
                 {},
                 false,
                 "(program () (unit (cast f64 16777217i32)))"});

  out.push_back({"max_nan_unordered",
                 "float `min`/`max` as C's `a < b ? a : b`: a NaN second operand wins",
                 [](Exp& e, RewriteContext& c) -> std::optional<std::string> {
                   auto* p = prim(e, {Prim::Min, Prim::Max});
                   if (!p || !is_float(arg_kind(*p))) return {};
                   std::string a = c.fresh(), b = c.fresh();
                   std::string cmp = p->op == Prim::Max ? ">" : "<";
                   return "(let ((" + a + " " + text(*p->args[0]) + ") (" + b + " " +
                          text(*p->args[1]) + ")) (if (" + cmp + " " + a + " " + b + ") " + a +
                          " " + b + "))";
                 },
                 {},
                 {},
                 false,
                 "(program () (unit (max 1.0 nan)))"});

  out.push_back({"unsigned_compare_signed",
                 "`< <= > >=` on unsigned integers compare their bits as signed",
                 [](Exp& e, RewriteContext&) -> std::optional<std::string> {
                   auto* p = prim(e, {Prim::Lt, Prim::Le, Prim::Gt, Prim::Ge});
                   if (!p) return {};
                   ScalarKind k = arg_kind(*p);
                   if (!is_integral(k) || is_signed(k)) return {};
                   std::string s = kind(signed_kind(k));
                   return "(" + name(p->op) + " (cast " + s + " " + text(*p->args[0]) + ") (cast " +
                          s + " " + text(*p->args[1]) + "))";
                 },
                 {},
                 {},
                 false,
                 "(program () (unit (< 1u8 200u8)))"});

  out.push_back({"shift_not_masked",
                 "`shl`/`shr` by the bit width or more give 0 instead of shifting modulo the width",
                 [](Exp& e, RewriteContext& c) -> std::optional<std::string> {
                   auto* p = prim(e, {Prim::Shl, Prim::Shr});
                   if (!p) return {};
                   ScalarKind k = arg_kind(*p);
                   std::string x = c.fresh(), n = c.fresh();
                   return "(let ((" + x + " " + text(*p->args[0]) + ") (" + n + " " +
                          text(*p->args[1]) + ")) (if (< (cast u64 " + n + ") " +
                          literal_text(ScalarKind::U64, bit_width(k)) + ") (" + name(p->op) + " " +
                          x + " " + n + ") " + literal_text(k, 0) + "))";
                 },
                 {},
                 {},
                 false,
                 "(program () (unit (shl 1i32 33i32)))"});

  out.push_back({"shr_logical",
                 "`shr` on signed integers shifts in zeros (logical) instead of the sign bit",
                 [](Exp& e, RewriteContext&) -> std::optional<std::string> {
                   auto* p = prim(e, {Prim::Shr});
                   if (!p || !is_signed(arg_kind(*p))) return {};
                   std::string u = kind(unsigned_kind(arg_kind(*p)));
                   return "(cast " + kind(arg_kind(*p)) + " (shr (cast " + u + " " +
                          text(*p->args[0]) + ") (cast " + u + " " + text(*p->args[1]) + ")))";
                 },
                 {},
                 {},
                 false,
                 "(program () (unit (shr -8i32 1i32)))"});

  out.push_back({"int_add_saturates",
                 "integer `+` saturates at MIN/MAX instead of wrapping",
                 [](Exp& e, RewriteContext& c) -> std::optional<std::string> {
                   auto* p = prim(e, {Prim::Add});
                   if (!p || !is_integral(arg_kind(*p))) return {};
                   ScalarKind k = arg_kind(*p);
                   std::string a = c.fresh(), b = c.fresh(), s = c.fresh();
                   std::string z = literal_text(k, 0);
                   std::string head = "(let ((" + a + " " + text(*p->args[0]) + ") (" + b + " " +
                                      text(*p->args[1]) + ") (" + s + " (+ " + a + " " + b + "))) ";
                   if (!is_signed(k))
                     return head + "(if (< " + s + " " + a + ") " + max_text(k) + " " + s + "))";
                   std::string neg = "(< " + a + " " + z + ")";
                   return head + "(if (and (== " + neg + " (< " + b + " " + z + ")) (/= (< " + s +
                          " " + z + ") " + neg + ")) (if " + neg + " " + min_text(k) + " " +
                          max_text(k) + ") " + s + "))";
                 },
                 {},
                 {},
                 false,
                 "(program () (unit (+ 127i8 1i8)))"});

  out.push_back({"clz_ctz_of_zero",
                 "`clz`/`ctz` of 0 give 0 (as __builtin_clz leaves it) instead of the bit width",
                 [](Exp& e, RewriteContext& c) -> std::optional<std::string> {
                   auto* p = prim(e, {Prim::Clz, Prim::Ctz});
                   if (!p) return {};
                   std::string x = c.fresh(), z = literal_text(arg_kind(*p), 0);
                   return "(let ((" + x + " " + text(*p->args[0]) + ")) (if (== " + x + " " + z +
                          ") " + z + " (" + name(p->op) + " " + x + ")))";
                 },
                 {},
                 {},
                 false,
                 "(program () (unit (clz 0i32)))"});

  out.push_back({"abs_min_saturates",
                 "`abs` of a signed MIN gives MAX instead of wrapping to MIN",
                 [](Exp& e, RewriteContext& c) -> std::optional<std::string> {
                   auto* p = prim(e, {Prim::Abs});
                   if (!p) return {};
                   ScalarKind k = arg_kind(*p);
                   if (!is_integral(k) || !is_signed(k)) return {};
                   std::string x = c.fresh();
                   return "(let ((" + x + " " + text(*p->args[0]) + ")) (if (== " + x + " " +
                          min_text(k) + ") " + max_text(k) + " (abs " + x + ")))";
                 },
                 {},
                 {},
                 false,
                 "(program () (unit (abs -128i8)))"});
}

} // namespace strata::faults
