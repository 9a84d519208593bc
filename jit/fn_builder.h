// Builds one entry point (jit/abi.h) of a kernel: the function, its prologue
// (array pointers and extents loaded once per call), the scalar code of the
// kernel's lambdas (jit/scalar_codegen.cpp) and failing checks that write the
// error slot and return 1. Used by the kernel builders (jit/kernel_builder.h) only.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/ValueHandle.h>

#include "fusion/kernel_graph.h"
#include "jit/codegen.h"

namespace strata::jit {

// A value as its scalar leaves (bool as i1), in order.
using Val = std::vector<llvm::Value*>;

// The stencil window `at` reads.
struct Window {
  std::string name;
  int array = -1;
  ac::Boundary boundary;
  Val center;            // the element's index
  bool interior = false; // every read is inside: no boundary code
  Val constant;          // the `constant` boundary's value
};

llvm::Type* reg_type(llvm::LLVMContext& c, ScalarKind k); // i1 for bool
llvm::Type* mem_type(llvm::LLVMContext& c, ScalarKind k); // i8 for bool

// Marks `latch`'s loop as one the loop vectoriser and unroller leave alone.
void leave_alone(llvm::LLVMContext& ctx, llvm::Instruction* latch);

// The forms that only name and move leaves, shared by the scalar code
// generator (FnBuilder) and the lane code generator (jit/lane_codegen.cpp):
// `eval(e)` is the generator's own evaluation of a subexpression.
class Scope {
public:
  // The value bound to `v` (the innermost binding), or a type error at `e`.
  const Val& lookup(const ex::Var& v, const Exp& e) const;
  // `f`'s body with its parameters bound to `args`.
  template <class Eval> Val apply(const Lambda& f, const std::vector<Val>& args, Eval&& eval) {
    size_t depth = vars_.size();
    for (size_t k = 0; k < f.params.size(); ++k)
      vars_.emplace_back(f.params[k].name, args[k]);
    Val r = eval(*f.body);
    vars_.resize(depth);
    return r;
  }
  // (let ((x e) ...) body): each binding in scope of the following ones.
  template <class Eval> Val let(const ex::Let& l, Eval&& eval) {
    size_t depth = vars_.size();
    for (const auto& bd : l.bindings) {
      Val v = eval(*bd.value);
      vars_.emplace_back(bd.name, v);
    }
    Val r = eval(*l.body);
    vars_.resize(depth);
    return r;
  }

private:
  std::vector<std::pair<std::string, Val>> vars_;
};

// A tuple's or an index's leaves: those of its parts, in order.
template <class Eval> Val concat_leaves(const std::vector<ExpPtr>& parts, Eval&& eval) {
  Val out;
  for (const ExpPtr& x : parts) {
    Val v = eval(*x);
    out.insert(out.end(), v.begin(), v.end());
  }
  return out;
}

// (proj tuple i) `e` from the tuple's leaves.
Val proj_leaves(const ex::Proj& p, const Exp& e, const Val& tuple);

// Reads checked once per run of elements instead of once per element
// (jit/chunk_reads.cpp): open around the elements of a fold's or scan's
// chunk code (jit/fold_codegen.cpp chunk_total), of a fold's row, or of a
// group of a fold's rows in lanes (fold_rows_in_lanes), so that the loop
// over them has no branch per element for such reads.
struct ChunkReads {
  llvm::Value* q = nullptr; // the element's position in the run, in [0, m)
  llvm::Value* m = nullptr; // the run's length
  // Lane code: the lanes the run computes (<W x i1>, made before the run's
  // loops; null: every lane). Code under exactly this mask runs for every
  // element in each of its lanes; only these lanes' indices are tested.
  llvm::Value* active = nullptr;
  std::set<llvm::BasicBlock*> before; // blocks made before the run's loops
  // Where the checks go, before the run's loops (a block without its
  // branch yet), whether one fails (null: no check), and the loops' first block.
  llvm::BasicBlock* checks = nullptr;
  llvm::Value* fails = nullptr;
  llvm::BasicBlock* loops = nullptr;
  // Makes the block a failing test branches to: code that runs the same
  // elements from the run's first with every check.
  std::function<llvm::BasicBlock*()> on_fail;
};

class FnBuilder {
public:
  FnBuilder(llvm::Module& m, const KernelGraph& g, KernelCode& code, bool checked,
            const std::string& name);

