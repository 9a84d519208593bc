// Generated inputs for a user's own program (`strata test`, `strata bench`):
// one spec per parameter gives its element type, its shape in numbers and
// size variables, and the range its values are drawn from; one spec per size
// variable gives the sizes it takes.
//
//   xs: f32[n] in [-1, 1]      a vector of n f32 values in [-1, 1]
//   m: f64[n, 3]               no range: every value, NaN and infinities too
//   k: i64 in [1, 10]          a rank-0 array (also written i64[])
//   n: 1000..100000            a size variable
//   w: 7                       a size variable of one value
//
// The same lines may open the program as comments, `;; input xs: f32[n]`.
// Drawing is deterministic for a seed (docs/testing.md, `strata test`).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/array.h"
#include "core/error.h"
#include "core/ir.h"

namespace strata {

struct SizeSpec {
  std::string name;
  int64_t lo = 0, hi = 0; // inclusive
  std::string origin;     // "--input 'n: 1..9'", for messages
};

struct ArraySpec {
  std::string name; // the parameter
  ScalarKind elem = ScalarKind::F64;
  // Each dimension a number or a size variable's name.
  std::vector<std::string> dims;
  // The closed range of values; absent: every value of the type (for floats
  // NaN and both infinities too). Integer ends are exact (long double holds
  // every 64-bit integer).
  std::optional<std::pair<long double, long double>> range;
  std::string origin; // "--input 'xs: f32[n]'" or "FILE:LINE: input 'xs: f32[n]'"
};

struct InputSpecs {
  std::vector<SizeSpec> sizes;
  std::vector<ArraySpec> arrays; // in the program's parameter order once bound
};

using Sizes = std::map<std::string, int64_t>;

// Parses one spec line (`xs: f32[n] in [-1, 1]`, `n: 1..100`) into `specs`;
// a malformed line is Error(Input) quoting it (`where` prefixes the message:
// "--input" or "FILE:LINE").
void parse_input_spec(const std::string& line, const std::string& where, InputSpecs& specs);

// The `;; input ...` lines of a program's opening comments, each parsed.
void parse_input_comments(const std::string& program_text, const std::string& file,
                          InputSpecs& specs);

// Orders the array specs as the program's parameters and checks them: every
// parameter has exactly one spec of its element type and rank, every spec
// names a parameter, every size variable is declared once and used, ranges
// are not empty and fit the type, and the largest inputs fit in memory
// (Buffer::memory_limit). Error(Input) naming the spec otherwise.
void bind_input_specs(InputSpecs& specs, const Program& program);

// The sizes of trial `trial`: all at their smallest first, then all at their
// largest, then drawn log-uniformly (every magnitude as likely).
Sizes draw_sizes(const InputSpecs& specs, uint64_t seed, long trial);

// Which values draw_inputs draws: testing wants the edges, timing wants
// typical data (subnormals alone make x86's float arithmetic several times
// slower: a dotp with them timed 3.64 ms against 1.13 ms).
enum class Values { WithEdges, Typical };

// The inputs for `sizes`, in parameter order. With edges, about one element
// in eight is an edge value the range allows (0, -0, the ends, MIN/MAX,
// subnormals, infinities, NaN where no range is given); the rest, and every
// element of Typical values, uniform over the range.
std::vector<Array> draw_inputs(const InputSpecs& specs, const Sizes& sizes, uint64_t seed,
                               long trial, Values values = Values::WithEdges);

// The shape of `spec` for `sizes`.
Shape spec_shape(const ArraySpec& spec, const Sizes& sizes);

// The leading box of `a` of shape `shape` (each extent at most a's).
Array truncate_to(const Array& a, const Shape& shape);

// The simplest values of `spec`'s range, simplest first (0 when allowed, 1,
// -1, the low end): what shrinking tries in place of an element.
std::vector<Scalar> simple_values(const ArraySpec& spec);

// "n=3 m=1", for messages.
std::string sizes_text(const Sizes& sizes);

} // namespace strata
