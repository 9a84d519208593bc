// Sharing recovery (see sharing.h for what it does and why).
//
// Two analyses of the same shape run over graphs of IR nodes, keyed by node
// address:
//  - the array analysis covers every node reachable from the program body
//    (array nodes, and the scalar nodes inside their functions, through which
//    arrays can be read) and places array bindings in array scopes;
//  - a scalar analysis runs for each scalar root (the body of the function of
//    a collective operation, or an array-level expression such as a shape or a
//    seed) over the scalar nodes reachable without crossing an array node, and
//    places let bindings in scalar scopes.
// Each analysis orders the graph parents-first with an explicit stack, counts
// the uses of each node and computes the lowest common scope of its uses in
// that order, then lists the bindings of each scope children-first. The
// rebuild then walks the graph from the root, emitting each scope's bindings
// in front of its body and a variable for every bound node.
#include "frontend/sharing.h"

#include <unordered_map>

#include "core/ir_walk.h"
#include "core/overload.h"

namespace strata::fe {

OwnedProgram::~OwnedProgram() {
  program.body.reset();
  program.params.clear();
  while (!nodes.empty())
    nodes.pop_back();
}

namespace {

[[noreturn]] void fail(const std::string& message) {
  throw Error(ErrorKind::Type, message);
}

// One child edge of a node: the child (exactly one of exp/acc set) and the
// scope it is evaluated in: -1 for the parent's scope, k >= 0 for the k-th
// scope the parent opens (a lambda body, a branch).
struct Edge {
  const Exp* exp = nullptr;
  const Acc* acc = nullptr;
  int slot = -1;
};

// The children of nodes, as seen by the array analysis (everything) or by a
// scalar analysis (scalar children only, with scalar scopes).
struct Children {
  bool scalar = false;
  std::vector<Edge>* out = nullptr;

  void e(const ExpPtr& p, int slot = -1) const {
    if (p) out->push_back(Edge{p.get(), nullptr, scalar ? slot : -1});
  }
  void a(const AccPtr& p, int slot = -1) const {
    if (p && !scalar) out->push_back(Edge{nullptr, p.get(), slot});
  }

  // Children in the parent's scope, as core/ir_walk.h lists them.
  template <class Node> void plain(const Node& n) const {
    for_each_child(
        n,
        [&](const Exp& x) {
          out->push_back(Edge{&x, nullptr, -1});
        },
        [&](const Acc& x) {
          if (!scalar) out->push_back(Edge{nullptr, &x, -1});
        });
  }

  // The forms that open scopes: branches, loop functions, the lazy operand
  // of and/or.
  void of(const Exp& n) const {
    if (const auto* i = std::get_if<ex::If>(&n.node)) {
      e(i->cond);
      e(i->then_branch, 0);
      e(i->else_branch, 1);
    } else if (const auto* w = std::get_if<ex::While>(&n.node)) {
      e(w->init);
      e(w->cond.body, 0);
      e(w->step.body, 1);
    } else if (const auto* c = std::get_if<ex::Call>(&n.node)) {
      int slot = 0; // each function operand is a scope of its own
      for (const Operand& o : c->args) {
        e(o.scalar);
        if (o.fn) e(o.fn->body, slot++);
      }
    } else if (const auto* p = std::get_if<ex::PrimApp>(&n.node);
               p && (p->op == Prim::And || p->op == Prim::Or)) {
      for (size_t k = 0; k < p->args.size(); ++k)
        e(p->args[k], k == 1 ? 0 : -1);
    } else {
      plain(n);
    }
  }

  void of(const Acc& n) const {
    if (const auto* w = std::get_if<ac::Awhile>(&n.node)) {
      a(w->cond.body, 0);
      a(w->body.body, 1);
      a(w->init);
    } else if (const auto* c = std::get_if<ac::ACond>(&n.node)) {
      e(c->cond);
      a(c->then_branch, 0);
      a(c->else_branch, 1);
    } else {
      plain(n);
    }
  }
};

// The result of one analysis: per node its uses, scope and whether it is bound;
// per scope its parent and bindings.
class Analysis {
public:
  struct Node {
    const Exp* exp = nullptr;
    const Acc* acc = nullptr;
    int uses = 0;
    int scope = -1;             // lowest common scope of the uses
    bool definite_here = false; // some use at `scope` is certainly evaluated
    bool from_exp = false;      // an array read by a scalar expression
    bool bound = false;
    int own = -1;          // a duplicated scalar: the scope of each of its copies
    std::vector<int> made; // the scopes this node opens, by slot
    std::string name;      // the binding's name, once emitted
  };
  struct Scope {
    int parent = -1, depth = 0;
    std::vector<int> bindings; // bound nodes, dependencies first
  };

