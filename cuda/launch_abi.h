// The host/generated-code contract of the cuda engine, written once: the
// error slot (SErr) and the launch parameters (SLP) every entry takes, and
// which launch word each kernel kind reads (namespace words). The struct
// definitions are a macro so that the same text is compiled into the host
// (cuda/executor.cpp, below) and pasted into every generated translation
// unit (cuda/prelude.cpp); the static_asserts hold on both sides. The word
// indices are used by the code generators (as `p.v[i]` text, word()) and by
// the executor (as LaunchParams::v[i]).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

// Error slot: `first` is the smallest order key of a failing element (all
// ones when none failed); a second, diagnosing launch with diag = first lets
// only that element write which site failed and its operands (v).
// Launch parameters (sizes, chunking), passed by value.
#define STRATA_CUDA_LAUNCH_ABI                                                                     \
  struct SErr {                                                                                    \
    u64 first;                                                                                     \
    i64 site;                                                                                      \
    i64 v[18];                                                                                     \
  };                                                                                               \
  struct SLP {                                                                                     \
    i64 v[20];                                                                                     \
  };                                                                                               \
  static_assert(sizeof(SErr) == 160 && sizeof(SLP) == 160, "the launch ABI's sizes");

#define STRATA_CUDA_STRINGIFY2(...) #__VA_ARGS__
#define STRATA_CUDA_STRINGIFY(...) STRATA_CUDA_STRINGIFY2(__VA_ARGS__)

namespace strata::cuda {
namespace abi {
using u64 = uint64_t;
using i64 = int64_t;
STRATA_CUDA_LAUNCH_ABI
static_assert(offsetof(SErr, first) == 0 && offsetof(SErr, site) == 8 && offsetof(SErr, v) == 16);
} // namespace abi

// The contract's text, for the prelude (which defines u64 and i64 first).
inline constexpr const char* kLaunchAbiText = STRATA_CUDA_STRINGIFY(STRATA_CUDA_LAUNCH_ABI);

// The host's names for them: fresh LaunchParams are all zero, a fresh
// ErrorWords says "no failure".
struct LaunchParams : abi::SLP {
  LaunchParams() : abi::SLP{} {}
};
static_assert(sizeof(LaunchParams) == sizeof(abi::SLP));
struct ErrorWords : abi::SErr {
  ErrorWords() : abi::SErr{~uint64_t(0), 0, {}} {}
};
static_assert(sizeof(ErrorWords) == sizeof(abi::SErr));

// Launch words (SLP::v) by kernel kind.
namespace words {
// generate, stencil: the shape in [shape, shape + R); the work item is the
// element.
// fold, scans, foldseg: rows, the innermost extent n, the chunk length C and
// chunks per row K (foldseg: the number of segments in `segments` instead),
// the input shape in [row_shape, row_shape + R), the lane slots per chunk Ls.
constexpr int shape = 0;
constexpr int rows = 0;
constexpr int n = 1;
constexpr int chunk = 2;
constexpr int segments = 2;
constexpr int chunks = 3;
constexpr int row_shape = 4;
constexpr int lane_slots = 12;
// permute: the destination shape in [destination_shape, +Rd), the source
// shape in [source_shape, +Rs), the source size.
constexpr int destination_shape = 0;
constexpr int source_shape = 8;
constexpr int sources = 16;
// closed expressions: the device address of the i64 words they write.
constexpr int out_words = 0;
constexpr int count = 20;
} // namespace words

// Ranks above this do not fit the launch words (row_shape + R <= lane_slots,
// source_shape + R <= sources).
constexpr int kMaxRank = 8;
static_assert(words::row_shape + kMaxRank <= words::lane_slots);
static_assert(words::source_shape + kMaxRank <= words::sources);
static_assert(words::sources < words::count);

// Word `i` of the launch parameters as generated code reads it.
inline std::string word(int i) {
  return "p.v[" + std::to_string(i) + "]";
}

// The single words by the names generated code uses (S_N, S_CHUNK, ...),
// as #defines for the prelude.
inline std::string launch_word_names() {
  std::string s;
  auto name = [&](const char* n, int i) {
    s += std::string("#define ") + n + " " + word(i) + "\n";
  };
  name("S_ROWS", words::rows);
  name("S_N", words::n);
  name("S_CHUNK", words::chunk);
  name("S_SEGMENTS", words::segments);
  name("S_CHUNKS", words::chunks);
  name("S_LANE_SLOTS", words::lane_slots);
  name("S_SOURCES", words::sources);
  name("S_OUT_WORDS", words::out_words);
  return s;
}

} // namespace strata::cuda
