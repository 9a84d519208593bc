// The contraction tiles in 16-byte vectors (parallel/contraction_tiles.h);
// compiled for the instruction set that has them (parallel/CMakeLists.txt).
#define STRATA_TILE_BYTES 16
#define STRATA_TILE_ENTRY run_tiles_sse2
#include "parallel/contraction_tiles.h"
