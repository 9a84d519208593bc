// The everyday forms that are sugar for core forms (docs/language.md,
// Everyday forms): their keywords and operands, in one table that the parser
// reads (which operand is an array, a scalar or a function) and the checker
// expands (core/expand.h builds each one's core form from its checked
// operands). A program keeps these forms as written (ex::Call / ac::Call), so
// `strata fmt` prints them back; engines only ever see the expansions.
#pragma once

#include <string_view>
#include <vector>

namespace strata {

struct SugarForm {
  std::string_view name;
  bool array_result; // an Acc form (else an Exp form)
  // One letter per operand: `a` array, `e` scalar, `f` function, `w` window
  // sizes `(w ...)`, `b` a stencil boundary. A trailing `+` repeats the last
  // letter one or more times.
  std::string_view operands;
  std::string_view sig; // operand names for messages: "f z a"
};

// The sugar form of this keyword in array (or scalar) position, or null.
// `operand_count` picks between a core form and its n-ary sugar: `zipwith`
// with two arrays is the core form, with three or more the sugar.
const SugarForm* find_sugar(std::string_view name, bool array_position, size_t operand_count);

// Every sugar form's keyword, scalar forms too (`zipwith` once).
std::vector<std::string_view> sugar_names();

// Whether `count` operands fit the form's signature.
bool sugar_arity_ok(const SugarForm& f, size_t count);
// The kind letter (`a`, `e`, `f`) of operand `i`.
char sugar_operand_kind(const SugarForm& f, size_t i);

} // namespace strata
