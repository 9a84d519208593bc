// Every primitive and conversion against docs/language.md, Pinned semantics,
// on several types, through whole programs `(program () (unit e))`.
// Each expected value is written by hand (comments give the reasoning).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "tests/test_util.h"

namespace strata {
namespace {

using namespace strata::test;

template <class T> constexpr T kMin = std::numeric_limits<T>::min();
template <class T> constexpr T kMax = std::numeric_limits<T>::max();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr float kInfF = std::numeric_limits<float>::infinity();

Scalar b(bool v) {
  return Scalar::make(v);
}
Scalar i8(int8_t v) {
  return Scalar::make(v);
}
Scalar i16(int16_t v) {
  return Scalar::make(v);
}
Scalar i32(int32_t v) {
  return Scalar::make(v);
}
Scalar i64(int64_t v) {
  return Scalar::make(v);
}
Scalar u8(uint8_t v) {
  return Scalar::make(v);
}
Scalar u16(uint16_t v) {
  return Scalar::make(v);
}
Scalar u32(uint32_t v) {
  return Scalar::make(v);
}
Scalar u64(uint64_t v) {
  return Scalar::make(v);
}
Scalar f32(float v) {
  return Scalar::make(v);
}
Scalar f64(double v) {
  return Scalar::make(v);
}

struct Case {
  const char* exp;
  Scalar expected;
};

// The value of a scalar expression, computed by the interpreter.
Scalar eval(const std::string& exp) {
  Array a = run1("(program () (unit " + exp + "))");
  EXPECT_EQ(a.rank(), 0);
  return a.read(0, 0);
}

// Bitwise equality (so -0.0 differs from 0.0), except that any NaN matches a NaN.
bool same(const Scalar& a, const Scalar& b) {
  if (a.kind() != b.kind()) return false;
  if (a.kind() == ScalarKind::F64 && std::isnan(b.get<double>()))
    return std::isnan(a.get<double>());
  if (a.kind() == ScalarKind::F32 && std::isnan(b.get<float>())) return std::isnan(a.get<float>());
  return a.identical(b);
}

void check_cases(const std::vector<Case>& cases) {
  for (const Case& c : cases) {
    SCOPED_TRACE(c.exp);
    try {
      Scalar got = eval(c.exp);
      EXPECT_TRUE(same(got, c.expected)) << c.exp << ": expected " << format_literal(c.expected)
                                         << ", got " << format_literal(got);
    } catch (const Error& e) {
      ADD_FAILURE() << c.exp << " raised " << e.what();
    }
  }
}

TEST(PrimArithmetic, IntegersWrap) {
  check_cases({
      {"(+ 2147483647i32 1i32)", i32(kMin<int32_t>)},
      {"(- -2147483648i32 1i32)", i32(kMax<int32_t>)},
      {"(* 65536i32 65536i32)", i32(0)},   // 2^32 mod 2^32
      {"(* 2147483647i32 2i32)", i32(-2)}, // 2^32 - 2
      {"(neg -2147483648i32)", i32(kMin<int32_t>)},
      {"(abs -2147483648i32)", i32(kMin<int32_t>)},
      {"(abs -5i32)", i32(5)},
      {"(+ 255u8 1u8)", u8(0)},
      {"(- 0u8 1u8)", u8(255)},
      {"(* 16u8 16u8)", u8(0)},
      {"(neg 1u8)", u8(255)},
      {"(abs 200u8)", u8(200)},
      {"(+ 127i8 1i8)", i8(-128)},
      {"(abs -128i8)", i8(-128)},
      {"(* -32768i16 -1i16)", i16(-32768)},
      {"(+ 65535u16 1u16)", u16(0)},
      {"(+ 9223372036854775807 1)", i64(kMin<int64_t>)},
      {"(neg -9223372036854775808)", i64(kMin<int64_t>)},
      {"(- 0u64 1u64)", u64(kMax<uint64_t>)},
      {"(* 4294967296u64 4294967296u64)", u64(0)},
  });
}

TEST(PrimArithmetic, SignumMinMax) {
  check_cases({
      {"(signum -5i32)", i32(-1)},
      {"(signum 0i32)", i32(0)},
      {"(signum 7u8)", u8(1)},
      {"(signum -2.5)", f64(-1.0)},
      {"(signum 0.25f32)", f32(1.0f)},
      {"(signum 0.0)", f64(0.0)},
      {"(min 3i32 -4i32)", i32(-4)},
      {"(max 3u8 200u8)", u8(200)},
      {"(min -1 1)", i64(-1)},
      {"(max 1.5f32 -2f32)", f32(1.5f)},
  });
}

TEST(PrimArithmetic, FloatMinMaxIgnoreOneNaN) {
  check_cases({
      {"(min nan 1.0)", f64(1.0)},
      {"(min 1.0 nan)", f64(1.0)},
      {"(max nan -3.0)", f64(-3.0)},
      {"(max -3.0 nan)", f64(-3.0)},
      {"(max nanf32 2f32)", f32(2.0f)},
      {"(min 2f32 nanf32)", f32(2.0f)},
      {"(min nan nan)", f64(kNaN)},
      {"(max -inf nan)", f64(-kInf)},
  });
}

TEST(PrimArithmetic, FloatIsIeeeInTheElementPrecision) {
  check_cases({
      {"(/ 1.0 0.0)", f64(kInf)},
      {"(/ -1f32 0f32)", f32(-kInfF)},
      {"(/ 0.0 0.0)", f64(kNaN)},
      {"(/ 1f32 3f32)", f32(1.0f / 3.0f)},
      {"(/ 1.0 3.0)", f64(1.0 / 3.0)},
      {"(== (+ 0.1 0.2) 0.3)", b(false)},         // 0.30000000000000004 in f64
      {"(== (+ 0.1f32 0.2f32) 0.3f32)", b(true)}, // rounds to the same f32
      {"(+ 16777216f32 1f32)", f32(16777216.0f)}, // 2^24 + 1 is not an f32
      {"(* 1e308 10.0)", f64(kInf)},
      {"(neg 0.0)", f64(-0.0)},
      {"(- 0.0 0.0)", f64(0.0)},
      {"(neg nan)", f64(kNaN)},
  });
}

TEST(PrimBitwise, ShiftAmountsAreModuloTheWidth) {
  check_cases({
      {"(shl 1i32 31i32)", i32(kMin<int32_t>)},
      {"(shl 1i32 32i32)", i32(1)},             // 32 mod 32 = 0
      {"(shl 1i32 33i32)", i32(2)},             // 33 mod 32 = 1
      {"(shl 1i32 -1i32)", i32(kMin<int32_t>)}, // -1 mod 32 = 31
      {"(shl 1u8 8u8)", u8(1)},
      {"(shl 1u8 9u8)", u8(2)},
      {"(shl 255u8 1u8)", u8(254)},
      {"(shl 1i8 -1i8)", i8(-128)}, // amount 7
      {"(shl 1 63)", i64(kMin<int64_t>)},
      {"(shl 1 64)", i64(1)},
      {"(shl 3u16 15u16)", u16(32768)},
      {"(shr -8i32 1i32)", i32(-4)}, // arithmetic for signed
      {"(shr -1i32 31i32)", i32(-1)},
      {"(shr -2147483648i32 31i32)", i32(-1)},
      {"(shr -8i32 33i32)", i32(-4)},
      {"(shr -128i8 7i8)", i8(-1)},
      {"(shr -128i8 8i8)", i8(-128)},             // amount 0
      {"(shr -9223372036854775808 -1)", i64(-1)}, // amount 63
      {"(shr 9223372036854775807 -1)", i64(0)},
      {"(shr 128u8 7u8)", u8(1)}, // logical for unsigned
      {"(shr 255u8 4u8)", u8(15)},
      {"(shr 4294967295u32 31u32)", u32(1)},
      {"(shr 4294967295u32 32u32)", u32(4294967295u)},
      {"(shr 18446744073709551615u64 63u64)", u64(1)},
  });
}

TEST(PrimBitwise, LogicAndCounts) {
  check_cases({
      {"(band 12i32 10i32)", i32(8)},
      {"(bor 12i32 10i32)", i32(14)},
      {"(bxor 12i32 10i32)", i32(6)},
      {"(bnot 0i32)", i32(-1)},
      {"(bnot 0u8)", u8(255)},
      {"(bnot 5u16)", u16(65530)},
      {"(band -1 255)", i64(255)},
      {"(popcount -1i32)", i32(32)},
      {"(popcount 255u8)", u8(8)},
      {"(popcount 0u64)", u64(0)},
      {"(popcount -128i8)", i8(1)},
      {"(popcount 7)", i64(3)},
      {"(clz 0i32)", i32(32)},
      {"(clz 0u8)", u8(8)},
      {"(clz 0u16)", u16(16)},
      {"(clz 0)", i64(64)},
      {"(clz 1i32)", i32(31)},
      {"(clz -1i32)", i32(0)},
      {"(clz 16u8)", u8(3)},
      {"(ctz 0i32)", i32(32)},
      {"(ctz 0u8)", u8(8)},
      {"(ctz 0i16)", i16(16)},
      {"(ctz 0u64)", u64(64)},
      {"(ctz 8i32)", i32(3)},
      {"(ctz -2147483648i32)", i32(31)},
  });
}

TEST(PrimDivision, QuotRemTruncateDivModFloor) {
  check_cases({
      // 7 and -7 by 2 and -2: quot/rem truncate, div/mod floor (mod has the divisor's sign).
      {"(quot 7i32 2i32)", i32(3)},
      {"(rem 7i32 2i32)", i32(1)},
      {"(div 7i32 2i32)", i32(3)},
      {"(mod 7i32 2i32)", i32(1)},
      {"(quot -7i32 2i32)", i32(-3)},
      {"(rem -7i32 2i32)", i32(-1)},
      {"(div -7i32 2i32)", i32(-4)},
      {"(mod -7i32 2i32)", i32(1)},
      {"(quot 7i32 -2i32)", i32(-3)},
      {"(rem 7i32 -2i32)", i32(1)},
      {"(div 7i32 -2i32)", i32(-4)},
      {"(mod 7i32 -2i32)", i32(-1)},
      {"(quot -7i32 -2i32)", i32(3)},
      {"(rem -7i32 -2i32)", i32(-1)},
      {"(div -7i32 -2i32)", i32(3)},
      {"(mod -7i32 -2i32)", i32(-1)},
      {"(quot -7 2)", i64(-3)},
      {"(div -7 2)", i64(-4)},
      {"(rem 7 -2)", i64(1)},
      {"(mod 7 -2)", i64(-1)},
      {"(div -7i8 2i8)", i8(-4)},
      {"(mod -7i8 2i8)", i8(1)},
      {"(div -6i32 2i32)", i32(-3)},
      {"(mod -6i32 2i32)", i32(0)}, // exact: no adjustment
      {"(div 6i16 -3i16)", i16(-2)},
      {"(mod 6i16 -3i16)", i16(0)},
      {"(quot 7u8 2u8)", u8(3)},
      {"(rem 7u8 2u8)", u8(1)},
      {"(div 255u8 2u8)", u8(127)},
      {"(mod 255u8 16u8)", u8(15)},
      {"(div 4294967295u32 2u32)", u32(2147483647u)},
      // MIN by -1 wraps to MIN with remainder 0.
      {"(quot -2147483648i32 -1i32)", i32(kMin<int32_t>)},
      {"(rem -2147483648i32 -1i32)", i32(0)},
      {"(div -2147483648i32 -1i32)", i32(kMin<int32_t>)},
      {"(mod -2147483648i32 -1i32)", i32(0)},
      {"(quot -9223372036854775808 -1)", i64(kMin<int64_t>)},
      {"(mod -9223372036854775808 -1)", i64(0)},
      {"(div -128i8 -1i8)", i8(-128)},
      {"(rem -32768i16 -1i16)", i16(0)},
  });
}

TEST(PrimDivision, ByZeroIsAnErrorNamingTheOperation) {
  for (const char* op : {"quot", "rem", "div", "mod"}) {
    for (const char* t : {"i32", "u8", "i64", "i16", "u64"}) {
      std::string exp = std::string("(") + op + " 7" + t + " 0" + t + ")";
      SCOPED_TRACE(exp);
      try {
        eval(exp);
        ADD_FAILURE() << exp << " did not raise";
      } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::DivisionByZero);
        EXPECT_NE(e.message().find("division by zero"), std::string::npos) << e.what();
        EXPECT_NE(e.message().find(std::string("`") + op + "`"), std::string::npos) << e.what();
        // `(program () (unit (op` : the operation starts at column 19.
        EXPECT_EQ(e.loc().line, 1);
        EXPECT_EQ(e.loc().col, 19);
      }
    }
  }
}

