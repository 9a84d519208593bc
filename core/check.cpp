#include "core/check.h"

#include <algorithm>

#include "core/check_scope.h"
#include "core/expand.h"
#include "core/ir_walk.h"
#include "core/overload.h"
#include "core/prim_types.h"

namespace strata {
namespace {

const Type kBool = Type::scalar(ScalarKind::Bool);
const Type kI64 = Type::scalar(ScalarKind::I64);

[[noreturn]] void fail(const SrcLoc& loc, const std::string& message) {
  throw Error(ErrorKind::Type, loc, message);
}

std::string quoted(std::string_view s) {
  return "`" + std::string(s) + "`";
}

class Checker {
public:
  void program(Program& p) {
    for (const Define& d : p.defines) {
      defines_.push_back(&d);
      check_typed_define(d);
    }
    for (const Param& param : p.params) {
      if (!param.type.is_array())
        fail(param.loc, "program parameter " + quoted(param.name) +
                            " must have an array type, found " + param.type.str());
      check_element_type(param.type.elem(), param.loc);
      arrays_.push(param.name, param.type);
    }
    p.result = acc(*p.body);
  }

private:
  Scope<Type> scalars_; // scalar, tuple and window variables of the enclosing lambda
  Scope<Type> arrays_;  // array variables: parameters, alet bindings, awhile parameters

  // A `let`-bound function: where it is defined, and the scalar scope's
  // depth there (its body sees the bindings below that depth).
  struct LocalFunction {
    ex::Binding* binding;
    size_t depth;
    size_t calls = 0;
  };
  Scope<LocalFunction*> functions_;
  std::vector<const Define*> defines_;
  // The scalar parameters of the array function being expanded: scalar code
  // anywhere in its body reads one as `(the <unit array>)`.
  Scope<std::pair<std::string, Type>> array_fn_scalars_;

  // ------------------------------------------------------------------ helpers
  static void check_element_type(const Type& t, const SrcLoc& loc) {
    if (!t.is_element())
      fail(loc, "expected an element type (a scalar or a tuple of them), found " + t.str());
  }

  static void expect(const Type& found, const Type& expected, const SrcLoc& loc,
                     std::string_view what, const std::string& hint = "") {
    if (found != expected)
      fail(loc,
           std::string(what) + ": expected " + expected.str() + ", found " + found.str() + hint);
  }

  static int expect_index(const Type& t, const SrcLoc& loc, std::string_view what) {
    if (!t.is_index())
      fail(loc, std::string(what) + ": expected an index (ix R), found " + t.str());
    return int(t.elems().size());
  }

  static const Type& expect_array(const Type& t, const SrcLoc& loc, std::string_view what) {
    if (!t.is_array()) fail(loc, std::string(what) + ": expected an array, found " + t.str());
    return t;
  }

  // Checks a scalar lambda against its expected parameter types; returns the body type.
  // The lambda sees the enclosing scalar scope: empty for the function of a
  // collective (collectives never occur inside scalar code), the enclosing
  // bindings for the functions of a scalar `while`.
  // A parameter written without a type takes the expected one.
  Type lambda(Lambda& f, const std::vector<Type>& params, std::string_view what) {
    if (f.params.size() != params.size())
      fail(f.loc, std::string(what) + ": expected a function of " + std::to_string(params.size()) +
                      " parameter(s), found " + std::to_string(f.params.size()));
    for (size_t i = 0; i < params.size(); ++i) {
      if (!f.params[i].typed) f.params[i].type = params[i];
      if (f.params[i].type != params[i])
        fail(f.params[i].loc, std::string(what) + ": parameter " + quoted(f.params[i].name) +
                                  " should have type " + params[i].str() + ", found " +
                                  f.params[i].type.str());
      scalars_.push(f.params[i].name, params[i]);
    }
    Type body = exp(*f.body);
    scalars_.pop(params.size());
    if (body.is_window())
      fail(f.body->loc, std::string(what) + ": a function cannot return a stencil window");
    return body;
  }

  Type alambda(ALambda& f, const Type& param, std::string_view what) {
    if (f.params.size() != 1)
      fail(f.loc, std::string(what) + ": expected a function of 1 array parameter, found " +
                      std::to_string(f.params.size()));
    if (!f.params[0].typed) f.params[0].type = param;
    if (f.params[0].type != param)
      fail(f.params[0].loc, std::string(what) + ": parameter " + quoted(f.params[0].name) +
                                " should have type " + param.str() + ", found " +
                                f.params[0].type.str());
    Scope<Type> saved = std::move(scalars_);
    scalars_ = Scope<Type>{};
    arrays_.push(f.params[0].name, param);
    Type body = acc(*f.body);
    arrays_.pop();
    scalars_ = std::move(saved);
    return body;
  }

