#include "jit/backend.h"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <exception>
#include <future>
#include <mutex>
#include <optional>
#include <span>
#include <system_error>
#include <unordered_map>

#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/IRCompileLayer.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Verifier.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Passes/StandardInstrumentations.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/TargetParser/Host.h>
#include <llvm/Transforms/Utils/InjectTLIMappings.h>

#include "cache/kernel_cache.h"
#include "cache/memory_lru.h"
#include "cache/outcome.h"
#include "core/error.h"
#include "jit/kernel_meta.h"
#include "jit/llvm_module.h"

namespace strata::jit {

struct ResidentCode {
  ResidentCode(llvm::orc::ExecutionSession& s, llvm::orc::JITDylib& d,
               std::atomic<uint64_t>& released_count)
      : session(s), dylib(d), released(released_count) {}
  ResidentCode(const ResidentCode&) = delete;
  ResidentCode& operator=(const ResidentCode&) = delete;
  // Gives the code and data memory, symbols and trackers back to the LLJIT
  // (nothing can call the entries any more: no one holds this). A failure
  // leaves the memory in place, which is all it can cost.
  ~ResidentCode() {
    llvm::consumeError(session.removeJITDylib(dylib));
    ++released;
  }

  std::vector<EntryFn> entries;
  std::string meta;   // jit/kernel_meta.h
  uint64_t bytes = 0; // object code, what the memory cache counts
  llvm::orc::ExecutionSession& session;
  llvm::orc::JITDylib& dylib;
  std::atomic<uint64_t>& released;
};

namespace {

std::string error_text(llvm::Error e) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << e;
  return os.str();
}

template <class T> T check(llvm::Expected<T> v, const char* what) {
  if (!v)
    throw Error(ErrorKind::Resource,
                std::string("jit: ") + what + ": " + error_text(v.takeError()));
  return std::move(*v);
}

// The pass pipeline of every kernel (docs/jit.md "Compile latency"): the
// function passes of O3 that these kernels need, one function at a time.
// Left out of O3: the module and CGSCC passes (kernel functions call nothing
// but libm: nothing to inline, no attributes worth inferring), SROA and
// mem2reg (the generated IR has no allocas), passes for code we never
// generate (coroutines, memcpy/DSE, speculative execution, control height
// reduction, loop distribution), the second runs of jump threading and value
// propagation, two of instcombine's seven runs, and the partial/runtime unroller
// (it unrolled the scalar remainder of vectorised loops: more code to select
// instructions for, no faster). Kept: loop rotation, LICM, trivial and
// non-trivial unswitching (a row fold's invariant checks), indvars, loop
// idiom, full unrolling of constant-trip loops, GVN, the loop and SLP
// vectorisers, instcombine/simplifycfg around them. simplifycfg never sinks or
// hoists common instructions: sinking merged the failing checks' exits of a
// nested fold loop, after which the loop vectoriser could not count the
// inner loop's iterations.
std::string kernel_pipeline() {
  const std::string sc = "simplifycfg<bonus-inst-threshold=1;no-forward-switch-cond;"
                         "switch-range-to-icmp;no-switch-to-lookup;keep-loops;"
                         "no-hoist-common-insts;no-sink-common-insts;speculate-blocks;"
                         "simplify-cond-branch;no-speculate-unpredictables>";
  const std::string ic = "instcombine<max-iterations=1;no-use-loop-info;no-verify-fixpoint>";
  const std::string rotate = "loop-rotate<header-duplication;no-prepare-for-lto>";
  return "function(early-cse<memssa>," + sc + "," + ic +
         ",jump-threading,correlated-propagation,constraint-elimination,"
         "loop-mssa(loop-instsimplify,loop-simplifycfg,licm<no-allowspeculation>," +
         rotate + ",licm<allowspeculation>,simple-loop-unswitch<nontrivial;trivial>)," + sc + "," +
         ic + ",loop(loop-idiom,indvars,loop-deletion,loop-unroll-full),gvn<>,sccp," + ic +
         ",adce,loop-mssa(licm<allowspeculation>)," + sc + ",loop(" + rotate +
         ",loop-deletion),loop-vectorize<no-interleave-forced-only;no-vectorize-forced-only;>,"
         "infer-alignment,loop-load-elim," +
         ic + "," + sc + ",slp-vectorizer,vector-combine," + ic +
         ",loop-mssa(licm<allowspeculation>)," + sc + ")";
}

// LLVM options (process-wide, set once before the first compile) that give
// less code for the same vector loops, measured in docs/jit.md:
// - no vectorised epilogue after a vector loop: the scalar remainder runs
//   fewer than VF * interleave iterations per row or chunk;
// - no "injected" unswitching conditions (a copy of a row fold per order of
//   two extents);
// - no loop strength reduction in code generation (a third of instruction
//   selection and emission time here; run times unchanged on every bench
//   workload: x86 addressing takes base + index * scale as it is).
constexpr const char* kLlvmOptions[][2] = {
    {"enable-epilogue-vectorization", "false"},
    {"simple-loop-unswitch-inject-invariant-conditions", "false"},
    {"disable-lsr", "true"},
};

// Sets kLlvmOptions unless the program already set them; says which it set.
std::string set_llvm_options() {
  std::string applied;
  llvm::StringMap<llvm::cl::Option*>& registered = llvm::cl::getRegisteredOptions();
  for (const auto& [name, value] : kLlvmOptions) {
    auto it = registered.find(name);
    if (it == registered.end() || it->second->getNumOccurrences() > 0) continue;
    if (!it->second->addOccurrence(0, name, value))
      applied += std::string(" ") + name + "=" + value;
  }
  return applied;
}

// STRATA_JIT_VECLIB=libmvec (docs/jit.md "Vector math library"): what clang's
// -fveclib=libmvec gives the TargetLibraryInfo, so that the loop vectoriser may
// call glibc's vector variants (_ZGV...) of the functions LLVM maps (exp log
// sin cos tan pow, f32 and f64). The generated calls are `nobuiltin` (LLVM
// must not rewrite them: jit/prim_emit.cpp), which also hides them from the
// vectoriser; the mapped ones lose it here, and those functions are
// unavailable to the TargetLibraryInfo instead, so that LLVM still neither
// folds nor rewrites them (`pow(2, x)` -> `exp2(x)`, `sin(-x)` -> `-sin(x)`,
// constant arguments): only the vector variants differ from the interpreter.
void use_libmvec(llvm::Module& m, llvm::TargetLibraryInfoImpl& tlii) {
  tlii.addVectorizableFunctionsFromVecLib(llvm::TargetLibraryInfoImpl::LIBMVEC_X86,
                                          llvm::Triple(m.getTargetTriple()));
  for (llvm::Function& f : m) {
    if (!f.isDeclaration() || !tlii.isFunctionVectorizable(f.getName())) continue;
    llvm::LibFunc lib;
    if (tlii.getLibFunc(f.getName(), lib)) tlii.setUnavailable(lib);
    for (llvm::User* user : f.users())
      if (auto* call = llvm::dyn_cast<llvm::CallInst>(user))
        call->removeFnAttr(llvm::Attribute::NoBuiltin);
  }
}

constexpr const char* kLibmvec = "libmvec.so.1";

// The LLJIT only ever gets object files (ours, compiled below or from disk):
// its IR layer needs no compiler, hence no second TargetMachine.
class NoIRCompiler final : public llvm::orc::IRCompileLayer::IRCompiler {
public:
  NoIRCompiler() : IRCompiler(llvm::orc::IRSymbolMapper::ManglingOptions{}) {}
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> operator()(llvm::Module&) override {
    return llvm::make_error<llvm::StringError>("jit: IR is compiled by the backend, not the LLJIT",
                                               llvm::inconvertibleErrorCode());
  }
};

static double thread_cpu_ms() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

struct Backend {
  std::mutex mutex;
  std::unique_ptr<llvm::orc::LLJIT> jit;
  // By part (machine()), made at the first compile: a process that only
  // loads objects from disk needs none.
  std::vector<std::unique_ptr<llvm::TargetMachine>> tms;
  llvm::orc::JITTargetMachineBuilder jtmb;
  std::string target;
  Veclib veclib = Veclib::None; // STRATA_JIT_VECLIB
  bool o3 = false; // STRATA_JIT_PIPELINE=O3: LLVM's O3 pipeline and options (comparisons)
  // Loaded kernels by key: the most recently used (held), and every one an
  // executable may still hold (found again after the cache dropped it).
  cache::MemoryLru<std::shared_ptr<const ResidentCode>> recent{
      cache::memory_limits_from_environment()};
  std::unordered_map<std::string, std::weak_ptr<const ResidentCode>> live;
  size_t live_after_sweep = 0;
  uint64_t dylib_names = 0; // a fresh name for every JITDylib
  uint64_t loads = 0;       // ResidentCode made (the counters' `resident` = loads - released)
  cache::DiskCache disk;
  std::atomic<uint64_t> compiled{0}, disk_loads{0}, memory_hits{0}, ir_built{0}, released{0};

