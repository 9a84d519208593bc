#include "oracle/tolerance.h"

#include <cmath>
#include <limits>

#include "core/check.h"
#include "core/overload.h"
#include "interpreter/interpreter.h"
#include "oracle/gen/walk.h"

namespace strata {
namespace {

using Flags = std::vector<bool>; // per flattened array of a node: may differ under reassociation

bool any(const Flags& f) {
  for (bool b : f)
    if (b) return true;
  return false;
}

// The running state of one sum: enough to bound it in any order.
struct Terms {
  bool nan = false, pinf = false, ninf = false;
  long double abs_sum = 0;
  int64_t count = 0;
  void add(double t) {
    ++count;
    if (std::isnan(t))
      nan = true;
    else if (std::isinf(t))
      (t > 0 ? pinf : ninf) = true;
    else
      abs_sum += std::fabs(t);
  }
  double bound(ScalarKind k) const {
    double eps = k == ScalarKind::F32 ? double(std::numeric_limits<float>::epsilon())
                                      : std::numeric_limits<double>::epsilon();
    long double max = k == ScalarKind::F32 ? std::numeric_limits<float>::max()
                                           : std::numeric_limits<double>::max();
    double tiny = k == ScalarKind::F32 ? double(std::numeric_limits<float>::denorm_min())
                                       : std::numeric_limits<double>::denorm_min();
    long double m = (long double)count;
    if (nan) return 0;
    if (abs_sum * (1 + 2 * m * eps) >= max) return std::numeric_limits<double>::infinity();
    if (pinf || ninf) return 0;
    long double b = 1.01L * (m > 1 ? m - 1 : 0) * eps * abs_sum + m * tiny;
    return double(b);
  }
};

bool is_float_sum_free(const Lambda& f) {
  // min and max are exact in any order (as numbers); anything else on floats is treated as a sum.
  const auto* p = std::get_if<ex::PrimApp>(&f.body->node);
  return p && (p->op == Prim::Min || p->op == Prim::Max);
}

bool is_float_array(const Type& t) {
  return t.is_array() && t.elem().is_scalar() && is_float(t.elem().scalar_kind());
}

bool is_plus(const Lambda& f) {
  const auto* p = std::get_if<ex::PrimApp>(&f.body->node);
  if (!p || p->op != Prim::Add || f.params.size() != 2) return false;
  const auto* a = std::get_if<ex::Var>(&p->args[0]->node);
  const auto* b = std::get_if<ex::Var>(&p->args[1]->node);
  return a && b && a->name != b->name &&
         (a->name == f.params[0].name || a->name == f.params[1].name) &&
         (b->name == f.params[0].name || b->name == f.params[1].name);
}

// ------------------------------------------------------------ classification
class Analysis {
public:
  bool loose_errors = false;

  Flags acc(Acc& a) {
    return std::visit([&](auto& n) { return form(n, a); }, a.node);
  }

private:
  std::vector<std::pair<std::string, Flags>> scope_;

  const Flags* lookup(const std::string& name) const {
    for (auto it = scope_.rbegin(); it != scope_.rend(); ++it)
      if (it->first == name) return &it->second;
    return nullptr;
  }

  // Whether a scalar expression reads an affected array.
  bool exp(Exp& e) {
    bool hit = false;
    gen::ExpVisitor fe;
    gen::AccVisitor fa = [&](Acc& a) {
      if (const auto* v = std::get_if<ac::Var>(&a.node))
        if (const Flags* f = lookup(v->name); f && any(*f)) hit = true;
    };
    fe = [&](Exp& x) { gen::for_each_child(x, fe, fa); };
    fe(e);
    if (hit) loose_errors = true;
    return hit;
  }
  bool exp(const ExpPtr& e) { return e && exp(*e); }

  Flags one(bool b) { return Flags{b}; }
  // A node computing on values with functions: affected values make errors loose.
  Flags computed(bool from_children, bool from_exps) {
    if (from_children) loose_errors = true;
    return one(from_children || from_exps);
  }

