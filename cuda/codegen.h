// Kernel graph -> one CUDA C++ translation unit (docs/cuda.md).
//
// Every compute kernel of the graph becomes a few *entries*: `__host__
// __device__` functions of one work item `t`, wrapped by S_ENTRY (prelude.h)
// into a grid-stride `__global__` kernel `<name>_g` for the device and a
// sequential loop `<name>_h` for the host. Scalar code is inlined into the
// entries with the pinned semantics. Every closed expression the executor
// needs (shapes, checks, branch conditions) gets an entry that writes its
// scalar leaves as 64-bit words.
//
// Arrays are reached through a table of 64-bit words (`T`): for an array at
// offset o of rank R with L leaves, T[o..o+R) is its shape, T[o+R] its size
// and T[o+R+1+l] the address of leaf l. The table covers the graph's arrays
// and per-kernel scratch arrays (chunk partials, carries, permute targets).
// Nothing in the generated text depends on input sizes, so it is a cache key.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "cuda/launch_abi.h"
#include "fusion/kernel_graph.h"

namespace strata::cuda {

// Where a run-time error can arise in generated code; the error slot names
// the site and holds its operands (SErr::v), and the executor turns it into
// the interpreter's error (core/runtime_errors.h).
struct ErrorSite {
  enum class Kind { Division, Read, LinearRead, ToIndex, FromIndex, PermuteTarget };
  Kind kind = Kind::Division;
  Prim op = Prim::Quot;              // Division
  ScalarKind type = ScalarKind::I64; // Division: the operands' type
  SrcLoc loc;
  std::string opname;    // "!", "backpermute", "to-index", "permute"
  std::string array;     // Read, LinearRead: the array's name
  ArrayId array_id = -1; // Read, LinearRead, PermuteTarget (the destination)
  int rank = 0;          // index components written to SErr::v
};

// The entries and scratch arrays of one compute kernel.
struct KernelEntries {
  std::vector<ArrayId> scratch; // table slots of this kernel's scratch arrays
  std::string prefix;           // entry names are prefix + "_" + phase
};

struct Generated {
  std::string source;           // the translation unit, prelude first
  std::string prefix;           // every symbol starts with it
  std::vector<ErrorSite> sites; // by site number
  std::vector<Type> slots;      // table slot types, (array E R): graph arrays, then scratch
  std::vector<int> offsets;     // table word offset per slot
  int table_words = 0;
  std::map<int, KernelEntries> kernels;     // by kernel id
  std::map<const Exp*, std::string> closed; // closed expression -> entry name
  std::vector<std::string> entries;         // every entry name (add _g or _h)
};

// Throws Error(ErrorKind::Type) for ranks above kMaxRank (cuda/launch_abi.h).
Generated generate(const KernelGraph& g, const std::string& prefix = "s");

// The body of a generated TU without the prelude (to batch several programs,
// with distinct prefixes, into one host compile).
std::string without_prelude(const Generated& code);

} // namespace strata::cuda