  explicit Backend(llvm::orc::JITTargetMachineBuilder b)
      : jtmb(std::move(b)), disk("jit", cache::disk_options_from_environment()) {
    veclib = parse_veclib(std::getenv("STRATA_JIT_VECLIB"));
    jtmb.setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
    jtmb.setRelocationModel(llvm::Reloc::PIC_);
    jtmb.setCodeModel(llvm::CodeModel::Small);
    llvm::orc::LLJITBuilder builder;
    builder.setJITTargetMachineBuilder(jtmb)
        .setCompileFunctionCreator(
            [](llvm::orc::JITTargetMachineBuilder)
                -> llvm::Expected<std::unique_ptr<llvm::orc::IRCompileLayer::IRCompiler>> {
              return std::make_unique<NoIRCompiler>();
            })
        // No static initialisers or atexit in kernels: no platform support.
        .setPlatformSetUp(llvm::orc::setUpInactivePlatform);
    jit = check(builder.create(), "LLJIT");
    auto gen = check(llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
                         jit->getDataLayout().getGlobalPrefix()),
                     "process symbols");
    jit->getMainJITDylib().addGenerator(std::move(gen));
    if (veclib == Veclib::Libmvec) // the vector variants' definitions (dlopen, RTLD_GLOBAL)
      jit->getMainJITDylib().addGenerator(check(
          llvm::orc::DynamicLibrarySearchGenerator::Load(kLibmvec,
                                                         jit->getDataLayout().getGlobalPrefix()),
          "STRATA_JIT_VECLIB=libmvec: cannot load libmvec.so.1 (glibc's vector math library)"));
    const char* pipeline = std::getenv("STRATA_JIT_PIPELINE");
    o3 = pipeline && std::string(pipeline) == "O3";
    std::string options = o3 ? "" : set_llvm_options();
    target = std::string("llvm ") + LLVM_VERSION_STRING + "; cpu " + jtmb.getCPU() + "; features " +
             jtmb.getFeatures().getString() + "; " + (o3 ? std::string("O3") : kernel_pipeline()) +
             "; options" + options + "; veclib " + (veclib == Veclib::Libmvec ? "libmvec" : "none");
  }

