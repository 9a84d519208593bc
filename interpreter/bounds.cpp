// The bounded evaluator: the interpreter's forms (interpreter/interpreter.cpp)
// on bounded values. Collective forms that only move elements move their
// enclosures; the reductions are in bound_reductions.cpp.
#include "interpreter/bounds.h"

#include <algorithm>

#include "core/runtime_errors.h"
#include "interpreter/bound_evaluator.h"
#include "interpreter/indexing.h"

namespace strata {
namespace {

std::string quoted(std::string_view s) {
  return "`" + std::string(s) + "`";
}

} // namespace

// ------------------------------------------------------------ environment
const BValue& BoundEvaluator::lookup_scalar(const std::string& name) const {
  for (auto it = scalars_.rbegin(); it != scalars_.rend(); ++it)
    if (*it->first == name) return it->second;
  throw Error(ErrorKind::Type, "unbound variable " + quoted(name));
}

const BArrays& BoundEvaluator::lookup_arrays(const std::string& name) const {
  for (auto it = arrays_.rbegin(); it != arrays_.rend(); ++it)
    if (*it->first == name) return it->second;
  throw Error(ErrorKind::Type, "unbound array variable " + quoted(name));
}

const BoundedArray& BoundEvaluator::array_var(const Acc& a) const {
  return lookup_arrays(std::get<ac::Var>(a.node).name).array;
}

BValue BoundEvaluator::apply(const Lambda& f, BValue x) {
  scalars_.emplace_back(&f.params[0].name, std::move(x));
  BValue r = eval(*f.body);
  scalars_.pop_back();
  return r;
}

BValue BoundEvaluator::apply(const Lambda& f, BValue x, BValue y) {
  scalars_.emplace_back(&f.params[0].name, std::move(x));
  scalars_.emplace_back(&f.params[1].name, std::move(y));
  BValue r = eval(*f.body);
  scalars_.resize(scalars_.size() - 2);
  return r;
}

BArrays BoundEvaluator::apply(const ALambda& f, BArrays x) {
  arrays_.emplace_back(&f.params[0].name, std::move(x));
  BArrays r = eval(*f.body);
  arrays_.pop_back();
  return r;
}

std::vector<BoundedArray> BoundEvaluator::run(const Program& p, const std::vector<Array>& inputs) {
  if (inputs.size() != p.params.size())
    throw wrong_input_count(p.params.size(), inputs.size(), p.loc);
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Param& param = p.params[i];
    if (inputs[i].type() != param.type)
      throw wrong_input_type(param.name, param.type, inputs[i].type(), inputs[i].shape(),
                             param.loc);
    arrays_.emplace_back(&param.name, BArrays::single(BoundedArray::exact(inputs[i])));
  }
  std::vector<BoundedArray> out;
  eval(*p.body).flatten_into(out);
  return out;
}

// ------------------------------------------------------------ scalar forms
BValue BoundEvaluator::eval(const Exp& e) {
  return std::visit([&](const auto& n) { return ev(n, e); }, e.node);
}

BValue BoundEvaluator::ev(const ex::Const& c, const Exp&) {
  return BScalar::exact(c.value);
}
BValue BoundEvaluator::ev(const ex::Var& v, const Exp&) {
  return lookup_scalar(v.name);
}

BValue BoundEvaluator::ev(const ex::Let& l, const Exp&) {
  for (const auto& b : l.bindings) {
    BValue v = eval(*b.value);
    scalars_.emplace_back(&b.name, std::move(v));
  }
  BValue r = eval(*l.body);
  scalars_.resize(scalars_.size() - l.bindings.size());
  return r;
}

// The interpreter's branch; when the condition is undecided, the hull with
// the other branch (undetermined when that branch raises an error).
BValue BoundEvaluator::ev(const ex::If& i, const Exp&) {
  BValue c = eval(*i.cond);
  bool taken = c.scalar.point.get<bool>();
  BValue r = eval(taken ? *i.then_branch : *i.else_branch);
  if (c.determined()) return r;
  try {
    return hull(r, eval(taken ? *i.else_branch : *i.then_branch));
  } catch (const Error&) {
    return r.undetermined(Why::Branch);
  }
}

BValue BoundEvaluator::ev(const ex::Tuple& t, const Exp&) {
  std::vector<BValue> elems;
  elems.reserve(t.elems.size());
  for (const auto& e : t.elems)
    elems.push_back(eval(*e));
  return BValue::tuple(std::move(elems));
}

