// Checks of the tbb engine against the interpreter shared by its tests:
// bitwise agreement fused and unfused on 1 and 2 threads, agreement with the
// interpreter replaying a declared association order, and errors of the
// interpreter's kind.
#pragma once

#include <gtest/gtest.h>

#include <tbb/global_control.h>

#include "oracle/compare.h"
#include "tbb/engine.h"
#include "tests/test_util.h"

namespace strata::test {

inline const Engine& tbb_engine() {
  static auto engine = make_tbb_engine();
  return *engine;
}

// Bitwise agreement with the interpreter, fused and unfused, 1 and 2 threads.
inline void expect_same(const std::string& text, const std::vector<Array>& inputs = {}) {
  Program p = parse_and_check(text);
  std::vector<Array> oracle = interpret(p, inputs);
  for (bool fused : {true, false})
    for (int threads : {1, 2}) {
      tbb::global_control limit(tbb::global_control::max_allowed_parallelism, size_t(threads));
      std::vector<Array> got = tbb_engine().compile(p, CompileOptions{fused, true})->run(inputs);
      ASSERT_EQ(got.size(), oracle.size());
      for (size_t i = 0; i < got.size(); ++i)
        EXPECT_TRUE(identical(got[i], oracle[i]))
            << (fused ? "fused " : "unfused ") << threads << " threads, result " << i << ": "
            << compare_arrays(oracle[i], got[i]).value_or("differs bitwise") << "\n"
            << text;
    }
}

// The error tbb raises (fused), which must have the interpreter's kind.
inline std::string tbb_error(const std::string& text, const std::vector<Array>& inputs = {}) {
  Program p = parse_and_check(text);
  ErrorKind oracle_kind = ErrorKind::Type;
  try {
    interpret(p, inputs);
    ADD_FAILURE() << "the interpreter raised no error: " << text;
  } catch (const Error& e) {
    oracle_kind = e.kind();
  }
  try {
    tbb_engine().compile(p, CompileOptions{true, true})->run(inputs);
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), oracle_kind) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "tbb raised no error: " << text;
  return "";
}

// Bitwise agreement, fused and unfused, with the interpreter replaying
// `order` (core/reduction_order.h), which the executable must declare.
inline void expect_same_in(const ReductionOrder& order, const std::string& text,
                           const std::vector<Array>& inputs = {}) {
  Program p = parse_and_check(text);
  std::vector<Array> oracle = interpret(p, inputs, InterpreterOptions{.order = order});
  for (bool fused : {true, false}) {
    std::unique_ptr<Executable> exe =
        tbb_engine().compile(p, CompileOptions{.fusion = fused, .checked = true, .order = order});
    EXPECT_EQ(exe->reduction_order(), order) << order.describe();
    std::vector<Array> got = exe->run(inputs);
    ASSERT_EQ(got.size(), oracle.size());
    for (size_t i = 0; i < got.size(); ++i)
      EXPECT_TRUE(identical(got[i], oracle[i]))
          << (fused ? "fused, " : "unfused, ") << order.describe() << ", result " << i << ": "
          << compare_arrays(oracle[i], got[i]).value_or("differs bitwise") << "\n"
          << text;
  }
}

} // namespace strata::test
