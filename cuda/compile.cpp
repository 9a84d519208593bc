#include "cuda/compile.h"

#include <chrono>
#include <mutex>

#include "cache/memory_lru.h"
#include "cache/tiered.h"
#include "core/error.h"
#include "core/version.h"
#include "cuda/nvrtc_compile.h"
#include "fusion/fuse.h"

namespace strata::cuda {
namespace {

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// Compiled images in memory, shared by every compile in the process, the
// least recently used dropped past STRATA_MEMORY_CACHE_ENTRIES/_MB. (A loaded
// module belongs to its executable and is unloaded with it.)
struct MemoryCache {
  std::mutex mutex;
  cache::MemoryLru<std::vector<char>> images{cache::memory_limits_from_environment()}; // by key
};
MemoryCache& memory_cache() {
  static MemoryCache cache;
  return cache;
}

// The image for `source`, from memory, from disk or from NVRTC, keyed by
// everything baked into it: the generated text (canonical: no sizes, no
// addresses), the NVRTC options and version, the Strata version and the
// architecture. Sets `outcome` and `nvrtc_ran`.
std::vector<char> compile_cached(const std::string& source, int arch, const CompileCaches& caches,
                                 std::string& outcome, bool& nvrtc_ran) {
  cache::KeyBuilder kb;
  kb.add("cuda").add(source).add(nvrtc_version()).add(version()).add("sm_" + std::to_string(arch));
  for (const std::string& o : nvrtc_options(arch, true))
    kb.add(o);
  cache::Key key = kb.finish();
  MemoryCache& memory = memory_cache();
  cache::Tiers<std::vector<char>> tiers;
  if (caches.memory) {
    tiers.memory = [&]() -> std::optional<std::vector<char>> {
      std::lock_guard lock(memory.mutex);
      if (const std::vector<char>* image = memory.images.find(key.hex)) return *image;
      return std::nullopt;
    };
    tiers.remember = [&](const std::vector<char>& image) {
      std::lock_guard lock(memory.mutex);
      memory.images.insert(key.hex, image, image.size());
    };
  }
  tiers.from_disk = [](std::vector<char> image, std::string&) {
    return std::optional<std::vector<char>>(std::move(image));
  };
  tiers.build = [&] {
    std::vector<char> image = nvrtc_compile(source, arch, true).image;
    nvrtc_ran = true;
    return std::pair(image, image);
  };
  cache::DiskCache disk("cuda",
                        caches.disk ? *caches.disk : cache::disk_options_from_environment());
  return cache::lookup(key, disk, tiers, outcome);
}

} // namespace

CompiledProgram compile_program(const Program& program, bool fusion, int arch,
                                const CompileCaches& caches) {
  auto t0 = std::chrono::steady_clock::now();
  CompiledProgram out{build_kernel_graph(program, FusionOptions{fusion}), {}, {}, {}, false};
  out.report.phases.emplace_back("fuse", ms_since(t0));
  t0 = std::chrono::steady_clock::now();
  out.code = generate(out.graph);
  out.report.phases.emplace_back("codegen", ms_since(t0));
  t0 = std::chrono::steady_clock::now();
  std::string outcome;
  out.image = compile_cached(out.code.source, arch, caches, outcome, out.nvrtc_ran);
  double compile_ms = ms_since(t0);
  out.report.phases.emplace_back("compile", compile_ms);
  // One translation unit for every kernel: its compile time goes to the
  // first kernel, so that the kernels' times add up to the compile (every
  // kernel shares its cache outcome).
  bool first = true;
  for (const Kernel* k : compute_kernels(out.graph)) {
    out.report.kernels.push_back({k->id, first ? compile_ms : 0.0, outcome});
    first = false;
  }
  return out;
}

int parse_arch(const std::string& name) {
  bool ok = name.size() >= 5 && name.size() <= 6 && name.compare(0, 3, "sm_") == 0 &&
            name.find_first_not_of("0123456789", 3) == std::string::npos && name[3] != '0';
  if (!ok)
    throw Error(ErrorKind::Usage,
                "expected a GPU architecture as sm_XX (sm_80, sm_90, ...), not `" + name + "`");
  return std::stoi(name.substr(3));
}

} // namespace strata::cuda
