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

Error foldseg_negative_segment(int64_t segment, int64_t length, const SrcLoc& loc) {
  return Error(ErrorKind::Shape, loc,
               "foldseg: segment " + std::to_string(segment) + " has negative length " +
                   std::to_string(length));
}

Error foldseg_length_mismatch(int64_t total, const Shape& sh, const SrcLoc& loc) {
  return Error(ErrorKind::Shape, loc,
               "foldseg: segment lengths sum to " + std::to_string(total) +
                   " but the innermost dimension of " + shape_str(sh) + " is " +
                   std::to_string(sh.back()));
}

std::vector<int64_t> foldseg_segment_starts(const int64_t* lengths, int64_t count, const Shape& sh,
                                            const SrcLoc& loc) {
  std::vector<int64_t> starts(static_cast<size_t>(count));
  int64_t total = 0;
  for (int64_t s = 0; s < count; ++s) {
    if (lengths[s] < 0) throw foldseg_negative_segment(s, lengths[s], loc);
    starts[size_t(s)] = total;
    // An overflowing sum stays -1 (it can never match the extent again).
    if (total >= 0 && __builtin_add_overflow(total, lengths[s], &total)) total = -1;
  }
  if (total != sh.back()) throw foldseg_length_mismatch(total, sh, loc);
  return starts;
}

Error wrong_input_count(size_t expected, size_t given, const SrcLoc& loc) {
  return Error(ErrorKind::Input, loc,
               "the program takes " + std::to_string(expected) + " input(s), given " +
                   std::to_string(given));
}

Error wrong_input_type(const std::string& param, const Type& expected, const Array& given,
                       const SrcLoc& loc) {
  return Error(ErrorKind::Input, loc,
               "parameter `" + param + "` expects " + expected.str() + ", given " +
                   given.type().str() + " of shape " + shape_str(given.shape()));
}

} // namespace strata