  // scalar: a scalar analysis (let bindings, definite-use rule) of the graph
  // under `root`; otherwise the array analysis.
  Analysis(const Exp* root_exp, const Acc* root_acc, bool scalar) : scalar_(scalar) {
    scopes.push_back(Scope{});
    int root = add(root_exp, root_acc);
    nodes[size_t(root)].scope = 0;
    nodes[size_t(root)].definite_here = true;
    std::vector<int> post = postorder(root);
    std::vector<bool> definite(nodes.size(), false);
    std::vector<Edge> edges;
    for (size_t k = post.size(); k-- > 0;) { // parents first
      int i = post[k];
      Node& n = nodes[size_t(i)];
      if (scalar_) {
        bool trivial = n.exp && (std::holds_alternative<ex::Const>(n.exp->node) ||
                                 std::holds_alternative<ex::Var>(n.exp->node) ||
                                 std::holds_alternative<ex::Ignore>(n.exp->node) ||
                                 std::holds_alternative<ex::At>(n.exp->node));
        n.bound = i != root && n.uses > 1 && !trivial && n.definite_here;
        definite[size_t(i)] = i == root || n.bound || (n.uses == 1 && n.definite_here);
        if (!n.bound && n.uses > 1 && !trivial) {
          // Used only where it may not run (both branches of an `if`, ...): it is
          // recomputed at each use, and each copy opens a scope of its own in
          // which its own shared parts are bound.
          scopes.push_back(Scope{n.scope, scopes[size_t(n.scope)].depth + 1, {}});
          n.own = int(scopes.size()) - 1;
          definite[size_t(i)] = true;
        }
      } else {
        n.bound = i != root && n.acc && !std::holds_alternative<ac::Var>(n.acc->node) &&
                  (n.uses > 1 || n.from_exp);
      }
      edges.clear();
      children(n, edges);
      int eval = n.own >= 0 ? n.own : n.scope;
      for (const Edge& e : edges) {
        int s = eval;
        if (e.slot >= 0) {
          while (int(nodes[size_t(i)].made.size()) <= e.slot) {
            scopes.push_back(Scope{eval, scopes[size_t(eval)].depth + 1, {}});
            nodes[size_t(i)].made.push_back(int(scopes.size()) - 1);
          }
          s = nodes[size_t(i)].made[size_t(e.slot)];
        }
        Node& c = nodes[size_t(id(e))];
        bool def = definite[size_t(i)];
        if (c.scope < 0) {
          c.scope = s;
          c.definite_here = def;
        } else {
          int l = lca(c.scope, s);
          if (l != c.scope) {
            c.scope = l;
            c.definite_here = s == l && def;
          } else {
            c.definite_here = c.definite_here || (s == l && def);
          }
        }
      }
    }
    for (int i : post) // children first
      if (nodes[size_t(i)].bound) scopes[size_t(nodes[size_t(i)].scope)].bindings.push_back(i);
  }

  int id(const void* p) const { return ids_.at(p); }
  int id(const Edge& e) const { return e.exp ? id(e.exp) : id(e.acc); }
  Node& node(const void* p) { return nodes[size_t(id(p))]; }

  std::vector<Node> nodes;
  std::vector<Scope> scopes;

private:
  bool scalar_;
  std::unordered_map<const void*, int> ids_;

  void children(const Node& n, std::vector<Edge>& out) const {
    Children c{scalar_, &out};
    if (n.exp)
      c.of(*n.exp);
    else
      c.of(*n.acc);
  }

  int add(const Exp* e, const Acc* a) {
    const void* key = e ? static_cast<const void*>(e) : static_cast<const void*>(a);
    auto [it, fresh] = ids_.emplace(key, int(nodes.size()));
    if (fresh) {
      Node n;
      n.exp = e;
      n.acc = a;
      nodes.push_back(std::move(n));
    }
    return it->second;
  }

