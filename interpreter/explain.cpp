#include "interpreter/explain.h"
#include "core/check.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <memory>
#include <optional>

#include "core/printer.h"
#include "core/runtime_errors.h"
#include "interpreter/indexing.h"
#include "interpreter/interpreter.h"
#include "interpreter/primitives.h"
#include "interpreter/value.h"

namespace strata {
namespace {

std::string quoted(std::string_view s) {
  return "`" + std::string(s) + "`";
}

// An expression as one line of program text, cut after about 60 characters.
std::string one_line(const std::string& text) {
  std::string out;
  bool space = false;
  for (char c : text) {
    if (c == '\n' || c == ' ') {
      space = true;
      continue;
    }
    if (space && !out.empty() && out.back() != '(' && c != ')') out += ' ';
    space = false;
    out += c;
  }
  if (out.size() > 64) out = out.substr(0, 60) + " ...";
  return out;
}

// How many arrays an array-typed expression stands for once tuples are flattened.
size_t count_arrays(const Type& t) {
  if (t.is_array()) return 1;
  size_t n = 0;
  for (const Type& e : t.elems())
    n += count_arrays(e);
  return n;
}

size_t count_arrays(const Arrays& a) {
  if (!a.is_tuple) return 1;
  size_t n = 0;
  for (const Arrays& e : a.elems)
    n += count_arrays(e);
  return n;
}

// Array number `comp` of a (flattened) tuple of arrays.
const Array& component(const Arrays& a, size_t comp) {
  if (!a.is_tuple) return a.array;
  for (const Arrays& e : a.elems) {
    size_t n = count_arrays(e);
    if (comp < n) return component(e, comp);
    comp -= n;
  }
  throw Error(ErrorKind::Usage, "explain: no such result component");
}

// A node that only informs: no derivation below it.
ExplainNode info(std::string what, std::string value = "", SrcLoc loc = {}) {
  ExplainNode n;
  n.what = std::move(what);
  n.value = std::move(value);
  n.loc = std::move(loc);
  return n;
}

class Explainer {
public:
  explicit Explainer(const ExplainOptions& options) : opt_(options) {}

  ExplainNode run(const Program& p, const std::vector<Array>& inputs, size_t result,
                  const Index& at) {
    std::vector<Array> results = interpret(p, inputs);
    if (result >= results.size())
      throw Error(ErrorKind::Usage, "explain: result " + std::to_string(result) +
                                        " asked for, the program has " +
                                        std::to_string(results.size()));
    const Array& out = results[result];
    if (!in_bounds(out.shape(), at))
      throw Error(ErrorKind::Usage, "explain: index " + shape_str(at) +
                                        " is out of bounds for the result's shape " +
                                        shape_str(out.shape()));
    for (size_t i = 0; i < inputs.size(); ++i)
      arrays_.push_back(ArrayVar{p.params[i].name, nullptr, 0,
                                 std::make_shared<Arrays>(Arrays::single(inputs[i])), "input"});
    ExplainNode root = info((results.size() > 1 ? "result " + std::to_string(result) + " " : "") +
                                "element " + shape_str(at),
                            "", p.loc);
    Value v = elem(*p.body, result, at, &root);
    root.value = value_str(v);
    Value expected = read_element(out, to_linear(out.shape(), at));
    if (value_str(expected) != root.value)
      root.children.push_back(info("internal error: the interpreter computed " +
                                       value_str(expected) + " for this element",
                                   ""));
    return root;
  }

private:
  const ExplainOptions& opt_;
  int64_t nodes_ = 0;

  // Array variables in scope: parameters, alet bindings (computed when first
  // needed, in the scope they were bound in) and loop states.
  struct ArrayVar {
    std::string name;
    const Acc* def; // the alet-bound expression, or null
    size_t scope;   // how many variables were in scope where it was bound
    // Shared, so that references to it survive moving the variable out of
    // scope and back (see var()).
    std::shared_ptr<const Arrays> value;
    std::string origin; // "input", or how a loop state came to be: for variables without def
  };
  std::vector<ArrayVar> arrays_;
  std::vector<std::pair<const std::string*, Value>> scalars_;
  std::map<const Acc*, Arrays> whole_; // arrays materialised by interpret_acc

