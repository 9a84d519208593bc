// The multicore engine "tbb": runs a program's kernel graph (fused or not) on
// oneTBB worker threads, with scalar code compiled once into batch
// instructions (tbb/scalar_compiler.h). Results are bitwise the same for any
// thread count; see docs/tbb.md.
#pragma once

#include <memory>

#include "core/engine.h"

namespace strata {

std::unique_ptr<Engine> make_tbb_engine();

} // namespace strata