  Flags form(ac::Var& v, Acc& a) {
    if (const Flags* f = lookup(v.name)) return *f;
    return Flags(a.type.is_array() ? 1 : a.type.elems().size(), false); // a program parameter
  }
  Flags form(ac::Alet& l, Acc&) {
    for (auto& b : l.bindings)
      scope_.emplace_back(b.name, acc(*b.value));
    Flags body = acc(*l.body);
    scope_.resize(scope_.size() - l.bindings.size());
    return body;
  }
  Flags form(ac::ATuple& t, Acc&) {
    Flags out;
    for (auto& e : t.elems)
      for (bool b : acc(*e))
        out.push_back(b);
    return out;
  }
  Flags form(ac::AProj& p, Acc&) {
    Flags t = acc(*p.tuple);
    return one(size_t(p.index) < t.size() ? bool(t[size_t(p.index)]) : any(t));
  }
  Flags form(ac::Use&, Acc&) { return one(false); }
  Flags form(ac::Unit& u, Acc&) { return one(exp(u.value)); }
  Flags form(ac::Generate& g, Acc&) { return one(exp(g.shape) | exp(g.f.body)); }
  Flags form(ac::Fill& f, Acc&) { return one(exp(f.shape) | exp(f.value)); }
  Flags form(ac::Map& m, Acc&) { return computed(any(acc(*m.a)), exp(m.f.body)); }
  Flags form(ac::ZipWith& z, Acc&) {
    bool c = any(acc(*z.a)) | any(acc(*z.b));
    return computed(c, exp(z.f.body));
  }
  Flags reduction(bool child, bool exps, const Lambda& f, const Type& elem) {
    bool sum = elem.is_scalar() && is_float(elem.scalar_kind()) && !is_float_sum_free(f);
    if (child) loose_errors = true;
    return one(child || exps || sum);
  }
  Flags form(ac::Fold& f, Acc& a) {
    bool c = any(acc(*f.a));
    return reduction(c, exp(f.seed) | exp(f.f.body), f.f, a.type.elem());
  }
  Flags form(ac::FoldSeg& f, Acc& a) {
    bool c = any(acc(*f.a)) | any(acc(*f.segs));
    return reduction(c, exp(f.seed) | exp(f.f.body), f.f, a.type.elem());
  }
  Flags form(ac::Scan& s, Acc& a) {
    bool c = any(acc(*s.a));
    const Type& elem = a.type.is_array() ? a.type.elem() : a.type.elems()[0].elem();
    Flags r = reduction(c, exp(s.seed) | exp(s.f.body), s.f, elem);
    if (s.kind == ac::ScanKind::ScanlPrime) r.push_back(r[0]);
    return r;
  }
  Flags form(ac::Permute& p, Acc& a) {
    bool c = any(acc(*p.defaults)) | any(acc(*p.source));
    bool target = exp(p.target.body);
    return reduction(c, target | exp(p.combine.body), p.combine, a.type.elem());
  }
  Flags form(ac::Backpermute& b, Acc&) {
    bool e = exp(b.shape) | exp(b.source_index.body);
    return one(any(acc(*b.a)) || e);
  }
  Flags form(ac::Reshape& r, Acc&) {
    bool e = exp(r.shape);
    return one(any(acc(*r.a)) || e);
  }
  bool spec(std::vector<ac::SpecItem>& s) {
    bool hit = false;
    for (auto& i : s)
      hit |= exp(i.extent);
    return hit;
  }
  Flags form(ac::Replicate& r, Acc&) {
    bool e = spec(r.spec);
    return one(any(acc(*r.a)) || e);
  }
  Flags form(ac::Slice& s, Acc&) {
    bool e = spec(s.spec);
    return one(any(acc(*s.a)) || e);
  }
  Flags form(ac::Stencil& s, Acc&) {
    bool e = exp(s.boundary.constant) | exp(s.f.body);
    return computed(any(acc(*s.a)), e);
  }
  Flags form(ac::Awhile& w, Acc&) {
    Flags state = acc(*w.init);
    for (int round = 0; round < 4; ++round) { // to a fixed point: flags only grow
      scope_.emplace_back(w.body.params[0].name, state);
      Flags next = acc(*w.body.body);
      scope_.pop_back();
      bool grew = false;
      for (size_t i = 0; i < state.size() && i < next.size(); ++i)
        if (next[i] && !state[i]) state[i] = grew = true;
      if (!grew) break;
    }
    scope_.emplace_back(w.cond.params[0].name, state);
    bool cond = any(acc(*w.cond.body));
    scope_.pop_back();
    if (cond) {
      loose_errors = true;
      state.assign(state.size(), true);
    }
    return state;
  }
  Flags form(ac::ATrace& t, Acc&) { return acc(*t.a); }
  Flags form(ac::ACond& c, Acc&) {
    bool cond = exp(c.cond);
    Flags t = acc(*c.then_branch), e = acc(*c.else_branch);
    for (size_t i = 0; i < t.size() && i < e.size(); ++i)
      t[i] = t[i] || e[i] || cond;
    return t;
  }
};

// ------------------------------------------------------------ bounded results
struct Context {
  const Program& program;
  const std::vector<Array>& inputs;
};

// Evaluates `body` (closed over the program parameters and `scope`) with the interpreter.
std::vector<Array> evaluate(const Context& cx, const std::vector<ac::Binding>& scope, AccPtr body) {
  Program sub;
  sub.params = cx.program.params;
  sub.body = scope.empty() ? body : make_acc(ac::Alet{scope, body});
  check_program(sub);
  return interpret(sub, cx.inputs);
}

// Per-element bounds of a float `+` reduction (fold, fold1, foldseg, scans) node.
std::optional<std::vector<double>> reduction_bounds(const Context& cx,
                                                    const std::vector<ac::Binding>& scope,
                                                    Acc& node, int component) {
  AccPtr operand, segs;
  ExpPtr seed;
  const Lambda* f = nullptr;
  std::optional<ac::ScanKind> scan;
  if (auto* n = std::get_if<ac::Fold>(&node.node))
    operand = n->a, seed = n->seed, f = &n->f;
  else if (auto* n = std::get_if<ac::FoldSeg>(&node.node))
    operand = n->a, seed = n->seed, segs = n->segs, f = &n->f;
  else if (auto* n = std::get_if<ac::Scan>(&node.node))
    operand = n->a, seed = n->seed, f = &n->f, scan = n->kind;
  else
    return std::nullopt;
  if (!is_plus(*f)) return std::nullopt;

  Array a = evaluate(cx, scope, operand).at(0);
  if (!is_float_array(a.type())) return std::nullopt;
  ScalarKind k = a.elem_type().scalar_kind();
  std::optional<double> z;
  if (seed)
    z = evaluate(cx, scope, make_acc(ac::Unit{seed})).at(0).read(0, 0).visit([](auto v) {
      return double(v);
    });
  std::vector<int64_t> seg_lengths;
  if (segs) {
    Array s = evaluate(cx, scope, segs).at(0);
    for (int64_t i = 0; i < s.size(); ++i)
      seg_lengths.push_back(s.read(0, i).get<int64_t>());
  }
  int64_t n = a.shape().back();
  int64_t rows = 1;
  for (size_t d = 0; d + 1 < a.shape().size(); ++d)
    rows *= a.shape()[d];
  auto value = [&](int64_t r, int64_t j) {
    return a.read(0, r * n + j).visit([](auto v) { return double(v); });
  };
  std::vector<double> out;
  for (int64_t r = 0; r < rows; ++r) {
    Terms t;
    if (!scan) {
      if (segs) {
        int64_t j = 0;
        for (int64_t len : seg_lengths) {
          Terms s;
          if (z) s.add(*z);
          for (int64_t e = 0; e < len; ++e)
            s.add(value(r, j++));
          out.push_back(s.bound(k));
        }
        continue;
      }
      if (z) t.add(*z);
      for (int64_t j = 0; j < n; ++j)
        t.add(value(r, j));
      out.push_back(t.bound(k));
      continue;
    }
    switch (*scan) {
    case ac::ScanKind::Scanl:
    case ac::ScanKind::ScanlPrime:
      t.add(*z);
      if (*scan == ac::ScanKind::ScanlPrime && component == 1) {
        for (int64_t j = 0; j < n; ++j)
          t.add(value(r, j));
        out.push_back(t.bound(k));
        break;
      }
      for (int64_t j = 0; j <= n; ++j) {
        if (j == n && *scan == ac::ScanKind::ScanlPrime) break;
        out.push_back(t.bound(k));
        if (j < n) t.add(value(r, j));
      }
      break;
    case ac::ScanKind::Scanl1:
      for (int64_t j = 0; j < n; ++j) {
        t.add(value(r, j));
        out.push_back(t.bound(k));
      }
      break;
    case ac::ScanKind::Scanr:
    case ac::ScanKind::Scanr1: {
      std::vector<double> row(size_t(n + (*scan == ac::ScanKind::Scanr)));
      if (*scan == ac::ScanKind::Scanr) {
        t.add(*z);
        row[size_t(n)] = t.bound(k);
      }
      for (int64_t j = n - 1; j >= 0; --j) {
        t.add(value(r, j));
        row[size_t(j)] = t.bound(k);
      }
      out.insert(out.end(), row.begin(), row.end());
      break;
    }
    }
  }
  return out;
}

// Follows a result expression through alet, variables, atrace and projections
// to the reduction that computes it; returns its bounds, or nullopt.
std::optional<std::vector<double>> direct_bounds(const Context& cx, std::vector<ac::Binding> scope,
                                                 Acc& a, int component) {
  if (auto* l = std::get_if<ac::Alet>(&a.node)) {
    for (auto& b : l->bindings)
      scope.push_back(b);
    return direct_bounds(cx, scope, *l->body, component);
  }
  if (auto* v = std::get_if<ac::Var>(&a.node)) {
    for (size_t i = scope.size(); i-- > 0;)
      if (scope[i].name == v->name) {
        AccPtr value = scope[i].value;
        scope.resize(i);
        return direct_bounds(cx, scope, *value, component);
      }
    return std::nullopt;
  }
  if (auto* t = std::get_if<ac::ATrace>(&a.node)) return direct_bounds(cx, scope, *t->a, component);
  if (auto* t = std::get_if<ac::ATuple>(&a.node)) {
    if (component < 0 || size_t(component) >= t->elems.size()) return std::nullopt;
    return direct_bounds(cx, scope, *t->elems[size_t(component)], -1);
  }
  if (auto* p = std::get_if<ac::AProj>(&a.node))
    return direct_bounds(cx, scope, *p->tuple, p->index);
  return reduction_bounds(cx, scope, a, component);
}

bool float_equal(double e, double a) {
  return (std::isnan(e) && std::isnan(a)) || e == a;
}

} // namespace

std::string_view mode_name(ResultTolerance::Mode m) {
  switch (m) {
  case ResultTolerance::Mode::Exact: return "exact";
  case ResultTolerance::Mode::Bounded: return "bounded";
  case ResultTolerance::Mode::Unconstrained: return "unconstrained";
  }
  return "?";
}

double summation_bound(const std::vector<double>& terms, ScalarKind kind) {
  Terms t;
  for (double x : terms)
    t.add(x);
  return t.bound(kind);
}

ProgramTolerance derive_tolerance(const Program& program, const std::vector<Array>& inputs) {
  ProgramTolerance out;
  Analysis analysis;
  Flags flags = analysis.acc(*program.body);
  out.errors_exact = !analysis.loose_errors;
  Context cx{program, inputs};
  bool tuple = program.result.is_tuple();
  for (size_t i = 0; i < flags.size(); ++i) {
    ResultTolerance r;
    if (flags[i]) {
      std::optional<std::vector<double>> bounds;
      try {
        bounds = direct_bounds(cx, {}, *program.body, tuple ? int(i) : -1);
      } catch (const Error&) {
        bounds.reset();
      }
      if (bounds) {
        r.mode = ResultTolerance::Mode::Bounded;
        r.bound = std::move(*bounds);
        r.reason = "a float sum that engines may reassociate";
      } else {
        r.mode = ResultTolerance::Mode::Unconstrained;
        r.reason = "depends on a reassociated float reduction through further computation";
      }
    }
    out.results.push_back(std::move(r));
  }
  return out;
}

std::optional<std::string> compare_with_tolerance(const Array& expected, const Array& actual,
                                                  const ResultTolerance& tol) {
  if (expected.type() != actual.type())
    return "type differs: expected " + expected.type().str() + ", found " + actual.type().str();
  if (tol.mode == ResultTolerance::Mode::Unconstrained) return std::nullopt;
  if (expected.shape() != actual.shape())
    return "shape differs: expected " + shape_str(expected.shape()) + ", found " +
           shape_str(actual.shape());
  bool bounded = tol.mode == ResultTolerance::Mode::Bounded;
  if (bounded && int64_t(tol.bound.size()) != expected.size())
    return "internal: " + std::to_string(tol.bound.size()) + " bounds for " +
           std::to_string(expected.size()) + " elements";
  for (size_t leaf = 0; leaf < expected.num_leaves(); ++leaf) {
    ScalarKind k = expected.leaf_kind(leaf);
    for (int64_t i = 0; i < expected.size(); ++i) {
      Scalar e = expected.read(leaf, i), a = actual.read(leaf, i);
      bool ok;
      std::string allowed;
      if (!is_float(k)) {
        ok = e.identical(a);
      } else {
        double ev = e.visit([](auto v) { return double(v); });
        double av = a.visit([](auto v) { return double(v); });
        double b = bounded ? tol.bound[size_t(i)] : 0.0;
        if (std::isinf(b) || (b > 0 && std::isfinite(ev) && std::fabs(av - ev) <= b))
          ok = true;
        else
          ok = float_equal(ev, av);
        if (bounded) allowed = " (allowed difference " + std::to_string(b) + ")";
      }
      if (!ok) {
        std::string where = "element " + shape_str(from_linear(expected.shape(), i));
        if (expected.num_leaves() > 1) where += " component " + std::to_string(leaf);
        return where + ": expected " + format_value(e) + ", found " + format_value(a) + allowed;
      }
    }
  }
  return std::nullopt;
}

} // namespace strata
