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
#if STRATA_HAVE_MPI
#include <map>
#include <mutex>

#include "mpi/engine.h"
#endif

namespace strata {

#if STRATA_HAVE_MPI
// The engine each rank of the mpi engines runs on: jit where built, else tbb.
const Engine* local_of_mpi(const std::vector<std::unique_ptr<Engine>>& built) {
  const Engine* local = nullptr;
  for (const auto& e : built)
    if (e->name() == "jit" || (e->name() == "tbb" && !local)) local = e.get();
  return local;
}

// `mpi:P` (1 <= P <= 64): P ranks as threads of this process, made on first use.
const Engine* mpi_threads_engine(const std::string& name) {
  if (name.rfind("mpi:", 0) != 0) return nullptr;
  std::string digits = name.substr(4);
  if (digits.empty() || digits.size() > 2 ||
      digits.find_first_not_of("0123456789") != std::string::npos)
    return nullptr;
  int ranks = std::stoi(digits);
  if (ranks < 1 || ranks > 64) return nullptr;
  static std::mutex m;
  static std::map<int, std::unique_ptr<Engine>> made;
  std::lock_guard lock(m);
  auto& e = made[ranks];
  if (!e)
    e = make_mpi_threads_engine(find_engine("jit") ? *find_engine("jit") : *find_engine("tbb"),
                                ranks, MpiOptions{0});
  return e.get();
}
#endif

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
#if STRATA_HAVE_MPI
    v.push_back(make_mpi_engine(*local_of_mpi(v)));
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
#if STRATA_HAVE_MPI
  return mpi_threads_engine(name);
#else
  return nullptr;
#endif
}

std::string engine_names() {
  std::string s;
  for (const Engine* e : all_engines())
    s += (s.empty() ? "" : ", ") + e->name();
  return s;
}

} // namespace strata