  static Backend& get() {
    static Backend* b = [] {
      llvm::InitializeNativeTarget();
      llvm::InitializeNativeTargetAsmPrinter();
      return new Backend(check(llvm::orc::JITTargetMachineBuilder::detectHost(), "host"));
    }();
    return *b;
  }

  // STRATA_JIT_DUMP=DIR: the IR of every module compiled (a miss) as
  // DIR/<module name>.ll after the pass pipeline, to check what the
  // vectoriser did, and as DIR/<module name>.in.ll before it (what `opt
  // -passes=...` can be run on to time or change the pipeline).
  static void dump(const llvm::Module& m, const char* suffix) {
    const char* dir = std::getenv("STRATA_JIT_DUMP");
    if (!dir || !*dir) return;
    std::error_code ec;
    llvm::raw_fd_ostream os(std::string(dir) + "/" + m.getModuleIdentifier() + suffix, ec);
    if (!ec) m.print(os, nullptr);
  }

  // The target machine of part `part` of a kernel: one per part, made on
  // first use, so that the parts of one kernel compile at the same time
  // (compiles of different kernels are serialised under `mutex`).
  llvm::TargetMachine& machine(size_t part) {
    while (tms.size() <= part)
      tms.push_back(check(jtmb.createTargetMachine(), "target machine"));
    return *tms[part];
  }

