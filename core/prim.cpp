#include "core/prim.h"

#include <array>

namespace strata {
namespace {
struct PrimInfo {
  std::string_view name;
  int arity;
};
constexpr std::array<PrimInfo, kNumPrims> kPrims = {{
    {"+", 2},     {"-", 2},     {"*", 2},     {"neg", 1},   {"abs", 1},      {"signum", 1},
    {"min", 2},   {"max", 2},   {"/", 2},     {"quot", 2},  {"rem", 2},      {"div", 2},
    {"mod", 2},   {"==", 2},    {"/=", 2},    {"<", 2},     {"<=", 2},       {">", 2},
    {">=", 2},    {"and", 2},   {"or", 2},    {"not", 1},   {"band", 2},     {"bor", 2},
    {"bxor", 2},  {"bnot", 1},  {"shl", 2},   {"shr", 2},   {"popcount", 1}, {"clz", 1},
    {"ctz", 1},   {"sqrt", 1},  {"exp", 1},   {"log", 1},   {"sin", 1},      {"cos", 1},
    {"tan", 1},   {"asin", 1},  {"acos", 1},  {"atan", 1},  {"sinh", 1},     {"cosh", 1},
    {"tanh", 1},  {"atan2", 2}, {"pow", 2},   {"floor", 1}, {"ceil", 1},     {"round", 1},
    {"trunc", 1}, {"isnan", 1}, {"isinf", 1},
}};
} // namespace

std::string_view prim_name(Prim p) {
  return kPrims[size_t(p)].name;
}
int prim_arity(Prim p) {
  return kPrims[size_t(p)].arity;
}

bool is_libm_function(Prim p) {
  return p >= Prim::Exp && p <= Prim::Pow;
}

std::optional<Prim> prim_from_name(std::string_view name) {
  for (size_t i = 0; i < kPrims.size(); ++i)
    if (kPrims[i].name == name) return Prim(i);
  return std::nullopt;
}

} // namespace strata
