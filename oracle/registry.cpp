#include "oracle/registry.h"

#include <memory>

#include "interpreter/interp_engine.h"
#include "tbb/engine.h"

namespace strata {

const std::vector<const Engine*>& all_engines() {
  static const std::vector<std::unique_ptr<Engine>> owned = [] {
    std::vector<std::unique_ptr<Engine>> v;
    v.push_back(make_interp_engine());
    v.push_back(make_tbb_engine());
    return v;
  }();
  static const std::vector<const Engine*> engines = [] {
    std::vector<const Engine*> v;
    for (const auto& e : owned)
      v.push_back(e.get());
    return v;
  }();
  return engines;
}

const Engine* find_engine(const std::string& name) {
  for (const Engine* e : all_engines())
    if (e->name() == name) return e;
  return nullptr;
}

std::string engine_names() {
  std::string s;
  for (const Engine* e : all_engines())
    s += (s.empty() ? "" : ", ") + e->name();
  return s;
}

} // namespace strata