  struct Window {
    const Acc* source;
    const Array* array;
    const ac::Stencil* stencil;
    Value constant;
    Index center;
  };
  const Window* window_ = nullptr;

  // ------------------------------------------------------------ recording
  // Records a node under `parent` whose children `f` records, or evaluates
  // without recording when there is no parent or the tree is full.
  template <class F> Value note(ExplainNode* parent, std::string what, const SrcLoc& loc, F&& f) {
    if (!parent) return f(nullptr);
    if (nodes_ >= opt_.max_nodes) {
      ++parent->omitted;
      return f(nullptr);
    }
    ++nodes_;
    ExplainNode n = info(std::move(what), "", loc);
    Value v = f(&n);
    n.value = value_str(v);
    parent->children.push_back(std::move(n));
    return v;
  }

  // A step of a reduction or loop shown in the tree: the first and last `edge`.
  bool shown(int64_t k, int64_t count) const { return k < opt_.edge || k >= count - opt_.edge; }

  // "... 996 more steps (2 .. 997)" with the partial result after them.
  void more(ExplainNode* r, int64_t from, int64_t to, const std::string& what, const Value& after) {
    if (!r || to <= from) return;
    r->children.push_back(info("... " + std::to_string(to - from) + " more " + what + " (" +
                                   std::to_string(from) + " .. " + std::to_string(to - 1) +
                                   "), partial result after them",
                               value_str(after)));
    ++nodes_;
  }

  // ------------------------------------------------------------ environment
  size_t find_array(const std::string& name) const {
    for (size_t i = arrays_.size(); i-- > 0;)
      if (arrays_[i].name == name) return i;
    throw Error(ErrorKind::Type, "explain: unbound array variable " + quoted(name));
  }

  const Arrays& var_value(size_t i) {
    ArrayVar& v = arrays_[i];
    if (!v.value) {
      const Acc* def = v.def;
      auto a = std::make_shared<const Arrays>(interpret_acc(*def, env(v.scope)));
      arrays_[i].value = std::move(a);
    }
    return *arrays_[i].value;
  }

  std::vector<std::pair<std::string, Arrays>> env(size_t upto) {
    std::vector<std::pair<std::string, Arrays>> out;
    for (size_t i = 0; i < upto; ++i)
      out.emplace_back(arrays_[i].name, var_value(i));
    return out;
  }

  // The whole value of an array expression in the current scope.
  const Arrays& whole(const Acc& a) {
    if (const auto* v = std::get_if<ac::Var>(&a.node)) return var_value(find_array(v->name));
    auto it = whole_.find(&a);
    if (it == whole_.end()) it = whole_.emplace(&a, interpret_acc(a, env(arrays_.size()))).first;
    return it->second;
  }
  const Array& whole_array(const Acc& a) { return component(whole(a), 0); }

  const Value& lookup_scalar(const std::string& name) const {
    for (auto it = scalars_.rbegin(); it != scalars_.rend(); ++it)
      if (*it->first == name) return it->second;
    throw Error(ErrorKind::Type, "explain: unbound variable " + quoted(name));
  }

  Value apply(const Lambda& f, std::vector<Value> args, ExplainNode* r) {
    for (size_t i = 0; i < args.size(); ++i)
      scalars_.emplace_back(&f.params[i].name, std::move(args[i]));
    Value v = exp(*f.body, r);
    scalars_.resize(scalars_.size() - args.size());
    return v;
  }

  // ------------------------------------------------------------ scalar forms
  Value exp(const Exp& e, ExplainNode* r) {
    // Constants show in their parent's text; everything else gets a node.
    if (const auto* c = std::get_if<ex::Const>(&e.node)) return c->value;
    if (!r) return std::visit([&](const auto& x) { return ev(x, e, nullptr); }, e.node);
    if (const auto* v = std::get_if<ex::Var>(&e.node)) {
      // A variable is not a node of its own: its value goes on the line that uses it.
      Value x = lookup_scalar(v->name);
      std::string entry = v->name + " = " + value_str(x);
      if ((", " + r->with + ",").find(", " + entry + ",") == std::string::npos)
        r->with += (r->with.empty() ? "" : ", ") + entry;
      return x;
    }
    return note(r, one_line(print_exp(e)), e.loc, [&](ExplainNode* n) {
      return std::visit([&](const auto& x) { return ev(x, e, n); }, e.node);
    });
  }

