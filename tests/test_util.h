// Helpers for tests: build arrays from C++ values, read them back, and run
// program text through parse -> check -> interpret.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/array.h"
#include "core/check.h"
#include "core/parser.h"
#include "interpreter/interpreter.h"

namespace strata::test {

// An array of scalar type T with the given shape (default: a vector).
template <class T> Array array_of(const std::vector<T>& values, Shape shape = {}) {
  if (shape.empty() && !values.empty()) shape = {int64_t(values.size())};
  if (shape.empty()) shape = {0};
  Array a = Array::allocate(Type::scalar(kind_of<T>), shape);
  for (size_t i = 0; i < values.size(); ++i)
    a.write(0, int64_t(i), Scalar::make<T>(values[i]));
  return a;
}

// A rank-0 array holding v.
template <class T> Array scalar_array(T v) {
  Array a = Array::allocate(Type::scalar(kind_of<T>), {});
  a.write(0, 0, Scalar::make<T>(v));
  return a;
}

// The values of leaf `leaf` of an array as T (T must be the leaf's type).
template <class T> std::vector<T> values_of(const Array& a, size_t leaf = 0) {
  std::vector<T> out;
  for (int64_t i = 0; i < a.size(); ++i)
    out.push_back(a.read(leaf, i).get<T>());
  return out;
}

inline Program parse_and_check(std::string_view text) {
  Program p = parse_program(text, "test.strata");
  check_program(p);
  return p;
}

// Parses, checks and interprets; returns all results.
inline std::vector<Array> run_all(std::string_view text, const std::vector<Array>& inputs = {}) {
  Program p = parse_and_check(text);
  return interpret(p, inputs);
}

// The single result of a program.
inline Array run1(std::string_view text, const std::vector<Array>& inputs = {}) {
  auto results = run_all(text, inputs);
  if (results.size() != 1) throw std::runtime_error("expected one result");
  return results[0];
}

// True in the AddressSanitizer + UBSan build (scripts/test --sanitize). Its
// instrumented code (-O1) runs several times slower than the
// optimised build, so a test whose cost is the size of its work (long rows, many
// generated programs, every example) runs a smaller amount of the same work
// there: the same code paths under the sanitizers; the optimised build runs
// the full amount. One place says which build is which.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kUnderSanitizers = true;
#else
inline constexpr bool kUnderSanitizers = false;
#endif

// The blocked order as the boundary tests (tbb, jit and cuda
// *_reduction_order_test.cpp) run it: ReductionOrder::blocked(), or under the
// sanitizers the same order scaled down 256 times (folds chunked from 128 in
// chunks of 64, scans from 256 in chunks of 64, the same 128 bytes of lanes):
// the same chunk, lane and boundary paths on rows of hundreds of elements
// instead of 10^5, which the Debug + ASan interpreter takes minutes to replay.
// The optimised build runs the real constants.
inline ReductionOrder boundary_order() {
  return kUnderSanitizers ? ReductionOrder{128, 64, 256, 64, 128} : ReductionOrder::blocked();
}

} // namespace strata::test
