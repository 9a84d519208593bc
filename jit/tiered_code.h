// A kernel's entry points as runs call them (jit/runtime.h CompiledKernel::fn):
// first the quick tier's, an object compiled without the pass pipeline at
// CodeGenOptLevel::None, then the optimised tier's once the backend's
// optimise queue has loaded it (docs/jit.md "Tiers"). Both tiers come from
// the same LLVM IR, which has no fast-math flags (tiers are only made for
// Veclib::None), and no LLVM pass or instruction selection reassociates,
// contracts or otherwise changes the value of an operation without such
// flags: every entry computes the same bits in either tier, so a run may
// call the quick tier's entries for some chunks and the optimised tier's for
// the rest. A run reads the current tier once per call of an entry (a chunk,
// a row group, a closed expression), so a long run moves to the optimised
// code within one chunk of its arrival. This header includes no LLVM.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "jit/abi.h"

namespace strata::jit {

struct ResidentCode; // jit/lljit_host.h

class TieredCode {
public:
  // Code that is final already (optimised, or loaded from disk).
  static std::shared_ptr<TieredCode> final_code(std::shared_ptr<const ResidentCode> optimised);
  // The quick tier, waiting for upgrade() or keep_quick().
  static std::shared_ptr<TieredCode> quick(std::shared_ptr<const ResidentCode> quick);

  explicit TieredCode(std::shared_ptr<const ResidentCode> first, bool final);
  TieredCode(const TieredCode&) = delete;
  TieredCode& operator=(const TieredCode&) = delete;

  // Entry `index` of the current tier.
  EntryFn fn(int index) const { return current_.load(std::memory_order_acquire)[index]; }

  // The optimised tier: every later fn() returns its entries. The quick
  // tier stays loaded as long as this is held (a run may still be in one of
  // its entries). Once, by the optimise queue.
  void upgrade(std::shared_ptr<const ResidentCode> optimised);
  // The quick tier stays for good, for the reason `why` ("STRATA_JIT_TIERS=quick",
  // the process is exiting, or what failed in the optimised compile).
  void keep_quick(std::string why);

  // Waits until the code is final; "" when it is the optimised tier, else
  // keep_quick's reason.
  std::string wait() const;
  // Whether it was made as a quick tier (its runs may have called either tier).
  bool quick_first() const { return quick_first_; }

  // The stored metadata (jit/kernel_meta.h) and the object bytes of the
  // loaded tiers, what the memory cache counts.
  const std::string& meta() const;
  uint64_t bytes() const;

private:
  std::shared_ptr<const ResidentCode> first_;
  std::shared_ptr<const ResidentCode> optimised_; // set once, under mutex_
  std::atomic<const EntryFn*> current_;
  std::atomic<uint64_t> bytes_{0};
  mutable std::mutex mutex_;
  mutable std::condition_variable settled_;
  bool final_ = false;
  bool quick_first_ = false;
  std::string quick_reason_;
};

} // namespace strata::jit
