// The tiles of a contraction (parallel/contraction.h), written once and
// compiled per vector width: a .cpp defines STRATA_TILE_BYTES (16, 32 or 64),
// STRATA_TILE_ENTRY (the run_tiles_* function of contraction_plan.h it
// defines), is compiled for that instruction set, and includes this file.
//
// Vectors are GCC vector types of STRATA_TILE_BYTES; one vector holds W
// consecutive j of one output row. A tile is MR rows of i by NV vectors of j;
// its accumulators stay in registers across a block of k. Each lane runs
// acc = acc + x * y for k in order, with the program's operand order: the
// scalar fold's operations, one output element per lane.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <utility>

#include <tbb/parallel_for.h>

#include "core/semantics.h"
#include "parallel/contraction_plan.h"

namespace strata::parallel::detail {
namespace {

template <class T> struct Geometry {
  typedef T Vec __attribute__((vector_size(STRATA_TILE_BYTES)));
  static constexpr int W = STRATA_TILE_BYTES / int(sizeof(T));
  static constexpr int NV = 2;       // vectors per tile row
  static constexpr int NR = W * NV;  // j per tile (a panel)
  static constexpr int MR = 6;       // i per tile: MR * NV accumulators + NV + 1 in registers
  static constexpr int64_t KC = 256; // k per block: the panel block stays in L1
};

// acc[r][v] += row(r, k) * panel[k][v] (or panel * row) for k in [0, kc).
template <class T, int MR, bool RowFirst>
void tile_row_panel(T* __restrict c, const T* row, int64_t si, int64_t sk, const T* panel,
                    int64_t kc) {
  using G = Geometry<T>;
  using Vec = typename G::Vec;
  Vec acc[MR][G::NV];
  for (int r = 0; r < MR; ++r)
    for (int v = 0; v < G::NV; ++v)
      std::memcpy(&acc[r][v], c + r * G::NR + v * G::W, sizeof(Vec));
  // The loops over r and v are unrolled so that the accumulators stay in
  // registers (GCC at -O2 keeps them in memory otherwise).
  for (int64_t k = 0; k < kc; ++k) {
    Vec p[G::NV];
#pragma GCC unroll 8
    for (int v = 0; v < G::NV; ++v)
      std::memcpy(&p[v], panel + k * G::NR + v * G::W, sizeof(Vec));
#pragma GCC unroll 16
    for (int r = 0; r < MR; ++r) {
      T a = row[r * si + k * sk];
#pragma GCC unroll 8
      for (int v = 0; v < G::NV; ++v) {
        if constexpr (RowFirst)
          acc[r][v] = acc[r][v] + a * p[v];
        else
          acc[r][v] = acc[r][v] + p[v] * a;
      }
    }
  }
  for (int r = 0; r < MR; ++r)
    for (int v = 0; v < G::NV; ++v)
      std::memcpy(c + r * G::NR + v * G::W, &acc[r][v], sizeof(Vec));
}

// acc[v] += px[k][v] * py[k][v] for k in [0, kc): one row (MR = 1).
template <class T> void tile_panel_panel(T* __restrict c, const T* px, const T* py, int64_t kc) {
  using G = Geometry<T>;
  using Vec = typename G::Vec;
  Vec acc[G::NV];
  for (int v = 0; v < G::NV; ++v)
    std::memcpy(&acc[v], c + v * G::W, sizeof(Vec));
  for (int64_t k = 0; k < kc; ++k)
#pragma GCC unroll 8
    for (int v = 0; v < G::NV; ++v) {
      Vec a, b;
      std::memcpy(&a, px + k * G::NR + v * G::W, sizeof(Vec));
      std::memcpy(&b, py + k * G::NR + v * G::W, sizeof(Vec));
      acc[v] = acc[v] + a * b;
    }
  for (int v = 0; v < G::NV; ++v)
    std::memcpy(c + v * G::W, &acc[v], sizeof(Vec));
}

template <class T, bool RowFirst, int... Ms>
void tile_rows(int mr, T* c, const T* row, int64_t si, int64_t sk, const T* panel, int64_t kc,
               std::integer_sequence<int, Ms...>) {
  ((mr == Ms + 1 ? tile_row_panel<T, Ms + 1, RowFirst>(c, row, si, sk, panel, kc) : void()), ...);
}

struct FreeAligned {
  void operator()(void* p) const { std::free(p); }
};

template <class T> void run(const Plan& p) {
  using G = Geometry<T>;
  const PlanOperand* row = p.x.row ? &p.x : p.y.row ? &p.y : nullptr;
  const PlanOperand* packed[2] = {p.x.row ? nullptr : &p.x, p.y.row ? nullptr : &p.y};
  const bool row_first = p.x.row;
  const int mr_max = row ? G::MR : 1;
  const int64_t panels = (p.n + G::NR - 1) / G::NR;
  // Enough tasks for the threads: split i into groups only when batches x
  // panels are few. The split never changes what a task computes per element.
  int64_t groups = 1;
  int64_t row_blocks = (p.m + mr_max - 1) / mr_max;
  if (p.batches * panels < 16)
    groups = std::min<int64_t>(row_blocks, 16 / (p.batches * panels) + 1);
  int64_t blocks_per_group = (row_blocks + groups - 1) / groups;
  const T* seed = static_cast<const T*>(p.seed);
  T* out = static_cast<T*>(p.out);
  tbb::parallel_for(int64_t(0), p.batches * panels * groups, [&](int64_t task) {
    int64_t g = task % groups, rest = task / groups;
    int64_t panel = rest % panels, b = rest / panels;
    int64_t j0 = panel * G::NR, jn = std::min<int64_t>(G::NR, p.n - j0);
    int64_t i_begin = g * blocks_per_group * mr_max;
    int64_t i_end = std::min(p.m, i_begin + blocks_per_group * mr_max);
    if (i_begin >= i_end) return;
    size_t bytes = size_t(G::KC * G::NR) * sizeof(T);
    std::unique_ptr<T, FreeAligned> buf[2];
    for (int o = 0; o < 2; ++o)
      if (packed[o]) buf[o].reset(static_cast<T*>(std::aligned_alloc(64, bytes)));
    T* out_b = out + b * p.m * p.n;
    for (int64_t kb = 0; kb < p.k; kb += G::KC) {
      int64_t kc = std::min(G::KC, p.k - kb);
      for (int o = 0; o < 2; ++o) {
        if (!packed[o]) continue;
        const PlanOperand& op = *packed[o];
        const T* src =
            static_cast<const T*>(op.data) + op.batch_offset[size_t(b)] + j0 * op.sj + kb * op.sk;
        T* dst = buf[o].get();
        // Read along the operand's shorter stride (a row-major matrix read
        // by rows: k innermost), write [k][NR].
        if (op.sk != 0 && (op.sj == 0 || std::abs(op.sk) < std::abs(op.sj))) {
          for (int64_t jj = 0; jj < jn; ++jj)
            for (int64_t k = 0; k < kc; ++k)
              dst[k * G::NR + jj] = src[jj * op.sj + k * op.sk];
        } else {
          for (int64_t k = 0; k < kc; ++k)
            for (int64_t jj = 0; jj < jn; ++jj)
              dst[k * G::NR + jj] = src[jj * op.sj + k * op.sk];
        }
        for (int64_t k = 0; k < kc; ++k)
          for (int64_t jj = jn; jj < G::NR; ++jj)
            dst[k * G::NR + jj] = T(0);
      }
      // Without a seed (fold1) each row starts at its first product.
      const int64_t skip = (kb == 0 && !seed) ? 1 : 0;
      for (int64_t i = i_begin; i < i_end; i += mr_max) {
        int mr = int(std::min<int64_t>(mr_max, i_end - i));
        alignas(64) T c[G::MR * G::NR] = {};
        const T* rowp = row ? static_cast<const T*>(row->data) + row->batch_offset[size_t(b)] +
                                  i * row->si + kb * row->sk
                            : nullptr;
        for (int r = 0; r < mr; ++r)
          for (int64_t jj = 0; jj < jn; ++jj) {
            T& acc = c[r * G::NR + jj];
            if (kb > 0) {
              acc = out_b[(i + r) * p.n + j0 + jj];
            } else if (seed) {
              acc = *seed;
            } else if (row) {
              T a = rowp[r * row->si], q = buf[row_first ? 1 : 0].get()[jj];
              acc = row_first ? a * q : q * a;
            } else {
              acc = buf[0].get()[jj] * buf[1].get()[jj];
            }
          }
        if (row) {
          const T* pan = buf[row_first ? 1 : 0].get() + skip * G::NR;
          auto ms = std::make_integer_sequence<int, G::MR>{};
          if (row_first)
            tile_rows<T, true>(mr, c, rowp + skip * row->sk, row->si, row->sk, pan, kc - skip, ms);
          else
            tile_rows<T, false>(mr, c, rowp + skip * row->sk, row->si, row->sk, pan, kc - skip, ms);
        } else
          tile_panel_panel<T>(c, buf[0].get() + skip * G::NR, buf[1].get() + skip * G::NR,
                              kc - skip);
        for (int r = 0; r < mr; ++r) // one NaN (sem::canonical) whatever the hardware made
          for (int64_t jj = 0; jj < jn; ++jj)
            out_b[(i + r) * p.n + j0 + jj] = sem::canonical(c[r * G::NR + jj]);
      }
    }
  });
}

} // namespace

void STRATA_TILE_ENTRY(const Plan& p, TileElem elem) {
  switch (elem) {
  case TileElem::F32: return run<float>(p);
  case TileElem::F64: return run<double>(p);
  case TileElem::U32: return run<uint32_t>(p);
  case TileElem::U64: return run<uint64_t>(p);
  }
}

} // namespace strata::parallel::detail
