#include "jit/sites.h"

#include <cstring>

#include "core/runtime_errors.h"

namespace strata::jit {
namespace {

Index slots(const JitError& e, int first, int count) {
  return Index(e.payload + first, e.payload + first + count);
}

} // namespace

bool describe_site(Site& s, const Exp& e, const KernelGraph& g) {
  s.exp = &e;
  s.loc = e.loc;
  // The operation and the program's name for the array (never `a3`).
  auto array = [&](const ReadNames& n) {
    if (s.array_id < 0 || size_t(s.array_id) >= g.arrays.size()) return false;
    s.name = n.op;
    s.array = n.array;
    return true;
  };
  switch (s.kind) {
  case Site::Kind::DivisionByZero: {
    const auto* p = std::get_if<ex::PrimApp>(&e.node);
    return p && p->op == s.op;
  }
  case Site::Kind::Read: {
    const auto* r = std::get_if<ex::Read>(&e.node);
    return r && array(read_names(*r));
  }
  case Site::Kind::LinearRead: {
    const auto* r = std::get_if<ex::LinearRead>(&e.node);
    return r && array(read_names(*r));
  }
  case Site::Kind::ToIndex: {
    const auto* t = std::get_if<ex::ToIndex>(&e.node);
    if (!t) return false;
    s.name = to_index_op(*t);
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
    return to_index_out_of_bounds(slots(e, s.rank, s.rank), slots(e, 0, s.rank), s.name, s.loc);
  case Site::Kind::FromIndex:
    return from_index_out_of_bounds(e.payload[0], slots(e, 1, s.rank), s.loc);
  case Site::Kind::PermuteTarget:
    return permute_target_out_of_bounds(slots(e, 0, s.rank), shape_of(s.array_id),
                                        from_linear(shape_of(s.source_id), e.payload[s.rank]),
                                        s.loc);
  }
  return Error(ErrorKind::Bounds, s.loc, "jit: unknown check");
}

} // namespace strata::jit
