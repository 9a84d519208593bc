// The Strata version ("0.1.0"), from the CMake project version. It is printed
// by `strata --version` and is part of every kernel cache key.
#pragma once

#include <string_view>

namespace strata {

std::string_view version();

} // namespace strata