  // The array operand of shape/size/!/!!/the: an array variable, never a collective.
  const Type& array_variable(Acc& a, std::string_view op) {
    const auto* var = std::get_if<ac::Var>(&a.node);
    if (!var)
      fail(a.loc, "nested data parallelism: " + quoted(op) + " needs an array variable, found a " +
                      quoted(form_name(a.node)) + " expression; bind it with alet first");
    const Type* t = arrays_.find(var->name);
    if (!t) {
      if (scalars_.find(var->name))
        fail(a.loc, quoted(var->name) + " is a scalar, but " + quoted(op) + " needs an array");
      fail(a.loc, "unknown array variable " + quoted(var->name));
    }
    if (!t->is_array()) fail(a.loc, quoted(op) + ": expected an array, found " + t->str());
    a.type = *t;
    return *t;
  }

  // ---------------------------------------------------------- scalar forms
  Type exp(Exp& e) {
    if (auto* c = std::get_if<ex::Call>(&e.node)) return e.type = call(e, *c);
    if (auto* v = std::get_if<ex::Var>(&e.node); v && !scalars_.find(v->name))
      if (const auto* p = array_fn_scalars_.find(v->name))
        e.node = ex::The{make_acc(ac::Var{p->first}, e.loc)};
    e.type = std::visit([&](auto& n) { return exp_form(n, e.loc); }, e.node);
    // A `let` of functions only: the body is what remains.
    if (auto* l = std::get_if<ex::Let>(&e.node); l && l->bindings.empty()) {
      ExpPtr body = l->body;
      e.node = body->node;
    }
    return e.type;
  }

  Type value_exp(Exp& e, std::string_view what) {
    Type t = exp(e);
    if (t.is_window())
      fail(e.loc, std::string(what) + ": a stencil window can only be read with `at`");
    return t;
  }

  Type exp_form(ex::Const& c, const SrcLoc&) { return Type::scalar(c.value.kind()); }

  Type exp_form(ex::Var& v, const SrcLoc& loc) {
    if (const Type* t = scalars_.find(v.name)) return *t;
    if (functions_.find(v.name))
      fail(loc, quoted(v.name) + " is a function: call it `(" + v.name +
                    " ...)`, or pass it by name to a collective");
    if (arrays_.find(v.name))
      fail(loc, quoted(v.name) +
                    " is an array; a scalar expression can only read it with ! !! the shape size");
    fail(loc, "unknown variable " + quoted(v.name));
  }

  // A function binding is checked where it is called (its parameters may be
  // inferred from the arguments) and then dropped: the calls are expanded.
  Type exp_form(ex::Let& l, const SrcLoc&) {
    std::vector<std::unique_ptr<LocalFunction>> fns;
    size_t values = 0;
    for (auto& b : l.bindings) {
      if (b.fn) {
        fns.push_back(std::make_unique<LocalFunction>(LocalFunction{&b, scalars_.depth()}));
        functions_.push(b.name, fns.back().get());
        continue;
      }
      scalars_.push(b.name, value_exp(*b.value, "let"));
      ++values;
    }
    Type body = exp(*l.body);
    scalars_.pop(values);
    functions_.pop(fns.size());
    for (const auto& f : fns)
      if (f->calls == 0) never_called(*f);
    std::erase_if(l.bindings, [](const ex::Binding& b) { return b.fn != nullptr; });
    return body;
  }

  // A function never called: checked as written when its types are all
  // written, else an error (nothing says what its parameters are).
  void never_called(const LocalFunction& f) {
    const ex::Binding& b = *f.binding;
    for (const Param& p : b.fn->params)
      if (!p.typed)
        fail(p.loc, "cannot infer the type of parameter " + quoted(p.name) + " of " +
                        quoted(b.name) + ": it is never called; write `(" + p.name + " T)`");
    std::vector<Type> types;
    for (const Param& p : b.fn->params)
      types.push_back(p.type);
    Lambda copy = clone_at(*b.fn, nullptr);
    lambda(copy, types, quoted(b.name));
  }

