// Reading and writing NumPy `.npy` files (docs/language.md, Inputs and outputs; docs/npy.md).
//
// Program parameters and results are exchanged as `.npy` files so that any
// NumPy user can produce inputs and inspect outputs. Versions 1.0, 2.0 and 3.0
// are read; 1.0 is written when the header fits (else 2.0). Data must be
// little-endian and C order. Tuple element types map to packed NumPy
// structured dtypes with fields f0, f1, ... (nested tuples nest). The file
// stores records interleaved (array of structs); Strata stores one buffer per
// scalar leaf, so reading scatters records into leaves and writing gathers
// them. Every malformed file is an Error(Input) naming the file and the
// problem; sizes are checked against the file length before any allocation.
// docs/npy.md describes what is accepted and rejected.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/array.h"

namespace strata {

// Reads the `.npy` file at `path`.
Array read_npy(const std::string& path);
// Decodes the bytes of a whole `.npy` file; `what` names it in error messages.
Array parse_npy(std::string_view bytes, const std::string& what);

// Writes `a` to `path` as a `.npy` file (replacing any existing file).
void write_npy(const std::string& path, const Array& a);
// Arrays to files as one set (a tuple of results: out.0.npy, out.1.npy, ...):
// each is written whole to a temporary beside its target, and only when every
// one is on disk are they renamed over their targets; a failure (a full disk,
// a target that is a directory) leaves every target as it was.
void write_npy_set(const std::vector<std::string>& paths, const std::vector<Array>& arrays);
// The bytes of the `.npy` file for `a`, exactly as write_npy writes them.
std::string encode_npy(const Array& a);

} // namespace strata
