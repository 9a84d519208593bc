// The kernel graph: what every engine executes (docs/fusion.md).
//
// Fusion (fusion/fuse.h) turns a checked program into a sequence of kernels
// over manifest arrays. A manifest array is a program input, a `use` literal or
// the output of a kernel; every array has a unique name (`a0`, `a1`, ...) by
// which kernel code refers to it. Kernel code is the existing scalar IR (Exp,
// Lambda): it reads manifest arrays only through `!`, `!!`, `the`, `shape` and
// `size` on those names, and never starts a collective operation.
//
// A *delayed array* is a shape expression and an element function
// `(lambda ((i (ix R))) e)`: the element-wise producers (generate, fill, map,
// zipwith, backpermute, replicate, slice, reshape, unit) fused into one another.
// Collective kernels (fold, foldseg, scans, permute) read their inputs through
// delayed arrays; a Generate kernel makes one delayed array manifest. Array
// control flow is kept as nested blocks (Loop for awhile, Branch for acond).
// See docs/fusion.md for the rules and the exact semantics of each kernel.
#pragma once

#include <string>
#include <variant>
#include <vector>

#include "core/array.h"
#include "core/ir.h"

namespace strata {

using ArrayId = int;

// A source operation fused into a kernel: its form name and position.
struct SourceOp {
  std::string name; // "map", "zipwith", "fold", ...
  SrcLoc loc;
};

// A shape or index check of a delayed array, done once before the kernel
// that reads it runs, in order (the checks of element-wise producers that
// the reference interpreter does when it builds their arrays).
struct Check {
  enum class Kind {
    NonNegative, // every extent of `a` (an index) is >= 0, else Shape error
    SameSize,    // reshape: `a` and `b` (shapes) have the same size, else Shape error
    InRange,     // slice: 0 <= `a` < `b` (i64), else Bounds error for dimension `dim`
  };
  Kind kind;
  ExpPtr a, b;
  int dim = 0;
  SourceOp op; // the operation that the error names
};

// A delayed array: element i (of `shape`) is `elem(i)`.
struct Delayed {
  ExpPtr shape;              // (ix R)
  Lambda elem;               // (lambda ((i (ix R))) e)
  std::vector<Check> checks; // run before any element is computed
  Type type;                 // (array E R)
};

struct Kernel;
using Block = std::vector<Kernel>; // run in order

namespace kn {
// outputs[0] = the delayed array, made manifest (row-major).
struct Generate {
  Delayed body;
};
// fold/fold1 (seed null) over the innermost dimension of `input`.
struct Fold {
  Lambda f;
  ExpPtr seed;
  Delayed input;
};
struct FoldSeg {
  Lambda f;
  ExpPtr seed;
  Delayed input;
  ArrayId segs;
};
// scanl' has two outputs (scan, totals); the others one.
struct Scan {
  ac::ScanKind kind;
  Lambda f;
  ExpPtr seed;
  Delayed input;
};
struct Permute {
  Lambda combine;
  Delayed defaults;
  Lambda target;
  Delayed source;
};
// The stencil function's window reads `input` (always manifest).
struct Stencil {
  std::vector<int64_t> window;
  ac::Boundary boundary;
  Lambda f;
  ArrayId input;
};
// awhile: state := init; loop { run cond; stop unless cond_result[] is true;
// run body; state := next (all at once) }; outputs := state.
struct Loop {
  std::vector<ArrayId> init, state;
  Block cond;
  ArrayId cond_result = -1;
  Block body;
  std::vector<ArrayId> next;
};
// acond: run one block, then outputs := its results.
struct Branch {
  ExpPtr cond;
  Block then_block;
  std::vector<ArrayId> then_results;
  Block else_block;
  std::vector<ArrayId> else_results;
};
} // namespace kn

using KernelBody = std::variant<kn::Generate, kn::Fold, kn::FoldSeg, kn::Scan, kn::Permute,
                                kn::Stencil, kn::Loop, kn::Branch>;

struct Kernel {
  int id = 0; // unique in the graph, in creation order
  KernelBody body;
  std::vector<ArrayId> outputs;
  std::vector<SourceOp> ops; // source operations fused into it, producers first
};

struct ManifestArray {
  enum class Origin { Input, Literal, Kernel, LoopState };
  std::string name;        // how kernel code refers to it: "a3"
  std::string source_name; // the program's name for it, when it had one
  Type type;               // (array E R)
  Origin origin = Origin::Kernel;
  int param = -1; // Input: the parameter's position
  Array literal;  // Literal: the value
};

struct KernelGraph {
  bool fused = true;
  std::vector<ManifestArray> arrays; // indexed by ArrayId
  std::vector<ArrayId> inputs;       // program parameters, in order
  Block body;
  std::vector<ArrayId> outputs; // the results, flattened in order

  // The id of the array named `name` ("a3" -> 3), or -1.
  ArrayId id_of(const std::string& name) const;
};

// The form name of a kernel: "generate", "fold", "scanl'", "awhile", ...
std::string_view kernel_kind_name(const Kernel& k);
// The number of compute kernels (Loop and Branch are control, not counted;
// the kernels of their blocks are), and all compute kernels in run order.
int count_kernels(const KernelGraph& g);
std::vector<const Kernel*> compute_kernels(const KernelGraph& g);
// The manifest arrays a kernel reads, without repeats, in first-read order
// (for Loop: its init arrays; for Branch: the arrays its condition reads).
std::vector<ArrayId> array_reads(const KernelGraph& g, const Kernel& k);

} // namespace strata