TEST(PrimFloating, RoundingFunctions) {
  check_cases({
      {"(round 0.5)", f64(1.0)}, // half away from zero
      {"(round -0.5)", f64(-1.0)},
      {"(round 2.5)", f64(3.0)}, // not to even
      {"(round -2.5)", f64(-3.0)},
      {"(round 1.5f32)", f32(2.0f)},
      {"(round 0.49999999999999994)", f64(0.0)}, // largest double below 0.5
      {"(round -0.4)", f64(-0.0)},
      {"(floor -1.5)", f64(-2.0)},
      {"(ceil -1.5)", f64(-1.0)},
      {"(trunc -1.7)", f64(-1.0)},
      {"(trunc 2.9)", f64(2.0)},
      {"(floor 2.7f32)", f32(2.0f)},
      {"(ceil 2.1f32)", f32(3.0f)},
      {"(trunc -2.5f32)", f32(-2.0f)},
      {"(floor inf)", f64(kInf)},
  });
}

TEST(PrimFloating, ClassificationAndElementaryFunctions) {
  check_cases({
      {"(isnan nan)", b(true)},
      {"(isnan inf)", b(false)},
      {"(isnan 1.0f32)", b(false)},
      {"(isinf -inf)", b(true)},
      {"(isinf nanf32)", b(false)},
      {"(isinf 1e308)", b(false)},
      {"(isinf (* 1e308 10.0))", b(true)},
      {"(sqrt 4.0)", f64(2.0)},
      {"(sqrt -1.0)", f64(kNaN)},
      {"(sqrt 2f32)", f32(std::sqrt(2.0f))},
      {"(pow 2.0 10.0)", f64(1024.0)},
      {"(exp 0.0)", f64(1.0)},
      {"(log 1.0)", f64(0.0)},
      {"(log 0.0)", f64(-kInf)},
      {"(sin 0.0)", f64(0.0)},
      {"(cos 0.0)", f64(1.0)},
      {"(tan 0.0)", f64(0.0)},
      {"(asin 1.0)", f64(std::asin(1.0))},
      {"(acos 1.0)", f64(0.0)},
      {"(atan 0.0)", f64(0.0)},
      {"(sinh 0.0)", f64(0.0)},
      {"(cosh 0.0)", f64(1.0)},
      {"(tanh 0.0)", f64(0.0)},
      {"(atan2 0.0 -1.0)", f64(std::atan2(0.0, -1.0))}, // pi
      {"(atan2 1f32 1f32)", f32(std::atan2(1.0f, 1.0f))},
  });
}

