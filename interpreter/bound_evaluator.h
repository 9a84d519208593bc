// The bounded evaluator (interpreter/bounds.h): one function per form, as
// the interpreter's. Internal to bounds.cpp (element-moving forms) and
// bound_reductions.cpp (folds, scans, permute).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/check.h"
#include "interpreter/bounds.h"

namespace strata {

class BoundEvaluator {
public:
  explicit BoundEvaluator(const Freedoms& freedoms) : freedoms_(freedoms) {}
  std::vector<BoundedArray> run(const Program& p, const std::vector<Array>& inputs);

private:
  const Freedoms& freedoms_;
  std::vector<std::pair<const std::string*, BValue>> scalars_;
  std::vector<std::pair<const std::string*, BArrays>> arrays_;

  struct Window {
    const BoundedArray* array;
    const ac::Stencil* stencil;
    BValue constant;
    Index center;
  };
  Window* window_ = nullptr;

  const BValue& lookup_scalar(const std::string& name) const;
  const BArrays& lookup_arrays(const std::string& name) const;
  const BoundedArray& array_var(const Acc& a) const;
  BValue apply(const Lambda& f, BValue x);
  BValue apply(const Lambda& f, BValue x, BValue y);
  BArrays apply(const ALambda& f, BArrays x);

  BValue eval(const Exp& e);
  BValue ev(const ex::Const& c, const Exp&);
  BValue ev(const ex::Var& v, const Exp&);
  BValue ev(const ex::Let& l, const Exp&);
  BValue ev(const ex::If& i, const Exp&);
  BValue ev(const ex::Tuple& t, const Exp&);
  BValue ev(const ex::Proj& p, const Exp&);
  BValue ev(const ex::Index& ix, const Exp&);
  BValue ev(const ex::Cast& c, const Exp&);
  BValue ev(const ex::While& w, const Exp&);
  BValue ev(const ex::ShapeOf& s, const Exp&);
  BValue ev(const ex::SizeOf& s, const Exp&);
  BValue ev(const ex::Read& r, const Exp& e);
  BValue ev(const ex::LinearRead& r, const Exp& e);
  BValue ev(const ex::The& t, const Exp&);
  BValue ev(const ex::ToIndex& t, const Exp& e);
  BValue ev(const ex::FromIndex& f, const Exp& e);
  BValue ev(const ex::Ignore& i, const Exp&);
  BValue ev(const ex::Trace& t, const Exp&);
  BValue ev(const ex::PrimApp& p, const Exp& e);
  BValue ev(const ex::At& a, const Exp&);
  BValue ev(const ex::Call&, const Exp& e) { unexpanded_call(e.loc); }

  BArrays eval(const Acc& a);
  BoundedArray eval_array(const Acc& a);
  // A shape; `why` receives the first reason it is undetermined.
  Shape eval_shape(const Exp& e, std::string_view op, Why& why);
  std::vector<std::optional<int64_t>> eval_spec(const std::vector<ac::SpecItem>& spec, Why& why);
  BoundedArray allocate(const Acc& a, const Type& elem, const Shape& sh);
  static BArrays finish(BoundedArray out, Why shape_why);

  BArrays ev(const ac::Var& v, const Acc&);
  BArrays ev(const ac::Alet& l, const Acc&);
  BArrays ev(const ac::ATuple& t, const Acc&);
  BArrays ev(const ac::AProj& p, const Acc&);
  BArrays ev(const ac::Use& u, const Acc&);
  BArrays ev(const ac::Unit& u, const Acc& a);
  BArrays ev(const ac::Generate& g, const Acc& a);
  BArrays ev(const ac::Fill& f, const Acc& a);
  BArrays ev(const ac::Map& m, const Acc& a);
  BArrays ev(const ac::ZipWith& z, const Acc& a);
  BArrays ev(const ac::Backpermute& b, const Acc& a);
  BArrays ev(const ac::Reshape& r, const Acc& a);
  BArrays ev(const ac::Replicate& r, const Acc& a);
  BArrays ev(const ac::Slice& s, const Acc& a);
  BArrays ev(const ac::Stencil& s, const Acc& a);
  BArrays ev(const ac::Awhile& w, const Acc&);
  BArrays ev(const ac::ATrace& t, const Acc&);
  BArrays ev(const ac::ACond& c, const Acc&);
  BArrays ev(const ac::Call&, const Acc& a) { unexpanded_call(a.loc); }

  // bound_reductions.cpp
  BArrays ev(const ac::Fold& f, const Acc& a);
  BArrays ev(const ac::FoldSeg& f, const Acc& a);
  BArrays ev(const ac::Scan& s, const Acc& a);
  BArrays ev(const ac::Permute& p, const Acc& a);
};

} // namespace strata
