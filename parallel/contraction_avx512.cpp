// The contraction tiles in 64-byte vectors (parallel/contraction_tiles.h);
// compiled for the instruction set that has them (parallel/CMakeLists.txt).
#define STRATA_TILE_BYTES 64
#define STRATA_TILE_ENTRY run_tiles_avx512
#include "parallel/contraction_tiles.h"
