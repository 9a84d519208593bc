// What the engine needs of a compiled kernel besides its object code — the
// KernelCode of jit/codegen.h without its LLVM module: the number of entry
// points, which entry is which, which entry computes each closed expression
// and delayed array, and the site table that failed checks are decoded with —
// written without pointers, so that it can be stored next to the object (in
// the disk cache entry and the in-memory cache) and a cache hit builds no
// LLVM IR (docs/jit.md, "Compile latency").
//
// Pointers become positions in a walk of the kernel in the order of its
// canonical text (jit/key.h kernel_text): every occurrence of every `Exp`
// node, pre-order, and every `Delayed`. The same cache key means the same
// text, hence the same tree and the same positions; the walk's length is
// stored and compared. What the text (and so the key) does not fix is taken
// from the kernel being loaded: a site's location and the operation a bounds
// error names (from the expression at the site's position, describe_site)
// and the arrays' names in the program. A node that occurs at several
// positions (shared by fusion) records all of them; a loader uses them only
// when its own nodes there agree on location and name, else it builds the IR
// for the site table as before (`Unbound`).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "jit/codegen.h"

namespace strata::jit {

// Version of the layout below and of the disk entry; part of every cache key
// (jit/key.cpp), so an entry of another version is never looked up.
constexpr int kKernelMetaVersion = 4;

// `code` (as built by generate_kernel_code for kernel `k` of `g`) without pointers.
std::string encode_kernel_meta(const KernelGraph& g, const Kernel& k, const KernelCode& code);

enum class MetaResult {
  Ok,      // `code` is complete
  Corrupt, // malformed, or not this kernel's: recompile, never run
  Unbound, // well-formed, but some site cannot be tied to one expression of this
           // kernel: build the IR for the table (the object itself is fine)
};

// Rebuilds `code` (prefix, entries, sites, closed, generate, entry indices;
// no module) for kernel `k` of `g`, whose temporary array is `temp_id`.
MetaResult decode_kernel_meta(std::string_view meta, const KernelGraph& g, const Kernel& k,
                              int temp_id, const std::string& prefix, KernelCode& code);

// A disk cache entry's payload: magic "SJITKM" + 2-digit version, the
// metadata's length (u64), the metadata, the number of object files (u64,
// 1..kMaxObjects: a kernel's code is compiled in parts, jit/codegen.h), then
// each object file as its length (u64) and bytes. The cache
// (cache/kernel_cache.h) checksums the whole payload.
constexpr size_t kMaxObjects = 8;
std::vector<char> pack_entry(std::string_view meta,
                             const std::vector<std::span<const char>>& objects);
// False when `payload` is not laid out so (another version, truncated, an
// empty or missing object, bytes left over).
bool unpack_entry(std::span<const char> payload, std::string_view& meta,
                  std::vector<std::span<const char>>& objects);

} // namespace strata::jit
