// The reference interpreter as an Engine named "interp" (always available).
#pragma once

#include <memory>

#include "core/engine.h"

namespace strata {

std::unique_ptr<Engine> make_interp_engine();

} // namespace strata
