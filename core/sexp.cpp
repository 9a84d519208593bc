#include "core/sexp.h"

#include <cstdio>

#include "core/error.h"
#include "core/parser.h"

namespace strata::sexp {

std::string sanitize(std::string_view s) {
  constexpr size_t kMaxShown = 40;
  std::string out;
  for (size_t i = 0; i < s.size() && i < kMaxShown; ++i) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += char(c);
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", unsigned(c));
      out += buf;
    }
  }
  if (s.size() > kMaxShown) out += "...";
  return out;
}

std::string quote(std::string_view s) {
  return "`" + sanitize(s) + "`";
}

std::string describe(const Sexp& s) {
  switch (s.kind) {
  case Sexp::Kind::Atom: return quote(s.text);
  case Sexp::Kind::String: return "string \"" + sanitize(s.text) + "\"";
  case Sexp::Kind::List: break;
  }
  if (s.items.empty()) return "`()`";
  if (!s.items[0].is_atom()) return "`(...)`";
  return "`(" + sanitize(s.items[0].text) + (s.items.size() > 1 ? " ...)`" : ")`");
}

std::string position(int line, int col) {
  return std::to_string(line) + ":" + std::to_string(col);
}

namespace {

bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}
bool is_delimiter(char c) {
  return is_blank(c) || c == '(' || c == ')' || c == ';' || c == '"';
}
} // namespace

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_letter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// ======================================================================= reader

namespace {

// Turns text into s-expressions, tracking 1-based line and column (in bytes).
class Reader {
public:
  Reader(std::string_view text, std::shared_ptr<const std::string> file,
         std::vector<Comment>* comments = nullptr)
      : text_(text), file_(std::move(file)), comments_(comments) {}

  // Reads the one datum the text must hold. `what` says what is expected
  // ("a program `(program ...)`"), `after` names it once read ("the program").
  Sexp read_only(std::string_view what, std::string_view after) {
    skip_blank();
    if (at_end()) fail(line_, col_, "expected " + std::string(what) + ", found end of input");
    Sexp s = read_datum(0);
    skip_blank();
    if (!at_end()) {
      int line = line_, col = col_;
      fail(line, col,
           "expected end of input after " + std::string(after) + ", found " + describe_next());
    }
    return s;
  }

  // Every datum of the text, as the items of one list at line 1, column 1
  // (end position 0:0, so no comment is taken to follow it).
  Sexp read_all(std::string_view what) {
    Sexp all;
    all.kind = Sexp::Kind::List;
    all.line = 1;
    all.col = 1;
    for (skip_blank(); !at_end(); skip_blank()) {
      all.items.push_back(read_datum(0));
    }
    if (all.items.empty())
      fail(line_, col_, "expected " + std::string(what) + ", found end of input");
    return all;
  }

private:
  bool at_end() const { return pos_ >= text_.size(); }
  char peek() const { return text_[pos_]; }
  void advance() {
    if (text_[pos_] == '\n') {
      ++line_;
      col_ = 1;
    } else {
      ++col_;
    }
    ++pos_;
  }

  [[noreturn]] void fail(int line, int col, const std::string& message) const {
    throw Error(ErrorKind::Syntax, SrcLoc{file_, line, col}, message);
  }

  void skip_blank() {
    while (!at_end()) {
      if (peek() == ';') {
        Comment c{line_, col_, "", own_line()};
        while (!at_end() && peek() != '\n') {
          c.text += peek();
          advance();
        }
        if (comments_) comments_->push_back(std::move(c));
      } else if (is_blank(peek())) {
        advance();
      } else {
        return;
      }
    }
  }

  Sexp start(Sexp::Kind kind) const {
    Sexp s;
    s.kind = kind;
    s.line = line_;
    s.col = col_;
    return s;
  }

  // `depth` is the number of lists enclosing the datum.
  Sexp read_datum(int depth) {
    switch (peek()) {
    case '(': return read_list(depth + 1);
    case ')': fail(line_, col_, "unexpected `)` without a matching `(`");
    case '"': return read_string();
    default: return read_atom();
    }
  }

  Sexp read_list(int depth) {
    Sexp s = start(Sexp::Kind::List);
    if (depth > kMaxNesting)
      fail(s.line, s.col,
           "nesting too deep: more than " + std::to_string(kMaxNesting) + " levels of `(`");
    advance();
    for (;;) {
      skip_blank();
      if (at_end()) {
        std::string opener = s.head().empty() ? "`(`" : "`(" + sanitize(s.head()) + "`";
        fail(line_, col_,
             "unexpected end of input: missing `)` for " + opener + " opened at " +
                 position(s.line, s.col));
      }
      if (peek() == ')') {
        s.end_line = line_;
        s.end_col = col_;
        advance();
        return s;
      }
      s.items.push_back(read_datum(depth));
    }
  }

  Sexp read_string() {
    Sexp s = start(Sexp::Kind::String);
    advance();
    for (;;) {
      if (at_end()) fail(s.line, s.col, "unterminated string literal");
      char c = peek();
      if (c == '"') {
        s.end_line = line_;
        s.end_col = col_;
        advance();
        return s;
      }
      if (c == '\\') {
        int line = line_, col = col_;
        advance();
        if (at_end()) fail(s.line, s.col, "unterminated string literal");
        s.text += unescape(peek(), line, col);
      } else {
        s.text += c;
      }
      advance();
    }
  }

  char unescape(char c, int line, int col) const {
    switch (c) {
    case '"': return '"';
    case '\\': return '\\';
    case 'n': return '\n';
    case 't': return '\t';
    default:
      fail(line, col,
           "unknown escape " + quote(std::string("\\") + c) +
               " in string literal (known: \\\" \\\\ \\n \\t)");
    }
  }

  Sexp read_atom() {
    Sexp s = start(Sexp::Kind::Atom);
    while (!at_end() && !is_delimiter(peek())) {
      s.text += peek();
      advance();
    }
    s.end_line = line_;
    s.end_col = col_ - 1;
    return s;
  }

  // Describes the token at the current position, for "found ..." messages.
  std::string describe_next() {
    switch (peek()) {
    case '(': return "`(`";
    case ')': return "`)`";
    case '"': return "a string literal";
    default: return quote(read_atom().text);
    }
  }

  // Whether only blanks precede the current position on its line.
  bool own_line() const {
    for (size_t i = pos_; i > 0 && text_[i - 1] != '\n'; --i)
      if (!is_blank(text_[i - 1])) return false;
    return true;
  }

  std::string_view text_;
  std::shared_ptr<const std::string> file_;
  std::vector<Comment>* comments_;
  size_t pos_ = 0;
  int line_ = 1;
  int col_ = 1;
};

} // namespace

Sexp read_sexp(std::string_view text, std::shared_ptr<const std::string> file,
               std::string_view what, std::string_view after) {
  return Reader(text, std::move(file)).read_only(what, after);
}

Sexp read_sexp_with_comments(std::string_view text, std::shared_ptr<const std::string> file,
                             std::string_view what, std::string_view after,
                             std::vector<Comment>& comments) {
  return Reader(text, std::move(file), &comments).read_only(what, after);
}

Sexp read_sexps(std::string_view text, std::shared_ptr<const std::string> file,
                std::string_view what, std::vector<Comment>* comments) {
  return Reader(text, std::move(file), comments).read_all(what);
}

} // namespace strata::sexp
