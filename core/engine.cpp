#include "core/engine.h"

#include "core/error.h"
#include "core/launch.h"
#include "core/npy.h"

namespace strata {

void require_no_target(const CompileOptions& options, const std::string& engine) {
  if (!options.target.empty())
    throw Error(ErrorKind::Usage, "engine `" + engine + "` compiles for this machine only, not `" +
                                      options.target + "`");
}

std::vector<Array> Executable::run_files(const std::vector<NpyRowsReader>& inputs,
                                         const std::vector<std::string>& outputs) {
  std::vector<Array> whole;
  for (const NpyRowsReader& r : inputs)
    whole.push_back(r.read_all());
  std::vector<Array> results = run(whole);
  if (outputs.empty()) return results;
  if (outputs.size() != results.size())
    throw Error(ErrorKind::Usage, std::to_string(outputs.size()) + " output files for " +
                                      std::to_string(results.size()) + " results");
  if (launch_from_environment().rank == 0) write_npy_set(outputs, results);
  return {};
}

const char* math_mode_name(MathMode m) {
  return m == MathMode::Fast ? "fast" : "exact";
}

std::optional<MathMode> parse_math_mode(std::string_view name) {
  if (name == "exact") return MathMode::Exact;
  if (name == "fast") return MathMode::Fast;
  return std::nullopt;
}

} // namespace strata
