// Literals of the text form (docs/language.md, Program text): `true`, `42`,
// `-7i8`, `1.5f32`, `nan`, `-inff64`. The parser reads every scalar literal,
// and every value inside `use`, here.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/scalar.h"
#include "core/sexp.h"

namespace strata {

// The value of the literal atom `s`, or nullopt when `s` is not a literal (a
// name). `elem`, inside `use`, is the type the value takes. A malformed or
// out-of-range literal is Error(ErrorKind::Syntax) at `s` in `file`.
std::optional<Scalar> read_literal(const sexp::Sexp& s, std::optional<ScalarKind> elem,
                                   const std::shared_ptr<const std::string>& file);

// `v` as a value of kind `to` when it is one exactly (64i64 -> 64.0f32;
// 2.5 -> none as an integer), else nullopt; never for bool.
std::optional<Scalar> exact_literal(const Scalar& v, ScalarKind to);

// `inf`, `nan` with an optional float suffix (`nanf32`).
bool is_special_float(std::string_view t);
// The position after the decimal digits of `s` from `i`.
size_t skip_digits(std::string_view s, size_t i);

} // namespace strata
