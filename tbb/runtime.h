// The state of one run of a kernel graph on the tbb engine, and the small
// operations every kernel needs: evaluating closed expressions, moving lanes
// between registers and arrays, and running batches in parallel so that the
// error raised is the one of the first element in row-major order.
#pragma once

#include <unordered_map>

#include "core/reduction_order.h"
#include "parallel/ranges.h"
#include "tbb/function_table.h"

namespace strata::tbbe {

// A value as its scalar leaves, in order.
using Leaves = std::vector<Scalar>;

struct Runtime {
  const KernelGraph& graph;
  const FunctionTable& functions;
  std::vector<Array> arrays; // by ArrayId; set as kernels run
  ArrayTable table;          // pointers into `arrays`
  // The association order of fold, fold1 and the scans (CompileOptions::order).
  ReductionOrder order;

  Runtime(const KernelGraph& g, const FunctionTable& f, const ReductionOrder& order);
  // Stores the output `id` of a compute kernel. The array it replaces (only
  // loops replace arrays) is kept for reuse by the next allocate(id, ...).
  void set(ArrayId id, Array a);
  // Stores an array that no compute kernel allocated for `id` (inputs,
  // literals, loop state, loop and branch results): nothing is kept.
  void bind(ArrayId id, Array a) { arrays[size_t(id)] = std::move(a); }
  const Array& get(ArrayId id) const { return arrays[size_t(id)]; }

  // Storage for the kernel output `id` (its contents are unspecified): an
  // array of the same type and shape that an earlier loop iteration left and
  // nothing refers to any more, or a new one. Inside a loop this makes every
  // iteration after the first two allocate nothing.
  Array allocate(ArrayId id, const Type& elem, const Shape& sh) { return take(id, elem, sh); }
  // Scratch storage of kernel `kernel_id`; give it back with recycle().
  Array scratch(int kernel_id, const Type& elem, const Shape& sh) {
    return take(-1 - int64_t(kernel_id), elem, sh);
  }
  void recycle(int kernel_id, Array a);
  int loop_depth = 0;

  // Arrays no longer in use, by array id (>= 0) or scratch key (< 0). The
  // executable carries them from one run to the next (adopt / release), so
  // a repeated run reuses the storage of the last one's scratch, and of its
  // results once the caller has dropped them (use_count() == 1): no fresh
  // pages to fault in and zero. At most two arrays per key are kept.
  using Pool = std::unordered_map<int64_t, std::vector<Array>>;
  void adopt(Pool p) { pool_ = std::move(p); }
  // Keeps every kernel output of this run for the next one, and returns the pool.
  Pool release();

  // Evaluates a closed expression (a shape, a seed, a condition).
  Leaves eval(const Exp& e) const;
  Index eval_index(const Exp& e) const;
  // Runs the checks of a delayed array and evaluates its shape.
  Shape prepare(const Delayed& d) const;

private:
  Array take(int64_t key, const Type& elem, const Shape& sh);
  void keep(int64_t key, Array a);
  Pool pool_;
};

// ------------------------------------------------------------- lane traffic
void write_lane(Frame& f, const std::vector<int>& regs, int lane, const Leaves& v);
Leaves read_lane(Frame& f, const Operand& op, int lane);
// Registers `from` of frame a -> registers `to` of frame b, lanes 0..count-1;
// `sizes` are the leaves' widths (a register may point into an array, so
// never copy more than its lanes).
void copy_lanes(Frame& a, const std::vector<int>& from, Frame& b, const std::vector<int>& to,
                const std::vector<size_t>& sizes, int count);
// Lanes 0..count-1 of `regs` -> elements start..start+count-1 of `out`
// (nothing to copy for a register that already points there).
void store_lanes(Frame& f, const std::vector<int>& regs, Array& out, int64_t start, int count);
// Points the result registers that allow it (ScalarFunction::result_in_place)
// at elements start... of `out`, so the next run computes them in place.
void write_in_place(const ScalarFunction& fn, Frame& f, Array& out, int64_t start);
// The index of element `pos` (row-major in `sh`) into lane `lane` of `regs`.
void set_position(Frame& f, const std::vector<int>& regs, const Shape& sh, int64_t pos, int lane);
// The row-major indices start..start+count-1 of `sh` into index registers;
// returns whether they lie within one row (the innermost dimension).
bool fill_indices(Frame& f, const std::vector<int>& regs, const Shape& sh, int64_t start,
                  int count);
// Runs `fn` on elements start..start+count-1 of `sh` (its index parameter
// filled by fill_indices), lanes in order on an error (run_lanes_in_order).
// When they lie within one row the frame is marked as an index run for this
// run only, so reads at the index point into their arrays.
// `head_only`: run ScalarFunction::run_head (without its tail_binary).
void run_batch(const ScalarFunction& fn, Frame& f, const Shape& sh, int64_t start, int count,
               bool head_only = false);

// body(begin, end) over [0, n) in chunks of `grain`, on oneTBB; the
// exception of the lowest throwing chunk is rethrown (parallel/ranges.h).
using parallel::parallel_ranges;

} // namespace strata::tbbe
