#include "core/sugar.h"

namespace strata {
namespace {

// The expansions are in core/expand.cpp, in this order.
constexpr SugarForm kSugar[] = {
    // n-ary zipwith: three or more arrays (two is the core form)
    {"zipwith", true, "fa+", "f a b c ..."},
    {"++", true, "aa", "a b"},
    {"take", true, "ea", "n a"},
    {"drop", true, "ea", "n a"},
    {"init", true, "a", "a"},
    {"tail", true, "a", "a"},
    {"reverse", true, "a", "a"},
    {"transpose", true, "a", "a"},
    {"iota", true, "e", "n"},
    {"enumFromN", true, "ee", "sh x"},
    {"enumFromStepN", true, "eee", "sh x step"},
    {"postscanl", true, "fea", "f z a"},
    {"postscanr", true, "fea", "f z a"},
    {"sum", true, "a", "a"},
    {"product", true, "a", "a"},
    {"maximum", true, "a", "a"},
    {"minimum", true, "a", "a"},
    {"and", true, "a", "a"},
    {"or", true, "a", "a"},
    {"any", true, "fa", "p a"},
    {"all", true, "fa", "p a"},
    {"gather", true, "aa", "idx a"},
    {"scatter", true, "aaa", "idx defs a"},
    {"compact", true, "aa", "flags a"},
    {"filter", true, "fa", "p a"},
    {"scanl1seg", true, "faa", "f a segs"},
    {"scanr1seg", true, "faa", "f a segs"},
    {"scanlseg", true, "feaa", "f z a segs"},
    {"scanrseg", true, "feaa", "f z a segs"},
    {"stencil2", true, "wbwbfaa", "wa ba wb bb f a b"},
    {"for", false, "eef", "n init f"},
};

} // namespace

std::vector<std::string_view> sugar_names() {
  std::vector<std::string_view> out;
  for (const SugarForm& f : kSugar)
    out.push_back(f.name);
  return out;
}

bool sugar_arity_ok(const SugarForm& f, size_t count) {
  std::string_view ops = f.operands;
  if (ops.ends_with('+')) return count >= ops.size() - 1;
  return count == ops.size();
}

char sugar_operand_kind(const SugarForm& f, size_t i) {
  std::string_view ops = f.operands;
  if (ops.ends_with('+')) {
    size_t fixed = ops.size() - 2; // letters before the repeated one
    return i < fixed ? ops[i] : ops[fixed];
  }
  return i < ops.size() ? ops[i] : 'a';
}

const SugarForm* find_sugar(std::string_view name, bool array_position, size_t operand_count) {
  for (const SugarForm& f : kSugar) {
    if (f.name != name || f.array_result != array_position) continue;
    if (name == "zipwith" && operand_count <= 3) return nullptr; // the core form
    return &f;
  }
  return nullptr;
}

} // namespace strata
