#include "core/expand.h"

#include "core/expand_build.h"
#include "core/ir_walk.h"

namespace strata {
namespace {

using namespace expansion;

// Null `via`: a plain copy, positions as they were.
SrcLoc at(SrcLoc loc, const std::shared_ptr<const CallSite>& via) {
  if (via) loc.via = via;
  return loc;
}

void relocate(Lambda& f, const std::shared_ptr<const CallSite>& via) {
  f.loc = at(f.loc, via);
  for (Param& p : f.params)
    p.loc = at(p.loc, via);
}
void relocate(ALambda& f, const std::shared_ptr<const CallSite>& via) {
  f.loc = at(f.loc, via);
  for (Param& p : f.params)
    p.loc = at(p.loc, via);
}

// A function held by pointer (a call's operand, a let-bound function): copied
// apart from the original, which other copies share, and moved inside `via`.
void relocate(std::shared_ptr<Lambda>& f, const std::shared_ptr<const CallSite>& via) {
  if (!f) return;
  f = std::make_shared<Lambda>(*f);
  relocate(*f, via);
}

// The lambdas and bindings a node holds (not its child nodes), moved inside `via`.
void relocate_parts(ExpNode& n, const std::shared_ptr<const CallSite>& via) {
  std::visit(Overload{[&](ex::Let& l) {
                        for (ex::Binding& b : l.bindings) {
                          b.loc = at(b.loc, via);
                          relocate(b.fn, via);
                        }
                      },
                      [&](ex::While& w) {
                        relocate(w.cond, via);
                        relocate(w.step, via);
                      },
                      [&](ex::Call& c) {
                        for (Operand& o : c.args)
                          relocate(o.fn, via);
                      },
                      [](auto&) {}},
             n);
}

void relocate_parts(AccNode& n, const std::shared_ptr<const CallSite>& via) {
  std::visit(
      Overload{
          [&](ac::Alet& l) {
            for (ac::Binding& b : l.bindings)
              b.loc = at(b.loc, via);
          },
          [&](ac::Generate& g) { relocate(g.f, via); }, [&](ac::Map& m) { relocate(m.f, via); },
          [&](ac::ZipWith& z) { relocate(z.f, via); }, [&](ac::Fold& f) { relocate(f.f, via); },
          [&](ac::FoldSeg& f) { relocate(f.f, via); }, [&](ac::Scan& s) { relocate(s.f, via); },
          [&](ac::Permute& p) {
            relocate(p.combine, via);
            relocate(p.target, via);
          },
          [&](ac::Backpermute& b) { relocate(b.source_index, via); },
          [&](ac::Stencil& s) { relocate(s.f, via); },
          [&](ac::Awhile& w) {
            relocate(w.cond, via);
            relocate(w.body, via);
          },
          [&](ac::Call& c) {
            for (Operand& o : c.args)
              relocate(o.fn, via);
          },
          [](auto&) {}},
      n);
}

// `(fold f z (reshape (ix (size a)) a))`: the whole array to one element.
AccPtr fold_all(const Build& b, const AccPtr& a, Prim op, ExpPtr seed) {
  AccPtr flat =
      b.alet({{"_all/a", a}},
             b.a(ac::Reshape{b.ix({b.e(ex::SizeOf{b.avar("_all/a")})}), b.avar("_all/a")}));
  Lambda f = b.fn({"_all/x", "_all/y"}, b.prim(op, {b.var("_all/x"), b.var("_all/y")}));
  return b.a(ac::Fold{std::move(f), std::move(seed), std::move(flat)});
}

AccPtr map_all(const Build& b, const Lambda& p, const AccPtr& a) {
  return b.a(ac::Map{p, a});
}

// Element i of the n-ary zipwith reads every operand at i.
AccPtr zipwith_n(const Build& b, const Operands& o) {
  size_t n = o.c.args.size() - 1;
  int r = o.array(1).rank();
  std::vector<std::pair<std::string, AccPtr>> bs;
  std::vector<ExpPtr> reads;
  std::vector<Type> elems;
  for (size_t k = 0; k < n; ++k) {
    const Type& t = o.array(k + 1);
    if (t.rank() != r)
      fail(o.loc, "`zipwith`: operands must have the same rank, found " + o.types[1].str() +
                      " and " + t.str());
    std::string name = "_zipwith/" + std::to_string(k);
    bs.emplace_back(name, o.arr(k + 1));
    reads.push_back(b.read(name, b.var("_zipwith/i")));
    elems.push_back(t.elem());
  }
  std::vector<ExpPtr> dims;
  for (int d = 0; d < r; ++d) {
    ExpPtr m = b.extent("_zipwith/0", d);
    for (size_t k = 1; k < n; ++k)
      m = b.prim(Prim::Min, {m, b.extent("_zipwith/" + std::to_string(k), d)});
    dims.push_back(m);
  }
  ExpPtr body = apply(o.fn(0), std::move(reads), elems, "zipwith", o.loc);
  return b.alet(std::move(bs),
                b.a(ac::Generate{b.ix(std::move(dims)), b.fn({"_zipwith/i"}, std::move(body))}));
}

// `(backpermute sh (lambda (i) (ix ... (+ last shift))) a)` along the innermost dimension.
AccPtr innermost_window(const Build& b, const Operands& o, size_t ai, ExpPtr length, ExpPtr shift,
                        std::vector<std::pair<std::string, AccPtr>> bs = {}) {
  int r = o.array(ai, 1).rank();
  bs.emplace_back("_w/a", o.arr(ai));
  ExpPtr last = b.proj(r - 1, b.var("_w/i"));
  if (shift) last = b.prim(Prim::Add, {last, shift});
  Lambda f = b.fn({"_w/i"}, b.index_with_last("_w/i", r, last));
  return b.alet(std::move(bs), b.a(ac::Backpermute{b.shape_with_last("_w/a", r, std::move(length)),
                                                   std::move(f), b.avar("_w/a")}));
}

AccPtr array_sugar(const Build& b, const Operands& o) {
  const std::string& name = o.c.name;
  auto len = [&](const std::string& a, size_t ai) {
    return b.extent(a, o.array(ai, 1).rank() - 1);
  };
  if (name == "zipwith") return zipwith_n(b, o);
  if (name == "++") {
    const Type& x = o.array(0, 1);
    const Type& y = o.array(1, 1);
    if (x != y)
      fail(o.loc,
           "`++`: both arrays must have the same type, found " + x.str() + " and " + y.str());
    int r = x.rank();
    std::vector<ExpPtr> dims;
    for (int d = 0; d + 1 < r; ++d)
      dims.push_back(b.prim(Prim::Min, {b.extent("_cat/a", d), b.extent("_cat/b", d)}));
    dims.push_back(b.prim(Prim::Add, {len("_cat/a", 0), len("_cat/b", 1)}));
    ExpPtr k = b.proj(r - 1, b.var("_cat/i"));
    ExpPtr body =
        b.e(ex::If{b.prim(Prim::Lt, {k, len("_cat/a", 0)}), b.read("_cat/a", b.var("_cat/i")),
                   b.read("_cat/b", b.index_with_last("_cat/i", r,
                                                      b.prim(Prim::Sub, {k, len("_cat/a", 0)})))});
    return b.alet({{"_cat/a", o.arr(0)}, {"_cat/b", o.arr(1)}},
                  b.a(ac::Generate{b.ix(std::move(dims)), b.fn({"_cat/i"}, std::move(body))}));
  }
  if (name == "take" || name == "drop") {
    o.i64(0, "the count");
    // k = max(0, min(n, len)): take keeps k elements of each row, drop skips them.
    std::vector<std::pair<std::string, AccPtr>> bs{{"_w/n", b.a(ac::Unit{o.scalar(0)})}};
    auto k = [&] { return b.clamp0(b.the("_w/n"), len("_w/a", 1)); };
    if (name == "take") return innermost_window(b, o, 1, k(), nullptr, std::move(bs));
    return innermost_window(b, o, 1, b.prim(Prim::Sub, {len("_w/a", 1), k()}), k(), std::move(bs));
  }
  if (name == "init" || name == "tail") {
    // An empty row stays empty.
    auto k = [&] { return b.clamp0(b.i64(1), len("_w/a", 0)); };
    ExpPtr length = b.prim(Prim::Sub, {len("_w/a", 0), k()});
    return innermost_window(b, o, 0, std::move(length), name == "tail" ? k() : nullptr);
  }
  if (name == "reverse") {
    int r = o.array(0, 1).rank();
    ExpPtr last = b.prim(Prim::Sub, {b.prim(Prim::Sub, {len("_rev/a", 0), b.i64(1)}),
                                     b.proj(r - 1, b.var("_rev/i"))});
    Lambda f = b.fn({"_rev/i"}, b.index_with_last("_rev/i", r, std::move(last)));
    return b.alet({{"_rev/a", o.arr(0)}},
                  b.a(ac::Backpermute{b.shape("_rev/a"), std::move(f), b.avar("_rev/a")}));
  }
  if (name == "transpose") {
    if (o.array(0).rank() != 2)
      fail(o.loc, "`transpose`: expected an array of rank 2, found " + o.types[0].str());
    auto swap = [&](const ExpPtr& t) { return b.ix({b.proj(1, t), b.proj(0, t)}); };
    return b.alet({{"_tr/a", o.arr(0)}},
                  b.a(ac::Backpermute{swap(b.shape("_tr/a")), b.fn({"_tr/i"}, swap(b.var("_tr/i"))),
                                      b.avar("_tr/a")}));
  }
  if (name == "iota") {
    o.i64(0, "the length");
    return b.a(ac::Generate{b.ix({o.scalar(0)}), b.fn({"_iota/i"}, b.proj(0, b.var("_iota/i")))});
  }
  if (name == "enumFromN" || name == "enumFromStepN") {
    if (!o.types[0].is_index())
      fail(o.loc, o.what() + ": expected a shape (ix R), found " + o.types[0].str());
    const Type& x = o.types[1];
    if (!x.is_scalar() || x.is_scalar(ScalarKind::Bool))
      fail(o.loc, o.what() + ": the start must be a number, found " + x.str());
    bool step = name == "enumFromStepN";
    if (step && o.types[2] != x)
      fail(o.loc, o.what() + ": the step must have the start's type " + x.str() + ", found " +
                      o.types[2].str());
    ExpPtr k =
        b.e(ex::Cast{x.scalar_kind(), b.e(ex::ToIndex{b.shape("_enum/s"), b.var("_enum/i")})});
    if (step) k = b.prim(Prim::Mul, {b.the("_enum/step"), k});
    std::vector<std::pair<std::string, AccPtr>> bs{
        {"_enum/s", b.a(ac::Fill{o.scalar(0), b.e(ex::Const{Scalar::make<bool>(false)})})},
        {"_enum/x", b.a(ac::Unit{o.scalar(1)})}};
    if (step) bs.emplace_back("_enum/step", b.a(ac::Unit{o.scalar(2)}));
    return b.alet(std::move(bs),
                  b.a(ac::Generate{b.shape("_enum/s"),
                                   b.fn({"_enum/i"}, b.prim(Prim::Add, {b.the("_enum/x"), k}))}));
  }
  if (name == "postscanl" || name == "postscanr") {
    // scanl without its first element, scanr without its last.
    o.array(2, 1);
    bool left = name == "postscanl";
    AccPtr scan = b.a(
        ac::Scan{left ? ac::ScanKind::Scanl : ac::ScanKind::Scanr, o.fn(0), o.scalar(1), o.arr(2)});
    int r = o.array(2).rank();
    ExpPtr length = b.prim(Prim::Sub, {b.extent("_post/s", r - 1), b.i64(1)});
    ExpPtr last = b.proj(r - 1, b.var("_post/i"));
    if (left) last = b.prim(Prim::Add, {last, b.i64(1)});
    Lambda f = b.fn({"_post/i"}, b.index_with_last("_post/i", r, std::move(last)));
    return b.alet({{"_post/s", scan}}, b.a(ac::Backpermute{b.shape_with_last("_post/s", r, length),
                                                           std::move(f), b.avar("_post/s")}));
  }
  if (name == "sum" || name == "product") {
    ScalarKind k = o.numeric_elem(0);
    bool sum = name == "sum";
    return fold_all(b, o.arr(0), sum ? Prim::Add : Prim::Mul,
                    b.e(ex::Const{scalar_of(k, sum ? 0 : 1)}));
  }
  if (name == "maximum" || name == "minimum") {
    o.numeric_elem(0);
    return fold_all(b, o.arr(0), name == "maximum" ? Prim::Max : Prim::Min, nullptr);
  }
  if (name == "and" || name == "or") {
    o.bool_elem(0);
    bool conj = name == "and";
    return fold_all(b, o.arr(0), conj ? Prim::And : Prim::Or,
                    b.e(ex::Const{Scalar::make<bool>(conj)}));
  }
  if (name == "any" || name == "all") {
    o.array(1);
    bool conj = name == "all";
    return fold_all(b, map_all(b, o.fn(0), o.arr(1)), conj ? Prim::And : Prim::Or,
                    b.e(ex::Const{Scalar::make<bool>(conj)}));
  }
  if (name == "gather") {
    if (!o.array(0).elem().is_scalar(ScalarKind::I64))
      fail(o.loc, "`gather`: the indices must be an array of i64, found " + o.types[0].str());
    if (o.array(1).rank() != 1)
      fail(o.loc, "`gather`: the source must have rank 1, found " + o.types[1].str());
    const auto* v = std::get_if<ac::Var>(&o.arr(1)->node);
    ex::Read read{b.avar("_gather/a"), b.ix({b.read("_gather/i", b.var("_gather/k"))}), "gather",
                  v ? v->name : "a"};
    return b.alet(
        {{"_gather/i", o.arr(0)}, {"_gather/a", o.arr(1)}},
        b.a(ac::Generate{b.shape("_gather/i"), b.fn({"_gather/k"}, b.e(std::move(read)))}));
  }
  if (name == "scatter") {
    if (o.array(0).rank() != 1 || !o.array(0).elem().is_scalar(ScalarKind::I64))
      fail(o.loc,
           "`scatter`: the indices must be an array of i64 of rank 1, found " + o.types[0].str());
    if (o.array(1).rank() != 1 || o.array(2).rank() != 1)
      fail(o.loc, "`scatter`: the defaults and the source must have rank 1, found " +
                      o.types[1].str() + " and " + o.types[2].str());
    Lambda keep_new = b.fn({"_scatter/new", "_scatter/old"}, b.var("_scatter/new"));
    // Each target is read from the defaults' positions (`_scatter/p`, i at i):
    // a target out of range, -1 included (which `permute` would take as
    // `ignore` and drop), is a bounds error naming `scatter` and the defaults.
    const auto* d = std::get_if<ac::Var>(&o.arr(1)->node);
    ex::Read slot{b.avar("_scatter/p"), b.ix({b.read("_scatter/i", b.var("_scatter/k"))}),
                  "scatter", d ? d->name : "defs"};
    Lambda target = b.fn({"_scatter/k"}, b.ix({b.e(std::move(slot))}));
    AccPtr positions = b.a(
        ac::Generate{b.shape("_scatter/d"), b.fn({"_scatter/j"}, b.proj(0, b.var("_scatter/j")))});
    return b.alet(
        {{"_scatter/i", o.arr(0)}, {"_scatter/d", o.arr(1)}, {"_scatter/p", positions}},
        b.a(ac::Permute{std::move(keep_new), b.avar("_scatter/d"), std::move(target), o.arr(2)}));
  }
  if (name == "stencil2") return stencil2(b, o);
  return segmented_sugar(b, o);
}

} // namespace

std::shared_ptr<const CallSite> call_site(const std::string& function, const SrcLoc& call) {
  return std::make_shared<const CallSite>(CallSite{function, call});
}

ExpPtr clone_at(const ExpPtr& e, const std::shared_ptr<const CallSite>& via) {
  if (!e) return nullptr;
  auto c = std::make_shared<Exp>(*e);
  c->loc = at(c->loc, via);
  relocate_parts(c->node, via);
  for_each_child_slot(
      *c, [&](ExpPtr& p) { p = clone_at(p, via); }, [&](AccPtr& p) { p = clone_at(p, via); });
  return c;
}

AccPtr clone_at(const AccPtr& a, const std::shared_ptr<const CallSite>& via) {
  if (!a) return nullptr;
  auto c = std::make_shared<Acc>(*a);
  c->loc = at(c->loc, via);
  relocate_parts(c->node, via);
  for_each_child_slot(
      *c, [&](ExpPtr& p) { p = clone_at(p, via); }, [&](AccPtr& p) { p = clone_at(p, via); });
  return c;
}

Lambda clone_at(const Lambda& f, const std::shared_ptr<const CallSite>& via) {
  Lambda c = f;
  relocate(c, via);
  c.body = clone_at(f.body, via);
  return c;
}

ExpPtr apply(const Lambda& f, std::vector<ExpPtr> args, const std::vector<Type>& arg_types,
             std::string_view what, const SrcLoc& loc) {
  if (f.params.size() != args.size())
    fail(f.loc, std::string(what) + ": expected a function of " + std::to_string(args.size()) +
                    " parameter(s), found " + std::to_string(f.params.size()));
  ex::Let let;
  for (size_t i = 0; i < args.size(); ++i) {
    const Param& p = f.params[i];
    if (p.typed && p.type != arg_types[i])
      fail(p.loc, std::string(what) + ": parameter `" + p.name + "` should have type " +
                      arg_types[i].str() + ", found " + p.type.str());
    let.bindings.push_back(ex::Binding{p.name, std::move(args[i]), p.loc});
  }
  let.body = f.body;
  return make_exp(std::move(let), loc);
}

AccPtr expand_sugar(const ac::Call& c, const std::vector<Type>& types, const SrcLoc& loc) {
  SrcLoc inside = loc;
  inside.via = call_site(c.name, loc);
  return array_sugar(Build{inside}, Operands{c, types, loc});
}

ExpPtr expand_sugar(const ex::Call& c, const std::vector<Type>& types, const SrcLoc& loc) {
  if (c.name != "for") fail(loc, "unknown form `" + c.name + "`");
  // (for n init f): i from 0 while i < n, acc = (f i acc).
  if (!types[0].is_scalar(ScalarKind::I64))
    fail(loc, "`for`: the count must be i64, found " + types[0].str());
  SrcLoc inside = loc;
  inside.via = call_site(c.name, loc);
  Build b{inside};
  auto i = [&] { return b.proj(0, b.var("_for/s")); };
  ExpPtr next = apply(*c.args[2].fn, {i(), b.proj(1, b.var("_for/s"))},
                      {Type::scalar(ScalarKind::I64), types[1]}, "for", loc);
  ExpPtr loop = b.e(ex::While{
      b.fn({"_for/s"}, b.prim(Prim::Lt, {i(), b.var("_for/n")})),
      b.fn({"_for/s"}, b.e(ex::Tuple{{b.prim(Prim::Add, {i(), b.i64(1)}), std::move(next)}})),
      b.e(ex::Tuple{{b.i64(0), c.args[1].scalar}})});
  ex::Let let;
  let.bindings.push_back(ex::Binding{"_for/n", c.args[0].scalar, inside});
  let.body = b.proj(1, std::move(loop));
  return b.e(std::move(let));
}

} // namespace strata
