// The checks that generated code can fail, one `Site` per check in a kernel,
// and the host-side decoding of a failed check (JitError) into the error the
// interpreter raises (core/runtime_errors.h): same kind, same message.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/prim.h"
#include "core/scalar.h"
#include "core/shape.h"
#include "fusion/kernel_graph.h"
#include "jit/abi.h"

namespace strata::jit {

struct Site {
  enum class Kind {
    DivisionByZero, // payload: a, b (bits of the operand type `operand`)
    Read,           // `!`: payload: the index (rank of array `array_id`)
    LinearRead,     // `!!`: payload: the linear index
    ToIndex,        // payload: shape (rank), index (rank)
    FromIndex,      // payload: linear index, shape (rank)
    PermuteTarget,  // payload: the target (rank), the source element's linear position;
                    // array_id: the result, source_id: the source
  };
  Site(Kind k, SrcLoc l) : kind(k), loc(std::move(l)) {}
  Kind kind;
  SrcLoc loc;
  // The expression whose check this is (set by describe_site); null for a
  // permute's targets (`loc` is then the kernel's last source operation).
  // The disk cache stores a site by this expression's place in the kernel
  // (jit/kernel_meta.h), never by its location: locations are not in the key.
  const Exp* exp = nullptr;
  Prim op = Prim::Add;                  // DivisionByZero
  ScalarKind operand = ScalarKind::I64; // DivisionByZero: the operand type
  std::string name;                     // the operation a bounds error names
  std::string array;                    // the array read (the program's name, ex::Read::source)
  int array_id = -1;
  int source_id = -1;
  int rank = 0; // index rank
};

// Sets the parts of `s` that come from the failing expression `e` and the
// graph rather than from the kernel's text (hence not from its cache key):
// `exp`, `loc`, the operation a bounds error names (a fused `backpermute`'s
// read names `backpermute`) and the array's name in the program (`array_id`
// must be set first). False when `e` is not of the form `s.kind` checks.
bool describe_site(Site& s, const Exp& e, const KernelGraph& g);

// The error of a failed check; `shape_of(id)` is the current shape of an array.
Error decode_error(const Site& s, const JitError& e, const std::function<Shape(int)>& shape_of);

} // namespace strata::jit