  Type exp_form(ex::If& i, const SrcLoc& loc) {
    expect(exp(*i.cond), kBool, i.cond->loc, "if condition");
    Type t = value_exp(*i.then_branch, "if");
    Type e = value_exp(*i.else_branch, "if");
    if (t != e)
      fail(loc, "if: both branches must have the same type, found " + t.str() + " and " + e.str());
    return t;
  }

  Type exp_form(ex::Tuple& t, const SrcLoc&) {
    std::vector<Type> elems;
    for (auto& e : t.elems)
      elems.push_back(value_exp(*e, "tuple"));
    return Type::tuple(std::move(elems));
  }

  Type exp_form(ex::Proj& p, const SrcLoc& loc) {
    Type t = value_exp(*p.tuple, "proj");
    if (!t.is_tuple()) fail(loc, "proj: expected a tuple, found " + t.str());
    if (p.index < 0 || size_t(p.index) >= t.elems().size())
      fail(loc, "proj: index " + std::to_string(p.index) + " out of range for " + t.str());
    return t.elems()[size_t(p.index)];
  }

  Type exp_form(ex::Index& ix, const SrcLoc&) {
    for (auto& c : ix.components)
      expect(exp(*c), kI64, c->loc, "ix component");
    return Type::index(int(ix.components.size()));
  }

  Type exp_form(ex::Cast& c, const SrcLoc& loc) {
    Type t = value_exp(*c.arg, "cast");
    if (!t.is_scalar()) fail(loc, "cast: expected a scalar operand, found " + t.str());
    return Type::scalar(c.target);
  }

  Type exp_form(ex::While& w, const SrcLoc& loc) {
    Type state = value_exp(*w.init, "while");
    if (!state.is_element())
      fail(loc, "while: the state must be a scalar or tuple, found " + state.str());
    expect(lambda(w.cond, {state}, "while condition"), kBool, w.cond.loc, "while condition");
    expect(lambda(w.step, {state}, "while step"), state, w.step.loc, "while step");
    return state;
  }

  Type exp_form(ex::ShapeOf& s, const SrcLoc&) {
    return Type::index(array_variable(*s.array, "shape").rank());
  }
  Type exp_form(ex::SizeOf& s, const SrcLoc&) {
    array_variable(*s.array, "size");
    return kI64;
  }

  Type exp_form(ex::Read& r, const SrcLoc&) {
    const Type& a = array_variable(*r.array, "!");
    int rank = expect_index(exp(*r.index), r.index->loc, "!");
    if (rank != a.rank())
      fail(r.index->loc, "!: expected an index of rank " + std::to_string(a.rank()) +
                             ", found rank " + std::to_string(rank));
    return a.elem();
  }

  Type exp_form(ex::LinearRead& r, const SrcLoc&) {
    const Type& a = array_variable(*r.array, "!!");
    expect(exp(*r.index), kI64, r.index->loc, "!! position");
    return a.elem();
  }

  Type exp_form(ex::The& t, const SrcLoc& loc) {
    const Type& a = array_variable(*t.array, "the");
    if (a.rank() != 0) fail(loc, "the: expected an array of rank 0, found " + a.str());
    return a.elem();
  }

  Type exp_form(ex::ToIndex& t, const SrcLoc& loc) {
    int r1 = expect_index(exp(*t.shape), t.shape->loc, "to-index shape");
    int r2 = expect_index(exp(*t.index), t.index->loc, "to-index index");
    if (r1 != r2)
      fail(loc, "to-index: shape and index ranks differ (" + std::to_string(r1) + " and " +
                    std::to_string(r2) + ")");
    return kI64;
  }

  Type exp_form(ex::FromIndex& f, const SrcLoc&) {
    int rank = expect_index(exp(*f.shape), f.shape->loc, "from-index shape");
    expect(exp(*f.index), kI64, f.index->loc, "from-index position");
    return Type::index(rank);
  }

  Type exp_form(ex::Ignore& i, const SrcLoc& loc) {
    if (i.rank < 0) fail(loc, "ignore: rank must be non-negative");
    return Type::index(i.rank);
  }

  Type exp_form(ex::Trace& t, const SrcLoc&) { return value_exp(*t.arg, "trace"); }