BValue BoundEvaluator::ev(const ex::Proj& p, const Exp&) {
  return eval(*p.tuple).elems[size_t(p.index)];
}

BValue BoundEvaluator::ev(const ex::Index& ix, const Exp&) {
  std::vector<BValue> elems;
  elems.reserve(ix.components.size());
  for (const auto& c : ix.components)
    elems.push_back(eval(*c));
  return BValue::tuple(std::move(elems));
}

BValue BoundEvaluator::ev(const ex::Cast& c, const Exp&) {
  return bound_cast(c.target, eval(*c.arg).scalar);
}

BValue BoundEvaluator::ev(const ex::While& w, const Exp&) {
  BValue state = eval(*w.init);
  bool undecided = false;
  for (;;) {
    BValue c = apply(w.cond, state);
    undecided = undecided || !c.determined();
    if (!c.scalar.point.get<bool>()) break;
    state = apply(w.step, std::move(state));
  }
  return undecided ? state.undetermined(Why::Branch) : state;
}

BValue BoundEvaluator::ev(const ex::ShapeOf& s, const Exp&) {
  const BoundedArray& a = array_var(*s.array);
  BValue v = BValue::exact(Value::index(a.shape()));
  return a.shape_why == Why::None ? v : v.undetermined(a.shape_why);
}

BValue BoundEvaluator::ev(const ex::SizeOf& s, const Exp&) {
  const BoundedArray& a = array_var(*s.array);
  BValue v = BScalar::exact(Scalar::make<int64_t>(a.size()));
  return a.shape_why == Why::None ? v : v.undetermined(a.shape_why);
}

// A read at an undetermined index may read anything.
static BValue read_at(const BoundedArray& a, int64_t i, Why index_why) {
  BValue v = read_element(a, i);
  return index_why == Why::None ? v : v.undetermined(Why::Index);
}

BValue BoundEvaluator::ev(const ex::Read& r, const Exp& e) {
  const BoundedArray& a = array_var(*r.array);
  BValue index = eval(*r.index);
  Index ix = index.point().to_index();
  if (!in_bounds(a.shape(), ix))
    throw index_out_of_bounds(ix, a.shape(), r.origin.empty() ? "!" : r.origin,
                              std::get<ac::Var>(r.array->node).name, e.loc);
  return read_at(a, to_linear(a.shape(), ix), index.why());
}

BValue BoundEvaluator::ev(const ex::LinearRead& r, const Exp& e) {
  const BoundedArray& a = array_var(*r.array);
  BValue index = eval(*r.index);
  int64_t i = index.scalar.point.get<int64_t>();
  if (i < 0 || i >= a.size())
    throw linear_index_out_of_bounds(i, a.shape(), r.origin.empty() ? "!!" : r.origin,
                                     std::get<ac::Var>(r.array->node).name, e.loc);
  return read_at(a, i, index.why());
}

BValue BoundEvaluator::ev(const ex::The& t, const Exp&) {
  return read_element(array_var(*t.array), 0);
}

BValue BoundEvaluator::ev(const ex::ToIndex& t, const Exp& e) {
  BValue sh = eval(*t.shape), ix = eval(*t.index);
  Index s = sh.point().to_index(), i = ix.point().to_index();
  if (!in_bounds(s, i))
    throw Error(ErrorKind::Bounds, e.loc,
                "index " + shape_str(i) + " out of bounds for shape " + shape_str(s) + " in " +
                    quoted(t.origin.empty() ? "to-index" : t.origin));
  BValue r = BScalar::exact(Scalar::make<int64_t>(to_linear(s, i)));
  return sh.determined() && ix.determined() ? r : r.undetermined(Why::Index);
}

BValue BoundEvaluator::ev(const ex::FromIndex& f, const Exp& e) {
  BValue sh = eval(*f.shape), ix = eval(*f.index);
  Index s = sh.point().to_index();
  int64_t i = ix.scalar.point.get<int64_t>();
  if (i < 0 || i >= shape_size(s))
    throw Error(ErrorKind::Bounds, e.loc,
                "linear index " + std::to_string(i) + " out of bounds for shape " + shape_str(s) +
                    " in `from-index`");
  BValue r = BValue::exact(Value::index(from_linear(s, i)));
  return sh.determined() && ix.determined() ? r : r.undetermined(Why::Index);
}