  Value ev(const ex::Const& c, const Exp&, ExplainNode*) { return c.value; }
  Value ev(const ex::Var& v, const Exp&, ExplainNode*) { return lookup_scalar(v.name); }

  Value ev(const ex::Let& l, const Exp&, ExplainNode* r) {
    for (const auto& b : l.bindings) {
      Value v = note(r, b.name, b.loc, [&](ExplainNode* n) { return exp(*b.value, n); });
      scalars_.emplace_back(&b.name, std::move(v));
    }
    Value v = exp(*l.body, r);
    scalars_.resize(scalars_.size() - l.bindings.size());
    return v;
  }

  Value ev(const ex::If& i, const Exp&, ExplainNode* r) {
    return exp(*i.cond, r).truthy() ? exp(*i.then_branch, r) : exp(*i.else_branch, r);
  }

  Value ev(const ex::Tuple& t, const Exp&, ExplainNode* r) {
    std::vector<Value> elems;
    for (const auto& e : t.elems)
      elems.push_back(exp(*e, r));
    return Value::tuple(std::move(elems));
  }

  Value ev(const ex::Index& t, const Exp&, ExplainNode* r) {
    std::vector<Value> elems;
    for (const auto& e : t.components)
      elems.push_back(exp(*e, r));
    return Value::tuple(std::move(elems));
  }

  Value ev(const ex::Proj& p, const Exp&, ExplainNode* r) {
    return exp(*p.tuple, r).elems[size_t(p.index)];
  }
  Value ev(const ex::Cast& c, const Exp&, ExplainNode* r) {
    return apply_cast(c.target, exp(*c.arg, r).scalar);
  }

  // A loop: its first and last iterations, and the condition that ended it.
  Value ev(const ex::While& w, const Exp&, ExplainNode* r) {
    Value init = exp(*w.init, r);
    int64_t count = 0;
    for (Value s = init; apply(w.cond, {s}, nullptr).truthy(); ++count)
      s = apply(w.step, {std::move(s)}, nullptr);
    Value state = init;
    for (int64_t k = 0; k < count; ++k) {
      if (!shown(k, count)) {
        state = apply(w.step, {std::move(state)}, nullptr);
        if (k + 1 == count - opt_.edge) more(r, opt_.edge, k + 1, "iterations", state);
        continue;
      }
      state = note(r, "iteration " + std::to_string(k) + " of " + std::to_string(count), w.step.loc,
                   [&](ExplainNode* n) { return apply(w.step, {state}, n); });
    }
    note(r, "condition after " + std::to_string(count) + " iteration(s)", w.cond.loc,
         [&](ExplainNode* n) { return apply(w.cond, {state}, n); });
    return state;
  }

  Value ev(const ex::ShapeOf& s, const Exp&, ExplainNode*) {
    return Value::index(whole_array(*s.array).shape());
  }
  Value ev(const ex::SizeOf& s, const Exp&, ExplainNode*) {
    return Scalar::make<int64_t>(whole_array(*s.array).size());
  }

  Value ev(const ex::Read& rd, const Exp& e, ExplainNode* r) {
    Index ix = exp(*rd.index, r).to_index();
    const Array& a = whole_array(*rd.array);
    if (!in_bounds(a.shape(), ix)) {
      ReadNames n = read_names(rd);
      throw index_out_of_bounds(ix, a.shape(), n.op, n.array, e.loc);
    }
    return elem(*rd.array, 0, ix, r);
  }

  Value ev(const ex::LinearRead& rd, const Exp& e, ExplainNode* r) {
    int64_t i = exp(*rd.index, r).scalar.get<int64_t>();
    const Array& a = whole_array(*rd.array);
    if (i < 0 || i >= a.size()) {
      ReadNames n = read_names(rd);
      throw linear_index_out_of_bounds(i, a.shape(), n.op, n.array, e.loc);
    }
    return elem(*rd.array, 0, from_linear(a.shape(), i), r);
  }

