#include "jit/sites.h"

#include <cstring>

#include "core/runtime_errors.h"

namespace strata::jit {
namespace {

Index slots(const JitError& e, int first, int count) {
  return Index(e.payload + first, e.payload + first + count);
}

} // namespace

Error decode_error(const Site& s, const JitError& e, const std::function<Shape(int)>& shape_of) {
  switch (s.kind) {
  case Site::Kind::DivisionByZero: {
    Scalar a = Scalar::from_bytes(s.operand, &e.payload[0]);
    Scalar b = Scalar::from_bytes(s.operand, &e.payload[1]);
    return division_by_zero(s.op, a, b, s.loc);
  }
  case Site::Kind::Read:
    return index_out_of_bounds(slots(e, 0, s.rank), shape_of(s.array_id), s.name, s.array, s.loc);
  case Site::Kind::LinearRead:
    return linear_index_out_of_bounds(e.payload[0], shape_of(s.array_id), s.name, s.array, s.loc);
  case Site::Kind::ToIndex:
    return Error(ErrorKind::Bounds, s.loc,
                 "index " + shape_str(slots(e, s.rank, s.rank)) + " out of bounds for shape " +
                     shape_str(slots(e, 0, s.rank)) + " in `" + s.name + "`");
  case Site::Kind::FromIndex:
    return Error(ErrorKind::Bounds, s.loc,
                 "linear index " + std::to_string(e.payload[0]) + " out of bounds for shape " +
                     shape_str(slots(e, 1, s.rank)) + " in `from-index`");
  case Site::Kind::PermuteTarget: {
    Shape src = shape_of(s.source_id);
    return Error(ErrorKind::Bounds, s.loc,
                 "target index " + shape_str(slots(e, 0, s.rank)) + " out of bounds for shape " +
                     shape_str(shape_of(s.array_id)) + " in `permute` (source element " +
                     shape_str(from_linear(src, e.payload[s.rank])) + ")");
  }
  }
  return Error(ErrorKind::Bounds, s.loc, "jit: unknown check");
}

} // namespace strata::jit
