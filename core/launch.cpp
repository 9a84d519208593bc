#include "core/launch.h"

#include <cstdlib>

namespace strata {

Launch launch_from_environment() {
  const char* pairs[][2] = {{"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"},
                            {"PMI_RANK", "PMI_SIZE"},
                            {"PMIX_RANK", "PMIX_SIZE"}};
  for (const auto& p : pairs) {
    const char* r = std::getenv(p[0]);
    const char* s = std::getenv(p[1]);
    if (r && s) return Launch{std::atoi(r), std::atoi(s), true};
  }
  return {};
}

} // namespace strata