  Value ev(const ex::The& t, const Exp&, ExplainNode* r) { return elem(*t.array, 0, {}, r); }

  Value ev(const ex::ToIndex& t, const Exp& e, ExplainNode* r) {
    Index sh = exp(*t.shape, r).to_index(), ix = exp(*t.index, r).to_index();
    if (!in_bounds(sh, ix)) throw to_index_out_of_bounds(ix, sh, to_index_op(t), e.loc);
    return Scalar::make<int64_t>(to_linear(sh, ix));
  }

  Value ev(const ex::FromIndex& f, const Exp& e, ExplainNode* r) {
    Index sh = exp(*f.shape, r).to_index();
    int64_t i = exp(*f.index, r).scalar.get<int64_t>();
    if (i < 0 || i >= shape_size(sh)) throw from_index_out_of_bounds(i, sh, e.loc);
    return Value::index(from_linear(sh, i));
  }

  Value ev(const ex::Ignore& i, const Exp&, ExplainNode*) {
    return Value::index(Index(size_t(i.rank), -1));
  }
  Value ev(const ex::Trace& t, const Exp&, ExplainNode* r) { return exp(*t.arg, r); }

  Value ev(const ex::PrimApp& p, const Exp& e, ExplainNode* r) {
    if (p.op == Prim::And)
      return exp(*p.args[0], r).truthy() ? exp(*p.args[1], r) : Value(Scalar::make(false));
    if (p.op == Prim::Or)
      return exp(*p.args[0], r).truthy() ? Value(Scalar::make(true)) : exp(*p.args[1], r);
    Scalar args[2];
    for (size_t i = 0; i < p.args.size(); ++i)
      args[i] = exp(*p.args[i], r).scalar;
    return apply_prim(p.op, args, e.loc);
  }

  // A stencil read: the neighbour it lands on after the boundary, and why.
  Value ev(const ex::Call&, const Exp& e, ExplainNode*) { unexpanded_call(e.loc); }

  Value ev(const ex::At& at, const Exp& e, ExplainNode* r) {
    const Window& w = *window_;
    const Shape& sh = w.array->shape();
    Index want(sh.size()), ix(sh.size());
    bool outside = false;
    for (size_t k = 0; k < sh.size(); ++k) {
      want[k] = w.center[k] + at.offsets[k];
      ix[k] = boundary_coordinate(w.stencil->boundary.kind, want[k], sh[k]);
      outside = outside || ix[k] < 0 || ix[k] != want[k];
    }
    if (!outside) return elem(*w.source, 0, ix, r);
    static constexpr const char* kNames[] = {"clamp", "mirror", "wrap", "constant"};
    std::string rule = kNames[int(w.stencil->boundary.kind)];
    if (w.stencil->boundary.kind == ac::BoundaryKind::Constant)
      return note(r, shape_str(want) + " is outside " + shape_str(sh) + ": the constant", e.loc,
                  [&](ExplainNode*) { return w.constant; });
    return note(r,
                shape_str(want) + " is outside " + shape_str(sh) + ": " + rule + " reads " +
                    shape_str(ix),
                e.loc, [&](ExplainNode* n) { return elem(*w.source, 0, ix, n); });
  }

  // ------------------------------------------------------------ array elements
  // Element I of component `comp` of array expression `a`, with its derivation.
  Value elem(const Acc& a, size_t comp, const Index& I, ExplainNode* r) {
    if (const auto* l = std::get_if<ac::Alet>(&a.node)) return alet(*l, comp, I, r);
    if (const auto* t = std::get_if<ac::ATuple>(&a.node)) {
      for (const auto& e : t->elems) {
        size_t n = count_arrays(e->type);
        if (comp < n) return elem(*e, comp, I, r);
        comp -= n;
      }
    }
    if (const auto* p = std::get_if<ac::AProj>(&a.node)) {
      for (int k = 0; k < p->index; ++k)
        comp += count_arrays(p->tuple->type.elems()[size_t(k)]);
      return elem(*p->tuple, comp, I, r);
    }
    if (const auto* t = std::get_if<ac::ATrace>(&a.node)) return elem(*t->a, comp, I, r);
    if (const auto* v = std::get_if<ac::Var>(&a.node)) return var(*v, a, comp, I, r);
    if (!r) return std::visit([&](const auto& x) { return el(x, a, comp, I, nullptr); }, a.node);
    std::string what = std::string(form_name(a.node)) + " " + shape_str(I);
    if (count_arrays(a.type) > 1) what += " of result " + std::to_string(comp);
    return note(r, what, a.loc, [&](ExplainNode* n) {
      return std::visit([&](const auto& x) { return el(x, a, comp, I, n); }, a.node);
    });
  }

