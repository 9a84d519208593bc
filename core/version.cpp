#include "core/version.h"

namespace strata {

std::string_view version() { return STRATA_VERSION; }

} // namespace strata
