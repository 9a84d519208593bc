// The contraction of parallel/contraction.h reduced to four loop levels
// (batch, i, j, k) with strides: the contract between the dispatcher
// (parallel/contraction.cpp) and the tile code compiled once per vector
// width (parallel/contraction_tiles.h).
#pragma once

#include <cstdint>
#include <vector>

namespace strata::parallel::detail {

struct PlanOperand {
  const void* data = nullptr;
  std::vector<int64_t> batch_offset; // elements, per batch
  int64_t si = 0, sj = 0, sk = 0;    // element strides of i, j, k
  bool row = false;                  // read as a scalar per (i, k), broadcast over j (sj == 0)
};

struct Plan {
  int64_t batches = 1, m = 1, n = 1, k = 0;
  PlanOperand x, y;    // the element is x * y; at least one is not `row`; a
                       // packed (not row) operand has si == 0
  void* out = nullptr; // [batches][m][n]
  const void* seed = nullptr;
};

// The element type of the tiles: integers run as unsigned (wrapping, the
// same bits as the signed types' wrapping + and *).
enum class TileElem { F32, F64, U32, U64 };

// The tile code for one vector width.
void run_tiles_avx512(const Plan& p, TileElem elem);
void run_tiles_avx2(const Plan& p, TileElem elem);
void run_tiles_sse2(const Plan& p, TileElem elem);

} // namespace strata::parallel::detail