  Value alet(const ac::Alet& l, size_t comp, const Index& I, ExplainNode* r) {
    for (const auto& b : l.bindings)
      arrays_.push_back(ArrayVar{b.name, b.value.get(), arrays_.size(), nullptr, "alet"});
    Value v = elem(*l.body, comp, I, r);
    arrays_.resize(arrays_.size() - l.bindings.size());
    return v;
  }

  // A variable: an input element, a loop state's element, or (for an alet
  // binding) the element of the bound expression, explained in its own scope.
  Value var(const ac::Var& v, const Acc& a, size_t comp, const Index& I, ExplainNode* r) {
    size_t b = find_array(v.name);
    const Array& arr = component(var_value(b), comp);
    if (!in_bounds(arr.shape(), I)) throw index_out_of_bounds(I, arr.shape(), "!", v.name, a.loc);
    std::string what = quoted(v.name) + " " + shape_str(I);
    if (!arrays_[b].def)
      return note(r, arrays_[b].origin == "input" ? "input " + what : what + arrays_[b].origin,
                  a.loc,
                  [&](ExplainNode*) { return read_element(arr, to_linear(arr.shape(), I)); });
    const Acc* def = arrays_[b].def;
    size_t scope = arrays_[b].scope;
    return note(r, what, a.loc, [&](ExplainNode* n) {
      std::vector<ArrayVar> hidden(std::make_move_iterator(arrays_.begin() + long(scope)),
                                   std::make_move_iterator(arrays_.end()));
      arrays_.resize(scope);
      Value x = elem(*def, comp, I, n);
      arrays_.insert(arrays_.end(), std::make_move_iterator(hidden.begin()),
                     std::make_move_iterator(hidden.end()));
      return x;
    });
  }

  Value el(const ac::Var&, const Acc&, size_t, const Index&, ExplainNode*) { return {}; }
  Value el(const ac::Alet&, const Acc&, size_t, const Index&, ExplainNode*) { return {}; }
  Value el(const ac::ATuple&, const Acc&, size_t, const Index&, ExplainNode*) { return {}; }
  Value el(const ac::AProj&, const Acc&, size_t, const Index&, ExplainNode*) { return {}; }
  Value el(const ac::ATrace&, const Acc&, size_t, const Index&, ExplainNode*) { return {}; }

  Value el(const ac::Use& u, const Acc&, size_t, const Index& I, ExplainNode*) {
    return read_element(u.value, to_linear(u.value.shape(), I));
  }
  Value el(const ac::Unit& u, const Acc&, size_t, const Index&, ExplainNode* r) {
    return exp(*u.value, r);
  }
  Value el(const ac::Generate& g, const Acc&, size_t, const Index& I, ExplainNode* r) {
    return apply(g.f, {Value::index(I)}, r);
  }
  Value el(const ac::Fill& f, const Acc&, size_t, const Index&, ExplainNode* r) {
    return exp(*f.value, r);
  }
  Value el(const ac::Map& m, const Acc&, size_t, const Index& I, ExplainNode* r) {
    Value x = elem(*m.a, 0, I, r);
    return apply(m.f, {x}, r);
  }
  Value el(const ac::ZipWith& z, const Acc&, size_t, const Index& I, ExplainNode* r) {
    Value x = elem(*z.a, 0, I, r);
    Value y = elem(*z.b, 0, I, r);
    return apply(z.f, {x, y}, r);
  }