  // Post-order (children before parents) of the graph under root, counting
  // each edge as one use of its child. Explicit stack: graphs can be deep.
  std::vector<int> postorder(int root) {
    std::vector<int> post;
    std::vector<uint8_t> state; // 0 new, 1 children pushed, 2 done
    std::vector<int> stack{root};
    std::vector<Edge> edges;
    while (!stack.empty()) {
      int i = stack.back();
      state.resize(nodes.size(), 0);
      if (state[size_t(i)] == 2) {
        stack.pop_back();
      } else if (state[size_t(i)] == 1) {
        state[size_t(i)] = 2;
        post.push_back(i);
        stack.pop_back();
      } else {
        state[size_t(i)] = 1;
        edges.clear();
        children(nodes[size_t(i)], edges);
        for (const Edge& e : edges) {
          int c = add(e.exp, e.acc);
          nodes[size_t(c)].uses++;
          if (n_is_exp(i) && e.acc) nodes[size_t(c)].from_exp = true;
          state.resize(nodes.size(), 0);
          if (state[size_t(c)] == 0) stack.push_back(c);
        }
      }
    }
    return post;
  }
  bool n_is_exp(int i) const { return nodes[size_t(i)].exp != nullptr; }

  int lca(int a, int b) const {
    while (scopes[size_t(a)].depth > scopes[size_t(b)].depth)
      a = scopes[size_t(a)].parent;
    while (scopes[size_t(b)].depth > scopes[size_t(a)].depth)
      b = scopes[size_t(b)].parent;
    while (a != b) {
      a = scopes[size_t(a)].parent;
      b = scopes[size_t(b)].parent;
    }
    return a;
  }
};

// Rebuilds the IR tree from the graph and the analyses.
class Rebuilder {
public:
  Rebuilder(OwnedProgram& out, const Acc* root) : out_(out), arrays_(nullptr, root, false) {}

  AccPtr program_body(const Acc* root) { return acc_scope(0, root); }

  std::string rename_param(const std::string& old, const char* prefix, int& counter) {
    std::string name = prefix + std::to_string(counter++);
    names_[old] = name;
    return name;
  }
  int params_ = 0;

private:
  OwnedProgram& out_;
  Analysis arrays_;
  std::unordered_map<std::string, std::string> names_; // graph name -> program name
  int arrays_bound_ = 0, scalars_bound_ = 0, lambda_params_ = 0, windows_ = 0, states_ = 0;
  int depth_ = 0;

  struct Depth { // tracks the nesting depth of the rebuild
    int& d;
    int& max;
    explicit Depth(int& d_, int& max_) : d(d_), max(max_) {
      if (++d > max) max = d;
    }
    ~Depth() { --d; }
  };

  AccPtr mk(AccNode n) {
    AccPtr p = make_acc(std::move(n));
    out_.nodes.push_back(p);
    return p;
  }
  ExpPtr mk(ExpNode n) {
    ExpPtr p = make_exp(std::move(n));
    out_.nodes.push_back(p);
    return p;
  }

  const std::string& lookup(const std::string& old, bool array) const {
    auto it = names_.find(old);
    if (it == names_.end()) {
      if (array)
        fail("an array parameter of a function (awhile, or a program parameter) is used "
             "outside the function it belongs to");
      fail("nested data parallelism: a collective operation, or an array read by a scalar "
           "function, depends on a scalar value of an enclosing function (a lambda parameter); "
           "collective operations cannot run inside scalar functions");
    }
    return it->second;
  }

  // ------------------------------------------------------------- arrays
  AccPtr acc_scope(int scope, const Acc* body) {
    std::vector<ac::Binding> bindings;
    for (int i : arrays_.scopes[size_t(scope)].bindings) {
      Analysis::Node& n = arrays_.nodes[size_t(i)];
      AccPtr value = acc_def(*n.acc);
      if (n.name.empty()) n.name = "a" + std::to_string(arrays_bound_++);
      bindings.push_back(ac::Binding{n.name, value, SrcLoc{}});
    }
    AccPtr b = acc(body);
    if (bindings.empty()) return b;
    return mk(ac::Alet{std::move(bindings), b});
  }

