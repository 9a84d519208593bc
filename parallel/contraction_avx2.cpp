// The contraction tiles in 32-byte vectors (parallel/contraction_tiles.h);
// compiled for the instruction set that has them (parallel/CMakeLists.txt).
#define STRATA_TILE_BYTES 32
#define STRATA_TILE_ENTRY run_tiles_avx2
#include "parallel/contraction_tiles.h"
