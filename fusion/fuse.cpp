#include "fusion/fuse.h"

#include "core/check.h"
#include "core/ir_walk.h"
#include "core/overload.h"
#include "core/runtime_errors.h"
#include "fusion/cost.h"
#include "fusion/exp_build.h"
#include "fusion/uses.h"

namespace strata {
namespace {
using namespace fusion;

// ------------------------------------------------------------ conversion
// What an array expression converts to: a manifest array, a delayed array,
// or a tuple of them.
struct Node {
  enum class Kind { Manifest, Delayed, Tuple } kind = Kind::Tuple;
  ArrayId id = -1;
  Delayed d;
  std::vector<SourceOp> ops; // Delayed: the producers fused into it
  bool cheap = false;        // Delayed: cheap to recompute (see docs/fusion.md)
  std::vector<Node> elems;   // Tuple

  static Node manifest(ArrayId id) {
    Node n;
    n.kind = Kind::Manifest;
    n.id = id;
    return n;
  }
  static Node tuple(std::vector<Node> elems) {
    Node n;
    n.elems = std::move(elems);
    return n;
  }
};

class Fuser {
public:
  explicit Fuser(const FusionOptions& options) : fusion_(options.fusion) {
    graph_.fused = options.fusion;
  }

  KernelGraph run(const Program& p) {
    block_ = &graph_.body;
    for (size_t i = 0; i < p.params.size(); ++i) {
      ArrayId id = new_array(p.params[i].type, ManifestArray::Origin::Input, p.params[i].name);
      graph_.arrays[size_t(id)].param = int(i);
      graph_.inputs.push_back(id);
      env_.emplace_back(p.params[i].name, Node::manifest(id));
    }
    Node result = convert(*p.body);
    graph_.outputs = materialize_all(result, "");
    return std::move(graph_);
  }

private:
  bool fusion_;
  KernelGraph graph_;
  Block* block_ = nullptr;
  int next_kernel_ = 0;
  int next_fresh_ = 0;
  std::vector<std::pair<std::string, Node>> env_;

  std::string fresh() { return "%" + std::to_string(next_fresh_++); }

  ArrayId new_array(const Type& t, ManifestArray::Origin origin, const std::string& source) {
    ArrayId id = ArrayId(graph_.arrays.size());
    ManifestArray a;
    a.name = "a" + std::to_string(id);
    a.source_name = source;
    a.type = t;
    a.origin = origin;
    graph_.arrays.push_back(std::move(a));
    return id;
  }

  Node& lookup(const std::string& name) {
    for (auto it = env_.rbegin(); it != env_.rend(); ++it)
      if (it->first == name) return it->second;
    throw Error(ErrorKind::Type,
                "fusion: unbound array variable `" + name + "` (was the program type-checked?)");
  }

  Kernel& emit(KernelBody body, std::vector<ArrayId> outputs, std::vector<SourceOp> ops) {
    Kernel k;
    k.id = next_kernel_++;
    k.body = std::move(body);
    k.outputs = std::move(outputs);
    k.ops = std::move(ops);
    block_->push_back(std::move(k));
    return block_->back();
  }

  // ------------------------------------------------ delayed <-> manifest
  // A manifest array seen as a delayed one: element i is (! a i).
  Delayed view(ArrayId id) {
    const ManifestArray& a = graph_.arrays[size_t(id)];
    int rank = a.type.rank();
    std::string i = fresh();
    Delayed d;
    d.type = a.type;
    d.shape = mk(ex::ShapeOf{array_ref(a)}, Type::index(rank));
    d.elem.params = {Param{i, Type::index(rank), {}}};
    d.elem.body = mk(ex::Read{array_ref(a), var(i, Type::index(rank))}, a.type.elem());
    return d;
  }

  Node delayed_node(Delayed d, std::vector<SourceOp> ops, bool cheap) {
    Node n;
    n.kind = Node::Kind::Delayed;
    n.d = std::move(d);
    n.ops = std::move(ops);
    n.cheap = cheap;
    return n;
  }