  AccPtr acc(const Acc* n) {
    Analysis::Node& info = arrays_.node(n);
    if (info.bound) return mk(ac::Var{info.name});
    return acc_def(*n);
  }
  AccPtr acc(const AccPtr& n) { return n ? acc(n.get()) : nullptr; }

  // A scope opened by node n (an awhile function, an acond branch).
  int made(const Acc& n, int slot) { return arrays_.node(&n).made.at(size_t(slot)); }

  ALambda alambda(const ALambda& f, int scope) {
    ALambda out{{}, nullptr, SrcLoc{}};
    for (const Param& p : f.params)
      out.params.push_back(Param{rename_param(p.name, "s", states_), p.type, SrcLoc{}});
    out.body = acc_scope(scope, f.body.get());
    return out;
  }

  AccPtr acc_def(const Acc& n) {
    Depth guard(depth_, out_.depth);
    return std::visit(
        Overload{
            [&](const ac::Var& v) { return mk(ac::Var{lookup(v.name, true)}); },
            [&](const ac::Alet&) -> AccPtr { fail("front-end graphs contain no alet"); },
            [&](const ac::ATuple& t) {
              ac::ATuple r;
              for (const auto& x : t.elems)
                r.elems.push_back(acc(x));
              return mk(std::move(r));
            },
            [&](const ac::AProj& p) {
              return mk(ac::AProj{p.index, acc(p.tuple)});
            },
            [&](const ac::Use& u) { return mk(ac::Use{u.value}); },
            [&](const ac::Unit& u) { return mk(ac::Unit{top(u.value)}); },
            [&](const ac::Generate& g) {
              ExpPtr sh = top(g.shape);
              return mk(ac::Generate{sh, lambda(g.f)});
            },
            [&](const ac::Fill& f) {
              ExpPtr sh = top(f.shape);
              return mk(ac::Fill{sh, top(f.value)});
            },
            [&](const ac::Map& m) {
              Lambda f = lambda(m.f);
              return mk(ac::Map{std::move(f), acc(m.a)});
            },
            [&](const ac::ZipWith& z) {
              Lambda f = lambda(z.f);
              AccPtr a = acc(z.a);
              return mk(ac::ZipWith{std::move(f), a, acc(z.b)});
            },
            [&](const ac::Fold& f) {
              Lambda g = lambda(f.f);
              ExpPtr z = top(f.seed);
              return mk(ac::Fold{std::move(g), z, acc(f.a)});
            },
            [&](const ac::FoldSeg& f) {
              Lambda g = lambda(f.f);
              ExpPtr z = top(f.seed);
              AccPtr a = acc(f.a);
              return mk(ac::FoldSeg{std::move(g), z, a, acc(f.segs)});
            },
            [&](const ac::Scan& s) {
              Lambda g = lambda(s.f);
              ExpPtr z = top(s.seed);
              return mk(ac::Scan{s.kind, std::move(g), z, acc(s.a)});
            },
            [&](const ac::Permute& p) {
              Lambda c = lambda(p.combine);
              AccPtr d = acc(p.defaults);
              Lambda t = lambda(p.target);
              return mk(ac::Permute{std::move(c), d, std::move(t), acc(p.source)});
            },
            [&](const ac::Backpermute& b) {
              ExpPtr sh = top(b.shape);
              Lambda f = lambda(b.source_index);
              return mk(ac::Backpermute{sh, std::move(f), acc(b.a)});
            },
            [&](const ac::Reshape& r) {
              ExpPtr sh = top(r.shape);
              return mk(ac::Reshape{sh, acc(r.a)});
            },
            [&](const ac::Replicate& r) {
              auto spec = specs(r.spec);
              return mk(ac::Replicate{std::move(spec), acc(r.a)});
            },
            [&](const ac::Slice& s) {
              AccPtr a = acc(s.a);
              return mk(ac::Slice{a, specs(s.spec)});
            },
            [&](const ac::Stencil& s) {
              ac::Boundary b{s.boundary.kind, top(s.boundary.constant)};
              Lambda f = lambda(s.f);
              return mk(ac::Stencil{s.window, std::move(b), std::move(f), acc(s.a)});
            },
            [&](const ac::Awhile& w) {
              ALambda c = alambda(w.cond, made(n, 0));
              ALambda b = alambda(w.body, made(n, 1));
              return mk(ac::Awhile{std::move(c), std::move(b), acc(w.init)});
            },
            [&](const ac::ATrace& t) {
              return mk(ac::ATrace{t.label, acc(t.a)});
            },
            [&](const ac::ACond& c) {
              ExpPtr k = top(c.cond);
              AccPtr t = acc_scope(made(n, 0), c.then_branch.get());
              return mk(ac::ACond{k, t, acc_scope(made(n, 1), c.else_branch.get())});
            },
            [&](const ac::Call& c) {
              std::vector<Operand> ops;
              for (const Operand& o : c.args) {
                Operand r{nullptr, nullptr, nullptr, o.window, o.boundary};
                if (o.array) r.array = acc(o.array);
                if (o.scalar) r.scalar = top(o.scalar);
                if (o.fn) r.fn = std::make_shared<Lambda>(lambda(*o.fn));
                ops.push_back(std::move(r));
              }
              return mk(ac::Call{c.name, std::move(ops)});
            },
        },
        n.node);
  }

