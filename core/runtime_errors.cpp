#include "core/runtime_errors.h"

namespace strata {

Error division_by_zero(Prim op, const Scalar& a, const Scalar& b, const SrcLoc& loc) {
  std::string name(prim_name(op));
  return Error(ErrorKind::DivisionByZero, loc,
               "division by zero in `" + name + "` (" + format_value(a) + " " + name + " " +
                   format_value(b) + ")");
}

Error index_out_of_bounds(const Index& ix, const Shape& sh, const std::string& op,
                          const std::string& array, const SrcLoc& loc) {
  return Error(ErrorKind::Bounds, loc,
               "index " + shape_str(ix) + " out of bounds for shape " + shape_str(sh) + " in `" +
                   op + "` of `" + array + "`");
}

Error linear_index_out_of_bounds(int64_t i, const Shape& sh, const std::string& op,
                                 const std::string& array, const SrcLoc& loc) {
  return Error(ErrorKind::Bounds, loc,
               "linear index " + std::to_string(i) + " out of bounds for size " +
                   std::to_string(shape_size(sh)) + " (shape " + shape_str(sh) + ") in `" + op +
                   "` of `" + array + "`");
}

} // namespace strata
