// The examples written with functions and the everyday forms (k-means, a
// Jacobi solver, a ray tracer) against the same programs written form by
// form (tests/longhand/): the same results, bitwise, on the interpreter, and
// the lengths docs/language.md quotes. Their results against NumPy on every
// engine are tests/conformance_test.cpp's ExamplesMatchNumPy.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "core/check.h"
#include "core/npy.h"
#include "core/parser.h"
#include "interpreter/interpreter.h"
#include "oracle/compare.h"
#include "tests/cli_util.h"

namespace strata::test {
namespace {
namespace fs = std::filesystem;

// Lines that hold code (neither blank nor only a comment).
int code_lines(const std::string& text) {
  std::istringstream in(text);
  int n = 0;
  for (std::string line; std::getline(in, line);) {
    size_t first = line.find_first_not_of(' ');
    if (first != std::string::npos && line[first] != ';') ++n;
  }
  return n;
}

std::vector<Array> run_file(const fs::path& file, const fs::path& inputs) {
  Program p = parse_program(slurp(file), file.string());
  check_program(p);
  std::vector<Array> in;
  for (const Param& param : p.params)
    in.push_back(read_npy((inputs / (param.name + ".npy")).string()));
  return interpret(p, in);
}

TEST(Longhand, SameResultsAndShorter) {
  struct Case {
    const char* name;
    int short_lines, long_lines; // as quoted in docs/language.md
  };
  for (const Case& c : {Case{"kmeans", 26, 59}, Case{"jacobi", 16, 25}, Case{"raytrace", 48, 69}}) {
    SCOPED_TRACE(c.name);
    fs::path example = source_path(std::string("examples/") + c.name + ".strata");
    fs::path longhand = source_path(std::string("tests/longhand/") + c.name + ".strata");
    std::vector<Array> a = run_file(example, source_path(std::string("examples/") + c.name));
    std::vector<Array> b = run_file(longhand, source_path(std::string("examples/") + c.name));
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i)
      EXPECT_EQ(compare_bitwise(b[i], a[i]), std::nullopt) << "result " << i;
    EXPECT_EQ(code_lines(slurp(example)), c.short_lines);
    EXPECT_EQ(code_lines(slurp(longhand)), c.long_lines);
  }
}

} // namespace
} // namespace strata::test