  // Reduces `count` elements of `source`, at linear positions first,
  // first+stride, ..., with f: from `seed`, or from the first element when
  // there is none; operands (acc, x), or (x, acc) when `right`.
  Value reduce(ExplainNode* r, const Lambda& f, const Acc& source, int64_t first, int64_t count,
               int64_t stride, std::optional<Value> seed, bool right) {
    const Array& src = whole_array(source);
    auto at = [&](int64_t k) { return from_linear(src.shape(), first + k * stride); };
    if (r)
      r->children.push_back(
          info("reduce " + std::to_string(count) + " element(s) of the row, " +
                   (right ? "right to left, (f x acc)" : "left to right, (f acc x)") +
                   (seed ? ", from the seed" : ", from the first element"),
               "", f.loc));
    int64_t k = 0;
    Value acc;
    if (seed) {
      acc = *seed;
    } else {
      acc = elem(source, 0, at(0), r);
      k = 1;
    }
    int64_t steps = count - k;
    for (int64_t s = 0; s < steps; ++s, ++k) {
      if (!shown(s, steps)) {
        Value x = read_element(src, first + k * stride);
        acc =
            right ? apply(f, {x, std::move(acc)}, nullptr) : apply(f, {std::move(acc), x}, nullptr);
        if (s + 1 == steps - opt_.edge) more(r, opt_.edge, s + 1, "steps", acc);
        continue;
      }
      acc = note(r, "step " + std::to_string(s) + " of " + std::to_string(steps), f.loc,
                 [&](ExplainNode* n) {
                   Value x = elem(source, 0, at(k), n);
                   return right ? apply(f, {x, acc}, n) : apply(f, {acc, x}, n);
                 });
    }
    return acc;
  }

  std::optional<Value> seed_of(const ExpPtr& seed, ExplainNode* r) {
    if (!seed) return std::nullopt;
    return note(r, "seed", seed->loc, [&](ExplainNode* n) { return exp(*seed, n); });
  }

  Value el(const ac::Fold& f, const Acc& a, size_t, const Index& I, ExplainNode* r) {
    auto [outer, n] = split_inner(whole_array(*f.a).shape());
    if (!f.seed && n == 0) throw fold1_empty_row(whole_array(*f.a).shape(), a.loc);
    return reduce(r, f.f, *f.a, to_linear(outer, I) * n, n, 1, seed_of(f.seed, r), false);
  }

  Value el(const ac::FoldSeg& f, const Acc&, size_t, const Index& I, ExplainNode* r) {
    const Array& segs = whole_array(*f.segs);
    auto [outer, n] = split_inner(whole_array(*f.a).shape());
    Index row(I.begin(), I.end() - 1);
    int64_t s = I.back(), start = 0;
    for (int64_t k = 0; k < s; ++k)
      start += segs.read(0, k).get<int64_t>();
    int64_t len = segs.read(0, s).get<int64_t>();
    if (r)
      r->children.push_back(info("segment " + std::to_string(s) + ": row elements " +
                                     std::to_string(start) + " .. " +
                                     std::to_string(start + len - 1),
                                 ""));
    return reduce(r, f.f, *f.a, to_linear(outer, row) * n + start, len, 1, seed_of(f.seed, r),
                  false);
  }

  Value el(const ac::Scan& s, const Acc&, size_t comp, const Index& I, ExplainNode* r) {
    using ac::ScanKind;
    auto [outer, n] = split_inner(whole_array(*s.a).shape());
    bool totals = s.kind == ScanKind::ScanlPrime && comp == 1;
    Index row = totals ? I : Index(I.begin(), I.end() - 1);
    int64_t j = totals ? n : I.back(), base = to_linear(outer, row) * n;
    switch (s.kind) {
    case ScanKind::Scanl:
    case ScanKind::ScanlPrime: return reduce(r, s.f, *s.a, base, j, 1, seed_of(s.seed, r), false);
    case ScanKind::Scanl1: return reduce(r, s.f, *s.a, base, j + 1, 1, std::nullopt, false);
    case ScanKind::Scanr:
      return reduce(r, s.f, *s.a, base + n - 1, n - j, -1, seed_of(s.seed, r), true);
    case ScanKind::Scanr1: return reduce(r, s.f, *s.a, base + n - 1, n - j, -1, std::nullopt, true);
    }
    return {};
  }