  Type exp_form(ex::At& a, const SrcLoc& loc) {
    const Type* w = scalars_.find(a.window);
    if (!w) fail(loc, "unknown stencil window " + quoted(a.window));
    if (!w->is_window())
      fail(loc, "at: " + quoted(a.window) + " is not a stencil window but " + w->str());
    if (int(a.offsets.size()) != w->rank())
      fail(loc, "at: expected " + std::to_string(w->rank()) + " offset(s) for a window of rank " +
                    std::to_string(w->rank()) + ", found " + std::to_string(a.offsets.size()));
    for (size_t k = 0; k < a.offsets.size(); ++k) {
      int64_t radius = window_sizes_.empty() ? 0 : window_sizes_.back()[k] / 2;
      if (a.offsets[k] < -radius || a.offsets[k] > radius)
        fail(loc, "at: offset " + std::to_string(a.offsets[k]) + " in dimension " +
                      std::to_string(k) + " is outside the window (radius " +
                      std::to_string(radius) + ")");
    }
    return w->elem();
  }

  Type exp_form(ex::Call&, const SrcLoc& loc) { unexpanded_call(loc); }

  Type exp_form(ex::PrimApp& p, const SrcLoc& loc) {
    std::vector<Type> args;
    for (auto& a : p.args)
      args.push_back(value_exp(*a, prim_name(p.op)));
    return prim_result_type(p, args, loc);
  }

  // ----------------------------------------------------------- array forms
  Type acc(Acc& a) {
    if (auto* c = std::get_if<ac::Call>(&a.node)) return a.type = call(a, *c);
    a.type = std::visit([&](auto& n) { return acc_form(n, a.loc); }, a.node);
    return a.type;
  }

  // An Exp evaluated at array level (a shape, a seed, a condition): no scalar variables in scope.
  Type top_exp(Exp& e, std::string_view what) {
    Scope<Type> saved = std::move(scalars_);
    scalars_ = Scope<Type>{};
    Type t = value_exp(e, what);
    scalars_ = std::move(saved);
    return t;
  }

  const Type& array_operand(Acc& a, std::string_view what) {
    acc(a);
    return expect_array(a.type, a.loc, what);
  }

  Type acc_form(ac::Var& v, const SrcLoc& loc) {
    if (const Type* t = arrays_.find(v.name)) return *t;
    if (scalars_.find(v.name))
      fail(loc, quoted(v.name) + " is a scalar, but an array is expected here");
    fail(loc, "unknown array variable " + quoted(v.name));
  }

  Type acc_form(ac::Alet& l, const SrcLoc&) {
    for (auto& b : l.bindings)
      arrays_.push(b.name, acc(*b.value));
    Type body = acc(*l.body);
    arrays_.pop(l.bindings.size());
    return body;
  }

  Type acc_form(ac::ATuple& t, const SrcLoc& loc) {
    if (t.elems.empty()) fail(loc, "atuple: expected at least one array");
    std::vector<Type> elems;
    for (auto& e : t.elems)
      elems.push_back(acc(*e));
    return Type::tuple(std::move(elems));
  }

  Type acc_form(ac::AProj& p, const SrcLoc& loc) {
    Type t = acc(*p.tuple);
    if (!t.is_tuple()) fail(loc, "aproj: expected a tuple of arrays, found " + t.str());
    if (p.index < 0 || size_t(p.index) >= t.elems().size())
      fail(loc, "aproj: index " + std::to_string(p.index) + " out of range for " + t.str());
    return t.elems()[size_t(p.index)];
  }

  Type acc_form(ac::Use& u, const SrcLoc&) { return u.value.type(); }

  Type acc_form(ac::Unit& u, const SrcLoc&) {
    Type e = top_exp(*u.value, "unit");
    check_element_type(e, u.value->loc);
    return Type::array(e, 0);
  }

  Type acc_form(ac::Generate& g, const SrcLoc&) {
    int rank = expect_index(top_exp(*g.shape, "generate"), g.shape->loc, "generate shape");
    Type e = lambda(g.f, {Type::index(rank)}, "generate");
    check_element_type(e, g.f.loc);
    return Type::array(e, rank);
  }

  Type acc_form(ac::Fill& f, const SrcLoc&) {
    int rank = expect_index(top_exp(*f.shape, "fill"), f.shape->loc, "fill shape");
    Type e = top_exp(*f.value, "fill");
    check_element_type(e, f.value->loc);
    return Type::array(e, rank);
  }

