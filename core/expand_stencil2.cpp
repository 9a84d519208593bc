// (stencil2 (wa ...) ba (wb ...) bb (lambda (na nb) e) a b): Accelerate's
// stencil2, a stencil over two arrays, each with its own window and
// boundary. It expands to a `generate` over the intersection of the two
// shapes whose function reads each neighbour through its array's boundary:
// the same coordinates core/boundary.h gives `stencil`, written as scalar
// code (docs/language.md, Everyday forms).
#include "core/expand_build.h"
#include "core/ir_walk.h"

namespace strata::expansion {
namespace {

struct Side {
  std::string array;          // the alet-bound array
  std::string window;         // the function's parameter naming its window
  std::vector<int64_t> sizes; // window sizes, outermost first
  ac::BoundaryKind boundary;
  std::string constant; // the unit array of a constant boundary
};

// The coordinate read for raw coordinate j in a dimension of extent n.
ExpPtr coordinate(const Build& b, ac::BoundaryKind kind, ExpPtr j, ExpPtr n) {
  using K = ac::BoundaryKind;
  auto let = [&](std::vector<ex::Binding> bs, ExpPtr body) {
    return b.e(ex::Let{std::move(bs), std::move(body)});
  };
  auto v = [&](const char* name) { return b.var(name); };
  std::vector<ex::Binding> jn{ex::Binding{"_s2/j", std::move(j), b.loc},
                              ex::Binding{"_s2/n", std::move(n), b.loc}};
  switch (kind) {
  case K::Clamp:
    return let(std::move(jn),
               b.prim(Prim::Max,
                      {b.i64(0), b.prim(Prim::Min,
                                        {b.prim(Prim::Sub, {v("_s2/n"), b.i64(1)}), v("_s2/j")})}));
  case K::Wrap: return let(std::move(jn), b.prim(Prim::Mod, {v("_s2/j"), v("_s2/n")}));
  case K::Mirror: {
    // period 2(n-1): m = j mod p reads m below n, else p - m; an extent of 1 reads 0
    ExpPtr p = b.prim(Prim::Mul, {b.i64(2), b.prim(Prim::Sub, {v("_s2/n"), b.i64(1)})});
    ExpPtr reflected =
        let({ex::Binding{"_s2/p", p, b.loc},
             ex::Binding{"_s2/m", b.prim(Prim::Mod, {v("_s2/j"), v("_s2/p")}), b.loc}},
            b.e(ex::If{b.prim(Prim::Lt, {v("_s2/m"), v("_s2/n")}), v("_s2/m"),
                       b.prim(Prim::Sub, {v("_s2/p"), v("_s2/m")})}));
    return let(std::move(jn), b.e(ex::If{b.prim(Prim::Eq, {v("_s2/n"), b.i64(1)}), b.i64(0),
                                         std::move(reflected)}));
  }
  case K::Constant: return let(std::move(jn), v("_s2/j")); // checked by the read
  }
  return nullptr;
}

// The neighbour at `offsets` of the element at index `_s2/i`.
ExpPtr neighbour(const Build& b, const Side& s, const std::vector<int64_t>& offsets) {
  int r = int(s.sizes.size());
  std::vector<ExpPtr> coords;
  std::vector<ExpPtr> inside;
  for (int k = 0; k < r; ++k) {
    auto raw = [&] {
      return b.prim(Prim::Add, {b.proj(k, b.var("_s2/i")), b.i64(offsets[size_t(k)])});
    };
    coords.push_back(coordinate(b, s.boundary, raw(), b.extent(s.array, k)));
    if (s.boundary == ac::BoundaryKind::Constant)
      inside.push_back(b.prim(Prim::And, {b.prim(Prim::Ge, {raw(), b.i64(0)}),
                                          b.prim(Prim::Lt, {raw(), b.extent(s.array, k)})}));
  }
  ExpPtr read = b.read(s.array, b.ix(std::move(coords)));
  if (inside.empty()) return read;
  ExpPtr all = inside[0];
  for (size_t k = 1; k < inside.size(); ++k)
    all = b.prim(Prim::And, {all, inside[k]});
  return b.e(ex::If{all, read, b.the(s.constant)});
}

// Replaces every `(at w o ...)` of the two windows in `e`.
void lower(const Build& b, Exp& e, const Side& sa, const Side& sb, const SrcLoc& loc) {
  if (auto* at = std::get_if<ex::At>(&e.node)) {
    const Side* s = at->window == sa.window ? &sa : at->window == sb.window ? &sb : nullptr;
    if (!s) fail(e.loc, "`stencil2`: unknown stencil window `" + at->window + "`");
    if (at->offsets.size() != s->sizes.size())
      fail(e.loc, "at: expected " + std::to_string(s->sizes.size()) +
                      " offset(s) for a window "
                      "of rank " +
                      std::to_string(s->sizes.size()) + ", found " +
                      std::to_string(at->offsets.size()));
    for (size_t k = 0; k < at->offsets.size(); ++k) {
      int64_t radius = s->sizes[k] / 2;
      if (at->offsets[k] < -radius || at->offsets[k] > radius)
        fail(e.loc, "at: offset " + std::to_string(at->offsets[k]) + " in dimension " +
                        std::to_string(k) + " is outside the window (radius " +
                        std::to_string(radius) + ")");
    }
    e.node = neighbour(b, *s, at->offsets)->node;
    return;
  }
  if (const auto* l = std::get_if<ex::Let>(&e.node))
    for (const ex::Binding& bind : l->bindings)
      if (bind.name == sa.window || bind.name == sb.window)
        fail(bind.loc, "`stencil2`: the window `" + bind.name + "` is bound again in its function");
  for_each_child(
      e, [&](Exp& c) { lower(b, c, sa, sb, loc); }, [](Acc&) {});
}

} // namespace

AccPtr stencil2(const Build& b, const Operands& o) {
  const Type& ta = o.array(5);
  const Type& tb = o.array(6);
  const Lambda& f = o.fn(4);
  Side sides[2];
  const Type* types[2] = {&ta, &tb};
  for (int k = 0; k < 2; ++k) {
    const Operand& w = o.c.args[size_t(2 * k)];
    const Operand& bd = o.c.args[size_t(2 * k + 1)];
    Side& s = sides[k];
    s.array = k == 0 ? "_s2/a" : "_s2/b";
    s.sizes = w.window;
    s.boundary = ac::BoundaryKind(bd.boundary);
    s.constant = k == 0 ? "_s2/ca" : "_s2/cb";
    if (int(s.sizes.size()) != types[k]->rank())
      fail(o.loc, "`stencil2`: expected " + std::to_string(types[k]->rank()) +
                      " window size(s) for an array of rank " + std::to_string(types[k]->rank()) +
                      ", found " + std::to_string(s.sizes.size()));
    for (int64_t size : s.sizes)
      if (size < 1 || size % 2 == 0)
        fail(o.loc,
             "`stencil2`: window sizes must be odd and positive, found " + std::to_string(size));
    if (s.boundary == ac::BoundaryKind::Constant && o.types[size_t(2 * k + 1)] != types[k]->elem())
      fail(o.loc, "`stencil2`: boundary constant: expected " + types[k]->elem().str() + ", found " +
                      o.types[size_t(2 * k + 1)].str());
  }
  if (ta.rank() != tb.rank())
    fail(o.loc,
         "`stencil2`: the arrays must have the same rank, found " + ta.str() + " and " + tb.str());
  if (f.params.size() != 2)
    fail(f.loc, "stencil2: expected a function of 2 parameter(s), found " +
                    std::to_string(f.params.size()));
  for (int k = 0; k < 2; ++k) {
    const Param& p = f.params[size_t(k)];
    Type want = Type::window(types[k]->elem(), types[k]->rank());
    if (p.typed && p.type != want)
      fail(p.loc, "stencil2: parameter `" + p.name + "` should have type " + want.str() +
                      ", found " + p.type.str());
    sides[k].window = p.name;
  }
  ExpPtr body = clone_at(f.body, nullptr);
  lower(b, *body, sides[0], sides[1], o.loc);
  std::vector<ExpPtr> dims;
  for (int d = 0; d < ta.rank(); ++d)
    dims.push_back(b.prim(Prim::Min, {b.extent("_s2/a", d), b.extent("_s2/b", d)}));
  std::vector<std::pair<std::string, AccPtr>> bs{{"_s2/a", o.arr(5)}, {"_s2/b", o.arr(6)}};
  for (int k = 0; k < 2; ++k)
    if (sides[k].boundary == ac::BoundaryKind::Constant)
      bs.emplace_back(sides[k].constant, b.a(ac::Unit{o.scalar(size_t(2 * k + 1))}));
  return b.alet(std::move(bs),
                b.a(ac::Generate{b.ix(std::move(dims)), b.fn({"_s2/i"}, std::move(body))}));
}

} // namespace strata::expansion
