// The snippets of docs/tutorial.md, compiled and run. Each block between
// "// [name]" and "// [end]" is copied verbatim into the tutorial section of
// the same name; keep the two identical.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "core/printer.h"
#include "frontend/frontend.h"
#include "oracle/registry.h"
#include "tests/test_util.h"

namespace {
using strata::test::array_of;
using strata::test::values_of;

// [includes]
using namespace strata::fe;
const strata::Engine& engine = *strata::find_engine("interp");
// [end]

TEST(Tutorial, Dotp) {
  // [dotp]
  auto dotp = [](Acc<Vector<float>> xs, Acc<Vector<float>> ys) {
    auto products = zipWith([](Exp<float> x, Exp<float> y) { return x * y; }, xs, ys);
    return fold([](Exp<float> a, Exp<float> b) { return a + b; }, 0.0f, products);
  };
  strata::Array r =
      strata::run(engine, dotp, std::vector<float>{1, 2, 3}, std::vector<float>{4, 5, 6});
  // r is a rank-0 array holding 32
  // [end]
  EXPECT_EQ(values_of<float>(r), std::vector<float>{32});
  // [print]
  auto ir = strata::fe::program(dotp);
  std::string text = strata::print_program(ir->program);
  // (program ((p0 (array f32 1)) (p1 (array f32 1)))
  //   (fold (lambda ((x0 f32) (x1 f32)) (+ x0 x1)) 0.0f32
  //     (zipwith (lambda ((x2 f32) (x3 f32)) (* x2 x3)) p0 p1)))
  // [end]
  EXPECT_NE(text.find("(zipwith (lambda ((x2 f32) (x3 f32)) (* x2 x3)) p0 p1)"), std::string::npos);
}

TEST(Tutorial, MapAndZipWith) {
  // [map]
  auto saxpy = [](Acc<Vector<float>> xs, Acc<Vector<float>> ys) {
    auto scaled = map([](Exp<float> x) { return 2.0f * x; }, xs);
    return zipWith([](Exp<float> a, Exp<float> y) { return a + y; }, scaled, ys);
  };
  auto norm = [](Acc<Vector<float>> xs) {
    auto sq = map([](Exp<float> x) { return x * x; }, xs); // used twice, computed once
    return zipWith([](auto a, auto b) { return sqrt(a + b); }, sq, sq);
  };
  // [end]
  EXPECT_EQ(values_of<float>(
                strata::run(engine, saxpy, std::vector<float>{1, 2}, std::vector<float>{10, 20})),
            (std::vector<float>{12, 24}));
  std::string text = strata::print_program(strata::fe::program(norm)->program);
  EXPECT_NE(text.find("(alet ((a0 (map"), std::string::npos) << text;
}

TEST(Tutorial, Fold) {
  // [fold]
  auto row_max = [](Acc<Matrix<double>> m) {
    return fold1([](Exp<double> a, Exp<double> b) { return max(a, b); }, m);
  };
  auto compiled = strata::compile(engine, row_max); // traced and compiled once
  for (int i = 0; i < 3; ++i) {
    strata::Array r = compiled(array_of<double>({1, 5, 3, double(i), 0, -1}, {2, 3}));
    // r holds {5, i}
  }
  // [end]
  strata::Array r = compiled(array_of<double>({1, 5, 3, 7, 0, -1}, {2, 3}));
  EXPECT_EQ(values_of<double>(r), (std::vector<double>{5, 7}));
}

TEST(Tutorial, Generate) {
  // [generate]
  auto table = generate(ix(3, 4), [](Exp<Ix<2>> i) {
    auto row = get<0>(i), col = get<1>(i);
    return cond(row == col, 1.0f, cast<float>(row * 10 + col));
  });
  strata::Array t = strata::run(engine, table);
  // [end]
  EXPECT_EQ(values_of<float>(t), (std::vector<float>{1, 1, 2, 3, 10, 1, 12, 13, 20, 21, 1, 23}));
}

TEST(Tutorial, Stencil) {
  // [stencil]
  auto laplace = [](Acc<Matrix<float>> img) {
    return stencil<3, 3>(
        [](const Window<float, 2>& nb) {
          return nb(-1, 0) + nb(1, 0) + nb(0, -1) + nb(0, 1) - 4.0f * nb(0, 0);
        },
        boundary::clamp, img);
  };
  strata::Array r =
      strata::run(engine, laplace, array_of<float>({0, 0, 0, 0, 1, 0, 0, 0, 0}, {3, 3}));
  // [end]
  EXPECT_EQ(values_of<float>(r), (std::vector<float>{0, 1, 0, 1, -4, 1, 0, 1, 0}));
}

// [functions]
// A C++ function is a Strata function: its body is traced at every call.
Exp<float> sq(Exp<float> x) {
  return x * x;
}
// [end]

TEST(Tutorial, FunctionsAndEverydayForms) {
  // [everyday]
  auto norms = [](Acc<Vector<float>> xs) {
    auto positive = filter([](Exp<float> x) { return x > 0.0f; }, xs);
    return atuple(sum(map(sq, xs)), maximum(xs), aget<0>(positive), reverse(xs));
  };
  std::vector<strata::Array> r = strata::run(engine, norms, std::vector<float>{3, -1, 2});
  // r: 14, 3, [3 2], [2 -1 3]
  // [end]
  EXPECT_EQ(values_of<float>(r[0]), std::vector<float>{14});
  EXPECT_EQ(values_of<float>(r[1]), std::vector<float>{3});
  EXPECT_EQ(values_of<float>(r[2]), (std::vector<float>{3, 2}));
  EXPECT_EQ(values_of<float>(r[3]), (std::vector<float>{2, -1, 3}));
}

} // namespace

namespace {
// Every "// [name] ... // [end]" block above appears, dedented, in docs/tutorial.md.
std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(Tutorial, SnippetsAreTheSameAsInTheDocument) {
  std::string src = read_file(STRATA_SOURCE_DIR "/tests/tutorial_test.cpp");
  std::string doc = read_file(STRATA_SOURCE_DIR "/docs/tutorial.md");
  std::istringstream lines(src);
  std::string line, block, name;
  size_t indent = 0;
  int found = 0;
  while (std::getline(lines, line)) {
    size_t p = line.find_first_not_of(' ');
    std::string trimmed = p == std::string::npos ? "" : line.substr(p);
    if (name.empty() && trimmed.rfind("// [", 0) == 0 && trimmed != "// [end]" &&
        trimmed.back() == ']' && trimmed.find(' ', 3) == std::string::npos) {
      name = trimmed;
      indent = p;
      block.clear();
    } else if (!name.empty() && trimmed == "// [end]") {
      EXPECT_NE(doc.find("```cpp\n" + block + "```"), std::string::npos)
          << name << " differs in docs/tutorial.md:\n"
          << block;
      ++found;
      name.clear();
    } else if (!name.empty()) {
      block += (line.size() >= indent ? line.substr(indent) : line) + "\n";
    }
  }
  EXPECT_EQ(found, 9);
}
} // namespace