  // The pass pipeline above for the host (what every kernel goes through).
  void optimise(llvm::Module& m, llvm::TargetMachine& tm) { optimise(m, tm, veclib); }
  void optimise(llvm::Module& m, llvm::TargetMachine& tm, Veclib v) {
    m.setDataLayout(tm.createDataLayout());
    m.setTargetTriple(tm.getTargetTriple().str());
    std::string broken;
    llvm::raw_string_ostream os(broken);
    if (llvm::verifyModule(m, &os))
      throw Error(ErrorKind::Resource, "jit: generated code does not verify: " + os.str());
    llvm::LoopAnalysisManager lam;
    llvm::FunctionAnalysisManager fam;
    llvm::CGSCCAnalysisManager cgam;
    llvm::ModuleAnalysisManager mam;
    llvm::PipelineTuningOptions pto;
    pto.LoopVectorization = true;
    pto.SLPVectorization = true;
    // Entries marked optnone (FnBuilder::run_once) skip the pipeline.
    llvm::PassInstrumentationCallbacks pic;
    llvm::OptNoneInstrumentation optnone(false);
    optnone.registerCallbacks(pic);
    llvm::PassBuilder pb(&tm, pto, std::nullopt, &pic);
    llvm::TargetLibraryInfoImpl tlii(tm.getTargetTriple());
    if (v == Veclib::Libmvec) use_libmvec(m, tlii);
    fam.registerPass([&] { return llvm::TargetLibraryAnalysis(tlii); });
    pb.registerModuleAnalyses(mam);
    pb.registerCGSCCAnalyses(cgam);
    pb.registerFunctionAnalyses(fam);
    pb.registerLoopAnalyses(lam);
    pb.crossRegisterProxies(lam, fam, cgam, mam);
    llvm::ModulePassManager mpm;
    if (v == Veclib::Libmvec) // the calls' vector variants, as O3 marks them before vectorising
      mpm.addPass(llvm::createModuleToFunctionPassAdaptor(llvm::InjectTLIMappings()));
    if (o3)
      mpm.addPass(pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3));
    else if (llvm::Error e = pb.parsePassPipeline(mpm, kernel_pipeline()))
      throw Error(ErrorKind::Resource, "jit: pass pipeline: " + error_text(std::move(e)));
    dump(m, ".in.ll");
    mpm.run(m, mam);
    dump(m, ".ll");
  }

  // Object code for the host of an optimised module.
  static std::vector<char> emit(llvm::Module& m, llvm::TargetMachine& tm) {
    llvm::SmallVector<char, 0> buffer;
    llvm::raw_svector_ostream object(buffer);
    llvm::legacy::PassManager pm;
    if (tm.addPassesToEmitFile(pm, object, nullptr, llvm::CodeGenFileType::ObjectFile))
      throw Error(ErrorKind::Resource, "jit: the host target cannot emit object files");
    pm.run(m);
    return std::vector<char>(buffer.begin(), buffer.end());
  }

  // The pipeline, then object code, for every part of `h`: the parts at the
  // same time. Thread CPU times of each step, summed over
  // the parts, go to `out` (with the wall time of the whole in llvm_ms).
  std::vector<std::vector<char>> compile(ModuleHandle& h, LoadedKernel& out) {
    auto start = std::chrono::steady_clock::now();
    size_t n = h.parts.size();
    for (size_t i = 0; i < n; ++i)
      machine(i); // made here, one thread at a time
    std::vector<std::vector<char>> objects(n);
    std::vector<double> optimise_ms(n), emit_ms(n);
    auto part = [&](size_t i) {
      double t0 = thread_cpu_ms();
      optimise(*h.parts[i].module, *tms[i]);
      double t1 = thread_cpu_ms();
      objects[i] = emit(*h.parts[i].module, *tms[i]);
      optimise_ms[i] = t1 - t0;
      emit_ms[i] = thread_cpu_ms() - t1;
    };
    // Parts 1.. on threads of their own (not TBB's: its idle workers spin
    // while the caller works, which on a busy machine takes the CPU from the
    // part the caller compiles); part 0 on this thread.
    // A part whose thread cannot be started (a thread limit) is compiled on
    // this thread after part 0.
    std::vector<std::future<void>> others;
    std::vector<size_t> here{0};
    for (size_t i = 1; i < n; ++i) {
      try {
        others.push_back(std::async(std::launch::async, part, i));
      } catch (const std::system_error&) {
        here.push_back(i);
      }
    }
    std::exception_ptr failed;
    try {
      for (size_t i : here)
        part(i);
    } catch (...) {
      failed = std::current_exception();
    }
    for (std::future<void>& f : others) {
      try {
        f.get();
      } catch (...) {
        if (!failed) failed = std::current_exception();
      }
    }
    if (failed) std::rethrow_exception(failed);
    for (size_t i = 0; i < n; ++i) {
      out.optimise_ms += optimise_ms[i];
      out.emit_ms += emit_ms[i];
    }
    out.llvm_ms +=
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return objects;
  }

  // Loads a kernel's objects into a JITDylib of its own and looks up its
  // entries. On a failure (an object that does not load, a missing entry: a
  // cache entry with too few objects) the JITDylib is removed again, so that
  // the kernel can be compiled and added anew, and `failure` says why.
  std::shared_ptr<const ResidentCode> add(const std::vector<std::span<const char>>& objects,
                                          const KernelCode& code, std::string meta,
                                          std::string& failure) {
    auto dylib = jit->createJITDylib(code.prefix + "#" + std::to_string(dylib_names++));
    if (!dylib) {
      failure = "creating a JITDylib: " + error_text(dylib.takeError());
      return nullptr;
    }
    dylib->addToLinkOrder(jit->getMainJITDylib()); // process symbols, libmvec
    // From here on, dropping `r` removes everything added to the dylib.
    auto r = std::make_shared<ResidentCode>(jit->getExecutionSession(), *dylib, released);
    ++loads;
    for (size_t i = 0; i < objects.size(); ++i) {
      auto buffer = llvm::MemoryBuffer::getMemBufferCopy(
          llvm::StringRef(objects[i].data(), objects[i].size()),
          code.prefix + "_part" + std::to_string(i));
      if (llvm::Error e = jit->addObjectFile(*dylib, std::move(buffer))) {
        failure = "loading a kernel object: " + error_text(std::move(e));
        return nullptr;
      }
      r->bytes += objects[i].size();
    }
    for (int i = 0; i < code.entries; ++i) {
      auto addr = jit->lookup(*dylib, code.prefix + "_" + std::to_string(i));
      if (!addr) {
        failure = "symbol lookup: " + error_text(addr.takeError());
        return nullptr;
      }
      r->entries.push_back(addr->toPtr<EntryFn>());
    }
    r->meta = std::move(meta);
    return r;
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
    jit->getExecutionSession().getSymbolStringPool()->clearDeadEntries();
  }
};

} // namespace

