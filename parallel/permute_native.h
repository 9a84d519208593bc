// permute with a combining function the CPU engines recognise (tbb and jit
// share it; neither owns it), run as plain typed loops and, on large sources,
// in parallel with per-chunk private accumulators.
//
// docs/language.md (Association order of reductions) pins permute's order: source row-major, each
// element combined as `(comb new old)`. The parallel path gives bitwise that
// result, so it only takes combining functions for which every order is the
// same: `(op new old)` or `(op old new)` with op one of + * min max band bor
// bxor on an integer type (wrapping: associative and commutative) or and/or on
// bool, plus the projections `new` (the last element wins) and `old` (the
// defaults stay) on any type. Float + and everything else keep the ordered
// path of each engine's permute_kernel.cpp.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "core/array.h"
#include "core/ir.h"
#include "core/prim.h"

namespace strata::parallel {

// The target position of every source element (-1: ignored). Its allocator
// leaves elements uninitialised: every one is written, and zero-filling 2^24
// targets first would cost a serial pass over 128 MiB.
template <class T> struct UninitAllocator : std::allocator<T> {
  template <class U> struct rebind { using other = UninitAllocator<U>; };
  UninitAllocator() = default;
  template <class U> UninitAllocator(const UninitAllocator<U>&) {}
  template <class U> void construct(U* p) { ::new (static_cast<void*>(p)) U; }
  template <class U, class... A> void construct(U* p, A&&... a) {
    ::new (static_cast<void*>(p)) U(std::forward<A>(a)...);
  }
};
using Targets = std::vector<int64_t, UninitAllocator<int64_t>>;

struct NativeCombine {
  enum class Kind { Op, TakeNew, KeepOld };
  Kind kind = Kind::Op;
  Prim op = Prim::Add;               // Kind::Op
  ScalarKind type = ScalarKind::I64; // Kind::Op
};

// How `f` combines, if it is one of the forms above.
std::optional<NativeCombine> recognise_combine(const Lambda& f);

// Sources of at least this many elements per private accumulator element are
// split into chunks combined in parallel: chunk length
// max(kMinPermuteChunk, kPermuteChunkPerTarget * targets). Chosen by sizes
// only, never by thread count, so the result is the same for any thread count
// (and the same as the sequential loop, as the forms above allow).
constexpr int64_t kMinPermuteChunk = int64_t(1) << 16;
constexpr int64_t kPermuteChunkPerTarget = 8;

// out[target[i]] := comb(src[i], out[target[i]]) for i in [0, n), in source
// order (target -1: ignored), with the result of that order.
void permute_native(const NativeCombine& c, const Array& src, const int64_t* target, int64_t n,
                    Array& out);

// The bins a permute with an operation (NativeCombine::Kind::Op) combines
// its source positions [0, n) into, chunk by chunk: permute_native's own, and
// the jit's, whose generated code computes each chunk's source values and
// targets on the fly. The chunks are cut by sizes only (above); a source of
// one chunk combines straight into the result (exactly the source order),
// more each into private bins (as many elements as the result, of its type)
// that start at the operation's identity, merged into the result in chunk
// order by merge(). Bins of different chunks may be filled at the same time.
class PermuteBins {
public:
  PermuteBins(const NativeCombine& c, int64_t sources, Array& out);
  PermuteBins(const PermuteBins&) = delete;
  PermuteBins& operator=(const PermuteBins&) = delete;
  int64_t chunk_length() const { return length_; }
  // The bins of the chunk that starts at source position `begin`.
  void* bins(int64_t begin);
  // out := op(bins of each chunk, out), chunk by chunk, in parallel over targets.
  void merge();

private:
  NativeCombine c_;
  Array& out_;
  int64_t length_ = 1;
  std::vector<std::unique_ptr<std::byte[]>> private_; // empty: one chunk, into out_
};

} // namespace strata::parallel