  // Makes a delayed node manifest (a Generate kernel); `source` names it.
  void materialize(Node& n, const std::string& source) {
    if (n.kind == Node::Kind::Tuple) {
      for (Node& e : n.elems)
        materialize(e, source);
      return;
    }
    if (n.kind != Node::Kind::Delayed) return;
    ArrayId id = new_array(n.d.type, ManifestArray::Origin::Kernel, source);
    emit(kn::Generate{std::move(n.d)}, {id}, std::move(n.ops));
    n = Node::manifest(id);
  }

  void flatten(const Node& n, std::vector<ArrayId>& out) {
    if (n.kind == Node::Kind::Tuple) {
      for (const Node& e : n.elems)
        flatten(e, out);
    } else {
      out.push_back(n.id);
    }
  }

  std::vector<ArrayId> materialize_all(Node n, const std::string& source) {
    materialize(n, source);
    std::vector<ArrayId> ids;
    flatten(n, ids);
    return ids;
  }

  // A node of type `t` (an array or tuple of arrays) over the ids in order.
  Node rebuild(const Type& t, const std::vector<ArrayId>& ids, size_t& next) {
    if (t.is_array()) return Node::manifest(ids[next++]);
    std::vector<Node> elems;
    for (const Type& e : t.elems())
      elems.push_back(rebuild(e, ids, next));
    return Node::tuple(std::move(elems));
  }

  void leaf_types(const Type& t, std::vector<Type>& out) {
    if (t.is_array()) {
      out.push_back(t);
    } else {
      for (const Type& e : t.elems())
        leaf_types(e, out);
    }
  }

  // The delayed form of an array node, and the source operations it carries.
  Delayed delayed(Node& n, std::vector<SourceOp>& ops) {
    if (n.kind == Node::Kind::Manifest) return view(n.id);
    ops.insert(ops.end(), n.ops.begin(), n.ops.end());
    return n.d;
  }

  ArrayId manifest(Node& n, const std::string& source = "") {
    materialize(n, source);
    return n.id;
  }

  // Element `ix` of the delayed array (ix mentions only fresh names).
  static ExpPtr at(const Delayed& d, ExpPtr ix) { return apply(d.elem, {std::move(ix)}); }

  // A new delayed array: `body(i)` builds element i from the fresh index i.
  template <class F> Delayed make(const Type& t, ExpPtr shape, F&& body) {
    Delayed d;
    d.type = t;
    d.shape = std::move(shape);
    std::string i = fresh();
    ExpPtr iv = var(i, Type::index(t.rank()));
    d.elem.params = {Param{i, Type::index(t.rank()), {}}};
    d.elem.body = body(iv);
    return d;
  }

  // ------------------------------------------------ rewriting scalar code
  // Copies an expression, replacing each array variable by its manifest
  // array, or `shape`/`size` of a delayed array by its shape expression.
  // Reads keep the program's name for the array: bounds errors name it.
  ExpPtr rw(const ExpPtr& e) {
    if (!e) return nullptr;
    if (const auto* s = std::get_if<ex::ShapeOf>(&e->node)) {
      Node& n = lookup(std::get<ac::Var>(s->array->node).name);
      if (n.kind == Node::Kind::Delayed) return n.d.shape;
    } else if (const auto* s = std::get_if<ex::SizeOf>(&e->node)) {
      Node& n = lookup(std::get<ac::Var>(s->array->node).name);
      if (n.kind == Node::Kind::Delayed) return size_of(n.d);
    }
    Exp copy{e->node, e->loc, e->type}; // children still shared with `e`
    if (auto* r = std::get_if<ex::Read>(&copy.node)) r->source = read_names(*r).array;
    if (auto* r = std::get_if<ex::LinearRead>(&copy.node)) r->source = read_names(*r).array;
    for_each_child_slot(
        copy, [&](ExpPtr& x) { x = rw(x); }, [&](AccPtr& a) { a = manifest_ref(a); });
    return mk(std::move(copy.node), e->type, e->loc);
  }

  Lambda rw(const Lambda& f) { return Lambda{f.params, rw(f.body), f.loc}; }

