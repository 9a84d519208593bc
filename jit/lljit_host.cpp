#include "jit/lljit_host.h"

#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/IRCompileLayer.h>
#include <llvm/Support/MemoryBuffer.h>

#include "jit/llvm_pipeline.h"

// jit/warm_up_kernel.ll compiled by llc (jit/CMakeLists.txt, cmake/embed_bytes.cmake).
extern const unsigned char strata_jit_warm_up_object[];
extern const std::size_t strata_jit_warm_up_object_size;

namespace strata::jit {
namespace {

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

} // namespace

LljitHost::LljitHost(const llvm::orc::JITTargetMachineBuilder& jtmb) {
  llvm::orc::LLJITBuilder builder;
  builder.setJITTargetMachineBuilder(jtmb)
      .setCompileFunctionCreator(
          [](llvm::orc::JITTargetMachineBuilder)
              -> llvm::Expected<std::unique_ptr<llvm::orc::IRCompileLayer::IRCompiler>> {
            return std::make_unique<NoIRCompiler>();
          })
      // No static initialisers or atexit in kernels: no platform support.
      .setPlatformSetUp(llvm::orc::setUpInactivePlatform);
  jit_ = llvm_check(builder.create(), "LLJIT");
  auto gen = llvm_check(llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
                            jit_->getDataLayout().getGlobalPrefix()),
                        "process symbols");
  jit_->getMainJITDylib().addGenerator(std::move(gen));
}

void LljitHost::load_libmvec() {
  if (libmvec_) return;
  // The vector variants' definitions (dlopen, RTLD_GLOBAL).
  jit_->getMainJITDylib().addGenerator(llvm_check(
      llvm::orc::DynamicLibrarySearchGenerator::Load(kLibmvec,
                                                     jit_->getDataLayout().getGlobalPrefix()),
      "fast math (--math=fast, STRATA_JIT_VECLIB=libmvec): cannot load libmvec.so.1 (glibc's "
      "vector math library)"));
  libmvec_ = true;
}

std::shared_ptr<const ResidentCode>
LljitHost::add(const std::vector<std::span<const char>>& objects, const KernelCode& code,
               std::string meta, std::string& failure) {
  auto dylib = jit_->createJITDylib(code.prefix + "#" + std::to_string(dylib_names_++));
  if (!dylib) {
    failure = "creating a JITDylib: " + llvm_error_text(dylib.takeError());
    return nullptr;
  }
  dylib->addToLinkOrder(jit_->getMainJITDylib()); // process symbols, libmvec
  // From here on, dropping `r` removes everything added to the dylib.
  auto r = std::make_shared<ResidentCode>(jit_->getExecutionSession(), *dylib, released_);
  ++loads_;
  for (size_t i = 0; i < objects.size(); ++i) {
    auto buffer =
        llvm::MemoryBuffer::getMemBufferCopy(llvm::StringRef(objects[i].data(), objects[i].size()),
                                             code.prefix + "_part" + std::to_string(i));
    if (llvm::Error e = jit_->addObjectFile(*dylib, std::move(buffer))) {
      failure = "loading a kernel object: " + llvm_error_text(std::move(e));
      return nullptr;
    }
    r->bytes += objects[i].size();
  }
  for (int i = 0; i < code.entries; ++i) {
    auto addr = jit_->lookup(*dylib, code.prefix + "_" + std::to_string(i));
    if (!addr) {
      failure = "symbol lookup: " + llvm_error_text(addr.takeError());
      return nullptr;
    }
    r->entries.push_back(addr->toPtr<EntryFn>());
  }
  r->meta = std::move(meta);
  return r;
}

bool LljitHost::warm_up() {
  KernelCode code;
  code.prefix = "strata_warm_up";
  code.entries = 1;
  std::string failure;
  const auto* bytes = reinterpret_cast<const char*>(strata_jit_warm_up_object);
  std::vector<std::span<const char>> objects{{bytes, strata_jit_warm_up_object_size}};
  uint64_t loads = loads_, released = released_.load();
  bool linked = add(objects, code, "", failure) != nullptr; // and removed again
  loads_ = loads;                                           // the counts are of kernels
  released_ = released;
  return linked;
}

void LljitHost::clear_dead_symbols() {
  jit_->getExecutionSession().getSymbolStringPool()->clearDeadEntries();
}

} // namespace strata::jit
