#include "core/engine.h"

#include "core/error.h"

namespace strata {

void require_no_target(const CompileOptions& options, const std::string& engine) {
  if (!options.target.empty())
    throw Error(ErrorKind::Usage, "engine `" + engine + "` compiles for this machine only, not `" +
                                      options.target + "`");
}

} // namespace strata