  std::vector<ac::SpecItem> specs(const std::vector<ac::SpecItem>& spec) {
    std::vector<ac::SpecItem> out;
    for (const auto& s : spec)
      out.push_back(ac::SpecItem{top(s.extent)});
    return out;
  }

  // ------------------------------------------------------------ scalars
  // A scalar root: a function of a collective, or an array-level expression.
  Lambda lambda(const Lambda& f) {
    Lambda out;
    for (const Param& p : f.params) {
      bool window = p.type.is_window();
      out.params.push_back(
          Param{rename_param(p.name, window ? "w" : "x", window ? windows_ : lambda_params_),
                p.type, SrcLoc{}});
    }
    Analysis a(f.body.get(), nullptr, true);
    out.body = exp_scope(a, 0, f.body.get());
    return out;
  }

  ExpPtr top(const ExpPtr& e) {
    if (!e) return nullptr;
    Analysis a(e.get(), nullptr, true);
    return exp_scope(a, 0, e.get());
  }

  // The bindings of a scope in front of its body; `def`: the body is the node
  // that opens the scope (a duplicated scalar), so it is built, never a variable.
  ExpPtr exp_scope(Analysis& an, int scope, const Exp* body, bool def = false) {
    std::vector<ex::Binding> bindings;
    for (int i : an.scopes[size_t(scope)].bindings) {
      Analysis::Node& n = an.nodes[size_t(i)];
      ExpPtr value = exp_def(an, *n.exp);
      if (n.name.empty()) n.name = "v" + std::to_string(scalars_bound_++);
      bindings.push_back(ex::Binding{n.name, value, SrcLoc{}});
    }
    ExpPtr b = def ? exp_def(an, *body) : exp(an, body);
    if (bindings.empty()) return b;
    return mk(ex::Let{std::move(bindings), b});
  }

  ExpPtr exp(Analysis& an, const Exp* n) {
    Analysis::Node& info = an.node(n);
    if (info.bound) return mk(ex::Var{info.name});
    if (info.own >= 0) return exp_scope(an, info.own, n, true);
    return exp_def(an, *n);
  }

  // An array read by a scalar expression: bound by the array analysis, or a variable.
  AccPtr array_ref(const AccPtr& a) {
    Analysis::Node& info = arrays_.node(a.get());
    if (info.bound) return mk(ac::Var{info.name});
    if (const auto* v = std::get_if<ac::Var>(&a->node)) return mk(ac::Var{lookup(v->name, true)});
    fail("internal error: an array read by a scalar expression was not bound");
  }

  Lambda while_lambda(Analysis& an, const Lambda& f, int scope) {
    Lambda out;
    for (const Param& p : f.params)
      out.params.push_back(Param{rename_param(p.name, "x", lambda_params_), p.type, SrcLoc{}});
    out.body = exp_scope(an, scope, f.body.get());
    return out;
  }

