#include "core/runtime_errors.h"

namespace strata {

Error division_by_zero(Prim op, const Scalar& a, const Scalar& b, const SrcLoc& loc) {
  std::string name(prim_name(op));
  return Error(ErrorKind::DivisionByZero, loc,
               "division by zero in `" + name + "` (" + format_value(a) + " " + name + " " +
                   format_value(b) + ")");
}

namespace {

std::string quoted(const std::string& s) {
  return "`" + s + "`";
}

// " in `op` of `xs`", or " in `op`" when the array has no name.
std::string in_op_of(const std::string& op, const std::string& array) {
  return " in " + quoted(op) + (array.empty() ? "" : " of " + quoted(array));
}

} // namespace

namespace {
ReadNames names_of(const AccPtr& array, const std::string& origin, const std::string& source,
                   const char* op) {
  const auto* v = array ? std::get_if<ac::Var>(&array->node) : nullptr;
  return {origin.empty() ? op : origin, !source.empty() ? source : v ? v->name : ""};
}
} // namespace

ReadNames read_names(const ex::Read& r) {
  return names_of(r.array, r.origin, r.source, "!");
}
ReadNames read_names(const ex::LinearRead& r) {
  return names_of(r.array, r.origin, r.source, "!!");
}
std::string to_index_op(const ex::ToIndex& t) {
  return t.origin.empty() ? "to-index" : t.origin;
}

Error index_out_of_bounds(const Index& ix, const Shape& sh, const std::string& op,
                          const std::string& array, const SrcLoc& loc) {
  if (op == "backpermute") return backpermute_source_out_of_bounds(ix, sh, loc);
  return Error(ErrorKind::Bounds, loc,
               "index " + shape_str(ix) + " out of bounds for shape " + shape_str(sh) +
                   in_op_of(op, array));
}

Error linear_index_out_of_bounds(int64_t i, const Shape& sh, const std::string& op,
                                 const std::string& array, const SrcLoc& loc) {
  return Error(ErrorKind::Bounds, loc,
               "linear index " + std::to_string(i) + " out of bounds for size " +
                   std::to_string(shape_size(sh)) + " (shape " + shape_str(sh) + ")" +
                   in_op_of(op, array));
}

Error to_index_out_of_bounds(const Index& ix, const Shape& sh, const std::string& op,
                             const SrcLoc& loc) {
  return index_out_of_bounds(ix, sh, op, "", loc);
}

Error from_index_out_of_bounds(int64_t i, const Shape& sh, const SrcLoc& loc) {
  return linear_index_out_of_bounds(i, sh, "from-index", "", loc);
}

Error backpermute_source_out_of_bounds(const Index& from, const Shape& sh, const SrcLoc& loc) {
  return Error(ErrorKind::Bounds, loc,
               "source index " + shape_str(from) + " out of bounds for shape " + shape_str(sh) +
                   " in `backpermute`");
}

Error permute_target_out_of_bounds(const Index& target, const Shape& sh, const Index& source,
                                   const SrcLoc& loc) {
  return Error(ErrorKind::Bounds, loc,
               "target index " + shape_str(target) + " out of bounds for shape " + shape_str(sh) +
                   " in `permute` (source element " + shape_str(source) + ")");
}

Error slice_index_out_of_bounds(int64_t i, int dim, int64_t extent, const SrcLoc& loc) {
  return Error(ErrorKind::Bounds, loc,
               "slice index " + std::to_string(i) + " out of bounds for dimension " +
                   std::to_string(dim) + " (extent " + std::to_string(extent) + ") in `slice`");
}

Error negative_extent(const Shape& sh, const std::string& op, const SrcLoc& loc) {
  return Error(ErrorKind::Shape, loc,
               "negative extent in shape " + shape_str(sh) + " of " + quoted(op));
}

void check_extents(const Shape& sh, const std::string& op, const SrcLoc& loc) {
  for (int64_t d : sh)
    if (d < 0) throw negative_extent(sh, op, loc);
  try {
    (void)shape_size(sh);
  } catch (const Error& e) {
    throw allocation_failed(e, op, loc);
  }
}

Error reshape_size_mismatch(const Shape& from, const Shape& to, const SrcLoc& loc) {
  return Error(ErrorKind::Shape, loc,
               "reshape from shape " + shape_str(from) + " (" + std::to_string(shape_size(from)) +
                   " elements) to shape " + shape_str(to) + " (" + std::to_string(shape_size(to)) +
                   " elements): sizes differ");
}

Error fold1_empty_row(const Shape& sh, const SrcLoc& loc) {
  Shape row(sh.empty() ? 0 : sh.size() - 1, 0);
  return Error(ErrorKind::EmptyReduction, loc,
               "fold1 over an empty row (row " + shape_str(row) + " of shape " + shape_str(sh) +
                   ")");
}

Error allocation_failed(const Error& err, const std::string& op, const SrcLoc& loc) {
  return Error(err.kind(), loc, err.message() + " in " + quoted(op));
}

Error allocation_unattributed(const Error& attributed) {
  const std::string& m = attributed.message();
  size_t at = m.rfind(" in `");
  return Error(attributed.kind(), SrcLoc{}, at == std::string::npos ? m : m.substr(0, at));
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

Error wrong_input_type(const std::string& param, const Type& expected, const Type& given,
                       const Shape& shape, const SrcLoc& loc) {
  return Error(ErrorKind::Input, loc,
               "parameter `" + param + "` expects " + expected.str() + ", given " + given.str() +
                   " of shape " + shape_str(shape));
}

} // namespace strata