TEST(PrimCompare, NaNIsUnorderedAndLogicShortCircuits) {
  check_cases({
      {"(== nan nan)", b(false)},
      {"(/= nan nan)", b(true)},
      {"(< nan 1.0)", b(false)},
      {"(>= nan 1.0)", b(false)},
      {"(> 1.0 nan)", b(false)},
      {"(<= nanf32 nanf32)", b(false)},
      {"(== 0.0 -0.0)", b(true)},
      {"(< false true)", b(true)},
      {"(== true true)", b(true)},
      {"(< -1i32 0i32)", b(true)},
      {"(< 255u8 0u8)", b(false)},
      {"(> 4294967295u32 0u32)", b(true)},
      {"(<= 3 3)", b(true)},
      {"(and true false)", b(false)},
      {"(or false true)", b(true)},
      {"(not false)", b(true)},
      {"(or true (== (quot 1 0) 0))", b(true)}, // right operand never evaluated
      {"(and false (== (quot 1 0) 0))", b(false)},
  });
}

TEST(PrimCast, IntegerToInteger) {
  check_cases({
      {"(cast u8 300)", u8(44)}, // 300 mod 256
      {"(cast u32 -1)", u32(4294967295u)},
      {"(cast i8 200u8)", i8(-56)},
      {"(cast i64 -1i32)", i64(-1)},                 // sign extension
      {"(cast i64 4294967295u32)", i64(4294967295)}, // zero extension
      {"(cast u64 -1i8)", u64(kMax<uint64_t>)},
      {"(cast i32 4294967295u32)", i32(-1)},
      {"(cast u16 -1i32)", u16(65535)},
      {"(cast i16 65536i32)", i16(0)},
      {"(cast i32 5i32)", i32(5)},
  });
}

