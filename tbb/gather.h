// Typed lane traffic between arrays and registers: the loops every element
// read and write of the tbb engine runs.
//
// A leaf is moved as raw bits of its width (1, 2, 4 or 8 bytes), which is
// exact for every scalar kind, so one loop per width serves all kinds. The
// width is chosen once, when a kernel is compiled (`gather_fn`), never per
// element. A read whose positions are consecutive (the common case after
// fusion: `xs[i]` in a map, zipwith or fold) is one contiguous copy.
#pragma once

#include <cstdint>
#include <cstring>

#include "core/scalar.h"
#include "tbb/batch.h"

namespace strata::tbbe {

// out[lane] := data[pos[lane]] for the selected lanes; `consecutive` says
// the selection is dense and pos[lane] == pos[0] + lane.
using GatherFn = void (*)(const std::byte* data, const int64_t* pos, std::byte* out,
                          const Selection& s, bool consecutive);

template <class T>
void gather_typed(const std::byte* data, const int64_t* pos, std::byte* out, const Selection& s,
                  bool consecutive) {
  if (s.count == 0) return;
  if (consecutive) {
    std::memcpy(out, data + size_t(pos[0]) * sizeof(T), size_t(s.count) * sizeof(T));
    return;
  }
  const T* d = reinterpret_cast<const T*>(data);
  T* o = reinterpret_cast<T*>(out);
  if (s.is_dense()) {
    for (int i = 0; i < s.count; ++i)
      o[i] = d[pos[i]];
  } else {
    for (int k = 0; k < s.count; ++k) {
      int i = s.lanes[k];
      o[i] = d[pos[i]];
    }
  }
}

inline GatherFn gather_fn(ScalarKind k) {
  switch (scalar_size(k)) {
  case 1: return gather_typed<uint8_t>;
  case 2: return gather_typed<uint16_t>;
  case 4: return gather_typed<uint32_t>;
  default: return gather_typed<uint64_t>;
  }
}

// True when the dense lanes 0..count-1 of `p` are p[0], p[0]+1, ... (one
// pass of integer xor/or, which vectorises even on baseline x86-64).
inline bool consecutive_positions(const int64_t* p, int count) {
  if (count == 0) return false;
  uint64_t first = uint64_t(p[0]), dev = 0;
  for (int i = 0; i < count; ++i)
    dev |= uint64_t(p[i]) ^ (first + uint64_t(i));
  return dev == 0;
}

// Whether any selected lane of `p` lies outside [0, n): O(1) for consecutive
// positions, otherwise one branch-free pass: x | (n-1-x) has its sign bit set
// exactly when x < 0 or x > n-1 (no unsigned 64-bit compare, so it
// vectorises on baseline x86-64). n-1-x is computed wrapping: for x near
// INT64_MIN it overflows, and x's own sign bit flags it anyway.
inline bool any_out_of_range(const int64_t* p, const Selection& s, bool consecutive, int64_t n) {
  if (s.count == 0) return false;
  if (consecutive) return p[0] < 0 || p[0] > n - s.count;
  int64_t bits = 0;
  uint64_t last = uint64_t(n - 1);
  auto flag = [&](int64_t x) { return x | int64_t(last - uint64_t(x)); };
  if (s.is_dense())
    for (int i = 0; i < s.count; ++i)
      bits |= flag(p[i]);
  else
    for_each_lane(s, [&](int i) { bits |= flag(p[i]); });
  return bits < 0;
}

// The byte width of every leaf of a type, computed once (no allocation later).
inline std::vector<size_t> leaf_sizes(const std::vector<ScalarKind>& kinds) {
  std::vector<size_t> sizes;
  for (ScalarKind k : kinds)
    sizes.push_back(scalar_size(k));
  return sizes;
}

// Copies lane `from` of register a to lane `to` of register b, `size` bytes.
inline void copy_slot(const std::byte* a, int from, std::byte* b, int to, size_t size) {
  switch (size) {
  case 1: b[to] = a[from]; return;
  case 2: reinterpret_cast<uint16_t*>(b)[to] = reinterpret_cast<const uint16_t*>(a)[from]; return;
  case 4: reinterpret_cast<uint32_t*>(b)[to] = reinterpret_cast<const uint32_t*>(a)[from]; return;
  default: reinterpret_cast<uint64_t*>(b)[to] = reinterpret_cast<const uint64_t*>(a)[from]; return;
  }
}

} // namespace strata::tbbe
