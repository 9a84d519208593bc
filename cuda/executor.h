// Runs a kernel graph through its generated entries (codegen.h) on a
// Backend: the CUDA driver (device_backend.h) or, for tests on machines
// without a GPU, the same generated code compiled for the host
// (host_backend.h). Everything but memory and launches is shared, so the
// host check exercises the engine's own launch sequence, scratch arrays,
// error slot and loop buffers.
//
// Memory: arrays live in backend memory from the moment they are uploaded
// (inputs, literals) or produced (kernel outputs) until the results are
// downloaded; nothing else crosses (closed expressions -- shapes, checks,
// branch and loop conditions -- read back a few words, and each launch reads
// back the 8-byte error word). Buffers come from a pool: buffers of a loop's
// previous state are reused by the next iteration (double buffering).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/reduction_order.h"
#include "cuda/codegen.h"
#include "cuda/launch_abi.h"
#include "fusion/graph_run.h"

namespace strata::cuda {

class Backend {
public:
  virtual ~Backend() = default;
  virtual uint64_t alloc(size_t bytes) = 0; // never 0 (at least one byte is allocated)
  virtual void free(uint64_t address) = 0;
  virtual void upload(uint64_t dst, const void* src, size_t bytes) = 0;
  virtual void download(void* dst, uint64_t src, size_t bytes) = 0;
  // Runs entry `name` on work items [0, n).
  virtual void launch(const std::string& name, uint64_t table, uint64_t error, int64_t diag,
                      const LaunchParams& p, int64_t n) = 0;
};

// Allocations handed out by size class and kept for reuse until destroyed.
class Pool {
public:
  explicit Pool(Backend& b) : backend_(b) {}
  ~Pool();
  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;
  std::shared_ptr<uint64_t> get(size_t bytes);
  uint64_t allocations() const { return allocations_; } // backend allocations so far

private:
  Backend& backend_;
  std::multimap<size_t, uint64_t> free_;
  uint64_t allocations_ = 0;
  std::shared_ptr<Pool*> alive_ = std::make_shared<Pool*>(this);
};

// Runs `g` (whose code is `code`) on `inputs`, folds and scans in `order`
// (core/reduction_order.h: the executor picks chunks and lanes, the generated
// code serves every order); throws the interpreter's errors.
// Each compute kernel's wall time (launches and the reads of their error
// words) is added to `times` when given.
std::vector<Array> run_graph(const KernelGraph& g, const Generated& code, Backend& backend,
                             Pool& pool, const std::vector<Array>& inputs,
                             const ReductionOrder& order, KernelTimes* times = nullptr);

} // namespace strata::cuda
