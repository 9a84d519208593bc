// Structural equality of IR (the `equal` functions declared in core/ir.h).
//
// Two programs are equal when they have the same forms, names, written types
// and literals, nested the same way. Source positions and the types assigned
// by the checker are ignored. Literals compare bitwise (-0.0 differs from 0.0),
// except that two NaNs of the same type are equal whatever their payloads: the
// text form writes every NaN as `nan`, so print-then-parse keeps NaN but not
// its payload, and the round trip must still give an equal program.
#include <cmath>
#include <type_traits>

#include "core/ir.h"

namespace strata {
namespace {

bool same_scalar(const Scalar& a, const Scalar& b) {
  if (a.identical(b)) return true;
  if (a.kind() != b.kind() || !is_float(a.kind())) return false;
  auto is_nan = [](const Scalar& s) { return s.visit([](auto v) { return v != v; }); };
  return is_nan(a) && is_nan(b);
}

bool same_array(const Array& a, const Array& b) {
  if (a.elem_type() != b.elem_type() || a.shape() != b.shape()) return false;
  for (size_t leaf = 0; leaf < a.num_leaves(); ++leaf)
    for (int64_t i = 0; i < a.size(); ++i)
      if (!same_scalar(a.read(leaf, i), b.read(leaf, i))) return false;
  return true;
}

// The element types compared by the vector overload, declared ahead of it.
bool same(const Param& a, const Param& b);
bool same(const ex::Binding& a, const ex::Binding& b);
bool same(const ac::Binding& a, const ac::Binding& b);
bool same(const ac::SpecItem& a, const ac::SpecItem& b);
bool same(const Operand& a, const Operand& b);
bool same(const Define& a, const Define& b);

bool same(const ExpPtr& a, const ExpPtr& b) {
  return a && b ? equal(*a, *b) : a == b;
}
bool same(const AccPtr& a, const AccPtr& b) {
  return a && b ? equal(*a, *b) : a == b;
}

template <class T> bool same(const std::vector<T>& a, const std::vector<T>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!same(a[i], b[i])) return false;
  return true;
}

// An inferred parameter type is the checker's, so it is not compared.
bool same(const Param& a, const Param& b) {
  return a.name == b.name && a.typed == b.typed && (!a.typed || a.type == b.type);
}
bool same(const Lambda& a, const Lambda& b) {
  return a.written_as == b.written_as && same(a.params, b.params) && same(a.body, b.body);
}
bool same(const std::shared_ptr<Lambda>& a, const std::shared_ptr<Lambda>& b) {
  return a && b ? same(*a, *b) : a == b;
}
bool same(const Operand& a, const Operand& b) {
  return same(a.array, b.array) && same(a.scalar, b.scalar) && same(a.fn, b.fn) &&
         a.window == b.window && a.boundary == b.boundary;
}
bool same(const ALambda& a, const ALambda& b) {
  return same(a.params, b.params) && same(a.body, b.body);
}

// ---------------------------------------------------------------- scalar forms
bool same(const ex::Const& a, const ex::Const& b) {
  return same_scalar(a.value, b.value);
}
bool same(const ex::Var& a, const ex::Var& b) {
  return a.name == b.name;
}
bool same(const ex::Binding& a, const ex::Binding& b) {
  return a.name == b.name && same(a.value, b.value) && same(a.fn, b.fn);
}
bool same(const ex::Let& a, const ex::Let& b) {
  return same(a.bindings, b.bindings) && same(a.body, b.body);
}
bool same(const ex::If& a, const ex::If& b) {
  return same(a.cond, b.cond) && same(a.then_branch, b.then_branch) &&
         same(a.else_branch, b.else_branch);
}
bool same(const ex::Tuple& a, const ex::Tuple& b) {
  return same(a.elems, b.elems);
}
bool same(const ex::Proj& a, const ex::Proj& b) {
  return a.index == b.index && same(a.tuple, b.tuple);
}
bool same(const ex::Index& a, const ex::Index& b) {
  return same(a.components, b.components);
}
bool same(const ex::Cast& a, const ex::Cast& b) {
  return a.target == b.target && same(a.arg, b.arg);
}
bool same(const ex::While& a, const ex::While& b) {
  return same(a.cond, b.cond) && same(a.step, b.step) && same(a.init, b.init);
}
bool same(const ex::ShapeOf& a, const ex::ShapeOf& b) {
  return same(a.array, b.array);
}
bool same(const ex::SizeOf& a, const ex::SizeOf& b) {
  return same(a.array, b.array);
}
bool same(const ex::Read& a, const ex::Read& b) {
  return same(a.array, b.array) && same(a.index, b.index);
}
bool same(const ex::LinearRead& a, const ex::LinearRead& b) {
  return same(a.array, b.array) && same(a.index, b.index);
}
bool same(const ex::The& a, const ex::The& b) {
  return same(a.array, b.array);
}
bool same(const ex::ToIndex& a, const ex::ToIndex& b) {
  return same(a.shape, b.shape) && same(a.index, b.index);
}
bool same(const ex::FromIndex& a, const ex::FromIndex& b) {
  return same(a.shape, b.shape) && same(a.index, b.index);
}
bool same(const ex::Ignore& a, const ex::Ignore& b) {
  return a.rank == b.rank;
}
bool same(const ex::Trace& a, const ex::Trace& b) {
  return a.label == b.label && same(a.arg, b.arg);
}
bool same(const ex::PrimApp& a, const ex::PrimApp& b) {
  return a.op == b.op && same(a.args, b.args);
}
bool same(const ex::At& a, const ex::At& b) {
  return a.window == b.window && a.offsets == b.offsets;
}
bool same(const ex::Call& a, const ex::Call& b) {
  return a.name == b.name && same(a.args, b.args);
}

// ----------------------------------------------------------------- array forms
bool same(const ac::Var& a, const ac::Var& b) {
  return a.name == b.name;
}
bool same(const ac::Binding& a, const ac::Binding& b) {
  return a.name == b.name && same(a.value, b.value);
}
bool same(const ac::Alet& a, const ac::Alet& b) {
  return same(a.bindings, b.bindings) && same(a.body, b.body);
}
bool same(const ac::ATuple& a, const ac::ATuple& b) {
  return same(a.elems, b.elems);
}
bool same(const ac::AProj& a, const ac::AProj& b) {
  return a.index == b.index && same(a.tuple, b.tuple);
}
bool same(const ac::Use& a, const ac::Use& b) {
  return same_array(a.value, b.value);
}
bool same(const ac::Unit& a, const ac::Unit& b) {
  return same(a.value, b.value);
}
bool same(const ac::Generate& a, const ac::Generate& b) {
  return same(a.shape, b.shape) && same(a.f, b.f);
}
bool same(const ac::Fill& a, const ac::Fill& b) {
  return same(a.shape, b.shape) && same(a.value, b.value);
}
bool same(const ac::Map& a, const ac::Map& b) {
  return same(a.f, b.f) && same(a.a, b.a);
}
bool same(const ac::ZipWith& a, const ac::ZipWith& b) {
  return same(a.f, b.f) && same(a.a, b.a) && same(a.b, b.b);
}
bool same(const ac::Fold& a, const ac::Fold& b) {
  return same(a.f, b.f) && same(a.seed, b.seed) && same(a.a, b.a);
}
bool same(const ac::FoldSeg& a, const ac::FoldSeg& b) {
  return same(a.f, b.f) && same(a.seed, b.seed) && same(a.a, b.a) && same(a.segs, b.segs);
}
bool same(const ac::Scan& a, const ac::Scan& b) {
  return a.kind == b.kind && same(a.f, b.f) && same(a.seed, b.seed) && same(a.a, b.a);
}
bool same(const ac::Permute& a, const ac::Permute& b) {
  return same(a.combine, b.combine) && same(a.defaults, b.defaults) && same(a.target, b.target) &&
         same(a.source, b.source);
}
bool same(const ac::Backpermute& a, const ac::Backpermute& b) {
  return same(a.shape, b.shape) && same(a.source_index, b.source_index) && same(a.a, b.a);
}
bool same(const ac::Reshape& a, const ac::Reshape& b) {
  return same(a.shape, b.shape) && same(a.a, b.a);
}
bool same(const ac::SpecItem& a, const ac::SpecItem& b) {
  return same(a.extent, b.extent);
}
bool same(const ac::Replicate& a, const ac::Replicate& b) {
  return same(a.spec, b.spec) && same(a.a, b.a);
}
bool same(const ac::Slice& a, const ac::Slice& b) {
  return same(a.a, b.a) && same(a.spec, b.spec);
}
bool same(const ac::Boundary& a, const ac::Boundary& b) {
  return a.kind == b.kind && same(a.constant, b.constant);
}
bool same(const ac::Stencil& a, const ac::Stencil& b) {
  return a.window == b.window && same(a.boundary, b.boundary) && same(a.f, b.f) && same(a.a, b.a);
}
bool same(const ac::Awhile& a, const ac::Awhile& b) {
  return same(a.cond, b.cond) && same(a.body, b.body) && same(a.init, b.init);
}
bool same(const ac::ATrace& a, const ac::ATrace& b) {
  return a.label == b.label && same(a.a, b.a);
}
bool same(const ac::ACond& a, const ac::ACond& b) {
  return same(a.cond, b.cond) && same(a.then_branch, b.then_branch) &&
         same(a.else_branch, b.else_branch);
}

bool same(const ac::Call& a, const ac::Call& b) {
  return a.name == b.name && same(a.args, b.args);
}
bool same(const Define& a, const Define& b) {
  return a.name == b.name && same(a.params, b.params) && same(a.scalar_body, b.scalar_body) &&
         same(a.array_body, b.array_body);
}

// Same alternative of the variant, then the same fields.
template <class Variant> bool same_node(const Variant& a, const Variant& b) {
  if (a.index() != b.index()) return false;
  return std::visit([&](const auto& x) { return same(x, std::get<std::decay_t<decltype(x)>>(b)); },
                    a);
}

} // namespace

bool equal(const Exp& a, const Exp& b) {
  return same_node(a.node, b.node);
}
bool equal(const Acc& a, const Acc& b) {
  return same_node(a.node, b.node);
}

bool equal(const Program& a, const Program& b) {
  return same(a.defines, b.defines) && same(a.params, b.params) && same(a.body, b.body);
}

} // namespace strata
