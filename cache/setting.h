// Numeric settings of the kernel cache read from the environment.
#pragma once

#include <cstdint>
#include <optional>

namespace strata::cache {

// The value of environment variable `name` (a Count of core/environment.h's
// table) times `unit`; nullopt when unset or empty. Anything else (signs,
// suffixes, overflow) is a usage error naming the variable and the value.
std::optional<uint64_t> number_setting(const char* name, uint64_t unit = 1);

} // namespace strata::cache