Veclib parse_veclib(const char* value) {
  if (!value || !*value || std::string_view(value) == "none") return Veclib::None;
  if (std::string_view(value) == "libmvec") return Veclib::Libmvec;
  throw Error(ErrorKind::Usage, std::string("STRATA_JIT_VECLIB=") + value +
                                    ": unknown vector math library (accepted: none, libmvec)");
}

std::string symbol_prefix(const std::string& key) {
  return "strata_k" + key;
}

Veclib active_veclib() {
  return Backend::get().veclib;
}

std::string target_description() {
  return Backend::get().target;
}

// The IR of `source`, counted; the time it took goes to `out.codegen_ms`.
static KernelCode build(Backend& be, const KernelSource& source, LoadedKernel& out) {
  auto t0 = std::chrono::steady_clock::now();
  KernelCode code = source.build();
  ++be.ir_built;
  out.codegen_ms +=
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return code;
}

// The code description of a hit from its stored metadata, or (Unbound) from
// the kernel's IR; false when the metadata is corrupt.
static bool describe_hit(Backend& be, const std::string& key, std::string_view meta,
                         const KernelSource& source, LoadedKernel& out) {
  switch (decode_kernel_meta(meta, source.graph, source.kernel, source.temp_id, symbol_prefix(key),
                             out.code)) {
  case MetaResult::Ok: return true;
  case MetaResult::Corrupt: return false;
  case MetaResult::Unbound:
    out.code = build(be, source, out);
    out.code.module.reset();
    out.cache = " (IR built for the site table)";
    return true;
  }
  return false;
}

