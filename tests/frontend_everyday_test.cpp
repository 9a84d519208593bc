// The everyday forms of the C++ front end (frontend/everyday.h): each builds
// the call the text form writes, and gives bitwise the text twin's results;
// C++ functions are the front end's functions.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/printer.h"
#include "frontend/frontend.h"
#include "interpreter/interpreter.h"
#include "oracle/compare.h"
#include "oracle/registry.h"
#include "tests/test_util.h"

namespace {

using namespace strata::fe;
using strata::test::array_of;
using strata::test::parse_and_check;

const strata::Engine& interp() {
  return *strata::find_engine("interp");
}

const strata::Array kV = array_of<int32_t>({3, -1, 4, 1});
const strata::Array kM = array_of<int32_t>({1, 2, 3, 4, 5, 6}, {2, 3});

// fn's results, its text, and the results of the text twin `text` on the same inputs.
template <class F> void expect_twin(F fn, const std::string& body, const std::string& form) {
  SCOPED_TRACE(body);
  auto p = strata::fe::program(fn);
  std::string printed = strata::print_program(p->program);
  EXPECT_TRUE(printed.find("(" + form + " ") != std::string::npos ||
              printed.find("(" + form + "\n") != std::string::npos)
      << printed;
  auto result = strata::run(interp(), fn, kV, kM);
  std::vector<strata::Array> got;
  if constexpr (std::is_same_v<decltype(result), strata::Array>)
    got.push_back(result);
  else
    got = result;
  strata::Program twin = parse_and_check(
      "(define (sq x) (* x x))\n(program ((p0 (array i32 1)) (p1 (array i32 2))) " + body + ")");
  std::vector<strata::Array> want = strata::interpret(twin, {kV, kM});
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_EQ(strata::compare_bitwise(want[i], got[i]), std::nullopt) << "result " << i;
}

using V = Acc<Vector<int32_t>>;
using M = Acc<Array<Dim<2>, int32_t>>;

// A C++ function used twice, as `sq` of the twin.
Exp<int32_t> sq(Exp<int32_t> x) {
  return x * x;
}

TEST(FrontendEveryday, ReductionsAndRows) {
  expect_twin([](V v, M m) { return atuple(sum(m), product(v), maximum(v), minimum(m)); },
              "(atuple (sum p1) (product p0) (maximum p0) (minimum p1))", "sum");
  expect_twin(
      [](V v, M m) {
        return atuple(take(2, m), drop(1, v), init(v), tail(m), reverse(m), transpose(m),
                      concat(v, v));
      },
      "(atuple (take 2 p1) (drop 1 p0) (init p0) (tail p1) (reverse p1) (transpose p1) (++ p0 "
      "p0))",
      "take");
  expect_twin(
      [](V v, M) {
        auto pos = [](Exp<int32_t> x) { return x > 0; };
        return atuple(any(pos, v), all(pos, v), and_(map(pos, v)), or_(map(pos, v)));
      },
      "(atuple (any (lambda (x) (> x 0i32)) p0) (all (lambda (x) (> x 0i32)) p0) (and (map "
      "(lambda (x) (> x 0i32)) p0)) (or (map (lambda (x) (> x 0i32)) p0)))",
      "any");
}

TEST(FrontendEveryday, ScansEnumerationsAndData) {
  auto add = [](Exp<int32_t> a, Exp<int32_t> b) { return a + b; };
  expect_twin(
      [add](V v, M m) {
        auto segs = use<Vector<int64_t>>(array_of<int64_t>({2, 0, 1}));
        return atuple(postscanl(add, 10, v), postscanr(add, 10, v), scanl1Seg(add, m, segs),
                      scanr1Seg(add, m, segs), scanlSeg(add, 0, m, segs),
                      scanrSeg(add, 0, m, segs));
      },
      "(atuple (postscanl + 10i32 p0) (postscanr + 10i32 p0) (scanl1seg + p1 (use (array i64 "
      "(3) 2 0 1))) (scanr1seg + p1 (use (array i64 (3) 2 0 1))) (scanlseg + 0i32 p1 (use (array "
      "i64 (3) 2 0 1))) (scanrseg + 0i32 p1 (use (array i64 (3) 2 0 1))))",
      "scanl1seg");
  expect_twin(
      [](V v, M m) {
        auto idx = use<Vector<int64_t>>(array_of<int64_t>({3, 0, 0}));
        auto kept = filter([](Exp<int32_t> x) { return x > 0; }, v);
        return atuple(iota(4), enumFromN(ix(2, 2), Exp<int32_t>(5)), gather(idx, v),
                      scatter(idx, map([](Exp<int32_t> x) { return x * 0; }, v),
                              use<Vector<int32_t>>(array_of<int32_t>({7, 8, 9}))),
                      aget<0>(kept), aget<1>(kept),
                      aget<0>(compact(map([](Exp<int32_t> x) { return x > 3; }, m), m)));
      },
      "(atuple (iota 4) (enumFromN (ix 2 2) 5i32) (gather (use (array i64 (3) 3 0 0)) p0) "
      "(scatter (use (array i64 (3) 3 0 0)) (map (lambda (x) (* x 0i32)) p0) (use (array i32 "
      "(3) 7 8 9))) (aproj 0 (filter (lambda (x) (> x 0i32)) p0)) (aproj 1 (filter (lambda (x) "
      "(> x 0i32)) p0)) (aproj 0 (compact (map (lambda (x) (> x 3i32)) p1) p1)))",
      "gather");
}

TEST(FrontendEveryday, Stencil2) {
  expect_twin(
      [](V, M m) {
        return stencil2<3, 3>(
            [](const Window<int32_t, 2>& na, const Window<int32_t, 2>& nb) {
              return na(-1, 1) + 100 * nb(0, -1);
            },
            boundary::mirror, m, boundary::constant(-1),
            map([](Exp<int32_t> x) { return x * 2; }, m));
      },
      "(stencil2 (3 3) mirror (3 3) (constant -1i32) (lambda (na nb) (+ (at na -1 1) (* 100i32 "
      "(at nb 0 -1)))) p1 (map (lambda (x) (* x 2i32)) p1))",
      "stencil2");
}

TEST(FrontendEveryday, FunctionsZipWithAndFor) {
  expect_twin(
      [](V v, M) {
        auto three = zipWith(
            [](Exp<int32_t> a, Exp<int32_t> b, Exp<int32_t> c) { return sq(a) + b * c; }, v, v, v);
        auto counted = map(
            [](Exp<int32_t> x) {
              return for_(3, x,
                          [](Exp<int64_t> i, Exp<int32_t> acc) { return acc + cast<int32_t>(i); });
            },
            v);
        return atuple(three, counted, map([](Exp<int32_t> x) { return sq(sq(x)); }, v));
      },
      "(atuple (zipwith (lambda (a b c) (+ (sq a) (* b c))) p0 p0 p0) (map (lambda (x) (for 3 x "
      "(lambda (i acc) (+ acc (cast i32 i))))) p0) (map (lambda (x) (sq (sq x))) p0))",
      "zipwith");
}

} // namespace