TEST(PrimCast, IntegerToFloatRoundsOnceToNearest) {
  check_cases({
      {"(cast f64 9007199254740993)", f64(9007199254740992.0)}, // 2^53 + 1: tie to even
      {"(cast f64 9007199254740995)", f64(9007199254740996.0)}, // 2^53 + 3: tie to even
      {"(cast f32 16777217)", f32(16777216.0f)},                // 2^24 + 1
      {"(cast f64 18446744073709551615u64)", f64(18446744073709551616.0)},
      {"(cast f32 -7i8)", f32(-7.0f)},
      // 2^53 + 2^29 + 1 lies above the midpoint of 2^53 and 2^53 + 2^30 (the f32 neighbours):
      // direct rounding gives 2^53 + 2^30. Via f64 it would first tie to 2^53 + 2^29 and then
      // tie to even at 2^53.
      {"(cast f32 9007199791611905)", f32(std::ldexp(1.0f, 53) + std::ldexp(1.0f, 30))},
  });
}

TEST(PrimCast, FloatToIntegerTruncatesAndSaturates) {
  check_cases({
      {"(cast i32 2.9)", i32(2)},
      {"(cast i32 -2.9)", i32(-2)},
      {"(cast i32 1e10)", i32(kMax<int32_t>)},
      {"(cast i32 -1e10)", i32(kMin<int32_t>)},
      {"(cast i32 2147483647.0)", i32(kMax<int32_t>)},
      {"(cast i32 2147483648.0)", i32(kMax<int32_t>)},
      {"(cast i32 -2147483649.0)", i32(kMin<int32_t>)},
      {"(cast i32 nan)", i32(0)},
      {"(cast i32 inf)", i32(kMax<int32_t>)},
      {"(cast i32 -inf)", i32(kMin<int32_t>)},
      {"(cast u8 -1.5)", u8(0)},
      {"(cast u8 300.7)", u8(255)},
      {"(cast u8 255.9)", u8(255)},
      {"(cast u32 -0.5)", u32(0)},
      {"(cast i8 -128.9)", i8(-128)},
      {"(cast i8 -129.0)", i8(-128)},
      {"(cast i8 127.5f32)", i8(127)},
      {"(cast i64 9.3e18)", i64(kMax<int64_t>)},
      {"(cast i64 -9.3e18)", i64(kMin<int64_t>)},
      {"(cast i64 -9.223372036854775808e18)", i64(kMin<int64_t>)}, // exactly -2^63
      {"(cast u64 -1.0)", u64(0)},
      {"(cast u64 1e20)", u64(kMax<uint64_t>)},
      {"(cast u64 nanf32)", u64(0)},
      {"(cast u16 65535.5f32)", u16(65535)},
      {"(cast i16 -inff32)", i16(-32768)},
  });
}