  ExpPtr exp_def(Analysis& an, const Exp& n) {
    Depth guard(depth_, out_.depth);
    auto made = [&](int slot) { return an.node(&n).made.at(size_t(slot)); };
    auto e = [&](const ExpPtr& p) { return exp(an, p.get()); };
    return std::visit(
        Overload{
            [&](const ex::Const& c) { return mk(ex::Const{c.value}); },
            [&](const ex::Var& v) { return mk(ex::Var{lookup(v.name, false)}); },
            [&](const ex::Let&) -> ExpPtr { fail("front-end graphs contain no let"); },
            [&](const ex::If& i) {
              ExpPtr c = e(i.cond);
              ExpPtr t = exp_scope(an, made(0), i.then_branch.get());
              return mk(ex::If{c, t, exp_scope(an, made(1), i.else_branch.get())});
            },
            [&](const ex::Tuple& t) {
              ex::Tuple r;
              for (const auto& x : t.elems)
                r.elems.push_back(e(x));
              return mk(std::move(r));
            },
            [&](const ex::Proj& p) {
              return mk(ex::Proj{p.index, e(p.tuple)});
            },
            [&](const ex::Index& ix) {
              ex::Index r;
              for (const auto& x : ix.components)
                r.components.push_back(e(x));
              return mk(std::move(r));
            },
            [&](const ex::Cast& c) {
              return mk(ex::Cast{c.target, e(c.arg)});
            },
            [&](const ex::While& w) {
              ExpPtr init = e(w.init);
              Lambda c = while_lambda(an, w.cond, made(0));
              Lambda s = while_lambda(an, w.step, made(1));
              return mk(ex::While{std::move(c), std::move(s), init});
            },
            [&](const ex::ShapeOf& s) { return mk(ex::ShapeOf{array_ref(s.array)}); },
            [&](const ex::SizeOf& s) { return mk(ex::SizeOf{array_ref(s.array)}); },
            [&](const ex::Read& r) {
              AccPtr a = array_ref(r.array);
              return mk(ex::Read{a, e(r.index)});
            },
            [&](const ex::LinearRead& r) {
              AccPtr a = array_ref(r.array);
              return mk(ex::LinearRead{a, e(r.index)});
            },
            [&](const ex::The& t) { return mk(ex::The{array_ref(t.array)}); },
            [&](const ex::ToIndex& t) {
              ExpPtr sh = e(t.shape);
              return mk(ex::ToIndex{sh, e(t.index)});
            },
            [&](const ex::FromIndex& f) {
              ExpPtr sh = e(f.shape);
              return mk(ex::FromIndex{sh, e(f.index)});
            },
            [&](const ex::Ignore& i) { return mk(ex::Ignore{i.rank}); },
            [&](const ex::Trace& t) {
              return mk(ex::Trace{t.label, e(t.arg)});
            },
            [&](const ex::PrimApp& p) {
              ex::PrimApp r{p.op, {}};
              bool lazy = p.op == Prim::And || p.op == Prim::Or;
              for (size_t k = 0; k < p.args.size(); ++k)
                r.args.push_back(lazy && k == 1 ? exp_scope(an, made(0), p.args[k].get())
                                                : e(p.args[k]));
              return mk(std::move(r));
            },
            [&](const ex::At& a) {
              return mk(ex::At{lookup(a.window, false), a.offsets});
            },
            [&](const ex::Call& c) {
              std::vector<Operand> ops;
              int slot = 0;
              for (const Operand& o : c.args) {
                if (o.scalar) ops.push_back(Operand{nullptr, e(o.scalar), nullptr});
                if (o.fn)
                  ops.push_back(
                      Operand{nullptr, nullptr,
                              std::make_shared<Lambda>(while_lambda(an, *o.fn, made(slot++)))});
              }
              return mk(ex::Call{c.name, std::move(ops)});
            },
        },
        n.node);
  }
};

} // namespace

std::unique_ptr<OwnedProgram> recover_sharing(const std::vector<Param>& params,
                                              const AccPtr& body) {
  auto out = std::make_unique<OwnedProgram>();
  Rebuilder r(*out, body.get());
  for (const Param& p : params)
    out->program.params.push_back(Param{r.rename_param(p.name, "p", r.params_), p.type, SrcLoc{}});
  out->program.body = r.program_body(body.get());
  return out;
}

} // namespace strata::fe
