// Reductions whose function is associative but does not commute
// (docs/language.md, Legal orders): the functions a user folds and scans with
// when order matters, which engines must run in contiguous runs (one lane per
// chunk) and the oracle must judge. Each is a monoid on a tuple type: the
// integers of the array are lifted into it (with their position in the row
// where it matters), reduced by any reducing form, and projected back onto a
// component that shows the order the elements were combined in.
#include "core/scalar.h"
#include "oracle/gen/builder.h"

namespace strata::gen {
namespace {

struct Monoid {
  Type type;           // the tuple type reduced
  std::string combine; // the body of (lambda ((a M) (b M)) ...)
  std::string lift;    // an M from the element `x` and its position `j` in its row
  std::string project; // back to the element type, from `p` of type M
};

// Fresh names the texts use: the combining function's operands, the element
// and its position in the lifting function, the projection's parameter.
struct Names {
  std::string a, b, x, j, p;
};

// A monoid on integers of kind k.
Monoid pick_monoid(int which, ScalarKind k, const Names& n) {
  std::string T(scalar_name(k));
  Type t = Type::scalar(k);
  auto lit = [&](int v) { return "(cast " + T + " " + std::to_string(v) + ")"; };
  auto a = [&](int c) { return "(proj " + std::to_string(c) + " " + n.a + ")"; };
  auto b = [&](int c) { return "(proj " + std::to_string(c) + " " + n.b + ")"; };
  auto mul = [](const std::string& l, const std::string& r) { return "(* " + l + " " + r + ")"; };
  auto add = [](const std::string& l, const std::string& r) { return "(+ " + l + " " + r + ")"; };
  switch (which) {
  case 0: // affine maps v -> m v + c, the left one applied first: (m1 m2, c1 m2 + c2);
          // odd multipliers, so that long products stay informative
    return {Type::tuple({t, t}),
            "(tuple " + mul(a(0), b(0)) + " " + add(mul(a(1), b(0)), b(1)) + ")",
            "(tuple (bor " + n.x + " " + lit(1) + ") " + n.x + ")", "(proj 1 " + n.p + ")"};
  case 1: // 2x2 integer matrices ((x 1) (1 0)), multiplied in row order
    return {
        Type::tuple({t, t, t, t}),
        "(tuple " + add(mul(a(0), b(0)), mul(a(1), b(2))) + " " +
            add(mul(a(0), b(1)), mul(a(1), b(3))) + " " + add(mul(a(2), b(0)), mul(a(3), b(2))) +
            " " + add(mul(a(2), b(1)), mul(a(3), b(3))) + ")",
        "(tuple " + n.x + " " + lit(1) + " " + lit(1) + " " + lit(0) + ")", "(proj 1 " + n.p + ")"};
  case 2: // the maximum with its position, the first of equal maxima
    return {Type::tuple({t, Type::scalar(ScalarKind::I64)}),
            "(if (< " + a(0) + " " + b(0) + ") " + n.b + " " + n.a + ")",
            "(tuple " + n.x + " " + n.j + ")", "(cast " + T + " (proj 1 " + n.p + "))"};
  default: // the segmented sum: a flag starts a new sum
    return {Type::tuple({Type::scalar(ScalarKind::Bool), t}),
            "(tuple (or " + a(0) + " " + b(0) + ") (if " + b(0) + " " + b(1) + " " +
                add(a(1), b(1)) + "))",
            "(tuple (== (band " + n.x + " " + lit(3) + ") " + lit(0) + ") " + n.x + ")",
            "(proj 1 " + n.p + ")"};
  }
}

} // namespace

std::string Builder::monoid_reduction(const Type& elem, int rank, int depth) {
  Names n{fresh("a"), fresh("b"), fresh("x"), fresh("j"), fresh("p")};
  Monoid m = pick_monoid(c_.below(4), elem.scalar_kind(), n);
  std::string M = m.type.str();
  std::string combine =
      "(lambda ((" + n.a + " " + M + ") (" + n.b + " " + M + ")) " + m.combine + ")";
  std::string seed = "(tuple";
  for (const Type& c : m.type.elems())
    seed += " " + literal(c.scalar_kind());
  seed += ")";

  // A source of rank `src_rank` lifted into M, element by element.
  auto lifted = [&](int src_rank) {
    std::string src = acc(elem, src_rank, depth);
    return with_array(src, Type::array(elem, src_rank), [&](const std::string& t) {
      std::string i = fresh("i");
      return "(generate (shape " + t + ") (lambda ((" + i + " " + Type::index(src_rank).str() +
             ")) (let ((" + n.x + " (! " + t + " " + i + ")) (" + n.j + " (proj " +
             std::to_string(src_rank - 1) + " " + i + "))) " + m.lift + ")))";
    });
  };
  // `form` (its function and seed written) over a lifted array and segments that fit its rows.
  auto segmented = [&](const std::string& form) {
    return with_array(lifted(rank), Type::array(m.type, rank), [&](const std::string& t) {
      std::string extent = "(proj " + std::to_string(rank - 1) + " (shape " + t + "))";
      return form + " " + t + " " + segments(extent) + ")";
    });
  };
  bool deeper = rank < lim_.max_rank, row = rank >= 1;
  std::string reduced;
  switch (c_.weighted({deeper ? 3 : 0, deeper ? 2 : 0, row ? 2 : 0, row ? 2 : 0, row ? 1 : 0,
                       row ? 1 : 0, deeper ? 1 : 0, row ? 2 : 0, row ? 2 : 0})) {
  case 0: reduced = "(fold " + combine + " " + seed + " " + lifted(rank + 1) + ")"; break;
  case 1: reduced = "(fold1 " + combine + " " + lifted(rank + 1) + ")"; break;
  case 2: reduced = "(scanl1 " + combine + " " + lifted(rank) + ")"; break;
  case 3: reduced = "(scanr1 " + combine + " " + lifted(rank) + ")"; break;
  case 4: reduced = "(scanl " + combine + " " + seed + " " + lifted(rank) + ")"; break;
  case 5: reduced = "(scanr " + combine + " " + seed + " " + lifted(rank) + ")"; break;
  case 6:
    reduced = "(aproj 1 (scanl' " + combine + " " + seed + " " + lifted(rank + 1) + "))";
    break;
  case 7: reduced = segmented("(foldseg " + combine + " " + seed); break;
  default:
    reduced = segmented(std::string(c_.below(2) ? "(scanl1seg " : "(scanr1seg ") + combine);
    break;
  }
  return "(map (lambda ((" + n.p + " " + M + ")) " + m.project + ") " + reduced + ")";
}

} // namespace strata::gen
