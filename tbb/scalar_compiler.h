// Compiles a scalar Lambda (kernel code) into batch instructions (tbb/batch.h).
//
// Every value gets its own registers (one per scalar leaf), allocated once at
// compile time, so tuples, `let` and `proj` cost nothing at run time and no
// instruction ever overwrites another's result. Constants and run constants
// (`shape`, `size`, `the` of input arrays) are written once when a frame is
// prepared, not per batch. Semantics are those of core/semantics.h; checked
// operations (`!`, `!!`, index conversions, integer division) throw the same
// Error the interpreter raises. A batch that throws is re-run one lane at a
// time, in element order, so the error reported is the interpreter's: that of
// the first element in row-major order (see run_lanes_in_order).
#pragma once

#include <map>
#include <optional>
#include <string>

#include "core/ir.h"
#include "core/prim.h"
#include "tbb/batch.h"

namespace strata::tbbe {

// The registers holding one value: one per scalar leaf of `type`, in order.
struct Operand {
  Type type;
  std::vector<int> regs;
};

// How the compiled code sees a stencil window (the `at` form).
struct WindowInfo {
  std::string name;           // the window parameter
  int array = -1;             // array id of the stencil's input
  std::vector<int64_t> sizes; // window sizes, outermost first
  ac::Boundary boundary;      // how reads outside the array behave
  bool interior = false;      // compile for lanes whose whole window is inside
};

class ScalarFunction {
public:
  int registers() const { return registers_; }
  const std::vector<Operand>& params() const { return params_; }
  const Operand& result() const { return result_; }
  // The index parameter is used only as the index of reads (and stencil
  // windows), which in an index run need only its first and last lanes
  // (Frame::defer_index).
  bool lazy_index() const { return lazy_index_; }
  // Per result leaf: its register is written by this function's own
  // instructions on every selected lane and by nothing else, so a kernel may
  // point it at its output (Frame::alias) and skip the copy (store_lanes).
  const std::vector<bool>& result_in_place() const { return result_in_place_; }
  // When the function ends in `(+ a b)` or `(* a b)` of two registers of one
  // scalar kind, giving its one-leaf result, and nothing else follows: that
  // last instruction, which cannot fail. A native fold then runs the head
  // (every instruction but that one) and combines op(a[i], b[i]) straight
  // into its accumulators, a superinstruction saving a pass over the batch.
  struct TailBinary {
    Prim op;
    ScalarKind kind;
    int a, b;
  };
  const std::optional<TailBinary>& tail_binary() const { return tail_; }
  // Writes constants and run constants; call once per frame, after binding arrays.
  void prepare(Frame& f) const { init_.run(f, Selection::dense(f.lanes())); }
  void run(Frame& f, const Selection& s) const { code_.run(f, s); }
  // Every instruction but the tail_binary one (the whole code without one).
  void run_head(Frame& f, const Selection& s) const { (tail_ ? head_ : code_).run(f, s); }

private:
  friend class ScalarCompiler;
  int registers_ = 0;
  bool lazy_index_ = false;
  std::vector<bool> result_in_place_;
  std::optional<TailBinary> tail_;
  Code head_;
  std::vector<Operand> params_;
  Operand result_;
  Code init_, code_;
};

// Array variables visible to kernel code: name -> (array id, array type).
using ArrayScope = std::map<std::string, std::pair<int, Type>>;

ScalarFunction compile_function(const Lambda& f, const ArrayScope& arrays,
                                const std::optional<WindowInfo>& window = std::nullopt);

// Runs `f` on the dense lanes 0..count-1. If any lane raises an error, re-runs
// the lanes one at a time in order and rethrows the first lane's error, so the
// error is the one sequential evaluation would raise first.
void run_lanes_in_order(const ScalarFunction& f, Frame& frame, int count, bool head_only = false);

} // namespace strata::tbbe
