// strata fmt keeps every comment (core/format.h): each program of examples/
// and tests/ formats to the same program with every comment's text, and
// formatting twice changes nothing; a hand-written program shows where
// comments go; texts whose lists differ are refused, never merged; `fmt -i`
// rewrites a commented file without losing a comment.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/format.h"
#include "core/ir.h"
#include "core/parser.h"
#include "core/sexp.h"
#include "oracle/generator.h"
#include "tests/cli_util.h"

namespace strata::test {
namespace {
namespace fs = std::filesystem;

std::vector<std::string> comment_texts(const std::string& text) {
  std::vector<sexp::Comment> comments;
  sexp::read_sexps(text, std::make_shared<const std::string>("t"), "a program", &comments);
  std::vector<std::string> out;
  for (const sexp::Comment& c : comments)
    out.push_back(c.text);
  std::sort(out.begin(), out.end());
  return out;
}

TEST(FmtComments, EveryProgramOfTheRepositoryKeepsItsComments) {
  int files = 0, comments = 0;
  for (const char* dir : {"examples", "tests"}) {
    for (const auto& e : fs::recursive_directory_iterator(source_path(dir))) {
      if (e.path().extension() != ".strata") continue;
      SCOPED_TRACE(e.path().string());
      std::string text = slurp(e.path());
      std::string formatted = format_program(text, e.path().string());
      EXPECT_TRUE(equal(parse_program(formatted, "f"), parse_program(text, "t")));
      EXPECT_EQ(comment_texts(formatted), comment_texts(text));
      EXPECT_EQ(format_program(formatted, e.path().string()), formatted); // idempotent
      ++files;
      comments += int(comment_texts(text).size());
    }
  }
  EXPECT_GE(files, 20);
  EXPECT_GE(comments, 100);
}

// Generated programs with a comment at the end of every other line and on
// a line of its own before every third: formatting keeps every one.
TEST(FmtComments, GeneratedProgramsWithCommentsEverywhereKeepThemAll) {
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    GeneratedCase c = generate_case(seed);
    std::string text;
    int line = 0;
    size_t start = 0;
    while (start < c.text.size()) {
      size_t end = c.text.find('\n', start);
      if (end == std::string::npos) end = c.text.size();
      std::string l = c.text.substr(start, end - start);
      if (line % 3 == 0) text += "; before line " + std::to_string(line) + "\n";
      text += l + (line % 2 == 0 ? " ; after line " + std::to_string(line) : "") + "\n";
      start = end + 1;
      ++line;
    }
    SCOPED_TRACE(text);
    std::string formatted = format_program(text, "generated.strata");
    EXPECT_EQ(comment_texts(formatted), comment_texts(text));
    EXPECT_EQ(format_program(formatted, "generated.strata"), formatted);
  }
}

TEST(FmtComments, CommentsStayWithTheirForms) {
  const std::string text = "; leading comment\n"
                           "(program ((xs (array f32 1))) ; the input\n"
                           "  ; doubled, then summed\n"
                           "  (fold (lambda ((a f32) (b f32)) (+ a b)) ; the combiner\n"
                           "        0f32 ; the seed\n"
                           "        (map (lambda ((x f32))\n"
                           "               ; twice\n"
                           "               (* x 2f32))\n"
                           "             xs)))\n"
                           "; the end\n";
  // Own-line comments before the line of the form they preceded, the others
  // at the end of the line where the form they followed ends.
  EXPECT_EQ(format_program(text, "c.strata"),
            "; leading comment\n"
            "(program ((xs (array f32 1))) ; the input\n"
            "  ; doubled, then summed\n"
            "  (fold\n"
            "    (lambda ((a f32) (b f32)) (+ a b)) ; the combiner\n"
            "    0.0f32 ; the seed\n"
            "    ; twice\n"
            "    (map (lambda ((x f32)) (* x 2.0f32)) xs)))\n"
            "; the end\n");
}

TEST(FmtComments, TextsWhoseListsDifferAreRefused) {
  try {
    place_comments("(program () (unit 1)) ; one\n", "(program () (unit 1 2))\n", "d.strata");
    ADD_FAILURE() << "merged comments into another program";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Input);
    EXPECT_NE(std::string(e.what()).find("d.strata: cannot keep the comments"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("left as it is"), std::string::npos) << e.what();
  }
  // Without comments there is nothing to place.
  EXPECT_EQ(place_comments("(program () (unit 1))", "(program () (unit 1 2))\n", "d.strata"),
            "(program () (unit 1 2))\n");
}

TEST(FmtComments, InPlaceRewriteKeepsEveryComment) {
  TempDir dir;
  fs::path file = dir / "p.strata";
  const std::string text = "; a program\n(program ((xs (array i64 1)))\n"
                           "  (map (lambda ((x i64)) (+ x 1)) ; plus one\n      xs)) ; done\n";
  std::ofstream(file) << text;
  CliResult r = run_cli("fmt -i " + file.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string after = slurp(file);
  EXPECT_EQ(comment_texts(after), comment_texts(text)) << after;
  EXPECT_TRUE(equal(parse_program(after, "a"), parse_program(text, "t")));
}

} // namespace
} // namespace strata::test
