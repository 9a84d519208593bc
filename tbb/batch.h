// Batches: how the multicore engine runs scalar code without walking the AST
// per element.
//
// Scalar code is compiled once per kernel into instructions that each process
// a whole batch of up to kBatch elements ("lanes") held in registers: one
// column of kBatch values per scalar leaf. Dispatch is paid once per
// instruction and batch, and the loop inside an instruction is a plain typed
// loop the C++ compiler vectorises. Control flow (`if`, short-circuit `and`/
// `or`, `while`) runs each branch only on the lanes that take it, described by
// a selection: either the dense prefix 0..count-1 or a list of lane numbers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "core/array.h"

namespace strata::tbbe {

constexpr int kBatch = 1024;

// The lanes an instruction works on.
struct Selection {
  const uint16_t* lanes = nullptr; // null: the dense lanes 0..count-1
  int count = 0;

  static Selection dense(int count) { return {nullptr, count}; }
  bool is_dense() const { return lanes == nullptr; }
};

// Calls f(lane) for every selected lane, in increasing lane order.
template <class F> inline void for_each_lane(const Selection& s, F&& f) {
  if (s.is_dense()) {
    for (int i = 0; i < s.count; ++i)
      f(i);
  } else {
    for (int k = 0; k < s.count; ++k)
      f(int(s.lanes[k]));
  }
}

// The arrays a compiled function reads, by the id the compiler gave them.
using ArrayTable = std::vector<const Array*>;

// The registers of one running function: one per scalar leaf of every value
// the function computes, plus selection buffers. A frame belongs to one thread.
//
// A register is a pointer to kBatch slots: normally its own storage in the
// frame, but a read of consecutive elements points its register straight into
// the array instead of copying them (`alias`), so a map or fold over arrays
// reads them in place. Only the instruction that computes a register ever
// writes it, and a read that cannot alias takes its own storage back (`own`)
// before gathering, so an aliased register is never written through.
class Frame {
public:
  // `lanes` (at most kBatch): the most lanes any run on this frame selects;
  // a kernel over few elements gets a small frame that is cheap to prepare.
  Frame(int registers, const ArrayTable& arrays, int lanes = kBatch);
  int lanes() const { return lanes_; }
  template <class T> T* reg(int r) { return reinterpret_cast<T*>(regs_[size_t(r)]); }
  void alias(int r, const std::byte* data) { regs_[size_t(r)] = const_cast<std::byte*>(data); }
  void own(int r) { regs_[size_t(r)] = data_.get() + size_t(r) * stride_; }
  const Array& array(int id) const { return *arrays_[size_t(id)]; }

  // True while the function's index parameter holds the row-major indices of
  // consecutive elements within one row (the innermost component counting up
  // from lane 0, the others equal), set by the kernel that filled it for one
  // run (see run_batch in tbb/runtime.h); reads at exactly that index then
  // need no per-lane position or bounds pass.
  bool index_run() const { return index_run_; }
  void set_index_run(bool on) { index_run_ = on; }

  // In an index run of a function that reads its index only at that index
  // (ScalarFunction::lazy_index), only lanes 0 and count-1 of the index are
  // written up front; `fill_index` writes the rest, and every instruction that
  // looks at more lanes calls `need_index` first (a read that cannot take the
  // fast path, the lane-by-lane rerun after an error).
  struct DeferredIndex {
    const std::vector<int>* regs = nullptr; // null: nothing deferred
    const Shape* shape = nullptr;
    int64_t start = 0;
    int count = 0;
  };
  void defer_index(const DeferredIndex& d) { deferred_ = d; }
  void need_index() {
    if (deferred_.regs) fill_deferred_index();
  }

private:
  int lanes_;
  size_t stride_; // bytes per register: lanes 8-byte values, padded
  std::unique_ptr<std::byte[]> data_;
  std::unique_ptr<std::byte*[]> regs_;
  const ArrayTable& arrays_;
  bool index_run_ = false;
  DeferredIndex deferred_;
  void fill_deferred_index(); // tbb/runtime.cpp
};

// One compiled instruction: processes the selected lanes of a batch.
using Instr = std::function<void(Frame&, const Selection&)>;

// Straight-line code: instructions run in order on the same selection.
struct Code {
  std::vector<Instr> instrs;
  void run(Frame& f, const Selection& s) const {
    for (const Instr& i : instrs)
      i(f, s);
  }
};

} // namespace strata::tbbe
