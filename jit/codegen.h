// Code generation for one kernel of the kernel graph: an LLVM module holding
// the kernel's entry points (jit/abi.h), and the table of checks they can fail.
//
// This header is free of LLVM types (the module is opaque here) so that the
// host side of the engine compiles without LLVM headers.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/reduction_order.h"
#include "fusion/kernel_graph.h"
#include "jit/sites.h"

namespace strata::jit {

struct ModuleHandle; // the kernel's LLVM modules, one per part (jit/llvm_module.h)

// The entry points of one kernel, by index into the module's functions
// `<prefix>_<index>`; -1 where the kernel kind has no such entry.
struct KernelCode {
  std::string prefix;
  int entries = 0;
  std::vector<Site> sites;
  std::map<const Exp*, int> closed;       // closed expressions: results into aux slots
  std::map<const Delayed*, int> generate; // a delayed array into its target array
  int main = -1;                          // fold rows, scan, foldseg, stencil, permute combine
  int chunk = -1; // fold, scans: the total of one chunk of a long row (the lane tree);
                  // permute: one chunk of the source combined into its bins
  int combine = -1, combine_swapped = -1; // aux[0..L) := f(aux[0..L), aux[L..2L)) (or swapped)
  int targets = -1;                       // permute: the target of every source element
  int edges = -1; // stencil of rank >= 1: the edge runs of [begin, end) (main: the interiors)
  // fold, foldseg: how many rows (segments) main folds at once, one per lane
  // (0: one at a time); the host's chunks hold whole groups.
  int row_lanes = 0;
  std::shared_ptr<ModuleHandle> module; // null once compiled
};

struct CodegenOptions {
  bool checked = true;
  // The ArrayId generated code uses for the kernel's temporary array (permute's
  // source values); temporaries follow the graph's arrays in the table.
  int temp_id = -1;
  // The association order folds and scans run (core/reduction_order.h): the
  // chunk entries' lanes (chunk_lanes); the host cuts rows into its chunks.
  ReductionOrder order = ReductionOrder::blocked();
  // The quick tier's IR (docs/jit.md "Tiers"): a generate in lanes whose
  // groups can fail a check runs every element through its checked entry
  // (scalar code, which the fast instruction selector takes; the lane code's
  // vectors go through SelectionDAG), with the same entries and sites as the
  // optimised IR, so the optimised code can replace it.
  bool quick_tier = false;
};

// Builds the module; `prefix` names its functions (unique per cache key).
KernelCode generate_kernel_code(const KernelGraph& g, const Kernel& k, const CodegenOptions& o,
                                const std::string& prefix);

} // namespace strata::jit
