// S-expressions: the first stage of reading program text.
//
// `read_sexp` turns text into one datum (atoms, string literals, lists) with
// 1-based line and column positions, bounding the nesting depth so hostile
// input cannot overflow the stack. The parser (core/parser.cpp) then turns
// s-expressions into IR. The quoting helpers keep messages one printable line.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace strata::sexp {

struct Sexp {
  enum class Kind : uint8_t { Atom, String, List };
  Kind kind = Kind::Atom;
  int line = 0;
  int col = 0;
  int end_line = 0; // the datum's last character (a list's `)`)
  int end_col = 0;
  std::string text;        // the atom, or the decoded string literal
  std::vector<Sexp> items; // the elements of a list

  bool is_atom() const { return kind == Kind::Atom; }
  bool is_atom(std::string_view t) const { return kind == Kind::Atom && text == t; }
  bool is_list() const { return kind == Kind::List; }
  // The form name of `(name ...)`, or "" when the list does not start with an atom.
  std::string_view head() const {
    return is_list() && !items.empty() && items[0].is_atom() ? std::string_view(items[0].text)
                                                             : std::string_view();
  }
  size_t operand_count() const { return items.empty() ? 0 : items.size() - 1; }
};

// Reads the one datum `text` must hold; throws Error(ErrorKind::Syntax) with
// file:line:col otherwise. `what` says what is expected ("a program
// `(program ...)`"), `after` names it once read ("the program").
Sexp read_sexp(std::string_view text, std::shared_ptr<const std::string> file,
               std::string_view what, std::string_view after);

// A comment (`;` to the end of the line) as the reader skips it.
struct Comment {
  int line = 0;
  int col = 0;
  std::string text;      // from `;` to the end of the line, without the newline
  bool own_line = false; // only blanks before it on its line
};

// read_sexp, also collecting every comment of `text` in order (strata fmt
// keeps them: core/format.h).
Sexp read_sexp_with_comments(std::string_view text, std::shared_ptr<const std::string> file,
                             std::string_view what, std::string_view after,
                             std::vector<Comment>& comments);

// Every datum of `text` (at least one), as the items of one list; the
// comments too when `comments` is given. A program file is read this way:
// its definitions, then its program.
Sexp read_sexps(std::string_view text, std::shared_ptr<const std::string> file,
                std::string_view what, std::vector<Comment>* comments = nullptr);

// Source text quoted in a message: non-printable bytes as \xNN, long text cut short.
std::string sanitize(std::string_view s);
std::string quote(std::string_view s); // `text`
std::string describe(const Sexp& s);   // `(map ...)`, `x`, string "..."
std::string position(int line, int col);
bool is_digit(char c);
bool is_letter(char c);

} // namespace strata::sexp
