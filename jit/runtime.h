// The state of one run of a kernel graph on the jit engine: the arrays and
// the table generated code reads them through (jit/abi.h), evaluation of
// closed expressions, and parallel ranges on oneTBB that raise the error of
// the first failing range, i.e. of the first failing element in order
// (parallel/ranges.h, shared with the tbb engine).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "fusion/leaf_view.h"
#include "jit/abi.h"
#include "jit/codegen.h"
#include "jit/tiered_code.h"
#include "parallel/ranges.h"

namespace strata::jit {

// One kernel's code, loaded.
struct CompiledKernel {
  KernelCode code;
  std::optional<LeafView> view;            // a generate that is a leaf view (fusion/leaf_view.h)
  std::shared_ptr<const TieredCode> tiers; // keeps the entries loaded
  // Entry `index` of the current tier: read it for every call (a chunk, a
  // row group), never once per run, so that a long run moves to the
  // optimised tier when it arrives (jit/tiered_code.h).
  EntryFn fn(int index) const { return tiers->fn(index); }
};

// Large result arrays of an executable's runs, kept so that a later run can
// write into one again once no one else holds it (the caller dropped the
// result of an earlier run, or an awhile state was replaced): fresh memory
// costs a page fault per page on first touch. At most kKeep arrays, of at
// least kMinBytes each, are kept (most recently used last). Thread-safe.
class ArrayPool {
public:
  static constexpr size_t kKeep = 8;
  static constexpr size_t kMinBytes = size_t(1) << 20;
  // An array of this type and shape, uninitialised (a kept one, or new).
  Array take(const Type& elem, const Shape& shape);

private:
  std::mutex mutex_;
  std::vector<Array> kept_;
};

class Runtime {
public:
  Runtime(const KernelGraph& g, size_t table_size, ArrayPool& pool);

  const KernelGraph& graph;
  ArrayPool& pool;
  void set(int id, Array a);
  const Array& get(int id) const { return arrays_[size_t(id)]; }
  const std::vector<Array>& arrays() const { return arrays_; }
  Array& get_mutable(int id) { return arrays_[size_t(id)]; }
  const JitArray* table() const { return table_.data(); }

  // Raises the error a failed entry of `k` reported.
  [[noreturn]] void fail(const CompiledKernel& k, const JitError& e) const;
  // Runs entry `fn` once on [begin, end) with `aux`; raises its error.
  void call(const CompiledKernel& k, int fn, int64_t begin, int64_t end, Slot* aux) const;
  // A closed expression's leaves (one slot each).
  std::vector<Slot> eval(const CompiledKernel& k, const Exp& e) const;
  Index eval_index(const CompiledKernel& k, const Exp& e) const;
  // Runs a delayed array's checks, then evaluates its shape.
  Shape prepare(const CompiledKernel& k, const Delayed& d) const;
  // Entry `fn` over [0, n) in chunks of `grain`, in parallel, `aux` shared (read-only).
  void parallel(const CompiledKernel& k, int fn, int64_t n, int64_t grain, Slot* aux) const;

private:
  std::vector<Array> arrays_;
  std::vector<std::vector<void*>> leaves_;
  std::vector<JitArray> table_;
};

// body(begin, end, error) over [0, n) in chunks of `grain` (by data size
// only), returning true when it failed; the error of the lowest failing
// chunk is returned in `first` (parallel/ranges.h).
using parallel::parallel_ranges;

// Leaves of an element type stored in slots <-> element `pos` of an array.
void slots_to_array(const Slot* slots, Array& a, int64_t pos);
void array_to_slots(const Array& a, int64_t pos, Slot* slots);

} // namespace strata::jit
