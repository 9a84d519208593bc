// The process's one ORC LLJIT for the host CPU, which only ever loads object
// files (compiled by jit/parts_compile.h or read from the disk cache): each
// kernel in a JITDylib of its own, held by a ResidentCode whose last holder
// gives the code back. Only jit/*.cpp include this header (it includes
// LLVM's).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>

#include "jit/abi.h"
#include "jit/backend.h"
#include "jit/codegen.h"

namespace strata::jit {

// A kernel's code loaded in the LLJIT (jit/backend.h): its JITDylib (code and
// data memory, symbols, resource tracker), removed when the last holder lets go.
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

// Not thread-safe: the backend's lock guards it.
class LljitHost {
public:
  // Kernels link against the process's symbols (libm) and, once
  // load_libmvec() has run, glibc's libmvec.so.1.
  explicit LljitHost(const llvm::orc::JITTargetMachineBuilder& jtmb);

  // Makes the vector variants of libmvec.so.1 (dlopen, RTLD_GLOBAL) available
  // to the kernels loaded from now on; once per process, before the first
  // kernel compiled with Veclib::Libmvec is loaded. Error(ErrorKind::Resource)
  // when the library cannot be loaded.
  void load_libmvec();

  // Loads a kernel's objects into a JITDylib of its own and looks up its
  // `code.entries` entries (`code.prefix`_0, _1, ...). On a failure (an
  // object that does not load, a missing entry: a cache entry with too few
  // objects) the JITDylib is removed again, so that the kernel can be
  // compiled and added anew, and `failure` says why.
  std::shared_ptr<const ResidentCode> add(const std::vector<std::span<const char>>& objects,
                                          const KernelCode& code, std::string meta,
                                          std::string& failure);

  // Links a small built-in object (jit/warm_up_kernel.ll) into a JITDylib
  // of its own, looks its function up and removes it again: the first link
  // of a process runs JITLink's and the ELF reader's code for the first
  // time (page faults on libLLVM's text, cold caches), which would otherwise
  // cost the first kernel loaded about 0.2-0.3 ms. True when it linked.
  bool warm_up();

  // Forgets the symbol names of removed code (call now and then, so that
  // they do not grow with the number of programs).
  void clear_dead_symbols();

  uint64_t loads() const { return loads_; }
  uint64_t released() const { return released_.load(); }

private:
  std::unique_ptr<llvm::orc::LLJIT> jit_;
  uint64_t dylib_names_ = 0; // a fresh name for every JITDylib
  uint64_t loads_ = 0;       // ResidentCode made
  bool libmvec_ = false;     // load_libmvec() done
  std::atomic<uint64_t> released_{0};
};

} // namespace strata::jit