  Type acc_form(ac::Map& m, const SrcLoc&) {
    const Type& a = array_operand(*m.a, "map");
    Type e = lambda(m.f, {a.elem()}, "map");
    check_element_type(e, m.f.loc);
    return Type::array(e, a.rank());
  }

  Type acc_form(ac::ZipWith& z, const SrcLoc& loc) {
    Type a = array_operand(*z.a, "zipwith");
    Type b = array_operand(*z.b, "zipwith");
    if (a.rank() != b.rank())
      fail(loc, "zipwith: operands must have the same rank, found " + a.str() + " and " + b.str());
    Type e = lambda(z.f, {a.elem(), b.elem()}, "zipwith");
    check_element_type(e, z.f.loc);
    return Type::array(e, a.rank());
  }

  // The combining function of a reduction: E -> E -> E, and the seed (if any) of type E.
  void reduction(Lambda& f, Exp* seed, const Type& elem, std::string_view what) {
    expect(lambda(f, {elem, elem}, what), elem, f.loc, std::string(what) + " function result");
    if (seed)
      expect(top_exp(*seed, what), elem, seed->loc, std::string(what) + " seed",
             literal_hint(*seed, elem));
  }

  static void need_rank1(const Type& a, const SrcLoc& loc, std::string_view what) {
    if (a.rank() < 1)
      fail(loc, std::string(what) + ": expected an array of rank at least 1, found " + a.str());
  }

  Type acc_form(ac::Fold& f, const SrcLoc& loc) {
    std::string_view what = f.seed ? "fold" : "fold1";
    Type a = array_operand(*f.a, what);
    need_rank1(a, loc, what);
    reduction(f.f, f.seed.get(), a.elem(), what);
    return Type::array(a.elem(), a.rank() - 1);
  }

  Type acc_form(ac::FoldSeg& f, const SrcLoc& loc) {
    Type a = array_operand(*f.a, "foldseg");
    need_rank1(a, loc, "foldseg");
    expect(array_operand(*f.segs, "foldseg segments"), Type::array(kI64, 1), f.segs->loc,
           "foldseg segments");
    reduction(f.f, f.seed.get(), a.elem(), "foldseg");
    return a;
  }

  Type acc_form(ac::Scan& s, const SrcLoc& loc) {
    std::string_view what = scan_name(s.kind);
    Type a = array_operand(*s.a, what);
    need_rank1(a, loc, what);
    reduction(s.f, s.seed.get(), a.elem(), what);
    if (s.kind == ac::ScanKind::ScanlPrime)
      return Type::tuple({a, Type::array(a.elem(), a.rank() - 1)});
    return a;
  }

  Type acc_form(ac::Permute& p, const SrcLoc&) {
    Type defs = array_operand(*p.defaults, "permute defaults");
    Type src = array_operand(*p.source, "permute source");
    expect(src.elem(), defs.elem(), p.source->loc, "permute source element type");
    expect(lambda(p.combine, {defs.elem(), defs.elem()}, "permute combination"), defs.elem(),
           p.combine.loc, "permute combination result");
    expect(lambda(p.target, {Type::index(src.rank())}, "permute target"), Type::index(defs.rank()),
           p.target.loc, "permute target index");
    return defs;
  }

  Type acc_form(ac::Backpermute& b, const SrcLoc&) {
    int rank = expect_index(top_exp(*b.shape, "backpermute"), b.shape->loc, "backpermute shape");
    Type a = array_operand(*b.a, "backpermute");
    expect(lambda(b.source_index, {Type::index(rank)}, "backpermute"), Type::index(a.rank()),
           b.source_index.loc, "backpermute source index");
    return Type::array(a.elem(), rank);
  }

  Type acc_form(ac::Reshape& r, const SrcLoc&) {
    int rank = expect_index(top_exp(*r.shape, "reshape"), r.shape->loc, "reshape shape");
    return Type::array(array_operand(*r.a, "reshape").elem(), rank);
  }

  void spec_items(std::vector<ac::SpecItem>& spec, std::string_view what) {
    for (auto& s : spec)
      if (!s.is_all())
        expect(top_exp(*s.extent, what), kI64, s.extent->loc, std::string(what) + " spec");
  }

  static int count_all(const std::vector<ac::SpecItem>& spec) {
    int n = 0;
    for (const auto& s : spec)
      n += s.is_all();
    return n;
  }

