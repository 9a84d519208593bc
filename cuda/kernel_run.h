// One run of a kernel graph on a Backend (cuda/executor.h run_graph): the
// runner of fusion/graph_run.h whose arrays live in backend memory, with the
// host driver of each kernel kind (shapes, allocation, launch words,
// launches) defined in its kind's file beside its entries (cuda/kernel_gen.h
// lists them). Launch words are cuda/launch_abi.h.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/error.h"
#include "cuda/executor.h"

namespace strata::cuda {

// An array in backend memory: its shape and one buffer per leaf.
struct DevArray {
  Shape shape;
  std::vector<std::shared_ptr<uint64_t>> leaves;
};

class Run {
public:
  Run(const KernelGraph& g, const Generated& code, Backend& b, Pool& pool,
      const ReductionOrder& order);

  std::vector<Array> run(const std::vector<Array>& inputs, KernelTimes* times);

  // The runner's part (fusion/graph_run.h): arrays live in backend memory.
  // awhile: a loop's condition and `next` arrays are let go as soon as they
  // are read, so the previous state's buffers go back to the pool and the
  // next body's outputs take them (double buffering without allocation per
  // iteration).
  using Value = DevArray;
  DevArray bind_input(const Array& a) { return upload(a); }
  DevArray get(ArrayId id) const { return arrays_[size_t(id)]; }
  Array result(ArrayId id) { return download(id); }
  void drop(ArrayId id) { arrays_[size_t(id)] = {}; }
  bool loop_continues(ArrayId cond);
  bool condition(const Kernel&, const kn::Branch& b) { return eval(*b.cond).at(0) != 0; }
  void compute(const Kernel& k);
  void set(ArrayId id, DevArray a);

private:
  // One per kernel kind, each in cuda/<kind>_kernel.cpp.
  void generate(const Kernel& k, const kn::Generate& x);
  void fold(const Kernel& k, const kn::Fold& x);
  void foldseg(const Kernel& k, const kn::FoldSeg& x);
  void scan(const Kernel& k, const kn::Scan& x);
  void permute(const Kernel& k, const kn::Permute& x);
  void stencil(const Kernel& k, const kn::Stencil& x);

  const Type& slot_type(ArrayId id) const { return code_.slots[size_t(id)]; }
  // ---- arrays and the table
  DevArray allocate(ArrayId id, const Shape& shape);
  DevArray upload(const Array& a);
  Array download(ArrayId id);
  // ---- launches and errors
  void reset_error();
  // Launches entry `phase_name` on work items [0, n); after a failure runs
  // `replay` (what the entry's input needs again), then the entry again to
  // diagnose the first failing element, and throws its error.
  void launch(const std::string& phase_name, const LaunchParams& p, int64_t n,
              const std::function<void()>& replay = {});
  Error error_of(const ErrorWords& e) const;
  // A closed expression's scalar leaves as 64-bit words (zero for one
  // generated for its errors only: a seed).
  std::vector<int64_t> eval(const Exp& e);
  Shape prepare(const Delayed& d);
  std::string entry(const Kernel& k, const char* phase) const {
    return code_.kernels.at(k.id).prefix + "_" + phase;
  }
  ArrayId scratch(const Kernel& k, size_t i) const { return code_.kernels.at(k.id).scratch[i]; }
  static void put_shape(LaunchParams& p, int base, const Shape& sh);
  // rows, n, chunk length and chunks per row, and the input shape.
  static LaunchParams row_params(const Shape& sh, int64_t rows, int64_t chunk, int64_t chunks);
  // A chunked row's chunks (C elements, K per row, core/reduction_order.h)
  // and lane slots per chunk Ls = min(lanes, C).
  LaunchParams chunked_params(const Shape& sh, int64_t rows, int64_t chunk, const Type& elem,
                              const Lambda& f);
  // Every chunk's lanes, then each chunk's lane tree (in place in `lanes`:
  // a diagnosing tree launch replays the lanes first).
  void chunk_totals(const Kernel& k, ArrayId lanes, const LaunchParams& p);

  const KernelGraph& g_;
  const Generated& code_;
  Backend& b_;
  Pool& pool_;
  ReductionOrder order_;
  std::vector<DevArray> arrays_;
  std::vector<int64_t> table_;
  bool table_dirty_ = true;
  std::shared_ptr<uint64_t> table_dev_, error_dev_, words_dev_;
  Shape permute_source_; // the source shape of the permute running (its errors)
};

} // namespace strata::cuda
