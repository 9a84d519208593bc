// The jit's kernel cache policy and the backend's public functions
// (jit/backend.h). The parts it puts together, one job per file:
//   jit/llvm_pipeline.h  the pass pipeline and object emission
//   jit/parts_compile.h  a kernel's parts compiled at the same time
//   jit/lljit_host.h     the LLJIT: loading objects, giving code back
//   jit/tiered_code.h    a kernel's quick tier, then its optimised one
//   jit/optimise_queue.h the optimised compiles, on a thread of their own
//   cache/tiered.h       memory, then disk, then build
#include "jit/backend.h"

#include <chrono>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <span>
#include <unordered_map>

#include <llvm/Config/llvm-config.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>

#include "cache/kernel_cache.h"
#include "cache/memory_lru.h"
#include "cache/tiered.h"
#include "core/environment.h"
#include "core/error.h"
#include "jit/kernel_meta.h"
#include "jit/key.h"
#include "jit/lljit_host.h"
#include "jit/llvm_module.h"
#include "jit/llvm_pipeline.h"
#include "jit/optimise_queue.h"
#include "jit/parts_compile.h"
#include "jit/target_cpu.h"
#include "jit/tiered_code.h"

namespace strata::jit {
namespace {

// The target machines' builder: jit/target_cpu.h's CPU and features.
llvm::orc::JITTargetMachineBuilder host_machine() {
  const TargetCpu& cpu = target_cpu();
  llvm::orc::JITTargetMachineBuilder jtmb{llvm::Triple(cpu.triple)};
  jtmb.setCPU(cpu.name).setFeatures(cpu.features);
  jtmb.setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  jtmb.setRelocationModel(llvm::Reloc::PIC_);
  jtmb.setCodeModel(llvm::CodeModel::Small);
  return jtmb;
}

using Code = std::shared_ptr<TieredCode>;

// target_description(veclib) of a backend whose own part is `base`.
std::string with_veclib(const std::string& base, Veclib veclib) {
  return base + "; veclib " + (veclib == Veclib::Libmvec ? "libmvec" : "none");
}

struct Backend {
  std::mutex mutex; // guards everything below but `queue` and `background`
  llvm::orc::JITTargetMachineBuilder jtmb;
  Pipeline pipeline;
  TierMode tiers = parse_tier_mode(environment_word("STRATA_JIT_TIERS").value_or("").c_str());
  std::string target; // target_description()
  LljitHost host;
  PartsCompiler parts;
  // Loaded kernels by key: the most recently used (held), and every one an
  // executable may still hold (found again after the cache dropped it).
  cache::MemoryLru<Code> recent{cache::memory_limits_from_environment()};
  std::unordered_map<std::string, std::weak_ptr<TieredCode>> live;
  size_t live_after_sweep = 0;
  cache::DiskCache disk;
  uint64_t compiled = 0, disk_loads = 0, memory_hits = 0, ir_built = 0, quick_compiled = 0,
           upgraded = 0;
  bool warmed_up = false;
  // The optimised tiers' compiles: their own target machines (used by the
  // queue's thread only), run one kernel at a time in the order queued.
  PartsCompiler background;
  OptimiseQueue queue;

  explicit Backend(llvm::orc::JITTargetMachineBuilder b)
      : jtmb(std::move(b)), pipeline(Pipeline::from_environment()),
        target(std::string("llvm ") + LLVM_VERSION_STRING + "; cpu " + jtmb.getCPU() +
               "; features " + jtmb.getFeatures().getString() + "; " + pipeline.description),
        host(jtmb), parts(jtmb), disk("jit", cache::disk_options_from_environment()),
        background(jtmb) {
    if (pipeline.veclib == Veclib::Libmvec) host.load_libmvec(); // fails the first use
    // The first uses of the linker and of the key's hash, once per process
    // (docs/jit.md "Disk hits: the warm-up"): here rather than in the first kernel's
    // load, and on a thread of its own when a tool prepares the engine.
    warmed_up = host.warm_up();
    kernel_key("", false, with_veclib(target, pipeline.veclib));
  }