  AccPtr manifest_ref(const AccPtr& a) {
    Node& n = lookup(std::get<ac::Var>(a->node).name);
    // Indexed reads were made manifest at the binding; this is a safety net.
    return array_ref(graph_.arrays[size_t(manifest(n))]);
  }

  // The element count of a delayed array: the product of its extents.
  ExpPtr size_of(const Delayed& d) {
    int rank = d.type.rank();
    if (rank == 0) return const_i64(1);
    std::string s = fresh();
    ExpPtr sv = var(s, Type::index(rank));
    ExpPtr prod = proj(rank - 1, sv);
    for (int k = rank - 1; k-- > 0;)
      prod = prim(Prim::Mul, proj(k, sv), prod);
    return let({ex::Binding{s, d.shape, {}}}, prod);
  }

  // ------------------------------------------------ array forms
  Node convert(const Acc& a) {
    Node n = std::visit([&](const auto& x) { return form(x, a); }, a.node);
    if (!fusion_) materialize(n, "");
    return n;
  }

  Node form(const ac::Var& v, const Acc&) { return lookup(v.name); }

  Node form(const ac::Alet& l, const Acc&) {
    size_t depth = env_.size();
    for (size_t k = 0; k < l.bindings.size(); ++k) {
      const auto& b = l.bindings[k];
      Node n = convert(*b.value);
      Uses uses = uses_after(l, k);
      decide(n, uses, b.name);
      env_.emplace_back(b.name, std::move(n));
    }
    Node r = convert(*l.body);
    env_.resize(depth);
    return r;
  }

  // The sharing rule: a bound delayed array stays delayed (and is fused
  // into its one consumer) only when that cannot duplicate work.
  void decide(Node& n, const Uses& uses, const std::string& name) {
    if (n.kind == Node::Kind::Tuple) {
      for (Node& e : n.elems)
        decide(e, uses, name);
      return;
    }
    if (n.kind == Node::Kind::Manifest) {
      if (graph_.arrays[size_t(n.id)].source_name.empty())
        graph_.arrays[size_t(n.id)].source_name = name;
      return;
    }
    // A binding never read is still computed, checks included, as the
    // interpreter does (docs/fusion.md rule 3): dropping a cheap one would skip
    // its checks while later kernels still raise theirs (tbb error order).
    bool keep = !uses.indexed && uses.elementwise > 0 &&
                (n.cheap || (!uses.in_loop && uses.elementwise == 1));
    if (!keep) materialize(n, name);
  }

  Node form(const ac::ATuple& t, const Acc&) {
    std::vector<Node> elems;
    for (const auto& e : t.elems)
      elems.push_back(convert(*e));
    return Node::tuple(std::move(elems));
  }

  Node form(const ac::AProj& p, const Acc&) {
    Node t = convert(*p.tuple);
    return std::move(t.elems[size_t(p.index)]);
  }

  Node form(const ac::Use& u, const Acc& a) {
    ArrayId id = new_array(a.type, ManifestArray::Origin::Literal, "");
    graph_.arrays[size_t(id)].literal = u.value;
    return Node::manifest(id);
  }

  static SourceOp op_of(const Acc& a) { return SourceOp{std::string(form_name(a.node)), a.loc}; }

  static Check non_negative(ExpPtr shape, const Acc& a) {
    return Check{Check::Kind::NonNegative, std::move(shape), nullptr, 0, op_of(a)};
  }

  Node form(const ac::Unit& u, const Acc& a) {
    ExpPtr v = rw(u.value);
    bool cheap = std::holds_alternative<ex::Const>(v->node);
    Delayed d = make(a.type, index_of({}), [&](const ExpPtr&) { return v; });
    return delayed_node(std::move(d), {op_of(a)}, cheap);
  }

  Node form(const ac::Generate& g, const Acc& a) {
    ExpPtr sh = rw(g.shape);
    Lambda f = rw(g.f);
    Delayed d = make(a.type, sh, [&](const ExpPtr& i) { return apply(f, {i}); });
    d.checks.push_back(non_negative(sh, a));
    return delayed_node(std::move(d), {op_of(a)}, false);
  }