  // permute: the default, then every source element whose target is I, in
  // source order, combined as (comb new old).
  Value el(const ac::Permute& p, const Acc&, size_t, const Index& I, ExplainNode* r) {
    Value acc = note(r, "default", p.defaults->loc,
                     [&](ExplainNode* n) { return elem(*p.defaults, 0, I, n); });
    const Array& src = whole_array(*p.source);
    std::vector<int64_t> hits;
    Index ix(size_t(src.rank()), 0);
    for (int64_t i = 0; i < src.size(); ++i, next_index(ix, src.shape()))
      if (apply(p.target, {Value::index(ix)}, nullptr).to_index() == I) hits.push_back(i);
    int64_t count = int64_t(hits.size());
    if (r)
      r->children.push_back(info(std::to_string(count) + " of " + std::to_string(src.size()) +
                                     " source element(s) land here",
                                 "", p.target.loc));
    for (int64_t k = 0; k < count; ++k) {
      int64_t i = hits[size_t(k)];
      if (!shown(k, count)) {
        acc = apply(p.combine, {read_element(src, i), std::move(acc)}, nullptr);
        if (k + 1 == count - opt_.edge) more(r, opt_.edge, k + 1, "source elements", acc);
        continue;
      }
      Index from = from_linear(src.shape(), i);
      acc = note(r, "source element " + shape_str(from), p.combine.loc, [&](ExplainNode* n) {
        note(n, "target", p.target.loc,
             [&](ExplainNode* t) { return apply(p.target, {Value::index(from)}, t); });
        Value x = elem(*p.source, 0, from, n);
        return apply(p.combine, {x, acc}, n);
      });
    }
    return acc;
  }

  Value el(const ac::Backpermute& b, const Acc& a, size_t, const Index& I, ExplainNode* r) {
    Index from = note(r, "source index", b.source_index.loc, [&](ExplainNode* n) {
                   return apply(b.source_index, {Value::index(I)}, n);
                 }).to_index();
    const Array& src = whole_array(*b.a);
    if (!in_bounds(src.shape(), from))
      throw backpermute_source_out_of_bounds(from, src.shape(), a.loc);
    return elem(*b.a, 0, from, r);
  }

  Value el(const ac::Reshape& rs, const Acc& a, size_t, const Index& I, ExplainNode* r) {
    const Array& src = whole_array(*rs.a);
    Index from = from_linear(src.shape(), to_linear(whole_array(a).shape(), I));
    return elem(*rs.a, 0, from, r);
  }

  std::vector<std::optional<int64_t>> spec(const std::vector<ac::SpecItem>& items) {
    std::vector<std::optional<int64_t>> out;
    for (const auto& s : items)
      out.push_back(s.is_all() ? std::nullopt
                               : std::optional(exp(*s.extent, nullptr).scalar.get<int64_t>()));
    return out;
  }

  Value el(const ac::Replicate& rp, const Acc&, size_t, const Index& I, ExplainNode* r) {
    auto sp = spec(rp.spec);
    Index from;
    for (size_t k = 0; k < sp.size(); ++k)
      if (!sp[k]) from.push_back(I[k]);
    return elem(*rp.a, 0, from, r);
  }

  Value el(const ac::Slice& sl, const Acc&, size_t, const Index& I, ExplainNode* r) {
    auto sp = spec(sl.spec);
    Index from(sp.size());
    for (size_t k = 0, kept = 0; k < sp.size(); ++k)
      from[k] = sp[k] ? *sp[k] : I[kept++];
    return elem(*sl.a, 0, from, r);
  }

  Value el(const ac::Stencil& s, const Acc&, size_t, const Index& I, ExplainNode* r) {
    Window w{s.a.get(), &whole_array(*s.a), &s, Value(), I};
    if (s.boundary.kind == ac::BoundaryKind::Constant)
      w.constant = exp(*s.boundary.constant, nullptr);
    const Window* saved = window_;
    window_ = &w;
    Value v = exp(*s.f.body, r);
    window_ = saved;
    return v;
  }