  static Backend& get() {
    static Backend* b = [] {
      llvm::InitializeNativeTarget();
      llvm::InitializeNativeTargetAsmPrinter();
      auto* made = new Backend(host_machine());
      // At exit the compile in flight finishes and the queued ones are
      // abandoned (their quick tiers stay), before LLVM's statics go.
      std::atexit([] { Backend::get().queue.stop(); });
      return made;
    }();
    return *b;
  }

  // The loaded code of `key` if this process holds it (the memory cache, or
  // an executable still running it).
  Code find(const std::string& key) {
    if (auto* r = recent.find(key)) return *r;
    auto it = live.find(key);
    if (it == live.end()) return nullptr;
    if (Code r = it->second.lock()) return r;
    live.erase(it);
    return nullptr;
  }

  // Records `r` as the most recently used code of `key`. The memory cache
  // drops (and so may unload) its least recently used kernels past its
  // bounds; forgotten keys and the symbol names of removed code are swept
  // now and then, so that neither grows with the number of programs.
  void keep(const std::string& key, const Code& r) {
    recent.insert(key, r, r->bytes());
    live[key] = r;
    if (live.size() < 2 * live_after_sweep + 256) return;
    std::erase_if(live, [](const auto& entry) { return entry.second.expired(); });
    live_after_sweep = live.size();
    host.clear_dead_symbols();
  }

  // The IR of `source` (the quick tier's with `quick_tier`), counted; the
  // time it took goes to `out.codegen_ms`.
  KernelCode build(const KernelSource& source, LoadedKernel& out, bool quick_tier = false) {
    auto t0 = std::chrono::steady_clock::now();
    KernelCode code = source.build(quick_tier);
    ++ir_built;
    out.codegen_ms +=
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return code;
  }

  // The code description of a hit (`out.code`) from its stored metadata, or
  // (Unbound) from the kernel's IR, which `out.cache` then says; false when
  // the metadata is corrupt.
  bool describe_hit(const std::string& key, std::string_view meta, const KernelSource& source,
                    LoadedKernel& out) {
    switch (decode_kernel_meta(meta, source.graph, source.kernel, source.temp_id,
                               symbol_prefix(key), out.code)) {
    case MetaResult::Ok: return true;
    case MetaResult::Corrupt: return false;
    case MetaResult::Unbound:
      out.code = build(source, out);
      out.code.module.reset();
      out.cache = " (IR built for the site table)";
      return true;
    }
    return false;
  }

  // The objects of a built kernel, optimised or (`quick`) its quick tier;
  // the times go to `out`.
  std::vector<std::vector<char>> compile(ModuleHandle& h, Veclib veclib, LoadedKernel& out,
                                         bool quick) {
    PartsTimes times;
    std::vector<std::vector<char>> objects = parts.compile(h, pipeline, veclib, times, quick);
    out.optimise_ms += times.optimise_ms;
    out.emit_ms += times.emit_ms;
    out.llvm_ms += times.wall_ms;
    return objects;
  }

  // Queues the optimised compile of `code` (built from the same kernel as
  // the quick tier `quick`); its code replaces the quick tier's once loaded
  // and is stored on disk under `key`.
  void queue_optimised(const std::string& key, KernelCode code, std::string meta, Code quick) {
    auto job = std::make_shared<OptimisedJob>(
        OptimisedJob{key, std::move(code), std::move(meta), std::move(quick)});
    queue.push({[this, job] { optimise(*job); },
                [job] { job->quick->keep_quick("the process exited first"); }});
  }

private:
  struct OptimisedJob {
    std::string key;
    KernelCode code; // prefix, entries and module only
    std::string meta;
    Code quick;
  };

