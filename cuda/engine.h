// The CUDA engine (docs/cuda.md): the kernel graph as one generated CUDA C++
// translation unit per program, compiled by NVRTC for the present GPU and
// run through the driver API, which is loaded at run time: without a driver
// or a GPU the engine is unavailable ("no CUDA device") and skipped.
#pragma once

#include <memory>

#include "core/engine.h"

namespace strata {

std::unique_ptr<Engine> make_cuda_engine();

} // namespace strata
