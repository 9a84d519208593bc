// The everyday forms (core/sugar.h) and functions (`define`, `adefine`) for
// the program builder: each form wherever its result type fits, its operands
// built like the core forms' (in-range indices, segments that fit the row,
// an error left in on purpose now and then).
#include <algorithm>

#include "core/scalar.h"
#include "oracle/gen/builder.h"

namespace strata::gen {
namespace {

const Type kI64 = Type::scalar(ScalarKind::I64);
const Type kBool = Type::scalar(ScalarKind::Bool);

// A bool array as one of `elem` (a scalar type): true is 1, false 0.
std::string as_elem(const std::string& bools, const Type& elem) {
  if (elem.is_scalar(ScalarKind::Bool)) return bools;
  std::string t(scalar_name(elem.scalar_kind()));
  return "(map (lambda ((q bool)) (if q (cast " + t + " 1) (cast " + t + " 0))) " + bools + ")";
}

bool numeric(const Type& t) {
  return t.is_scalar() && !t.is_scalar(ScalarKind::Bool);
}

} // namespace

// Segment lengths (array i64 1) that sum to `n` (an i64 expression), in K
// parts with the last taking the rest; now and then lengths that do not.
std::string Builder::segments(const std::string& n) {
  int k = c_.range(1, 3);
  std::string K = std::to_string(k), K1 = std::to_string(k - 1), i = fresh("i");
  if (c_.chance(lim_.error_percent)) return "(fill (ix " + K + ") 1)";
  return "(generate (ix " + K + ") (lambda (" + i + ") (if (< (proj 0 " + i + ") " + K1 +
         ") (quot " + n + " " + K + ") (- " + n + " (* (quot " + n + " " + K + ") " + K1 + ")))))";
}

std::string Builder::sugar(const Type& elem, int rank, int depth) {
  bool scalar = elem.is_scalar();
  bool num = numeric(elem);
  bool i64 = elem.is_scalar(ScalarKind::I64);
  int d = depth;
  switch (c_.weighted({rank >= 1 ? 3 : 0,
                       rank >= 1 ? 2 : 0,
                       rank >= 1 ? 2 : 0,
                       rank == 2 ? 2 : 0,
                       rank >= 1 ? 2 : 0,
                       3,
                       rank == 0 && num ? 3 : 0,
                       rank == 0 && num ? 2 : 0,
                       rank == 0 && scalar ? 2 : 0,
                       rank == 0 && scalar ? 2 : 0,
                       i64 && rank == 1 ? 4 : 0,
                       num ? 1 : 0,
                       scalar && rank >= 1 ? 2 : 0,
                       2,
                       rank == 1 ? 3 : 0,
                       rank == 1 ? 5 : 0,
                       i64 && rank < lim_.max_rank ? 1 : 0,
                       scalar && rank >= 1 ? 2 : 0,
                       scalar && rank >= 1 ? 1 : 0,
                       scalar && rank >= 1 ? 2 : 0})) {
  case 0: {
    static const char* forms[] = {"reverse", "tail", "init"};
    return "(" + std::string(forms[c_.below(3)]) + " " + acc(elem, rank, d) + ")";
  }
  case 1: {
    std::string n = top_exp(kI64, 1);
    return std::string(c_.below(2) ? "(take " : "(drop ") + n + " " + acc(elem, rank, d) + ")";
  }
  case 2: return "(++ " + acc(elem, rank, d) + " " + acc(elem, rank, d) + ")";
  case 3: return "(transpose " + acc(elem, 2, d) + ")";
  case 4:
    return "(take " + extent_exp() + " (drop " + extent_exp() + " " + acc(elem, rank, d) + "))";
  case 5: {
    int n = c_.range(3, 4);
    std::vector<Type> types;
    std::string arrays;
    for (int k = 0; k < n; ++k) {
      types.push_back(elem_type());
      arrays += " " + acc(types.back(), rank, d);
    }
    return "(zipwith " + lambda(types, elem, lim_.exp_depth) + arrays + ")";
  }
  case 6: {
    static const char* forms[] = {"sum", "product", "maximum", "minimum"};
    return "(" + std::string(forms[c_.below(4)]) + " " + acc(elem, this->rank(), d) + ")";
  }
  case 7: {
    std::string step = c_.below(2) ? " " + literal(elem.scalar_kind()) : "";
    return std::string(step.empty() ? "(enumFromN " : "(enumFromStepN ") + shape_exp(0) + " " +
           literal(elem.scalar_kind()) + step + ")";
  }
  case 8: {
    const char* form = c_.below(2) ? "and" : "or";
    return as_elem(std::string("(") + form + " " + acc(kBool, this->rank(), d) + ")", elem);
  }
  case 9: {
    Type from = elem_type();
    return as_elem(std::string(c_.below(2) ? "(any " : "(all ") +
                       lambda({from}, kBool, lim_.exp_depth) + " " + acc(from, this->rank(), d) +
                       ")",
                   elem);
  }
  case 10: return "(iota " + extent_exp() + ")";
  case 11: {
    std::string shape = shape_exp(rank);
    return "(enumFromN " + shape + " " + literal(elem.scalar_kind()) + ")";
  }
  case 12: {
    std::string op = reduction_op(elem.scalar_kind());
    return std::string(c_.below(2) ? "(postscanl " : "(postscanr ") + op + " " + top_exp(elem, 1) +
           " " + acc(elem, rank, d) + ")";
  }
  case 13: {
    // gather: the indices' shape; indices taken modulo the source's size (a
    // bounds error when it is empty), one time in eight by `rem`, whose
    // negative indices are a bounds error
    std::string src = acc(elem, 1, d);
    return with_array(src, Type::array(elem, 1), [&](const std::string& t) {
      std::string k = fresh("k");
      std::string mod = c_.below(8) == 0 ? "rem" : "mod";
      std::string idx = "(map (lambda (" + k + ") (" + mod + " " + k + " (max 1 (size " + t +
                        ")))) " + acc(kI64, rank, d) + ")";
      return "(gather " + idx + " " + t + ")";
    });
  }
  case 14: {
    // scatter into defaults: targets modulo the defaults' size, half the
    // time two sources to a target (which one wins is the form's rule)
    std::string defs = acc(elem, 1, d);
    return with_array(defs, Type::array(elem, 1), [&](const std::string& t) {
      std::string src = acc(elem, 1, d);
      return with_array(src, Type::array(elem, 1), [&](const std::string& s) {
        std::string i = fresh("i");
        std::string k = "(proj 0 " + i + ")";
        if (c_.below(2)) k = "(quot " + k + " 2)";
        std::string idx = "(generate (shape " + s + ") (lambda (" + i + ") (mod " + k +
                          " (max 1 (size " + t + ")))))";
        return "(scatter " + idx + " " + t + " " + s + ")";
      });
    });
  }
  case 15: {
    Type from = elem;
    int r = this->rank(1);
    std::string a = acc(from, r, d);
    return c_.below(2)
               ? "(aproj 0 (filter " + lambda({from}, kBool, lim_.exp_depth) + " " + a + "))"
               : "(aproj 0 (compact (map " + lambda({from}, kBool, lim_.exp_depth) + " " + a +
                     ") " + a + "))";
  }
  case 16: {
    // the counts of filter: one per row
    Type from = elem_type();
    return "(aproj 1 (filter " + lambda({from}, kBool, lim_.exp_depth) + " " +
           acc(from, rank + 1, d) + "))";
  }
  case 17: {
    std::string a = acc(elem, rank, d);
    return with_array(a, Type::array(elem, rank), [&](const std::string& t) {
      std::string n = "(proj " + std::to_string(rank - 1) + " (shape " + t + "))";
      std::string op = reduction_op(elem.scalar_kind());
      return std::string(c_.below(2) ? "(scanl1seg " : "(scanr1seg ") + op + " " + t + " " +
             segments(n) + ")";
    });
  }
  case 19: {
    // stencil2: one neighbour of each array (windows of 1 or 3), combined
    std::string sizes[2], offsets[2], bounds[2];
    for (int k = 0; k < 2; ++k) {
      sizes[k] = "(";
      for (int dim = 0; dim < rank; ++dim) {
        int w = c_.below(2) ? 3 : 1;
        sizes[k] += (dim ? " " : "") + std::to_string(w);
        offsets[k] += " " + std::to_string(w == 3 ? c_.range(0, 2) - 1 : 0);
      }
      sizes[k] += ")";
      static const char* kinds[] = {"clamp", "mirror", "wrap"};
      int b = c_.below(4);
      bounds[k] = b < 3 ? kinds[b] : "(constant " + literal(elem.scalar_kind()) + ")";
    }
    std::string na = fresh("na"), nb = fresh("nb"), xa = fresh("x"), xb = fresh("x");
    ExpScope inner;
    inner.vars = {{xa, elem}, {xb, elem}};
    std::string body = exp(elem, inner, lim_.exp_depth);
    std::string a = acc(elem, rank, d), bb = acc(elem, rank, d);
    return "(stencil2 " + sizes[0] + " " + bounds[0] + " " + sizes[1] + " " + bounds[1] +
           " (lambda (" + na + " " + nb + ") (let ((" + xa + " (at " + na + offsets[0] + ")) (" +
           xb + " (at " + nb + offsets[1] + "))) " + body + ")) " + a + " " + bb + ")";
  }
  default: {
    // a seeded segmented scan is one longer per segment: built from a row
    // of the same rank, its segments fitting that row
    std::string a = acc(elem, rank, d);
    return with_array(a, Type::array(elem, rank), [&](const std::string& t) {
      std::string n = "(proj " + std::to_string(rank - 1) + " (shape " + t + "))";
      std::string op = reduction_op(elem.scalar_kind());
      return std::string(c_.below(2) ? "(scanlseg " : "(scanrseg ") + op + " " + top_exp(elem, 1) +
             " " + t + " " + segments(n) + ")";
    });
  }
  }
}

// An array function of one array, defined before the program and called
// here: its body sees only its parameter.
std::string Builder::define_acc(const Type& elem, int rank, int depth) {
  Type param = Type::array(elem_type(), this->rank());
  std::string f = fresh("af"), a = fresh("a");
  std::vector<Named> saved = std::move(arrays_);
  arrays_ = {{a, param}};
  std::string body = acc(elem, rank, depth);
  arrays_ = std::move(saved);
  defines_.push_back("(adefine (" + f + " (" + a + " " + param.str() + ")) " + body + ")");
  return "(" + f + " " + acc(param.elem(), param.rank(), depth) + ")";
}

// A scalar function defined before the program: its parameter's type is
// written or left to be inferred at the call; its body sees only it.
std::string Builder::define_exp(const Type& t, ExpScope& s, int depth) {
  Type param = elem_type();
  std::string f = fresh("sf"), x = fresh("x");
  std::vector<Named> saved = std::move(arrays_);
  arrays_.clear();
  ExpScope inner;
  inner.vars.push_back({x, param});
  std::string body = exp(t, inner, depth - 1);
  arrays_ = std::move(saved);
  std::string p = c_.below(2) ? x : "(" + x + " " + param.str() + ")";
  defines_.push_back("(define (" + f + " " + p + ") " + body + ")");
  return "(" + f + " " + exp(param, s, depth - 1) + ")";
}

// `(let ((f (lambda (v) body))) (f e))`: a let-bound function, called.
std::string Builder::let_function(const Type& t, ExpScope& s, int depth) {
  Type param = elem_type();
  std::string f = fresh("lf"), v = fresh("v");
  s.vars.push_back({v, param});
  std::string body = exp(t, s, depth - 1);
  s.vars.pop_back();
  std::string arg = exp(param, s, depth - 1);
  std::string p = c_.below(2) ? v : "(" + v + " " + param.str() + ")";
  return "(let ((" + f + " (lambda (" + p + ") " + body + "))) (" + f + " " + arg + "))";
}

} // namespace strata::gen