  Type acc_form(ac::Replicate& r, const SrcLoc& loc) {
    Type a = array_operand(*r.a, "replicate");
    spec_items(r.spec, "replicate");
    if (count_all(r.spec) != a.rank())
      fail(loc, "replicate: the spec must have one `all` per source dimension (" +
                    std::to_string(a.rank()) + "), found " + std::to_string(count_all(r.spec)));
    return Type::array(a.elem(), int(r.spec.size()));
  }

  Type acc_form(ac::Slice& s, const SrcLoc& loc) {
    Type a = array_operand(*s.a, "slice");
    spec_items(s.spec, "slice");
    if (int(s.spec.size()) != a.rank())
      fail(loc, "slice: the spec must have one entry per source dimension (" +
                    std::to_string(a.rank()) + "), found " + std::to_string(s.spec.size()));
    return Type::array(a.elem(), count_all(s.spec));
  }

  Type acc_form(ac::Stencil& s, const SrcLoc& loc) {
    Type a = array_operand(*s.a, "stencil");
    if (int(s.window.size()) != a.rank())
      fail(loc, "stencil: expected " + std::to_string(a.rank()) +
                    " window size(s) for an array of rank " + std::to_string(a.rank()) +
                    ", found " + std::to_string(s.window.size()));
    for (int64_t w : s.window)
      if (w < 1 || w % 2 == 0)
        fail(loc, "stencil: window sizes must be odd and positive, found " + std::to_string(w));
    if (s.boundary.kind == ac::BoundaryKind::Constant)
      expect(top_exp(*s.boundary.constant, "stencil boundary"), a.elem(), s.boundary.constant->loc,
             "stencil boundary constant");
    window_sizes_.push_back(s.window);
    Type e = lambda(s.f, {Type::window(a.elem(), a.rank())}, "stencil");
    window_sizes_.pop_back();
    check_element_type(e, s.f.loc);
    return Type::array(e, a.rank());
  }

  Type acc_form(ac::Awhile& w, const SrcLoc&) {
    Type state = acc(*w.init);
    expect(alambda(w.cond, state, "awhile condition"), Type::array(kBool, 0), w.cond.loc,
           "awhile condition");
    expect(alambda(w.body, state, "awhile body"), state, w.body.loc, "awhile body");
    return state;
  }

  Type acc_form(ac::ATrace& t, const SrcLoc&) { return acc(*t.a); }

  Type acc_form(ac::ACond& c, const SrcLoc& loc) {
    expect(top_exp(*c.cond, "acond"), kBool, c.cond->loc, "acond condition");
    Type t = acc(*c.then_branch);
    Type e = acc(*c.else_branch);
    if (t != e)
      fail(loc,
           "acond: both branches must have the same type, found " + t.str() + " and " + e.str());
    return t;
  }

  Type acc_form(ac::Call&, const SrcLoc& loc) { unexpanded_call(loc); }

  std::vector<std::vector<int64_t>> window_sizes_; // of the enclosing stencils, for `at` offsets

  // ------------------------------------------------------------------ calls
  // A call is replaced by its expansion (core/expand.h). A function's body is
  // first checked alone, seeing only its parameters (a `let`-bound one: the
  // scope where it was defined), so that it means the same at every call;
  // then the expansion is checked where the call stands.

  struct Saved {
    Scope<Type> scalars, arrays;
    Scope<LocalFunction*> functions;
    Scope<std::pair<std::string, Type>> array_fn_scalars;
  };
  Saved isolate() {
    Saved s{std::move(scalars_), std::move(arrays_), std::move(functions_),
            std::move(array_fn_scalars_)};
    scalars_ = {};
    arrays_ = {};
    functions_ = {};
    array_fn_scalars_ = {};
    return s;
  }
  void restore(Saved& s) {
    scalars_ = std::move(s.scalars);
    arrays_ = std::move(s.arrays);
    functions_ = std::move(s.functions);
    array_fn_scalars_ = std::move(s.array_fn_scalars);
  }

  const Define* find_define(const std::string& name) const {
    for (const Define* d : defines_)
      if (d->name == name) return d;
    return nullptr;
  }

  static std::string temp(const std::string& f, const std::string& what) {
    return "_" + f + "/" + what;
  }

