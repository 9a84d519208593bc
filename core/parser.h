// The parser of the canonical text form (docs/language.md: Program text, Exp, Acc).
//
// Text is read in two steps: a reader turns bytes into s-expressions (atoms,
// string literals and lists, each with its line and column), then a converter
// walks them and builds the IR. Whether a form is a scalar expression (Exp) or
// an array expression (Acc) is decided by the position it appears in, never by
// the form alone. Every node gets the SrcLoc of its opening paren (or of the
// atom); all nodes of one text share one `file` string.
//
// Any malformed text is an Error(ErrorKind::Syntax) saying what was expected
// and what was found, at the offending `line:col`. Input of any bytes is
// tolerated, and nesting is capped (kMaxNesting) so that hostile input cannot
// exhaust the stack of the parser or of the passes that later walk the IR.
#pragma once

#include <string>
#include <string_view>

#include "core/ir.h"
#include "core/types.h"

namespace strata {

// Lists nested deeper than this are rejected with a syntax error.
constexpr int kMaxNesting = 1000;
// Ranks written in types (`(ix R)`, `(array E R)`, `(window E R)`) and in
// `ignore` are limited to this, so that a huge number cannot exhaust memory.
constexpr int kMaxRank = 64;

// A whole file: exactly one `(program ((name type) ...) body)`.
Program parse_program(std::string_view text, const std::string& file_name);

// One scalar expression, one array expression or one type, alone in `text`
// (handy for tests and tools).
ExpPtr parse_exp(std::string_view text, const std::string& file_name = "<input>");
AccPtr parse_acc(std::string_view text, const std::string& file_name = "<input>");
Type parse_type(std::string_view text, const std::string& file_name = "<input>");

} // namespace strata