BValue BoundEvaluator::ev(const ex::Ignore& i, const Exp&) {
  return BValue::exact(Value::index(Index(size_t(i.rank), -1)));
}

BValue BoundEvaluator::ev(const ex::Trace& t, const Exp&) {
  return eval(*t.arg);
}

BValue BoundEvaluator::ev(const ex::PrimApp& p, const Exp& e) {
  BScalar args[2];
  if (p.op == Prim::And || p.op == Prim::Or) { // short-circuit, as the interpreter
    args[0] = eval(*p.args[0]).scalar;
    bool absorbing = p.op == Prim::Or;
    if (args[0].point.get<bool>() == absorbing) {
      BScalar r = BScalar::exact(Scalar::make(absorbing));
      return args[0].determined() ? r : r.undetermined(args[0].why);
    }
    args[1] = eval(*p.args[1]).scalar;
    return bound_prim(p.op, args, freedoms_.math_ulps, e.loc);
  }
  for (size_t i = 0; i < p.args.size(); ++i)
    args[i] = eval(*p.args[i]).scalar;
  return bound_prim(p.op, args, freedoms_.math_ulps, e.loc);
}

BValue BoundEvaluator::ev(const ex::At& a, const Exp&) {
  const Window& w = *window_;
  const Shape& sh = w.array->shape();
  Index ix(sh.size());
  for (size_t k = 0; k < sh.size(); ++k) {
    ix[k] = boundary_coordinate(w.stencil->boundary.kind, w.center[k] + a.offsets[k], sh[k]);
    if (ix[k] < 0) return w.constant;
  }
  return read_element(*w.array, to_linear(sh, ix));
}

// ------------------------------------------------------------ array forms
BArrays BoundEvaluator::eval(const Acc& a) {
  return std::visit([&](const auto& n) { return ev(n, a); }, a.node);
}

BoundedArray BoundEvaluator::eval_array(const Acc& a) {
  return eval(a).array;
}

Shape BoundEvaluator::eval_shape(const Exp& e, std::string_view op, Why& why) {
  BValue v = eval(e);
  if (why == Why::None) why = v.why();
  Shape sh = v.point().to_index();
  for (int64_t d : sh)
    if (d < 0)
      throw Error(ErrorKind::Shape, e.loc,
                  "negative extent in shape " + shape_str(sh) + " of " + quoted(op));
  return sh;
}

BoundedArray BoundEvaluator::allocate(const Acc& a, const Type& elem, const Shape& sh) {
  try {
    return BoundedArray::allocate(elem, sh);
  } catch (const Error& err) {
    throw Error(err.kind(), a.loc, err.message() + " in " + quoted(form_name(a.node)));
  }
}

BArrays BoundEvaluator::finish(BoundedArray out, Why shape_why) {
  out.mark_shape(shape_why);
  return BArrays::single(std::move(out));
}

BArrays BoundEvaluator::ev(const ac::Var& v, const Acc&) {
  return lookup_arrays(v.name);
}

BArrays BoundEvaluator::ev(const ac::Alet& l, const Acc&) {
  for (const auto& b : l.bindings) {
    BArrays v = eval(*b.value);
    arrays_.emplace_back(&b.name, std::move(v));
  }
  BArrays r = eval(*l.body);
  arrays_.resize(arrays_.size() - l.bindings.size());
  return r;
}

BArrays BoundEvaluator::ev(const ac::ATuple& t, const Acc&) {
  std::vector<BArrays> elems;
  for (const auto& e : t.elems)
    elems.push_back(eval(*e));
  return BArrays::tuple(std::move(elems));
}

BArrays BoundEvaluator::ev(const ac::AProj& p, const Acc&) {
  return eval(*p.tuple).elems[size_t(p.index)];
}
BArrays BoundEvaluator::ev(const ac::Use& u, const Acc&) {
  return BArrays::single(BoundedArray::exact(u.value));
}

BArrays BoundEvaluator::ev(const ac::Unit& u, const Acc& a) {
  BoundedArray out = allocate(a, a.type.elem(), {});
  write_element(out, 0, eval(*u.value));
  return BArrays::single(std::move(out));
}

