// The hand-written oneTBB baselines compiled with -O3 -march=native
// -ffast-math (bench/CMakeLists.txt): what a C++ programmer gets who lets the
// compiler reassociate, contract to FMA and call glibc's vector math library
// (libmvec). It changes results, so it is an anchor (bench/anchors.h), never
// a check of an engine.
#define STRATA_FASTMATH_BASELINES 1
#define STRATA_BASELINE_KERNELS fastmath_kernels
#include "bench/baselines_tbb.cpp"
