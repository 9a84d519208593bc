// The jit's kernel cache policy and the backend's public functions
// (jit/backend.h). The parts it puts together, one job per file:
//   jit/llvm_pipeline.h  the pass pipeline and object emission
//   jit/parts_compile.h  a kernel's parts compiled at the same time
//   jit/lljit_host.h     the LLJIT: loading objects, giving code back
//   cache/tiered.h       memory, then disk, then build
#include "jit/backend.h"

#include <chrono>
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
#include "core/error.h"
#include "jit/kernel_meta.h"
#include "jit/lljit_host.h"
#include "jit/llvm_module.h"
#include "jit/llvm_pipeline.h"
#include "jit/parts_compile.h"
#include "jit/target_cpu.h"

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

struct Backend {
  std::mutex mutex; // guards everything below
  llvm::orc::JITTargetMachineBuilder jtmb;
  Pipeline pipeline;
  std::string target; // target_description()
  LljitHost host;
  PartsCompiler parts;
  // Loaded kernels by key: the most recently used (held), and every one an
  // executable may still hold (found again after the cache dropped it).
  cache::MemoryLru<std::shared_ptr<const ResidentCode>> recent{
      cache::memory_limits_from_environment()};
  std::unordered_map<std::string, std::weak_ptr<const ResidentCode>> live;
  size_t live_after_sweep = 0;
  cache::DiskCache disk;
  uint64_t compiled = 0, disk_loads = 0, memory_hits = 0, ir_built = 0;

  explicit Backend(llvm::orc::JITTargetMachineBuilder b)
      : jtmb(std::move(b)), pipeline(Pipeline::from_environment()),
        target(std::string("llvm ") + LLVM_VERSION_STRING + "; cpu " + jtmb.getCPU() +
               "; features " + jtmb.getFeatures().getString() + "; " + pipeline.description),
        host(jtmb), parts(jtmb), disk("jit", cache::disk_options_from_environment()) {
    if (pipeline.veclib == Veclib::Libmvec) host.load_libmvec(); // fails the first use
  }

  static Backend& get() {
    static Backend* b = [] {
      llvm::InitializeNativeTarget();
      llvm::InitializeNativeTargetAsmPrinter();
      return new Backend(host_machine());
    }();
    return *b;
  }

  // The loaded code of `key` if this process holds it (the memory cache, or
  // an executable still running it).
  std::shared_ptr<const ResidentCode> find(const std::string& key) {
    if (auto* r = recent.find(key)) return *r;
    auto it = live.find(key);
    if (it == live.end()) return nullptr;
    if (std::shared_ptr<const ResidentCode> r = it->second.lock()) return r;
    live.erase(it);
    return nullptr;
  }

  // Records `r` as the most recently used code of `key`. The memory cache
  // drops (and so may unload) its least recently used kernels past its
  // bounds; forgotten keys and the symbol names of removed code are swept
  // now and then, so that neither grows with the number of programs.
  void keep(const std::string& key, const std::shared_ptr<const ResidentCode>& r) {
    recent.insert(key, r, r->bytes);
    live[key] = r;
    if (live.size() < 2 * live_after_sweep + 256) return;
    std::erase_if(live, [](const auto& entry) { return entry.second.expired(); });
    live_after_sweep = live.size();
    host.clear_dead_symbols();
  }

  // The IR of `source`, counted; the time it took goes to `out.codegen_ms`.
  KernelCode build(const KernelSource& source, LoadedKernel& out) {
    auto t0 = std::chrono::steady_clock::now();
    KernelCode code = source.build();
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

  // The optimised objects of a built kernel; the times go to `out`.
  std::vector<std::vector<char>> compile(ModuleHandle& h, Veclib veclib, LoadedKernel& out) {
    PartsTimes times;
    std::vector<std::vector<char>> objects = parts.compile(h, pipeline, veclib, times);
    out.optimise_ms += times.optimise_ms;
    out.emit_ms += times.emit_ms;
    out.llvm_ms += times.wall_ms;
    return objects;
  }
};

} // namespace

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
  return Backend::get().target + "; veclib " + (veclib == Veclib::Libmvec ? "libmvec" : "none");
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
  using Resident = std::shared_ptr<const ResidentCode>;
  cache::Tiers<Resident> tiers;
  tiers.memory = [&]() -> std::optional<Resident> {
    Resident r = be.find(key);
    if (!r) return std::nullopt;
    // Written by this process, so not corrupt; still, never trust it blindly.
    if (!be.describe_hit(key, r->meta, source, out)) {
      out.code = be.build(source, out);
      out.code.module.reset();
      out.cache = " (IR built for the site table)";
    }
    ++be.memory_hits;
    be.keep(key, r);
    return r;
  };
  tiers.from_disk = [&](std::vector<char> payload, std::string& why) -> std::optional<Resident> {
    std::string_view meta;
    std::vector<std::span<const char>> objects;
    why = "corrupt entry (metadata)";
    if (unpack_entry(payload, meta, objects) && be.describe_hit(key, meta, source, out)) {
      std::string failure;
      if (Resident r = be.host.add(objects, out.code, std::string(meta), failure)) {
        ++be.disk_loads;
        return r;
      }
      why = "corrupt entry (objects: " + failure + ")";
    }
    out = LoadedKernel{}; // never run: built below, and the entry replaced
    return std::nullopt;
  };
  tiers.build = [&] {
    KernelCode code = be.build(source, out);
    std::vector<std::vector<char>> compiled = be.compile(*code.module, source.veclib, out);
    code.module.reset();
    std::vector<std::span<const char>> objects(compiled.begin(), compiled.end());
    std::string meta = encode_kernel_meta(source.graph, source.kernel, code);
    std::string failure;
    Resident r = be.host.add(objects, code, meta, failure);
    if (!r) throw Error(ErrorKind::Resource, "jit: " + failure);
    out.code = std::move(code);
    ++be.compiled;
    return std::pair(r, pack_entry(meta, objects));
  };
  tiers.remember = [&](const Resident& r) { be.keep(key, r); };
  std::string outcome;
  Resident r = cache::lookup(cache::Key{key}, be.disk, tiers, outcome);
  out.entries = r->entries;
  out.resident = r;
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

ColdCompile compile_uncached(KernelCode& code) {
  Backend& be = Backend::get();
  std::lock_guard lock(be.mutex);
  PartsTimes times;
  ColdCompile out;
  out.objects = be.parts.compile(*code.module, be.pipeline, be.pipeline.veclib, times);
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
  return BackendCounters{be.compiled,         be.disk_loads,     be.memory_hits,
                         be.ir_built,         released,          be.host.loads() - released,
                         be.recent.entries(), be.recent.bytes(), be.recent.limits().max_entries};
}

} // namespace strata::jit
