// The fixed text that opens every generated CUDA translation unit: the
// pinned scalar semantics of docs/language.md, Pinned semantics (core/semantics.h) as
// `__host__ __device__` helpers, the error slot, and the launch conventions.
//
// The same text compiles three ways: by NVRTC for the device (no standard
// headers there, so it defines its own integer types), by nvcc, and by the
// host C++ compiler with __host__/__device__/__global__ defined away, which
// is how tests check the generated scalar code on machines without a GPU.
#pragma once

#include <string_view>

namespace strata::cuda {

std::string_view prelude();

} // namespace strata::cuda
