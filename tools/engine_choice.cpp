#include "tools/engine_choice.h"

#include "core/error.h"
#include "oracle/faults/faulty_engine.h"
#include "oracle/registry.h"

namespace strata::tool {

std::vector<const Engine*> engines_to_check(const std::vector<std::string>& names,
                                            std::ostream& out) {
  std::vector<const Engine*> engines;
  for (const std::string& name : names) {
    const Engine* e = faults::find_any_engine(name);
    if (!e)
      throw Error(ErrorKind::Usage,
                  "unknown engine `" + name + "`; available: " + engine_names() + ", faulty:FAULT");
    std::string why;
    if (!e->available(why))
      throw Error(ErrorKind::Usage, "engine `" + name + "` is not available here: " + why);
    engines.push_back(e);
  }
  if (!names.empty()) return engines;
  for (const Engine* e : all_engines()) {
    std::string why;
    if (e->name() == "interp") continue;
    if (e->available(why))
      engines.push_back(e);
    else
      out << "skip  " << e->name() << ": " << why << "\n";
  }
  if (engines.empty()) engines.push_back(find_engine("interp"));
  return engines;
}

} // namespace strata::tool