  llvm::LLVMContext& ctx;
  llvm::Module& mod;
  const KernelGraph& graph;
  KernelCode& code;
  bool checked;
  llvm::Function* fn;
  llvm::IRBuilder<> b;
  llvm::Value *arrays, *error, *begin, *end, *aux;
  std::optional<Window> window;

  // Ends the function: `ret 0` at the current point, prologue linked to the body.
  void finish();
  // Marks the entry as one that runs once per kernel or per chunk (closed
  // expressions, combining two partial results), not per element: it skips
  // the pass pipeline and instruction selection uses the fast selector
  // (optnone), which saves compile time for no run time that counts.
  void run_once();

  // From here on, where `cond` holds, the entry returns what entry `callee`
  // (of the same kernel, in any part: the LLJIT links the parts) returns
  // for the same arguments.
  void delegate_if(llvm::Value* cond, const std::string& callee);
  // A block that returns what entry `callee` returns for the same arguments
  // (one per callee).
  llvm::BasicBlock* delegate_block(const std::string& callee);
  // A block that returns what entry `callee` returns for positions
  // [from, end) (a new one each time).
  llvm::BasicBlock* delegate_from(const std::string& callee, llvm::Value* from);
  // Lane code's failed checks: every block of `bails` branches to one that
  // returns what the checked entry (checked_entry, below) returns for
  // positions [from, end) (null `from`: this entry's own positions,
  // delegate_block); it raises the first error in element order. Nothing to
  // do without bails; an internal error at `loc` ("a check in <what>") where
  // the entry has no checked entry.
  void hand_over(const std::vector<llvm::BasicBlock*>& bails, llvm::Value* from, const SrcLoc& loc,
                 const std::string& what);

  llvm::Value* i64(int64_t v) { return b.getInt64(uint64_t(v)); }
  // Loaded once in the prologue.
  llvm::Value* leaf_ptr(int array, size_t leaf);
  llvm::Value* extent(int array, int dim);
  llvm::Value* size(int array);
  Val shape(int array, int rank);

  // Memory: element `pos` of `array` (all leaves of `type`), and stores.
  // finish() gives these accesses alias scopes: a leaf of an array the entry
  // stores into shares no memory with any other leaf of any array (a kernel
  // writes only its fresh results, jit/kernels.h result_array), so that LLVM
  // needs no run-time overlap tests between them (docs/jit.md "Alias scopes").
  Val load_elem(int array, const Type& elem, llvm::Value* pos);
  void store_elem(int array, const Type& elem, llvm::Value* pos, const Val& v);
  // Memory by pointer (aux slots, host buffers): no alias scope.
  llvm::Value* load_mem(llvm::Value* ptr, ScalarKind k);
  void store_mem(llvm::Value* ptr, ScalarKind k, llvm::Value* v);
  Val load_slots(llvm::Value* base, int first, const Type& t);
  void store_slots(llvm::Value* base, int first, const Type& t, const Val& v);
  llvm::Value* slot_ptr(llvm::Value* base, int slot);

  // Fails the check `site` (writing `payload`, each an i64 or narrower) when `cond` holds.
  void fail_if(llvm::Value* cond, Site site, const std::vector<llvm::Value*>& payload);