  Node form(const ac::Fill& f, const Acc& a) {
    ExpPtr sh = rw(f.shape);
    ExpPtr v = rw(f.value);
    bool cheap = std::holds_alternative<ex::Const>(v->node);
    Delayed d = make(a.type, sh, [&](const ExpPtr&) { return v; });
    d.checks.push_back(non_negative(sh, a));
    return delayed_node(std::move(d), {op_of(a)}, cheap);
  }

  Node form(const ac::Map& m, const Acc& a) {
    Node src = convert(*m.a);
    std::vector<SourceOp> ops;
    Delayed s = delayed(src, ops);
    Lambda f = rw(m.f);
    Delayed d = make(a.type, s.shape, [&](const ExpPtr& i) { return apply(f, {at(s, i)}); });
    d.checks = s.checks;
    ops.push_back(op_of(a));
    return delayed_node(std::move(d), std::move(ops), false);
  }

  Node form(const ac::ZipWith& z, const Acc& a) {
    Node x = convert(*z.a);
    Node y = convert(*z.b);
    std::vector<SourceOp> ops;
    Delayed dx = delayed(x, ops);
    Delayed dy = delayed(y, ops);
    Lambda f = rw(z.f);
    int rank = a.type.rank();
    // The intersection of the two shapes.
    std::string sx = fresh(), sy = fresh();
    std::vector<ExpPtr> comps;
    for (int k = 0; k < rank; ++k)
      comps.push_back(prim(Prim::Min, proj(k, var(sx, Type::index(rank))),
                           proj(k, var(sy, Type::index(rank)))));
    ExpPtr sh = let({ex::Binding{sx, dx.shape, {}}, ex::Binding{sy, dy.shape, {}}},
                    index_of(std::move(comps)));
    Delayed d = make(a.type, sh, [&](const ExpPtr& i) { return apply(f, {at(dx, i), at(dy, i)}); });
    d.checks = dx.checks;
    d.checks.insert(d.checks.end(), dy.checks.begin(), dy.checks.end());
    ops.push_back(op_of(a));
    return delayed_node(std::move(d), std::move(ops), false);
  }

  // replicate and backpermute may read one source element for several
  // result elements: they fuse only over a cheap source.
  void share_source(Node& src) {
    if (src.kind == Node::Kind::Delayed && !src.cheap) materialize(src, "");
  }
  bool cheap_source(const Node& src) const { return src.kind == Node::Kind::Manifest || src.cheap; }

  Node form(const ac::Backpermute& b, const Acc& a) {
    Node src = convert(*b.a);
    share_source(src);
    ExpPtr sh = rw(b.shape);
    Lambda f = rw(b.source_index);
    Cost c;
    cost(f, c);
    bool cheap = cheap_source(src) && !c.loops && c.nodes <= kCheapNodes;
    std::vector<SourceOp> ops;
    Delayed d;
    SrcLoc loc = a.loc;
    if (src.kind == Node::Kind::Manifest) {
      const ManifestArray& arr = graph_.arrays[size_t(src.id)];
      d = make(a.type, sh, [&](const ExpPtr& i) {
        return mk(ex::Read{array_ref(arr), apply(f, {i}), "backpermute"}, a.type.elem(), loc);
      });
    } else {
      Delayed s = delayed(src, ops);
      int srank = s.type.rank();
      d = make(a.type, sh, [&](const ExpPtr& i) {
        // Check the source index against the source shape, then read.
        std::string j = fresh(), ok = fresh();
        ExpPtr jv = var(j, Type::index(srank));
        ExpPtr check = mk(ex::ToIndex{s.shape, jv, "backpermute"}, kI64, loc);
        return let({ex::Binding{j, apply(f, {i}), {}}, ex::Binding{ok, check, {}}}, at(s, jv));
      });
      d.checks = s.checks;
    }
    d.checks.push_back(non_negative(sh, a));
    ops.push_back(op_of(a));
    return delayed_node(std::move(d), std::move(ops), cheap);
  }