TEST(PrimCast, BoolConversions) {
  check_cases({
      {"(cast bool nan)", b(true)}, // /= 0
      {"(cast bool 0.0)", b(false)},
      {"(cast bool -0.0)", b(false)},
      {"(cast bool 0.1f32)", b(true)},
      {"(cast bool inf)", b(true)},
      {"(cast bool 0i32)", b(false)},
      {"(cast bool 256i32)", b(true)}, // not truncated first
      {"(cast bool -1i8)", b(true)},
      {"(cast bool true)", b(true)},
      {"(cast i32 true)", i32(1)},
      {"(cast u8 false)", u8(0)},
      {"(cast f64 true)", f64(1.0)},
      {"(cast f32 false)", f32(0.0f)},
      {"(cast i64 true)", i64(1)},
  });
}

TEST(PrimCast, FloatToFloatRoundsToNearest) {
  check_cases({
      {"(cast f32 0.1)", f32(0.1f)},
      {"(cast f64 0.1f32)", f64(double(0.1f))},
      {"(cast f32 1e300)", f32(kInfF)},
      {"(cast f32 -1e300)", f32(-kInfF)},
      {"(cast f32 1e-50)", f32(0.0f)},
      {"(cast f32 nan)", f32(std::numeric_limits<float>::quiet_NaN())},
      {"(cast f32 16777217.0)", f32(16777216.0f)}, // tie to even
      {"(cast f32 16777219.0)", f32(16777220.0f)}, // tie to even
      {"(cast f32 -0.0)", f32(-0.0f)},
      {"(cast f64 inff32)", f64(kInf)},
  });
}

} // namespace
} // namespace strata
