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

constexpr int kBatch = 256;
constexpr size_t kRegisterBytes = kBatch * 8; // every register can hold kBatch 8-byte values

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
class Frame {
public:
  Frame(int registers, const ArrayTable& arrays);
  template <class T> T* reg(int r) {
    return reinterpret_cast<T*>(data_.get() + size_t(r) * kRegisterBytes);
  }
  const Array& array(int id) const { return *arrays_[size_t(id)]; }

private:
  std::unique_ptr<std::byte[]> data_;
  const ArrayTable& arrays_;
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
