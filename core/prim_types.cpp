#include "core/prim_types.h"

#include <optional>

#include "core/literal.h"

namespace strata {
namespace {

[[noreturn]] void fail(const SrcLoc& loc, const std::string& message) {
  throw Error(ErrorKind::Type, loc, message);
}

} // namespace

std::string literal_hint(const Exp& e, const Type& want) {
  const auto* c = std::get_if<ex::Const>(&e.node);
  std::optional<Scalar> as =
      c && want.is_scalar() ? exact_literal(c->value, want.scalar_kind()) : std::nullopt;
  return as ? "; write the literal as " + format_literal(*as) : "";
}

Type prim_result_type(const ex::PrimApp& p, const std::vector<Type>& args, const SrcLoc& loc) {
  const Type kBool = Type::scalar(ScalarKind::Bool);
  std::string op = "`" + std::string(prim_name(p.op)) + "`";
  if (int(args.size()) != prim_arity(p.op))
    fail(loc, op + " takes " + std::to_string(prim_arity(p.op)) + " operand(s), found " +
                  std::to_string(args.size()));
  for (size_t i = 0; i < args.size(); ++i)
    if (!args[i].is_scalar())
      fail(p.args[i]->loc, op + ": expected a scalar operand, found " + args[i].str());
  for (size_t i = 1; i < args.size(); ++i)
    if (args[i] != args[0]) {
      std::string message = op + " expects operands of the same type, found " + args[0].str() +
                            " and " + args[i].str();
      // A literal beside a value of another type: say how to write it.
      std::string hint = literal_hint(*p.args[i], args[0]);
      fail(loc, message + (hint.empty() ? literal_hint(*p.args[0], args[i]) : hint));
    }
  ScalarKind k = args[0].scalar_kind();
  auto require = [&](bool ok, std::string_view what) {
    if (!ok) fail(loc, op + " expects " + std::string(what) + " operands, found " + args[0].str());
  };
  switch (p.op) {
  case Prim::Add:
  case Prim::Sub:
  case Prim::Mul:
  case Prim::Neg:
  case Prim::Abs:
  case Prim::Signum:
  case Prim::Min:
  case Prim::Max: require(is_numeric(k), "numeric"); return args[0];
  case Prim::Div: require(is_float(k), "floating-point"); return args[0];
  case Prim::Quot:
  case Prim::Rem:
  case Prim::IDiv:
  case Prim::Mod:
  case Prim::BAnd:
  case Prim::BOr:
  case Prim::BXor:
  case Prim::BNot:
  case Prim::Shl:
  case Prim::Shr:
  case Prim::Popcount:
  case Prim::Clz:
  case Prim::Ctz: require(is_integral(k), "integral"); return args[0];
  case Prim::Eq:
  case Prim::Ne:
  case Prim::Lt:
  case Prim::Le:
  case Prim::Gt:
  case Prim::Ge: return kBool;
  case Prim::And:
  case Prim::Or:
  case Prim::Not: require(k == ScalarKind::Bool, "bool"); return kBool;
  case Prim::IsNaN:
  case Prim::IsInf: require(is_float(k), "floating-point"); return kBool;
  default: // the floating-point functions
    require(is_float(k), "floating-point");
    return args[0];
  }
}

} // namespace strata
