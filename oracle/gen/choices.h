// The source of every random decision the program generator makes.
//
// The generator never calls a random number generator directly: it asks a
// Choices object for small integers. Two sources exist:
//  - a tape of 32-bit values (what RapidCheck generates and shrinks: removing
//    values or lowering them towards 0 shrinks the program), read in order and
//    answering 0 once exhausted;
//  - a seeded SplitMix64 stream (tools, benchmarks and the coverage report).
// Every decision is phrased so that choice 0 is the simplest option (a leaf, a
// small shape, value 0, "no"), so an all-zero or exhausted tape builds a tiny
// program: that is what makes shrinking produce small counterexamples.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <utility>
#include <vector>

namespace strata::gen {

class Choices {
public:
  explicit Choices(std::vector<uint32_t> tape) : tape_(std::move(tape)), from_tape_(true) {}
  explicit Choices(uint64_t seed) : state_(seed) {}

  // A raw 32-bit choice.
  uint32_t next() {
    ++used_;
    if (from_tape_) return pos_ < tape_.size() ? tape_[pos_++] : 0;
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return uint32_t((z ^ (z >> 31)) >> 32);
  }
  // Uniform-ish in [0, n); 0 when n <= 1.
  int below(int n) { return n <= 1 ? (void(next()), 0) : int(next() % uint32_t(n)); }
  // In [lo, hi], lo being the choice-0 answer.
  int range(int lo, int hi) { return lo + below(hi - lo + 1); }
  // True with the given probability in percent; choice 0 answers false.
  bool chance(int percent) { return below(100) >= 100 - percent; }
  // An index into `weights`, chosen with those weights; choice 0 answers the
  // first index with a non-zero weight. Zero weights are never chosen.
  int weighted(const std::vector<int>& weights) {
    int total = 0;
    for (int w : weights)
      total += w > 0 ? w : 0;
    if (total == 0) return 0;
    int r = below(total);
    for (size_t i = 0; i < weights.size(); ++i) {
      if (weights[i] <= 0) continue;
      if (r < weights[i]) return int(i);
      r -= weights[i];
    }
    return 0;
  }
  // How many choices have been made so far.
  uint64_t used() const { return used_; }

private:
  std::vector<uint32_t> tape_;
  size_t pos_ = 0;
  bool from_tape_ = false;
  uint64_t state_ = 0;
  uint64_t used_ = 0;
};

} // namespace strata::gen