  // awhile: run the loop whole; the element is the last iteration's body
  // applied to the state before it (or the initial array after no iteration).
  Value el(const ac::Awhile& w, const Acc&, size_t comp, const Index& I, ExplainNode* r) {
    Arrays state = whole(*w.init);
    Arrays before;
    int64_t count = 0;
    auto with_state = [&](const ALambda& f, const Arrays& s) {
      auto e = env(arrays_.size());
      e.emplace_back(f.params[0].name, s);
      return interpret_acc(*f.body, e);
    };
    while (read_element(with_state(w.cond, state).array, 0).truthy()) {
      before = std::move(state);
      state = with_state(w.body, before);
      ++count;
    }
    if (r)
      r->children.push_back(info("the loop ran " + std::to_string(count) + " iteration(s)", ""));
    if (count == 0) return elem(*w.init, comp, I, r);
    arrays_.push_back(ArrayVar{
        w.body.params[0].name, nullptr, arrays_.size(), std::make_shared<const Arrays>(before),
        ", the loop state after " + std::to_string(count - 1) + " iteration(s)"});
    Value v = elem(*w.body.body, comp, I, r);
    arrays_.pop_back();
    return v;
  }

  Value el(const ac::Call&, const Acc& a, size_t, const Index&, ExplainNode*) {
    unexpanded_call(a.loc);
  }

  Value el(const ac::ACond& c, const Acc&, size_t comp, const Index& I, ExplainNode* r) {
    return exp(*c.cond, r).truthy() ? elem(*c.then_branch, comp, I, r)
                                    : elem(*c.else_branch, comp, I, r);
  }
};

// ---------------------------------------------------------------- rendering
void text(const ExplainNode& n, int depth, std::string& out) {
  out.append(size_t(depth) * 2, ' ');
  out += n.what;
  if (!n.value.empty()) out += " = " + n.value;
  if (!n.with.empty()) out += "  with " + n.with;
  if (n.loc.known())
    out += "  @" + std::to_string(n.loc.line) + ":" + std::to_string(n.loc.col) + n.loc.calls();
  out += "\n";
  for (const ExplainNode& c : n.children)
    text(c, depth + 1, out);
  if (n.omitted > 0) {
    out.append(size_t(depth + 1) * 2, ' ');
    out += "... " + std::to_string(n.omitted) + " more (tree size limit)\n";
  }
}

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += char(c);
    } else if (c < 0x20) {
      static const char* kHex = "0123456789abcdef";
      out += "\\u00";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += char(c);
    }
  }
  return out + "\"";
}

void json(const ExplainNode& n, int depth, std::string& out) {
  std::string pad(size_t(depth) * 2, ' ');
  out += pad + "{\"what\": " + json_string(n.what);
  if (!n.value.empty()) out += ", \"value\": " + json_string(n.value);
  if (!n.with.empty()) out += ", \"with\": " + json_string(n.with);
  if (n.loc.known()) out += ", \"loc\": " + json_string(n.loc.str());
  if (n.loc.via) out += ", \"calls\": " + json_string(n.loc.calls().substr(2));
  if (n.omitted > 0) out += ", \"omitted\": " + std::to_string(n.omitted);
  if (!n.children.empty()) {
    out += ", \"children\": [\n";
    for (size_t i = 0; i < n.children.size(); ++i) {
      json(n.children[i], depth + 1, out);
      out += i + 1 < n.children.size() ? ",\n" : "\n";
    }
    out += pad + "]";
  }
  out += "}";
}

} // namespace

ExplainNode explain_tree(const Program& program, const std::vector<Array>& inputs, size_t result,
                         const Index& at, const ExplainOptions& options) {
  return Explainer(options).run(program, inputs, result, at);
}

std::string render_text(const ExplainNode& tree) {
  std::string out;
  if (tree.loc.file) out += "explain " + *tree.loc.file + "\n";
  text(tree, 0, out);
  return out;
}

std::string render_json(const ExplainNode& tree) {
  std::string out;
  json(tree, 0, out);
  return out + "\n";
}

std::string explain_element(const Program& program, const std::vector<Array>& inputs, size_t result,
                            const Index& at, ExplainFormat format, const ExplainOptions& options) {
  ExplainNode tree = explain_tree(program, inputs, result, at, options);
  return format == ExplainFormat::Json ? render_json(tree) : render_text(tree);
}

} // namespace strata