  // The body of `d` checked alone, with its parameters of these types.
  Type define_body(const Define& d, const std::vector<Type>& types, const ExpPtr& scalar_body,
                   const AccPtr& array_body) {
    Saved saved = isolate();
    for (size_t i = 0; i < d.params.size(); ++i) {
      const Param& p = d.params[i];
      if (types[i].is_array()) {
        arrays_.push(p.name, types[i]);
      } else if (array_body) {
        arrays_.push(temp(d.name, p.name), Type::array(types[i], 0));
        array_fn_scalars_.push(p.name, {temp(d.name, p.name), types[i]});
      } else {
        scalars_.push(p.name, types[i]);
      }
    }
    Type t = array_body ? acc(*array_body) : value_exp(*scalar_body, quoted(d.name));
    restore(saved);
    return t;
  }

  // A definition whose parameter types are all written is checked as written
  // once, called or not.
  void check_typed_define(const Define& d) {
    std::vector<Type> types;
    for (const Param& p : d.params) {
      if (!p.typed) return;
      if (!p.type.is_array()) check_element_type(p.type, p.loc);
      types.push_back(p.type);
    }
    define_body(d, types, clone_at(d.scalar_body, nullptr), clone_at(d.array_body, nullptr));
  }

  // An argument's type, against the parameter's written type.
  void argument(const Param& p, const Type& t, const SrcLoc& at, const std::string& f,
                const SrcLoc& def) {
    if (t.is_window())
      fail(at, "a stencil window cannot be passed to a function (" + quoted(f) + ")");
    if (p.typed && p.type != t)
      fail(at, "argument " + quoted(p.name) + " of " + quoted(f) + " (defined at " + def.str() +
                   "): expected " + p.type.str() + ", found " + t.str());
  }

  // `(let ((p a) ...) body)`; with several parameters the arguments are
  // bound to temporaries first, so that no argument sees a parameter.
  ExpPtr let_arguments(const std::string& f, const std::vector<Param>& params,
                       std::vector<ExpPtr> args, ExpPtr body, const SrcLoc& loc) {
    if (params.empty()) return body;
    ex::Let outer, inner;
    for (size_t i = 0; i < params.size(); ++i) {
      if (params.size() == 1) {
        inner.bindings.push_back(ex::Binding{params[i].name, args[i], loc});
        continue;
      }
      std::string t = temp(f, std::to_string(i + 1));
      outer.bindings.push_back(ex::Binding{t, args[i], loc});
      inner.bindings.push_back(ex::Binding{params[i].name, make_exp(ex::Var{t}, loc), loc});
    }
    inner.body = std::move(body);
    ExpPtr in = make_exp(std::move(inner), loc);
    if (outer.bindings.empty()) return in;
    outer.body = in;
    return make_exp(std::move(outer), loc);
  }

  Type call(Exp& e, ex::Call& c) {
    if (LocalFunction* const* f = functions_.find(c.name)) return call_local(e, c, **f);
    std::vector<Type> types;
    std::vector<ExpPtr> args;
    for (Operand& o : c.args) {
      types.push_back(o.scalar ? value_exp(*o.scalar, c.name) : Type{});
      args.push_back(o.scalar);
    }
    if (const Define* d = find_define(c.name)) {
      for (size_t i = 0; i < d->params.size(); ++i)
        argument(d->params[i], types[i], args[i]->loc, d->name, d->loc);
      ExpPtr body = clone_at(d->scalar_body, call_site(d->name, e.loc));
      define_body(*d, types, body, nullptr);
      e.node = let_arguments(d->name, d->params, std::move(args), body, e.loc)->node;
    } else {
      e.node = expand_sugar(c, types, e.loc)->node;
    }
    return exp(e);
  }

  // Whether `e` reads the variable `name` where it is free (not bound
  // inside `e`): scalar code binds names only in `let`, in the lambdas of
  // `while`, and in the functions passed to a call.
  static bool reads_free(const Exp& e, const std::string& name) {
    auto in_lambda = [&](const Lambda& f) {
      for (const Param& p : f.params)
        if (p.name == name) return false;
      return reads_free(*f.body, name);
    };
    return std::visit(
        Overload{[&](const ex::Var& v) { return v.name == name; },
                 [&](const ex::At& a) { return a.window == name; },
                 [&](const ex::Let& l) {
                   for (const ex::Binding& b : l.bindings) {
                     if ((b.value && reads_free(*b.value, name)) || (b.fn && in_lambda(*b.fn)))
                       return true;
                     if (b.name == name) return false; // hidden from here on
                   }
                   return reads_free(*l.body, name);
                 },
                 [&](const ex::While& w) {
                   return in_lambda(w.cond) || in_lambda(w.step) || reads_free(*w.init, name);
                 },
                 [&](const ex::Call& c) {
                   for (const Operand& o : c.args)
                     if ((o.scalar && reads_free(*o.scalar, name)) || (o.fn && in_lambda(*o.fn)))
                       return true;
                   return false;
                 },
                 [&](const auto&) {
                   bool found = false;
                   for_each_child(
                       e, [&](const Exp& c) { found = found || reads_free(c, name); },
                       [](const Acc&) {});
                   return found;
                 }},
        e.node);
  }

