#include "jit/backend.h"

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <unordered_map>

#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Verifier.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/TargetParser/Host.h>

#include "cache/kernel_cache.h"
#include "core/error.h"
#include "jit/llvm_module.h"

namespace strata::jit {
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

struct Backend {
  std::mutex mutex;
  std::unique_ptr<llvm::orc::LLJIT> jit;
  std::unique_ptr<llvm::TargetMachine> tm; // one for every compile (they run under `mutex`)
  llvm::orc::JITTargetMachineBuilder jtmb;
  std::string target;
  std::unordered_map<std::string, std::vector<EntryFn>> loaded; // key -> entries
  cache::DiskCache disk;
  std::atomic<uint64_t> compiled{0}, disk_loads{0}, memory_hits{0};

  explicit Backend(llvm::orc::JITTargetMachineBuilder b)
      : jtmb(std::move(b)), disk("jit", cache::disk_options_from_environment()) {
    jtmb.setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
    jtmb.setRelocationModel(llvm::Reloc::PIC_);
    jtmb.setCodeModel(llvm::CodeModel::Small);
    tm = check(jtmb.createTargetMachine(), "target machine");
    jit = check(llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(jtmb).create(), "LLJIT");
    auto gen = check(llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
                         jit->getDataLayout().getGlobalPrefix()),
                     "process symbols");
    jit->getMainJITDylib().addGenerator(std::move(gen));
    target = std::string("llvm ") + LLVM_VERSION_STRING + "; cpu " + jtmb.getCPU() + "; features " +
             jtmb.getFeatures().getString() + "; O3; veclib none";
  }

  static Backend& get() {
    static Backend* b = [] {
      llvm::InitializeNativeTarget();
      llvm::InitializeNativeTargetAsmPrinter();
      return new Backend(check(llvm::orc::JITTargetMachineBuilder::detectHost(), "host"));
    }();
    return *b;
  }

  // STRATA_JIT_DUMP=DIR: the optimised IR of every kernel compiled (a miss)
  // as DIR/<symbol prefix>.ll, to check what the vectoriser did.
  static void dump(const llvm::Module& m) {
    const char* dir = std::getenv("STRATA_JIT_DUMP");
    if (!dir || !*dir) return;
    std::error_code ec;
    llvm::raw_fd_ostream os(std::string(dir) + "/" + m.getModuleIdentifier() + ".ll", ec);
    if (!ec) m.print(os, nullptr);
  }

  // The O3 pipeline for the host (what every kernel goes through).
  void optimise(llvm::Module& m) {
    m.setDataLayout(tm->createDataLayout());
    m.setTargetTriple(tm->getTargetTriple().str());
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
    llvm::PassBuilder pb(tm.get(), pto);
    llvm::TargetLibraryInfoImpl tlii(tm->getTargetTriple());
    fam.registerPass([&] { return llvm::TargetLibraryAnalysis(tlii); });
    pb.registerModuleAnalyses(mam);
    pb.registerCGSCCAnalyses(cgam);
    pb.registerFunctionAnalyses(fam);
    pb.registerLoopAnalyses(lam);
    pb.crossRegisterProxies(lam, fam, cgam, mam);
    pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3).run(m, mam);
    dump(m);
  }

  // O3, then object code for the host.
  std::vector<char> compile(llvm::Module& m) {
    optimise(m);
    llvm::SmallVector<char, 0> buffer;
    llvm::raw_svector_ostream out(buffer);
    llvm::legacy::PassManager pm;
    if (tm->addPassesToEmitFile(pm, out, nullptr, llvm::CodeGenFileType::ObjectFile))
      throw Error(ErrorKind::Resource, "jit: the host target cannot emit object files");
    pm.run(m);
    return std::vector<char>(buffer.begin(), buffer.end());
  }

  std::vector<EntryFn> add(const std::vector<char>& object, const KernelCode& code) {
    auto buffer = llvm::MemoryBuffer::getMemBufferCopy(
        llvm::StringRef(object.data(), object.size()), code.prefix);
    if (llvm::Error e = jit->addObjectFile(std::move(buffer)))
      throw Error(ErrorKind::Resource, "jit: loading a kernel object: " + error_text(std::move(e)));
    std::vector<EntryFn> entries;
    for (int i = 0; i < code.entries; ++i) {
      auto addr = check(jit->lookup(code.prefix + "_" + std::to_string(i)), "symbol lookup");
      entries.push_back(addr.toPtr<EntryFn>());
    }
    return entries;
  }
};

} // namespace

std::string symbol_prefix(const std::string& key) {
  return "strata_k" + key;
}

std::string target_description() {
  return Backend::get().target;
}

LoadedKernel load_kernel(const std::string& key, KernelCode& code) {
  Backend& be = Backend::get();
  std::lock_guard lock(be.mutex);
  LoadedKernel out;
  auto it = be.loaded.find(key);
  if (it != be.loaded.end()) {
    ++be.memory_hits;
    out.entries = it->second;
    out.cache = "hit (memory)";
    code.module.reset();
    return out;
  }
  std::string why;
  cache::Key k{key};
  if (std::optional<std::vector<char>> object = be.disk.load(k, why)) {
    out.entries = be.add(*object, code);
    ++be.disk_loads;
    out.cache = "hit (disk)";
    be.loaded[key] = out.entries;
    code.module.reset();
    return out;
  }
  std::vector<char> object = be.compile(*code.module->module);
  code.module.reset();
  out.entries = be.add(object, code);
  ++be.compiled;
  be.disk.store(k, object);
  be.loaded[key] = out.entries;
  out.cache = "miss: " + why;
  return out;
}

std::string optimised_ir(KernelCode& code) {
  Backend& be = Backend::get();
  std::lock_guard lock(be.mutex);
  be.optimise(*code.module->module);
  std::string text;
  llvm::raw_string_ostream os(text);
  code.module->module->print(os, nullptr);
  code.module.reset();
  return os.str();
}

BackendCounters backend_counters() {
  Backend& be = Backend::get();
  return BackendCounters{be.compiled.load(), be.disk_loads.load(), be.memory_hits.load()};
}

} // namespace strata::jit