  Node form(const ac::Reshape& r, const Acc& a) {
    Node src = convert(*r.a);
    ExpPtr sh = rw(r.shape);
    bool cheap = cheap_source(src);
    std::vector<SourceOp> ops;
    Delayed s = delayed(src, ops);
    Delayed d;
    if (src.kind == Node::Kind::Manifest) {
      const ManifestArray& arr = graph_.arrays[size_t(src.id)];
      d = make(a.type, sh, [&](const ExpPtr& i) {
        return mk(ex::LinearRead{array_ref(arr), mk(ex::ToIndex{sh, i}, kI64, a.loc)},
                  a.type.elem(), a.loc);
      });
    } else {
      d = make(a.type, sh, [&](const ExpPtr& i) {
        ExpPtr lin = mk(ex::ToIndex{sh, i}, kI64, a.loc);
        return at(s, mk(ex::FromIndex{s.shape, lin}, s.shape->type, a.loc));
      });
    }
    d.checks = s.checks;
    d.checks.push_back(non_negative(sh, a));
    d.checks.push_back(Check{Check::Kind::SameSize, sh, s.shape, 0, op_of(a)});
    ops.push_back(op_of(a));
    return delayed_node(std::move(d), std::move(ops), cheap);
  }

  Node form(const ac::Replicate& r, const Acc& a) {
    Node src = convert(*r.a);
    share_source(src);
    bool cheap = cheap_source(src);
    std::vector<SourceOp> ops;
    Delayed s = delayed(src, ops);
    int srank = s.type.rank();
    std::string sv = fresh();
    std::vector<ExpPtr> extents;
    int next = 0;
    for (const auto& item : r.spec)
      extents.push_back(item.is_all() ? proj(next++, var(sv, Type::index(srank)))
                                      : rw(item.extent));
    ExpPtr sh = let({ex::Binding{sv, s.shape, {}}}, index_of(std::move(extents)));
    Delayed d = make(a.type, sh, [&](const ExpPtr& i) {
      std::vector<ExpPtr> from;
      for (size_t k = 0; k < r.spec.size(); ++k)
        if (r.spec[k].is_all()) from.push_back(proj(int(k), i));
      return at(s, index_of(std::move(from)));
    });
    d.checks = s.checks;
    d.checks.push_back(non_negative(sh, a));
    ops.push_back(op_of(a));
    return delayed_node(std::move(d), std::move(ops), cheap);
  }

  Node form(const ac::Slice& sl, const Acc& a) {
    Node src = convert(*sl.a);
    bool cheap = cheap_source(src);
    std::vector<SourceOp> ops;
    Delayed s = delayed(src, ops);
    int srank = s.type.rank();
    std::vector<ExpPtr> fixed;
    for (const auto& item : sl.spec)
      fixed.push_back(item.is_all() ? nullptr : rw(item.extent));
    std::string sv = fresh();
    std::vector<ExpPtr> extents;
    for (int k = 0; k < srank; ++k)
      if (!fixed[size_t(k)]) extents.push_back(proj(k, var(sv, Type::index(srank))));
    ExpPtr sh = let({ex::Binding{sv, s.shape, {}}}, index_of(std::move(extents)));
    Delayed d = make(a.type, sh, [&](const ExpPtr& i) {
      std::vector<ExpPtr> from;
      int kept = 0;
      for (int k = 0; k < srank; ++k)
        from.push_back(fixed[size_t(k)] ? fixed[size_t(k)] : proj(kept++, i));
      return at(s, index_of(std::move(from)));
    });
    d.checks = s.checks;
    for (int k = 0; k < srank; ++k)
      if (fixed[size_t(k)])
        d.checks.push_back(
            Check{Check::Kind::InRange, fixed[size_t(k)], proj(k, s.shape), k, op_of(a)});
    ops.push_back(op_of(a));
    return delayed_node(std::move(d), std::move(ops), cheap);
  }

  // ------------------------------------------------ collectives
  Node collective(KernelBody body, std::vector<SourceOp> ops, const Acc& a) {
    std::vector<Type> types;
    leaf_types(a.type, types);
    std::vector<ArrayId> outs;
    for (const Type& t : types)
      outs.push_back(new_array(t, ManifestArray::Origin::Kernel, ""));
    ops.push_back(op_of(a));
    emit(std::move(body), outs, std::move(ops));
    size_t next = 0;
    return rebuild(a.type, outs, next);
  }

