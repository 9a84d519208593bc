// The forms whose result depends on data: `compact` and `filter` (a
// scan-based compaction) and the segmented scans (one flagged scan). Each
// expands to core forms that every engine runs in parallel and
// deterministically (docs/language.md, Everyday forms).
#include <limits>

#include "core/expand_build.h"

namespace strata::expansion {
namespace {

// A read whose bounds error names `form` and the program's array.
// `what` names an operand that is not a variable.
ExpPtr named_read(const Build& b, const std::string& array, ExpPtr index, const std::string& form,
                  const AccPtr& operand, const std::string& what) {
  const auto* v = std::get_if<ac::Var>(&operand->node);
  return b.e(ex::Read{b.avar(array), std::move(index), form, v ? v->name : what});
}

// (compact flags a): the elements of `a` whose flag is true, in row-major
// order, and how many each row kept. Each array is read at the other's
// indices, so arrays of different shapes are a bounds error naming `compact`.
AccPtr compact(const Build& b, const Operands& o) {
  const Type& flags = o.array(0, 1);
  const Type& a = o.array(1, 1);
  o.bool_elem(0);
  if (flags.rank() != a.rank())
    fail(o.loc, "`compact`: the flags and the array must have the same rank, found " + flags.str() +
                    " and " + a.str());
  auto i = [&] { return b.var("_cp/i"); };
  auto j = [&] { return b.var("_cp/j"); };
  ExpPtr keep = b.e(
      ex::If{named_read(b, "_cp/f", i(), "compact", o.arr(0), "flags"), b.i64(1), b.i64(0)});
  ExpPtr value = named_read(b, "_cp/a", i(), "compact", o.arr(1), "a");
  Lambda add = b.fn({"_cp/x", "_cp/y"}, b.prim(Prim::Add, {b.var("_cp/x"), b.var("_cp/y")}));
  AccPtr flat_keep = b.a(ac::Reshape{b.ix({b.e(ex::SizeOf{b.avar("_cp/k")})}), b.avar("_cp/k")});
  // Source element i goes to its offset when kept.
  ExpPtr target = b.e(
      ex::Let{{ex::Binding{"_cp/j", b.e(ex::ToIndex{b.shape("_cp/v"), i()}), b.loc}},
              b.e(ex::If{b.prim(Prim::Eq, {b.e(ex::LinearRead{b.avar("_cp/k"), j()}), b.i64(1)}),
                         b.ix({b.e(ex::LinearRead{b.avar("_cp/o"), j()})}), b.e(ex::Ignore{1})})});
  AccPtr kept = b.a(ac::Permute{
      b.fn({"_cp/new", "_cp/old"}, b.var("_cp/new")),
      b.a(ac::Fill{b.ix({b.the("_cp/t")}), b.e(ex::LinearRead{b.avar("_cp/v"), b.i64(0)})}),
      b.fn({"_cp/i"}, std::move(target)), b.avar("_cp/v")});
  AccPtr counts = b.a(ac::Fold{add, b.i64(0), b.avar("_cp/k")});
  AccPtr scan = b.a(ac::Scan{ac::ScanKind::ScanlPrime, add, b.i64(0), std::move(flat_keep)});
  return b.alet({{"_cp/f", o.arr(0)},
                 {"_cp/a", o.arr(1)},
                 {"_cp/k", b.a(ac::Generate{b.shape("_cp/a"), b.fn({"_cp/i"}, std::move(keep))})},
                 {"_cp/v", b.a(ac::Generate{b.shape("_cp/f"), b.fn({"_cp/i"}, std::move(value))})},
                 {"_cp/s", std::move(scan)},
                 {"_cp/o", b.a(ac::AProj{0, b.avar("_cp/s")})},
                 {"_cp/t", b.a(ac::AProj{1, b.avar("_cp/s")})}},
                b.a(ac::ATuple{{std::move(kept), std::move(counts)}}));
}

AccPtr filter(const Build& b, const Operands& o) {
  o.array(1, 1);
  AccPtr flags = b.a(ac::Map{o.fn(0), b.avar("_flt/a")});
  AccPtr call = b.a(ac::Call{
      "compact",
      {Operand{std::move(flags), nullptr, nullptr}, Operand{b.avar("_flt/a"), nullptr, nullptr}}});
  return b.alet({{"_flt/a", o.arr(1)}}, std::move(call));
}

// The segment lengths and the array's innermost extent: `segs` must be
// (array i64 1), and the array of rank at least 1.
int segmented_operands(const Operands& o, size_t a, size_t segs) {
  int r = o.array(a, 1).rank();
  if (o.array(segs) != Type::array(Type::scalar(ScalarKind::I64), 1))
    fail(o.loc, o.what() + ": the segments must be (array i64 1), found " + o.types[segs].str());
  return r;
}

// (scanl1seg f a segs) and (scanr1seg f a segs): one scan of (flag, value)
// pairs whose flag marks each segment's first (last) element; the combining
// function restarts at a flag, which keeps it associative when f is.
// Segments are those of foldseg (the same lengths for every row, summing to
// the row): the flags come from a foldseg, so lengths that do not fit the
// row are foldseg's shape error.
AccPtr inclusive(const Build& b, const Operands& o, bool left) {
  int r = segmented_operands(o, 1, 2);
  const Type& elem = o.array(1).elem();
  auto n = [&] { return b.extent("_sg/a", r - 1); };
  // Each segment's first (last) position; an empty segment's is out of range.
  int64_t none = left ? std::numeric_limits<int64_t>::max() : -1;
  Lambda pick = b.fn({"_sg/x", "_sg/y"},
                     b.prim(left ? Prim::Min : Prim::Max, {b.var("_sg/x"), b.var("_sg/y")}));
  AccPtr positions = b.a(ac::Generate{b.ix({n()}), b.fn({"_sg/i"}, b.proj(0, b.var("_sg/i")))});
  AccPtr edges = b.a(ac::FoldSeg{std::move(pick), b.i64(none), positions, b.avar("_sg/g")});
  ExpPtr edge = b.read("_sg/e", b.var("_sg/j"));
  ExpPtr in_range =
      b.prim(Prim::And, {b.prim(Prim::Ge, {edge, b.i64(0)}), b.prim(Prim::Lt, {edge, n()})});
  AccPtr flags = b.a(ac::Permute{
      b.fn({"_sg/p", "_sg/q"}, b.prim(Prim::Or, {b.var("_sg/p"), b.var("_sg/q")})),
      b.a(ac::Fill{b.ix({n()}), b.e(ex::Const{Scalar::make<bool>(false)})}),
      b.fn({"_sg/j"}, b.e(ex::If{in_range, b.ix({edge}), b.e(ex::Ignore{1})})),
      b.a(ac::Map{b.fn({"_sg/x"}, b.e(ex::Const{Scalar::make<bool>(true)})), b.avar("_sg/e")})});
  ExpPtr pair = b.e(ex::Tuple{
      {b.read("_sg/fl", b.ix({b.proj(r - 1, b.var("_sg/i"))})), b.read("_sg/a", b.var("_sg/i"))}});
  AccPtr pairs = b.a(ac::Generate{b.shape("_sg/a"), b.fn({"_sg/i"}, std::move(pair))});
  // left: (fx, x) + (fy, y) = (fx or fy, fy ? y : f x y); right: fx ? x : f x y.
  auto flag = [&](const char* v) { return b.proj(0, b.var(v)); };
  auto value = [&](const char* v) { return b.proj(1, b.var(v)); };
  ExpPtr combined = apply(o.fn(0), {value("_sg/x"), value("_sg/y")}, {elem, elem}, o.c.name, o.loc);
  ExpPtr restart = left ? flag("_sg/y") : flag("_sg/x");
  ExpPtr op_body = b.e(ex::If{
      restart,
      b.e(ex::Tuple{
          {b.prim(Prim::Or, {flag("_sg/x"), flag("_sg/y")}), value(left ? "_sg/y" : "_sg/x")}}),
      b.e(ex::Tuple{{b.prim(Prim::Or, {flag("_sg/x"), flag("_sg/y")}), std::move(combined)}})});
  AccPtr scan =
      b.a(ac::Scan{left ? ac::ScanKind::Scanl1 : ac::ScanKind::Scanr1,
                   b.fn({"_sg/x", "_sg/y"}, std::move(op_body)), nullptr, std::move(pairs)});
  AccPtr values = b.a(ac::Map{b.fn({"_sg/p"}, b.proj(1, b.var("_sg/p"))), std::move(scan)});
  return b.alet({{"_sg/a", o.arr(1)},
                 {"_sg/g", o.arr(2)},
                 {"_sg/e", std::move(edges)},
                 {"_sg/fl", std::move(flags)}},
                std::move(values));
}

// (scanlseg f z a segs), (scanrseg f z a segs): each segment with z put
// before (after) it, then scanned inclusively: segment j gives len_j + 1
// elements, so the innermost extent is n + k.
AccPtr seeded(const Build& b, const Operands& o, bool left) {
  int r = segmented_operands(o, 2, 3);
  const Type& elem = o.array(2).elem();
  if (o.types[1] != elem)
    fail(o.loc, o.what() + " seed: expected " + elem.str() + ", found " + o.types[1].str());
  auto n = [&] { return b.extent("_ss/a", r - 1); };
  auto k = [&] { return b.e(ex::SizeOf{b.avar("_ss/g")}); };
  Lambda add = b.fn({"_ss/x", "_ss/y"}, b.prim(Prim::Add, {b.var("_ss/x"), b.var("_ss/y")}));
  // len_j + 1, through foldseg so that lengths not fitting the row are its error.
  AccPtr longer =
      b.a(ac::FoldSeg{add, b.i64(1), b.a(ac::Fill{b.ix({n()}), b.i64(1)}), b.avar("_ss/g")});
  // Each segment's first output position.
  AccPtr starts =
      b.a(ac::AProj{0, b.a(ac::Scan{ac::ScanKind::ScanlPrime, add, b.i64(0), b.avar("_ss/l")})});
  // The segment of each output position: marks at each segment's first output.
  AccPtr marks =
      b.a(ac::Permute{add, b.a(ac::Fill{b.ix({b.prim(Prim::Add, {n(), k()})}), b.i64(0)}),
                      b.fn({"_ss/j"}, b.ix({b.read("_ss/o", b.var("_ss/j"))})),
                      b.a(ac::Fill{b.ix({k()}), b.i64(1)})});
  AccPtr ids = b.a(ac::Map{b.fn({"_ss/x"}, b.prim(Prim::Sub, {b.var("_ss/x"), b.i64(1)})),
                           b.a(ac::Scan{ac::ScanKind::Scanl1, add, nullptr, std::move(marks)})});
  // Output q of segment j: local position q - o_j; the seed at 0 (left) or
  // at len_j (right), else a at q - j - 1 (left) or q - j (right).
  auto q = [&] { return b.proj(r - 1, b.var("_ss/i")); };
  auto j = [&] { return b.var("_ss/j"); };
  ExpPtr local = b.prim(Prim::Sub, {q(), b.read("_ss/o", b.ix({j()}))});
  ExpPtr last = b.prim(Prim::Sub, {b.read("_ss/l", b.ix({j()})), b.i64(1)});
  ExpPtr at_seed = b.prim(Prim::Eq, {local, left ? b.i64(0) : std::move(last)});
  ExpPtr source = b.prim(Prim::Sub, {q(), left ? b.prim(Prim::Add, {j(), b.i64(1)}) : j()});
  ExpPtr element =
      b.e(ex::Let{{ex::Binding{"_ss/j", b.read("_ss/id", b.ix({q()})), b.loc}},
                  b.e(ex::If{std::move(at_seed), b.the("_ss/z"),
                             b.read("_ss/a", b.index_with_last("_ss/i", r, std::move(source)))})});
  AccPtr widened = b.a(ac::Generate{b.shape_with_last("_ss/a", r, b.prim(Prim::Add, {n(), k()})),
                                    b.fn({"_ss/i"}, std::move(element))});
  std::string inner = left ? "scanl1seg" : "scanr1seg";
  AccPtr scan = b.a(ac::Call{inner,
                             {Operand{nullptr, nullptr, std::make_shared<Lambda>(o.fn(0))},
                              Operand{std::move(widened), nullptr, nullptr},
                              Operand{b.avar("_ss/l"), nullptr, nullptr}}});
  return b.alet({{"_ss/a", o.arr(2)},
                 {"_ss/g", o.arr(3)},
                 {"_ss/z", b.a(ac::Unit{o.scalar(1)})},
                 {"_ss/l", std::move(longer)},
                 {"_ss/o", std::move(starts)},
                 {"_ss/id", std::move(ids)}},
                std::move(scan));
}

} // namespace

AccPtr segmented_sugar(const Build& b, const Operands& o) {
  const std::string& name = o.c.name;
  if (name == "compact") return compact(b, o);
  if (name == "filter") return filter(b, o);
  if (name == "scanl1seg" || name == "scanr1seg") return inclusive(b, o, name == "scanl1seg");
  if (name == "scanlseg" || name == "scanrseg") return seeded(b, o, name == "scanlseg");
  fail(o.loc, "unknown form `" + name + "`");
}

} // namespace strata::expansion
