#include "core/format.h"

#include <algorithm>
#include <map>
#include <memory>
#include <sstream>
#include <utility>
#include <vector>

#include "core/error.h"
#include "core/ir.h"
#include "core/parser.h"
#include "core/printer.h"
#include "core/sexp.h"

namespace strata {
namespace {

using sexp::Comment;
using sexp::Sexp;

// Every datum of a tree in pre-order (a list before its items).
void flatten(const Sexp& s, std::vector<const Sexp*>& out) {
  out.push_back(&s);
  for (const Sexp& item : s.items)
    flatten(item, out);
}

// Whether two trees have the same lists (atoms and strings may be spelled
// differently).
bool same_lists(const Sexp& a, const Sexp& b) {
  if (a.is_list() != b.is_list()) return false;
  if (!a.is_list()) return true;
  if (a.items.size() != b.items.size()) return false;
  for (size_t i = 0; i < a.items.size(); ++i)
    if (!same_lists(a.items[i], b.items[i])) return false;
  return true;
}

bool before(int line_a, int col_a, int line_b, int col_b) {
  return line_a < line_b || (line_a == line_b && col_a < col_b);
}

std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> lines;
  std::string line;
  for (char c : text) {
    if (c == '\n') {
      lines.push_back(line);
      line.clear();
    } else {
      line += c;
    }
  }
  if (!line.empty()) lines.push_back(line);
  return lines;
}

size_t indentation(const std::string& line) {
  size_t n = line.find_first_not_of(' ');
  return n == std::string::npos ? 0 : n;
}

[[noreturn]] void refuse(const std::string& file, const std::string& why) {
  throw Error(ErrorKind::Input, file + ": cannot keep the comments in the canonical form (" + why +
                                    "); the file is left as it is");
}

} // namespace

std::string place_comments(std::string_view source, std::string_view canonical,
                           const std::string& file_name) {
  auto file = std::make_shared<const std::string>(file_name);
  std::vector<Comment> comments;
  Sexp original = sexp::read_sexps(source, file, "a program `(program ...)`", &comments);
  if (comments.empty()) return std::string(canonical);
  std::vector<Comment> none;
  Sexp printed = sexp::read_sexps(canonical, file, "a program `(program ...)`", &none);
  if (!none.empty()) refuse(file_name, "the canonical text has comments of its own");
  if (!same_lists(original, printed)) refuse(file_name, "its lists differ from the file's");
  std::vector<const Sexp*> from, to;
  flatten(original, from);
  flatten(printed, to);

  std::vector<std::string> lines = split_lines(canonical);
  // By line of the canonical text (0-based): comment lines to put before it,
  // and comments to append to it; then the comments after the last datum.
  std::map<size_t, std::vector<std::string>> above, after;
  std::vector<std::string> at_end;
  for (const Comment& c : comments) {
    if (c.own_line) {
      // The first datum that starts after the comment.
      size_t i = 0;
      while (i < from.size() && before(from[i]->line, from[i]->col, c.line, c.col))
        ++i;
      if (i == from.size()) {
        at_end.push_back(c.text);
        continue;
      }
      size_t line = size_t(to[i]->line - 1);
      const std::string& text = lines.at(line);
      // At the datum's column when it opens its line, else at the line's indentation.
      size_t col = size_t(to[i]->col - 1);
      size_t indent = indentation(text) == col ? col : indentation(text);
      above[line].push_back(std::string(indent, ' ') + c.text);
      continue;
    }
    // After code: the datum that ends last on the comment's line before it,
    // else (a line that only opens lists) the one that starts last there.
    const Sexp* ends = nullptr;
    size_t ends_at = 0;
    const Sexp* starts = nullptr;
    size_t starts_at = 0;
    for (size_t i = 0; i < from.size(); ++i) {
      const Sexp& s = *from[i];
      if (s.end_line == c.line && s.end_col < c.col && (!ends || s.end_col > ends->end_col)) {
        ends = &s;
        ends_at = i;
      }
      if (s.line == c.line && s.col < c.col && (!starts || s.col > starts->col)) {
        starts = &s;
        starts_at = i;
      }
    }
    size_t line = ends     ? size_t(to[ends_at]->end_line - 1)
                  : starts ? size_t(to[starts_at]->line - 1)
                           : 0;
    after[line].push_back(c.text);
  }

  std::ostringstream out;
  for (size_t l = 0; l < lines.size(); ++l) {
    for (const std::string& comment : above[l])
      out << comment << "\n";
    out << lines[l];
    // The first at the end of the line; more (their forms now end on the
    // same line) each on a line of its own after it.
    for (size_t i = 0; i < after[l].size(); ++i)
      out << (i == 0 ? " " : "\n" + std::string(indentation(lines[l]), ' ')) << after[l][i];
    out << "\n";
  }
  for (const std::string& comment : at_end)
    out << comment << "\n";
  return out.str();
}

std::string format_program(std::string_view text, const std::string& file_name) {
  Program program = parse_program(text, file_name);
  std::string result = place_comments(text, print_program(program), file_name);
  // Never lose anything: the same program, and every comment's text.
  if (!equal(parse_program(result, file_name), program))
    refuse(file_name, "the result would read as another program");
  auto texts = [&](std::string_view t) {
    std::vector<Comment> comments;
    sexp::read_sexps(t, std::make_shared<const std::string>(file_name), "a program", &comments);
    std::vector<std::string> out;
    for (const Comment& c : comments)
      out.push_back(c.text);
    std::sort(out.begin(), out.end());
    return out;
  };
  if (texts(result) != texts(text)) refuse(file_name, "a comment would be lost");
  return result;
}

} // namespace strata
