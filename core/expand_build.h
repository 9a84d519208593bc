// The builders the expansions of core/expand.cpp and core/expand_segmented.cpp
// share: IR nodes at one position, and the checks of a sugar form's operands.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/expand.h"
#include "core/ir.h"

namespace strata::expansion {

[[noreturn]] inline void fail(const SrcLoc& loc, const std::string& message) {
  throw Error(ErrorKind::Type, loc, message);
}

// Builds the nodes of one expansion, all at the call's position.
struct Build {
  SrcLoc loc;

  ExpPtr e(ExpNode n) const { return make_exp(std::move(n), loc); }
  AccPtr a(AccNode n) const { return make_acc(std::move(n), loc); }
  ExpPtr var(const std::string& n) const { return e(ex::Var{n}); }
  AccPtr avar(const std::string& n) const { return a(ac::Var{n}); }
  ExpPtr i64(int64_t v) const { return e(ex::Const{Scalar::make<int64_t>(v)}); }
  ExpPtr prim(Prim op, std::vector<ExpPtr> args) const {
    return e(ex::PrimApp{op, std::move(args)});
  }
  ExpPtr proj(int k, ExpPtr t) const { return e(ex::Proj{k, std::move(t)}); }
  ExpPtr shape(const std::string& array) const { return e(ex::ShapeOf{avar(array)}); }
  ExpPtr extent(const std::string& array, int d) const { return proj(d, shape(array)); }
  ExpPtr the(const std::string& array) const { return e(ex::The{avar(array)}); }
  ExpPtr ix(std::vector<ExpPtr> cs) const { return e(ex::Index{std::move(cs)}); }
  ExpPtr read(const std::string& array, ExpPtr index) const {
    return e(ex::Read{avar(array), std::move(index)});
  }
  // A lambda of untyped parameters (the checker infers them).
  Lambda fn(std::vector<std::string> params, ExpPtr body) const {
    Lambda l;
    for (std::string& p : params)
      l.params.push_back(Param{std::move(p), Type{}, loc, false});
    l.body = std::move(body);
    l.loc = loc;
    return l;
  }
  AccPtr alet(std::vector<std::pair<std::string, AccPtr>> bs, AccPtr body) const {
    ac::Alet l;
    for (auto& [n, v] : bs)
      l.bindings.push_back(ac::Binding{n, std::move(v), loc});
    l.body = std::move(body);
    return a(std::move(l));
  }
  // The components of index variable `i` (rank r), with the last replaced.
  std::vector<ExpPtr> outer(const std::string& i, int r) const {
    std::vector<ExpPtr> cs;
    for (int d = 0; d + 1 < r; ++d)
      cs.push_back(proj(d, var(i)));
    return cs;
  }
  // The shape of `array` (rank r) with its innermost extent replaced.
  ExpPtr shape_with_last(const std::string& array, int r, ExpPtr last) const {
    std::vector<ExpPtr> cs;
    for (int d = 0; d + 1 < r; ++d)
      cs.push_back(extent(array, d));
    cs.push_back(std::move(last));
    return ix(std::move(cs));
  }
  ExpPtr index_with_last(const std::string& i, int r, ExpPtr last) const {
    std::vector<ExpPtr> cs = outer(i, r);
    cs.push_back(std::move(last));
    return ix(std::move(cs));
  }
  // max(0, min(n, hi))
  ExpPtr clamp0(ExpPtr n, ExpPtr hi) const {
    return prim(Prim::Max, {i64(0), prim(Prim::Min, {std::move(n), std::move(hi)})});
  }
};

inline Scalar scalar_of(ScalarKind k, int64_t v) {
  return dispatch_kind(k, [&](auto tag) { return Scalar::make<decltype(tag)>(decltype(tag)(v)); });
}

// ------------------------------------------------------------ the forms

// The checks every array sugar makes of its operands.
struct Operands {
  const ac::Call& c;
  const std::vector<Type>& types;
  const SrcLoc& loc;

  std::string what() const { return "`" + c.name + "`"; }
  const Type& array(size_t i, int min_rank = 0) const {
    const Type& t = types[i];
    if (!t.is_array()) fail(loc, what() + ": expected an array, found " + t.str());
    if (t.rank() < min_rank)
      fail(loc, what() + ": expected an array of rank at least " + std::to_string(min_rank) +
                    ", found " + t.str());
    return t;
  }
  void i64(size_t i, std::string_view name) const {
    if (!types[i].is_scalar(ScalarKind::I64))
      fail(loc, what() + ": " + std::string(name) + " must be i64, found " + types[i].str());
  }
  ScalarKind numeric_elem(size_t i) const {
    const Type& e = array(i).elem();
    if (!e.is_scalar() || e.is_scalar(ScalarKind::Bool))
      fail(loc, what() + ": expected an array of numbers, found " + types[i].str());
    return e.scalar_kind();
  }
  void bool_elem(size_t i) const {
    if (!array(i).elem().is_scalar(ScalarKind::Bool))
      fail(loc, what() + ": expected an array of bool, found " + types[i].str());
  }
  const AccPtr& arr(size_t i) const { return c.args[i].array; }
  const ExpPtr& scalar(size_t i) const { return c.args[i].scalar; }
  const Lambda& fn(size_t i) const { return *c.args[i].fn; }
};

// One array sugar form, in core/expand_segmented.cpp: compact, filter and
// the segmented scans.
AccPtr segmented_sugar(const Build& b, const Operands& o);
// `stencil2`, in core/expand_stencil2.cpp.
AccPtr stencil2(const Build& b, const Operands& o);

} // namespace strata::expansion
