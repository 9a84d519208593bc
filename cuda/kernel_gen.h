// Kernel graph -> entries (cuda/codegen.h generate): what every kernel
// kind's entries are built from (table slots, entry functions, closed
// expressions, element and index code, the lanes and tree entries that folds
// and scans share), with the entries of each kind defined in a file of its
// own beside its host driver (cuda/kernel_run.h):
//   cuda/generate_kernel.cpp  cuda/fold_kernel.cpp     cuda/foldseg_kernel.cpp
//   cuda/scan_kernel.cpp      cuda/permute_kernel.cpp  cuda/stencil_kernel.cpp
// Launch words are cuda/launch_abi.h (S_N, S_CHUNK, ... in the text).
//
// Order keys (which error of a launch is reported): the row-major position
// of the element computed; combining steps add 2^62 (kCombineKey) to their
// scan-order position so element errors come first, as the interpreter
// builds a fused producer's array before folding it.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "cuda/codegen.h"
#include "cuda/codegen_scalar.h"

namespace strata::cuda {

constexpr const char* kCombineKey = " + 4611686018427387904ll"; // 2^62

// The prelude's atomic update (s_red_add, ...) a permute combines with when
// its combiner gives the same value in every order on a 32- or 64-bit
// integer (core/combiner.h); nullopt: the ordered combining step.
std::optional<std::string> permute_atomic_update(const kn::Permute& x);

class KernelGen {
public:
  KernelGen(const KernelGraph& g, Generated& out) : g_(g), out_(out) {}

  // The entries of every kernel of the graph, in order; returns their text.
  std::string run();

private:
  // One per kernel kind, each in cuda/<kind>_kernel.cpp.
  void generate(const Kernel& k, const kn::Generate& x);
  void fold(const Kernel& k, const kn::Fold& x);
  void foldseg(const Kernel& k, const kn::FoldSeg& x);
  void scan(const Kernel& k, const kn::Scan& x);
  void permute(const Kernel& k, const kn::Permute& x);
  void stencil(const Kernel& k, const kn::Stencil& x);

  // A table slot (graph array or scratch) of type t.
  ArrayId add_slot(const Type& t);
  void block(const Block& b);
  static void check_rank(int r, const SrcLoc& loc);
  std::string entry_name(const Kernel& k, const std::string& phase) const {
    return out_.prefix + "_k" + std::to_string(k.id) + "_" + phase;
  }
  // Opens an entry function; the caller fills it through a ScalarGen on
  // `code` and calls end().
  void begin(const std::string& name);
  void end(const std::string& name, std::string& code);
  // The index of position `pos` in the shape held in launch words
  // [base, base + rank).
  static Val index_of(ScalarGen& s, const std::string& pos, int base, int rank);
  static Val element(ScalarGen& s, const Delayed& d, const std::string& pos, int base) {
    return s.apply(d.elem, {index_of(s, pos, base, d.type.rank())});
  }
  // A delayed array's shape and checks as closed expressions.
  void delayed(const Delayed& d, const SrcLoc& loc);
  // `value`: write the leaves as i64 words (shapes, checks, conditions);
  // without it the expression is evaluated for its errors only (a seed, whose
  // float leaves must not be converted to i64) and the words are zero.
  void closed(const ExpPtr& e, bool value = true);
  KernelEntries& entries(const Kernel& k);

  // ---- lanes and chunk totals (core/reduction_order.h), shared by folds
  // and scans. Row r's chunk i of C elements (S_CHUNK) starts at scan-order
  // position i * C; S_LANE_SLOTS = Ls = min(lanes, C) lane slots per chunk in
  // `lanes`. `phys(q)` is scan-order position q's position in the row; `g`
  // combines (acc, x).
  struct Reduce {
    const Delayed& input;
    std::function<std::string(const std::string&)> phys;
    std::function<Val(ScalarGen&, const Val&, const Val&)> g;
    bool scan = false; // the last chunk of a scan row has no total (its elements are only read)
  };
  // lanes: work item ((row, chunk), lane k) folds the chunk's elements k,
  // k + Ls, k + 2 Ls, ... in order into lanes[t] (consecutive lanes read
  // consecutive elements).
  void lanes_entry(const Kernel& k, const Reduce& r, ArrayId lanes);
  // tree: work item (row, chunk) folds its used = min(Ls, chunk length)
  // lanes by halves, an odd middle lane waiting a level; the total is left
  // in the chunk's first lane slot. In place: a diagnosing launch replays
  // `lanes` first.
  void tree_entry(const Kernel& k, const Reduce& r, ArrayId lanes);

  const KernelGraph& g_;
  Generated& out_;
  std::string body_;
};

} // namespace strata::cuda