  // On the queue's thread: never throws (a failure keeps the quick tier and
  // says why).
  void optimise(OptimisedJob& job) {
    try {
      PartsTimes times;
      std::vector<std::vector<char>> compiled =
          background.compile(*job.code.module, pipeline, Veclib::None, times);
      job.code.module.reset();
      std::vector<std::span<const char>> objects(compiled.begin(), compiled.end());
      std::lock_guard lock(mutex);
      std::string failure;
      std::shared_ptr<const ResidentCode> r = host.add(objects, job.code, job.meta, failure);
      if (!r) {
        job.quick->keep_quick("jit: loading the optimised tier: " + failure);
        return;
      }
      disk.store(cache::Key{job.key}, pack_entry(job.meta, objects));
      job.quick->upgrade(std::move(r));
      ++upgraded;
      if (recent.find(job.key)) recent.insert(job.key, job.quick, job.quick->bytes());
    } catch (const std::exception& e) {
      job.quick->keep_quick(std::string("jit: compiling the optimised tier: ") + e.what());
    }
  }
};

} // namespace

TierMode parse_tier_mode(const char* value) {
  if (!value || !*value || std::string_view(value) == "tiered") return TierMode::Tiered;
  if (std::string_view(value) == "optimised") return TierMode::Optimised;
  if (std::string_view(value) == "quick") return TierMode::Quick;
  throw unknown_environment_value("STRATA_JIT_TIERS", value);
}

TierMode active_tier_mode() {
  return Backend::get().tiers;
}

std::string symbol_prefix(const std::string& key) {
  return "strata_k" + key;
}

Veclib active_veclib() {
  return Backend::get().pipeline.veclib;
}

Veclib veclib_for(MathMode math) {
  return math == MathMode::Fast ? Veclib::Libmvec : active_veclib();
}

std::string target_description(Veclib veclib) {
  return with_veclib(Backend::get().target, veclib);
}

void prepare_backend() {
  try {
    Backend::get();
  } catch (const std::exception&) {
    // The compile that follows makes it again and reports the error.
  }
}

std::string target_description() {
  return target_description(active_veclib());
}

LoadedKernel load_kernel(const std::string& key, const KernelSource& source) {
  if (const TargetCpu& cpu = target_cpu(); !cpu.host)
    throw Error(ErrorKind::Usage, "STRATA_JIT_CPU=" + cpu.name +
                                      ": the jit compiles for that CPU, not this machine's, "
                                      "and runs nothing (unset it to run programs)");
  Backend& be = Backend::get();
  std::lock_guard lock(be.mutex);
  LoadedKernel out;
  if (source.veclib == Veclib::Libmvec) be.host.load_libmvec(); // its objects call _ZGV...
  cache::Tiers<Code> tiers;
  tiers.memory = [&]() -> std::optional<Code> {
    Code r = be.find(key);
    if (!r) return std::nullopt;
    // Written by this process, so not corrupt; still, never trust it blindly.
    if (!be.describe_hit(key, r->meta(), source, out)) {
      out.code = be.build(source, out);
      out.code.module.reset();
      out.cache = " (IR built for the site table)";
    }
    ++be.memory_hits;
    be.keep(key, r);
    return r;
  };
  tiers.from_disk = [&](std::vector<char> payload, std::string& why) -> std::optional<Code> {
    std::string_view meta;
    std::vector<std::span<const char>> objects;
    why = "corrupt entry (metadata)";
    if (unpack_entry(payload, meta, objects) && be.describe_hit(key, meta, source, out)) {
      std::string failure;
      if (auto r = be.host.add(objects, out.code, std::string(meta), failure)) {
        ++be.disk_loads;
        return TieredCode::final_code(std::move(r));
      }
      why = "corrupt entry (objects: " + failure + ")";
    }
    out = LoadedKernel{}; // never run: built below, and the entry replaced
    return std::nullopt;
  };
  tiers.build = [&]() -> std::pair<Code, std::optional<std::vector<char>>> {
    TierMode mode = source.veclib == Veclib::None ? be.tiers : TierMode::Optimised;
    bool quick = mode != TierMode::Optimised;
    KernelCode code = be.build(source, out, quick);
    // The optimised tier's own module (a module is consumed by its compile
    // and lives in one thread's context): built now, while the graph is held.
    KernelCode later;
    if (mode == TierMode::Tiered) later = be.build(source, out);
    std::vector<std::vector<char>> compiled = be.compile(*code.module, source.veclib, out, quick);
    code.module.reset();
    std::vector<std::span<const char>> objects(compiled.begin(), compiled.end());
    std::string meta = encode_kernel_meta(source.graph, source.kernel, code);
    // The optimised code is run with the quick tier's entries and sites
    // (TieredCode::upgrade) and stored with its metadata: they must agree.
    if (mode == TierMode::Tiered && encode_kernel_meta(source.graph, source.kernel, later) != meta)
      throw Error(ErrorKind::Resource,
                  "jit: internal: kernel " + std::to_string(source.kernel.id) +
                      "'s quick and optimised tiers have different entries or sites");
    std::string failure;
    std::shared_ptr<const ResidentCode> r = be.host.add(objects, code, meta, failure);
    if (!r) throw Error(ErrorKind::Resource, "jit: " + failure);
    ++be.compiled;
    if (!quick) {
      out.code = std::move(code);
      return {TieredCode::final_code(std::move(r)), pack_entry(meta, objects)};
    }
    ++be.quick_compiled;
    out.cache = " (quick tier first)";
    Code t = TieredCode::quick(std::move(r));
    if (mode == TierMode::Quick) {
      t->keep_quick("STRATA_JIT_TIERS=quick");
    } else {
      later.sites.clear(); // the job needs the prefix, the entry count and the module
      later.closed.clear();
      later.generate.clear();
      be.queue_optimised(key, std::move(later), meta, t);
    }
    out.code = std::move(code);
    return {t, std::nullopt}; // stored on disk by the optimised compile, if any
  };
  tiers.remember = [&](const Code& r) { be.keep(key, r); };
  std::string outcome;
  Code r = cache::lookup(cache::Key{key}, be.disk, tiers, outcome);
  out.tiers = r;
  out.cache = outcome + out.cache;
  return out;
}

std::string optimised_ir(KernelCode& code) {
  return optimised_ir(code, Backend::get().pipeline.veclib);
}

std::string optimised_ir(KernelCode& code, Veclib veclib) {
  Backend& be = Backend::get();
  std::lock_guard lock(be.mutex);
  std::string text;
  llvm::raw_string_ostream os(text);
  for (size_t i = 0; i < code.module->parts.size(); ++i) {
    ModulePart& part = code.module->parts[i];
    be.pipeline.optimise(part, be.parts.machine(i), veclib);
    part.module->print(os, nullptr);
  }
  code.module.reset();
  return os.str();
}

ColdCompile compile_uncached(KernelCode& code, bool quick) {
  Backend& be = Backend::get();
  std::lock_guard lock(be.mutex);
  PartsTimes times;
  ColdCompile out;
  out.objects = be.parts.compile(*code.module, be.pipeline, be.pipeline.veclib, times, quick);
  out.optimise_ms = times.optimise_ms;
  out.emit_ms = times.emit_ms;
  out.wall_ms = times.wall_ms;
  out.parts = code.module->parts.size();
  out.run_once_parts = times.run_once_parts;
  code.module.reset();
  return out;
}

BackendCounters backend_counters() {
  Backend& be = Backend::get();
  std::lock_guard lock(be.mutex);
  uint64_t released = be.host.released();
  return BackendCounters{be.compiled,
                         be.disk_loads,
                         be.memory_hits,
                         be.ir_built,
                         be.quick_compiled,
                         be.upgraded,
                         released,
                         be.host.loads() - released,
                         be.recent.entries(),
                         be.recent.bytes(),
                         be.recent.limits().max_entries,
                         be.warmed_up};
}

} // namespace strata::jit
