#include "jit/sites.h"

#include <cstring>

#include "core/runtime_errors.h"

namespace strata::jit {
namespace {

Index slots(const JitError& e, int first, int count) {
  return Index(e.payload + first, e.payload + first + count);
}

// The program's name for an array when it has one (`xs`), as the interpreter says.
std::string array_name(const KernelGraph& g, int id) {
  const ManifestArray& a = g.arrays[size_t(id)];
  return a.source_name.empty() ? a.name : a.source_name;
}

} // namespace

bool describe_site(Site& s, const Exp& e, const KernelGraph& g) {
  s.exp = &e;
  s.loc = e.loc;
  auto array = [&] {
    if (s.array_id < 0 || size_t(s.array_id) >= g.arrays.size()) return false;
    s.array = array_name(g, s.array_id);
    return true;
  };
  switch (s.kind) {
  case Site::Kind::DivisionByZero: {
    const auto* p = std::get_if<ex::PrimApp>(&e.node);
    return p && p->op == s.op;
  }
  case Site::Kind::Read: {
    const auto* r = std::get_if<ex::Read>(&e.node);
    if (!r) return false;
    s.name = r->origin.empty() ? "!" : r->origin;
    return array();
  }
  case Site::Kind::LinearRead: {
    const auto* r = std::get_if<ex::LinearRead>(&e.node);
    if (!r) return false;
    s.name = r->origin.empty() ? "!!" : r->origin;
    return array();
  }
  case Site::Kind::ToIndex: {
    const auto* t = std::get_if<ex::ToIndex>(&e.node);
    if (!t) return false;
    s.name = t->origin.empty() ? "to-index" : t->origin;
    return true;
  }
  case Site::Kind::FromIndex: return std::holds_alternative<ex::FromIndex>(e.node);
  case Site::Kind::PermuteTarget: return false;
  }
  return false;
}

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