LoadedKernel load_kernel(const std::string& key, const KernelSource& source) {
  Backend& be = Backend::get();
  std::lock_guard lock(be.mutex);
  LoadedKernel out;
  if (std::shared_ptr<const ResidentCode> r = be.find(key)) {
    // Written by this process, so not corrupt; still, never trust it blindly.
    if (!describe_hit(be, key, r->meta, source, out)) {
      out.code = build(be, source, out);
      out.code.module.reset();
      out.cache = " (IR built for the site table)";
    }
    ++be.memory_hits;
    out.entries = r->entries;
    out.resident = r;
    out.cache = cache::memory_hit() + out.cache;
    be.keep(key, r);
    return out;
  }
  std::string why;
  cache::Key k{key};
  if (std::optional<std::vector<char>> payload = be.disk.load(k, why)) {
    std::string_view meta;
    std::vector<std::span<const char>> objects;
    why = "corrupt entry (metadata)";
    if (unpack_entry(*payload, meta, objects) && describe_hit(be, key, meta, source, out)) {
      std::string failure;
      if (auto r = be.add(objects, out.code, std::string(meta), failure)) {
        out.entries = r->entries;
        out.resident = r;
        ++be.disk_loads;
        out.cache = cache::disk_hit() + out.cache;
        be.keep(key, r);
        return out;
      }
      why = "corrupt entry (objects: " + failure + ")";
    }
    // Never run: recompiled, and the entry replaced below.
    out = LoadedKernel{};
  }
  KernelCode code = build(be, source, out);
  std::vector<std::vector<char>> compiled = be.compile(*code.module, out);
  code.module.reset();
  std::vector<std::span<const char>> objects(compiled.begin(), compiled.end());
  std::string meta = encode_kernel_meta(source.graph, source.kernel, code);
  std::string failure;
  std::shared_ptr<const ResidentCode> r = be.add(objects, code, meta, failure);
  if (!r) throw Error(ErrorKind::Resource, "jit: " + failure);
  out.entries = r->entries;
  out.resident = r;
  out.code = std::move(code);
  ++be.compiled;
  be.disk.store(k, pack_entry(meta, objects));
  be.keep(key, r);
  out.cache = cache::miss(why);
  return out;
}

std::string optimised_ir(KernelCode& code) {
  return optimised_ir(code, Backend::get().veclib);
}

std::string optimised_ir(KernelCode& code, Veclib veclib) {
  Backend& be = Backend::get();
  std::lock_guard lock(be.mutex);
  std::string text;
  llvm::raw_string_ostream os(text);
  for (size_t i = 0; i < code.module->parts.size(); ++i) {
    llvm::Module& m = *code.module->parts[i].module;
    be.optimise(m, be.machine(i), veclib);
    m.print(os, nullptr);
  }
  code.module.reset();
  return os.str();
}

ColdCompile compile_uncached(KernelCode& code) {
  Backend& be = Backend::get();
  std::lock_guard lock(be.mutex);
  LoadedKernel times;
  ColdCompile out;
  for (const std::vector<char>& object : be.compile(*code.module, times))
    out.object_bytes += object.size();
  out.optimise_ms = times.optimise_ms;
  out.emit_ms = times.emit_ms;
  out.wall_ms = times.llvm_ms;
  out.parts = code.module->parts.size();
  code.module.reset();
  return out;
}

BackendCounters backend_counters() {
  Backend& be = Backend::get();
  std::lock_guard lock(be.mutex);
  uint64_t released = be.released.load();
  return BackendCounters{be.compiled.load(),
                         be.disk_loads.load(),
                         be.memory_hits.load(),
                         be.ir_built.load(),
                         released,
                         be.loads - released,
                         be.recent.entries(),
                         be.recent.bytes(),
                         be.recent.limits().max_entries};
}

} // namespace strata::jit
