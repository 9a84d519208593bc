// Arrays past the memory limit (STRATA_MEMORY_LIMIT, else the memory the
// system had available) are a `resource` error before anything is allocated,
// on the interpreter and every engine, fused and unfused: never an
// out-of-memory kill (docs/language.md, Choices Strata made: huge shapes).
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "oracle/differential.h"
#include "oracle/registry.h"
#include "tests/test_util.h"

namespace strata {
namespace {

// Sets STRATA_MEMORY_LIMIT for the lifetime of a test.
class MemoryLimit {
public:
  explicit MemoryLimit(const char* limit) { setenv("STRATA_MEMORY_LIMIT", limit, 1); }
  ~MemoryLimit() { unsetenv("STRATA_MEMORY_LIMIT"); }
  MemoryLimit(const MemoryLimit&) = delete;
  MemoryLimit& operator=(const MemoryLimit&) = delete;
};

TEST(MemoryLimit, LimitComesFromTheEnvironmentWithSuffixes) {
  {
    MemoryLimit m("64M");
    EXPECT_EQ(Buffer::memory_limit(), size_t(64) << 20);
  }
  {
    MemoryLimit m("3k");
    EXPECT_EQ(Buffer::memory_limit(), size_t(3) << 10);
  }
  {
    MemoryLimit m("nonsense"); // a usage error naming the variable (core/environment.h)
    EXPECT_THROW((void)Buffer::memory_limit(), Error);
  }
}

TEST(MemoryLimit, LiveBytesFollowAllocations) {
  size_t before = Buffer::live_bytes();
  {
    Buffer b = Buffer::allocate(1 << 20);
    EXPECT_GE(Buffer::live_bytes(), before + (1 << 20));
  }
  EXPECT_EQ(Buffer::live_bytes(), before);
}

// Each program needs about 800 MB (10^8 eight-byte elements) in one array.
const char* kHuge[] = {
    "(program () (generate (ix 10000 10000) (lambda ((i (ix 2))) (proj 0 i))))",
    "(program () (fill (ix 10000 10000) 1.5))",
    "(program ((xs (array i64 1))) (replicate (spec 100000000 all) xs))",
    "(program ((xs (array i64 1))) "
    "(reshape (ix 100000000) (replicate (spec 100000000 all) xs)))",
    "(program () (map (lambda ((x i64)) (+ x 1)) (fill (ix 100000000) 2)))",
};

TEST(MemoryLimit, HugeShapesAreResourceErrorsOnEveryEngine) {
  MemoryLimit m("64M");
  for (const char* text : kHuge) {
    SCOPED_TRACE(text);
    Program p = test::parse_and_check(text);
    std::vector<Array> inputs;
    if (!p.params.empty()) inputs.push_back(test::array_of<int64_t>({7}));
    Outcome oracle = run_oracle(p, inputs, ReductionOrder::canonical());
    ASSERT_EQ(oracle.error, ErrorKind::Resource) << oracle.message;
    EXPECT_NE(oracle.message.find("memory limit of 67108864 bytes"), std::string::npos)
        << oracle.message;
    EXPECT_NE(oracle.headline.find("test.strata:1:"), std::string::npos) << oracle.headline;
    for (const Engine* e : all_engines()) {
      std::string why;
      if (!e->available(why)) continue;
      for (bool fusion : {true, false}) {
        CompileOptions options;
        options.fusion = fusion;
        Outcome o = run_engine(*e, p, inputs, options);
        EXPECT_EQ(o.error, ErrorKind::Resource)
            << e->name() << " fusion " << fusion << ": " << (o.error ? o.message : "no error");
        EXPECT_NE(o.message.find("memory limit"), std::string::npos) << e->name() << o.message;
      }
    }
  }
}

// A fused generate -> map -> fold allocates no array: every engine that
// fuses runs it under a limit far below the array it never makes; mpi's
// ranks, whose part of the fold holds their rows of the input, run it whole
// when that part does not fit. Unfused, it is a resource error naming the
// limit (never "an engine bug").
TEST(MemoryLimit, AFusedFoldOfAGenerateFitsWhereItsArrayWouldNot) {
  MemoryLimit m("64M");
  const int64_t n = 20000000; // 160 MB of i64 if it were made
  Program p =
      test::parse_and_check("(program () (fold + 0 (map (lambda (x) (* x 2)) (generate (ix " +
                            std::to_string(n) + ") (lambda (i) (proj 0 i))))))");
  for (const Engine* e : all_engines()) {
    std::string why;
    if (!e->available(why) || e->name() == "interp") continue;
    for (bool fusion : {true, false}) {
      SCOPED_TRACE(e->name() + (fusion ? " fused" : " unfused"));
      CompileOptions options;
      options.fusion = fusion;
      Outcome o = run_engine(*e, p, {}, options);
      if (fusion) {
        ASSERT_FALSE(o.error) << o.message;
        EXPECT_EQ(o.results.at(0).read(0, 0).get<int64_t>(), n * (n - 1));
      } else if (o.error) {
        EXPECT_EQ(o.error, ErrorKind::Resource) << o.message;
        EXPECT_NE(o.message.find("memory limit"), std::string::npos) << o.message;
      }
    }
  }
}

// Whether arrays fit depends on what else is live: the check holds the first
// run's result while the second runs. A check in which some run ran out of
// memory compares nothing and says so (found by a jit campaign, where a
// 12.8 GB result made the second run fail: "not deterministic").
TEST(MemoryLimit, AChecksRunOutOfMemoryIsReportedNotCompared) {
  MemoryLimit m("8M");
  Program big = test::parse_and_check("(program () (fill (ix 600000) 1.5))"); // 4.8 MB
  Program small = test::parse_and_check("(program () (fill (ix 1000) 1.5))");
  for (const Engine* e : all_engines()) {
    std::string why;
    if (!e->available(why)) continue;
    SCOPED_TRACE(e->name());
    DiffReport r = differential_check(big, {}, *e, CompileOptions{});
    EXPECT_TRUE(r.agree) << r.disagreement;
    EXPECT_EQ(r.counts.checks_out_of_memory, 1);
    EXPECT_EQ(r.counts.total(), 0);
    EXPECT_NE(r.counts.str().find("1 check(s) not compared: out of memory"), std::string::npos);
    DiffReport fits = differential_check(small, {}, *e, CompileOptions{});
    EXPECT_TRUE(fits.agree) << fits.disagreement;
    EXPECT_EQ(fits.counts.checks_out_of_memory, 0);
    EXPECT_EQ(fits.counts.bitwise, 1000);
  }
}

} // namespace
} // namespace strata