BArrays BoundEvaluator::ev(const ac::Generate& g, const Acc& a) {
  Why sw = Why::None;
  BoundedArray out = allocate(a, a.type.elem(), eval_shape(*g.shape, "generate", sw));
  Index ix(size_t(out.value.rank()), 0);
  for (int64_t i = 0; i < out.size(); ++i) {
    write_element(out, i, apply(g.f, BValue::exact(Value::index(ix))));
    next_index(ix, out.shape());
  }
  return finish(std::move(out), sw);
}

BArrays BoundEvaluator::ev(const ac::Fill& f, const Acc& a) {
  Why sw = Why::None;
  BoundedArray out = allocate(a, a.type.elem(), eval_shape(*f.shape, "fill", sw));
  if (out.size() == 0) return finish(std::move(out), sw); // as the interpreter: not evaluated
  BValue v = eval(*f.value);
  for (int64_t i = 0; i < out.size(); ++i)
    write_element(out, i, v);
  return finish(std::move(out), sw);
}

BArrays BoundEvaluator::ev(const ac::Map& m, const Acc& a) {
  BoundedArray src = eval_array(*m.a);
  BoundedArray out = allocate(a, a.type.elem(), src.shape());
  for (int64_t i = 0; i < out.size(); ++i)
    write_element(out, i, apply(m.f, read_element(src, i)));
  return finish(std::move(out), src.shape_why);
}

BArrays BoundEvaluator::ev(const ac::ZipWith& z, const Acc& a) {
  BoundedArray x = eval_array(*z.a), y = eval_array(*z.b);
  Shape sh(x.shape().size());
  for (size_t k = 0; k < sh.size(); ++k)
    sh[k] = std::min(x.shape()[k], y.shape()[k]);
  BoundedArray out = allocate(a, a.type.elem(), sh);
  Index ix(sh.size(), 0);
  for (int64_t i = 0; i < out.size(); ++i) {
    write_element(out, i,
                  apply(z.f, read_element(x, to_linear(x.shape(), ix)),
                        read_element(y, to_linear(y.shape(), ix))));
    next_index(ix, sh);
  }
  return finish(std::move(out), x.shape_why != Why::None ? x.shape_why : y.shape_why);
}

BArrays BoundEvaluator::ev(const ac::Backpermute& b, const Acc& a) {
  BoundedArray src = eval_array(*b.a);
  Why sw = src.shape_why;
  BoundedArray out = allocate(a, a.type.elem(), eval_shape(*b.shape, "backpermute", sw));
  Index ix(size_t(out.value.rank()), 0);
  for (int64_t i = 0; i < out.size(); ++i) {
    BValue from_value = apply(b.source_index, BValue::exact(Value::index(ix)));
    Index from = from_value.point().to_index();
    next_index(ix, out.shape());
    if (!in_bounds(src.shape(), from))
      throw Error(ErrorKind::Bounds, a.loc,
                  "source index " + shape_str(from) + " out of bounds for shape " +
                      shape_str(src.shape()) + " in `backpermute`");
    write_element(out, i, read_at(src, to_linear(src.shape(), from), from_value.why()));
  }
  return finish(std::move(out), sw);
}

BArrays BoundEvaluator::ev(const ac::Reshape& r, const Acc& a) {
  Why sw = Why::None;
  Shape sh = eval_shape(*r.shape, "reshape", sw);
  BoundedArray src = eval_array(*r.a);
  if (sw == Why::None) sw = src.shape_why;
  if (shape_size(sh) != src.size())
    throw Error(ErrorKind::Shape, a.loc,
                "reshape from shape " + shape_str(src.shape()) + " (" + std::to_string(src.size()) +
                    " elements) to shape " + shape_str(sh) + " (" + std::to_string(shape_size(sh)) +
                    " elements): sizes differ");
  BoundedArray out = allocate(a, a.type.elem(), sh);
  for (size_t l = 0; l < out.value.num_leaves(); ++l) {
    std::copy_n(src.value.leaf(l).data(), src.value.leaf(l).bytes(), out.value.leaf(l).data());
    std::copy_n(src.lo.leaf(l).data(), src.lo.leaf(l).bytes(), out.lo.leaf(l).data());
    std::copy_n(src.hi.leaf(l).data(), src.hi.leaf(l).bytes(), out.hi.leaf(l).data());
    out.why[l] = src.why[l];
  }
  return finish(std::move(out), sw);
}

