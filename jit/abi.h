// The calling convention between the jit engine's host code and the native
// code it generates (jit/codegen.h). Kept in plain C++ with no LLVM types, so
// the host side never includes LLVM headers.
//
// Every generated entry point has the signature `EntryFn`: it reads manifest
// arrays through a table of `JitArray` indexed by ArrayId (the graph's arrays,
// then the engine's temporaries), works on the range [begin, end) of its kind
// (elements, rows, segments, scan positions), and returns 0, or 1 after
// writing the failing check into `*error` (which check: `site`, an index
// into the kernel's site table, and its operands in `payload`).
#pragma once

#include <cstdint>

namespace strata::jit {

// One manifest array as generated code sees it (24 bytes, no padding).
struct JitArray {
  void* const* leaves;  // one pointer per scalar leaf (struct-of-arrays)
  const int64_t* shape; // rank extents, outermost first
  int64_t size;         // element count
};
static_assert(sizeof(JitArray) == 24);

constexpr int kPayloadSlots = 16;

// What a failing check reports: the host rebuilds the interpreter's error from it.
struct JitError {
  int64_t site = -1;
  int64_t payload[kPayloadSlots] = {};
};

// Scratch slots of 8 bytes passed to an entry (accumulators, seeds, results,
// pointers); each scalar leaf takes one slot, stored with its own width.
using Slot = int64_t;

using EntryFn = int32_t (*)(const JitArray* arrays, JitError* error, int64_t begin, int64_t end,
                            Slot* aux);

} // namespace strata::jit
