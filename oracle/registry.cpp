#include "oracle/registry.h"

#include <memory>

#include "interpreter/interp_engine.h"
#if STRATA_HAVE_TBB
#include "tbb/engine.h"
#endif
#if STRATA_HAVE_JIT
#include "jit/engine.h"
#endif
#if STRATA_HAVE_CUDA
#include "cuda/engine.h"
#endif

namespace strata {

const std::vector<const Engine*>& all_engines() {
  // The engines this build has (cmake/StrataEngines.cmake), the oracle first.
  static const std::vector<std::unique_ptr<Engine>> owned = [] {
    std::vector<std::unique_ptr<Engine>> v;
    v.push_back(make_interp_engine());
#if STRATA_HAVE_TBB
    v.push_back(make_tbb_engine());
#endif
#if STRATA_HAVE_JIT
    v.push_back(make_jit_engine());
#endif
#if STRATA_HAVE_CUDA
    v.push_back(make_cuda_engine());
#endif
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