  Type call_local(Exp& e, ex::Call& c, LocalFunction& f) {
    ++f.calls;
    const ex::Binding& b = *f.binding;
    std::vector<Type> types;
    std::vector<ExpPtr> args;
    for (size_t i = 0; i < c.args.size(); ++i) {
      types.push_back(value_exp(*c.args[i].scalar, c.name));
      args.push_back(c.args[i].scalar);
      argument(Param{b.fn->params[i].name, types[i], {}, false}, types[i], args[i]->loc, b.name,
               b.loc);
    }
    Lambda fn = clone_at(*b.fn, call_site(b.name, e.loc));
    for (size_t i = f.depth; i < scalars_.depth(); ++i) {
      const std::string& n = scalars_.name_at(i);
      bool param = std::ranges::any_of(fn.params, [&](const Param& p) { return p.name == n; });
      if (!param && reads_free(*fn.body, n))
        fail(e.loc, quoted(b.name) + " (defined at " + b.loc.str() + ") reads " + quoted(n) +
                        ", which is bound again before this call; rename one of them");
    }
    Scope<Type> saved = scalars_;
    scalars_.pop(scalars_.depth() - f.depth);
    lambda(fn, types, quoted(b.name));
    scalars_ = std::move(saved);
    e.node = let_arguments(b.name, fn.params, std::move(args), fn.body, e.loc)->node;
    return exp(e);
  }

  Type call(Acc& a, ac::Call& c) {
    std::vector<Type> types;
    const Define* d = find_define(c.name);
    for (size_t i = 0; i < c.args.size(); ++i) {
      Operand& o = c.args[i];
      types.push_back(o.array ? acc(*o.array) : o.scalar ? top_exp(*o.scalar, c.name) : Type{});
      if (d)
        argument(d->params[i], types[i], o.array ? o.array->loc : o.scalar->loc, d->name, d->loc);
    }
    if (!d) {
      // The expansion's top node too is inside the call: an error it raises
      // (`maximum` of an empty array: its fold1) names the call, as the
      // errors of the nodes below it do.
      AccPtr expanded = expand_sugar(c, types, a.loc);
      a.node = std::move(expanded->node);
      a.loc = expanded->loc;
      return acc(a);
    }
    AccPtr body = clone_at(d->array_body, call_site(d->name, a.loc));
    define_body(*d, types, nullptr, body);
    // (alet ((_f/1 a1) (_f/n (unit s)) ...) (alet ((xs _f/1) ...) body))
    ac::Alet outer, inner;
    for (size_t i = 0; i < c.args.size(); ++i) {
      const Operand& o = c.args[i];
      const std::string& p = d->params[i].name;
      if (!o.array) {
        outer.bindings.push_back(
            ac::Binding{temp(d->name, p), make_acc(ac::Unit{o.scalar}, a.loc), a.loc});
        continue;
      }
      std::string t = temp(d->name, std::to_string(i + 1));
      outer.bindings.push_back(ac::Binding{t, o.array, a.loc});
      inner.bindings.push_back(ac::Binding{p, make_acc(ac::Var{t}, a.loc), a.loc});
    }
    inner.body = body;
    outer.body = inner.bindings.empty() ? body : make_acc(std::move(inner), a.loc);
    a.node = outer.bindings.empty() ? body->node : AccNode(std::move(outer));
    return acc(a);
  }
};

} // namespace

void check_program(Program& p) {
  p.checked = false;
  Checker().program(p);
  p.checked = true;
}

void unexpanded_call(const SrcLoc& loc) {
  throw Error(ErrorKind::Usage, loc,
              "internal error: a call that type checking expands reached a checked-program pass");
}

void require_checked(const Program& p) {
  if (!p.checked)
    throw Error(ErrorKind::Usage, p.loc,
                "the program was not type-checked: call check_program first");
}

} // namespace strata