std::vector<std::optional<int64_t>> BoundEvaluator::eval_spec(const std::vector<ac::SpecItem>& spec,
                                                              Why& why) {
  std::vector<std::optional<int64_t>> out;
  for (const auto& s : spec) {
    if (s.is_all()) {
      out.push_back(std::nullopt);
    } else {
      BValue v = eval(*s.extent);
      if (why == Why::None) why = v.why();
      out.push_back(v.scalar.point.get<int64_t>());
    }
  }
  return out;
}

BArrays BoundEvaluator::ev(const ac::Replicate& r, const Acc& a) {
  BoundedArray src = eval_array(*r.a);
  Why sw = src.shape_why;
  auto spec = eval_spec(r.spec, sw);
  Shape sh;
  size_t next_src_dim = 0;
  for (const auto& s : spec) {
    if (s && *s < 0)
      throw Error(ErrorKind::Shape, a.loc, "replicate: negative extent " + std::to_string(*s));
    sh.push_back(s ? *s : src.shape()[next_src_dim++]);
  }
  BoundedArray out = allocate(a, a.type.elem(), sh);
  Index ix(sh.size(), 0), from;
  for (int64_t i = 0; i < out.size(); ++i, next_index(ix, sh)) {
    from.clear();
    for (size_t k = 0; k < spec.size(); ++k)
      if (!spec[k]) from.push_back(ix[k]);
    write_element(out, i, read_element(src, to_linear(src.shape(), from)));
  }
  return finish(std::move(out), sw);
}

BArrays BoundEvaluator::ev(const ac::Slice& s, const Acc& a) {
  BoundedArray src = eval_array(*s.a);
  Why sw = src.shape_why;
  auto spec = eval_spec(s.spec, sw);
  Shape sh;
  for (size_t k = 0; k < spec.size(); ++k) {
    if (!spec[k]) {
      sh.push_back(src.shape()[k]);
    } else if (*spec[k] < 0 || *spec[k] >= src.shape()[k]) {
      throw Error(ErrorKind::Bounds, a.loc,
                  "slice index " + std::to_string(*spec[k]) + " out of bounds for dimension " +
                      std::to_string(k) + " of shape " + shape_str(src.shape()) + " in `slice`");
    }
  }
  BoundedArray out = allocate(a, a.type.elem(), sh);
  Index ix(sh.size(), 0), from(spec.size());
  for (int64_t i = 0; i < out.size(); ++i, next_index(ix, sh)) {
    for (size_t k = 0, kept = 0; k < spec.size(); ++k)
      from[k] = spec[k] ? *spec[k] : ix[kept++];
    write_element(out, i, read_element(src, to_linear(src.shape(), from)));
  }
  return finish(std::move(out), sw);
}

BArrays BoundEvaluator::ev(const ac::Stencil& s, const Acc& a) {
  BoundedArray src = eval_array(*s.a);
  Window w{&src, &s, BValue(), Index(size_t(src.value.rank()), 0)};
  if (s.boundary.kind == ac::BoundaryKind::Constant && src.size() > 0) // as the interpreter
    w.constant = eval(*s.boundary.constant);
  BoundedArray out = allocate(a, a.type.elem(), src.shape());
  Window* saved = window_;
  window_ = &w;
  for (int64_t i = 0; i < out.size(); ++i) {
    write_element(out, i, eval(*s.f.body));
    next_index(w.center, src.shape());
  }
  window_ = saved;
  return finish(std::move(out), src.shape_why);
}

BArrays BoundEvaluator::ev(const ac::Awhile& w, const Acc&) {
  BArrays state = eval(*w.init);
  bool undecided = false;
  for (;;) {
    BValue c = read_element(apply(w.cond, state).array, 0);
    undecided = undecided || !c.determined();
    if (!c.scalar.point.get<bool>()) break;
    state = apply(w.body, std::move(state));
  }
  if (undecided) state.mark_shape(Why::Branch);
  return state;
}

BArrays BoundEvaluator::ev(const ac::ATrace& t, const Acc&) {
  return eval(*t.a);
}

BArrays BoundEvaluator::ev(const ac::ACond& c, const Acc&) {
  BValue cond = eval(*c.cond);
  BArrays r = eval(cond.scalar.point.get<bool>() ? *c.then_branch : *c.else_branch);
  if (!cond.determined()) r.mark_shape(Why::Branch);
  return r;
}

std::vector<BoundedArray> bound_program(const Program& program, const std::vector<Array>& inputs,
                                        const Freedoms& freedoms) {
  return BoundEvaluator(freedoms).run(program, inputs);
}

} // namespace strata