  Node form(const ac::Fold& f, const Acc& a) {
    Node src = convert(*f.a);
    std::vector<SourceOp> ops;
    Delayed in = delayed(src, ops);
    return collective(kn::Fold{rw(f.f), rw(f.seed), std::move(in)}, std::move(ops), a);
  }

  Node form(const ac::FoldSeg& f, const Acc& a) {
    Node src = convert(*f.a);
    Node segs = convert(*f.segs);
    std::vector<SourceOp> ops;
    Delayed in = delayed(src, ops);
    ArrayId sid = manifest(segs);
    return collective(kn::FoldSeg{rw(f.f), rw(f.seed), std::move(in), sid}, std::move(ops), a);
  }

  Node form(const ac::Scan& s, const Acc& a) {
    Node src = convert(*s.a);
    std::vector<SourceOp> ops;
    Delayed in = delayed(src, ops);
    return collective(kn::Scan{s.kind, rw(s.f), rw(s.seed), std::move(in)}, std::move(ops), a);
  }

  Node form(const ac::Permute& p, const Acc& a) {
    Node defs = convert(*p.defaults);
    Node src = convert(*p.source);
    std::vector<SourceOp> ops;
    Delayed dd = delayed(defs, ops);
    Delayed ds = delayed(src, ops);
    return collective(kn::Permute{rw(p.combine), std::move(dd), rw(p.target), std::move(ds)},
                      std::move(ops), a);
  }

  Node form(const ac::Stencil& s, const Acc& a) {
    Node src = convert(*s.a);
    ArrayId in = manifest(src); // read at several indices per element
    ac::Boundary b{s.boundary.kind, rw(s.boundary.constant)};
    return collective(kn::Stencil{s.window, b, rw(s.f), in}, {}, a);
  }

  // ------------------------------------------------ control flow
  // Converts `body` with `param` bound, into a block of its own; returns the
  // block and the (manifest) results.
  Block sub_block(const Param* param, const Node* arg, const Acc& body,
                  std::vector<ArrayId>& results) {
    Block block;
    Block* saved = block_;
    block_ = &block;
    size_t depth = env_.size();
    if (param) env_.emplace_back(param->name, *arg);
    results = materialize_all(convert(body), "");
    env_.resize(depth);
    block_ = saved;
    return block;
  }

  Node form(const ac::Awhile& w, const Acc& a) {
    std::vector<ArrayId> init = materialize_all(convert(*w.init), "");
    std::vector<Type> types;
    leaf_types(a.type, types);
    kn::Loop loop;
    loop.init = init;
    for (size_t k = 0; k < types.size(); ++k)
      loop.state.push_back(
          new_array(types[k], ManifestArray::Origin::LoopState, w.body.params[0].name));
    size_t next = 0;
    Node state = rebuild(a.type, loop.state, next);
    std::vector<ArrayId> cond_result;
    loop.cond = sub_block(&w.cond.params[0], &state, *w.cond.body, cond_result);
    loop.cond_result = cond_result.at(0);
    loop.body = sub_block(&w.body.params[0], &state, *w.body.body, loop.next);
    return collective(std::move(loop), {}, a);
  }

  Node form(const ac::Call&, const Acc& a) { unexpanded_call(a.loc); }

  Node form(const ac::ACond& c, const Acc& a) {
    kn::Branch br;
    br.cond = rw(c.cond);
    br.then_block = sub_block(nullptr, nullptr, *c.then_branch, br.then_results);
    br.else_block = sub_block(nullptr, nullptr, *c.else_branch, br.else_results);
    return collective(std::move(br), {}, a);
  }

  // atrace is the identity for engines (only the interpreter traces).
  Node form(const ac::ATrace& t, const Acc&) { return convert(*t.a); }
};

} // namespace

KernelGraph build_kernel_graph(const Program& program, const FusionOptions& options) {
  require_checked(program);
  return Fuser(options).run(program);
}

} // namespace strata