  // While chunk_reads->q is set, a read outside any branch of the element
  // code (scalar code; in lane code, one under every lane) whose index is
  // affine in q checks the whole run at once: check_per_chunk adds to
  // chunk_reads->checks the test of index < bound (unsigned, each component,
  // each lane) for every q in [0, m), ORed into `fails`, on which the run
  // branches to on_fail() before any element is computed (that code raises
  // the first error in element order). False: not such a read, to be
  // checked per element.
  std::optional<ChunkReads> chunk_reads;
  bool check_per_chunk(const Val& index, const Val& bounds);
  // The entry that computes the same positions with every check, where the
  // kernel builder made one: reads are checked once per run only where it
  // is set (else the calls below do nothing), as a failing run is handed to
  // it (a chunk: delegate_block; a row or a group of rows in lanes:
  // delegate_from). open_chunk_checks starts the
  // checks' block ahead of a run of m elements (in lane code, in the lanes
  // of `active`) and goes on in a new block,
  // made after every value the checks may use; chunk_element(q) names the
  // element whose code follows (null: none); close_chunk_checks ends the
  // checks' block with its branch to on_fail() or on to the loops, and
  // closes the run.
  std::string checked_entry;
  void open_chunk_checks(llvm::Value* m, const std::function<llvm::BasicBlock*()>& on_fail,
                         llvm::Value* active = nullptr);
  void chunk_element(llvm::Value* q);
  void close_chunk_checks();

  // Scalar code.
  Val exp(const Exp& e);
  Val apply(const Lambda& f, const std::vector<Val>& args);
  int array_id(const Acc& a) const;

  // Loops: body(i) for i in [lo, hi) (i64), in order.
  // `vectorise = false` marks the loop as one the vectoriser and unroller skip.
  void for_range(llvm::Value* lo, llvm::Value* hi, const std::function<void(llvm::Value*)>& body,
                 bool vectorise = true);
  // body(index, pos) for the row-major positions pos in [lo, hi) of `shape`.
  void for_positions(const Val& shape, llvm::Value* lo, llvm::Value* hi,
                     const std::function<void(const Val&, llvm::Value*)>& body);
  // For rank >= 1: row_body(outer, j0, j1, p0) for each run of positions of
  // [lo, hi) within one innermost row: outer index `outer`, innermost indices
  // [j0, j1) (non-empty), position of j0 `p0`.
  void for_rows(
      const Val& shape, llvm::Value* lo, llvm::Value* hi,
      const std::function<void(const Val&, llvm::Value*, llvm::Value*, llvm::Value*)>& row_body);
  // The row-major index of position `pos` in `shape` (of each lane's, for a
  // vector of positions).
  Val from_linear(const Val& shape, llvm::Value* pos);
  // <0, 1, ..., w-1> (i64).
  llvm::Value* lane_numbers(unsigned w);
  // <w x i1>: lane k set where k < count (an i64, at least 0), compared in
  // 32-bit lanes: a 64-bit compare of 16 or 32 lanes is two or four
  // registers' worth, which cost a fold's chunk entry a third of its
  // compile.
  llvm::Value* lanes_below(unsigned w, llvm::Value* count);
  // `x` (a scalar) as a value of `q`'s shape: itself, or splatted to the
  // lanes of a vector `q`; each of `xs` so.
  llvm::Value* like(llvm::Value* q, llvm::Value* x);
  Val like(llvm::Value* q, const Val& xs);
  llvm::Value* to_linear(const Val& shape, const Val& index);

private:
  llvm::BasicBlock* prologue_;
  llvm::IRBuilder<> pb_; // at the end of the prologue
  std::map<std::pair<int, size_t>, llvm::Value*> leaf_ptrs_;
  std::map<std::pair<int, int>, llvm::Value*> extents_;
  std::map<int, llvm::Value*> sizes_;
  std::map<std::string, llvm::BasicBlock*> delegates_;
  // load_elem's and store_elem's accesses by array leaf (array, leaf), and
  // the leaves stored into: their alias scopes are set by finish()
  // (tag_array_accesses).
  using Leaf = std::pair<int, size_t>;
  std::vector<std::pair<llvm::WeakVH, Leaf>> array_accesses_;
  std::set<Leaf> stored_leaves_;
  Scope scope_;
  int branches_ = 0; // depth of element code that runs conditionally (if, while, and/or)

  void tag_array_accesses();
  template <class T> Val form(const T& n, const Exp& e);
  Val prim(const ex::PrimApp& p, const Exp& e);
  Val short_circuit(const ex::PrimApp& p);
  friend struct FormVisitor;
};

} // namespace strata::jit
