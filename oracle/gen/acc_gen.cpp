// Array expressions (docs/language.md, Collective operations) for the program builder: every
// collective form, type-directed, with in-range indices and bounded loops.
#include <algorithm>

#include "core/scalar.h"
#include "oracle/gen/builder.h"
#include "oracle/gen/values.h"

namespace strata::gen {
namespace {

const Type kI64 = Type::scalar(ScalarKind::I64);

// `count` distinct positions out of `n`, marked true.
std::vector<bool> pick_positions(Choices& c, int n, int count) {
  std::vector<int> free;
  for (int k = 0; k < n; ++k)
    free.push_back(k);
  std::vector<bool> marked(size_t(n), false);
  for (int placed = 0; placed < count; ++placed) {
    size_t j = size_t(c.below(int(free.size())));
    marked[size_t(free[j])] = true;
    free.erase(free.begin() + std::ptrdiff_t(j));
  }
  return marked;
}

} // namespace

std::string Builder::acc(const Type& elem, int rank, int depth) {
  if (depth <= 0) return acc_leaf(elem, rank);
  bool scalar = elem.is_scalar();
  bool deeper = rank < lim_.max_rank;
  int d = depth - 1;
  switch (c_.weighted({4,
                       6,
                       4,
                       3,
                       scalar && deeper ? 4 : 0,
                       scalar && rank >= 1 ? 4 : 0,
                       scalar && rank >= 1 ? 2 : 0,
                       scalar ? 2 : 0,
                       2,
                       2,
                       rank >= 1 ? 2 : 0,
                       deeper ? 2 : 0,
                       rank >= 1 ? 2 : 0,
                       1,
                       1,
                       1,
                       3,
                       1,
                       rank == 0 ? 2 : 0,
                       5,
                       1,
                       scalar && is_integral(elem.scalar_kind()) ? 2 : 0})) {
  case 1: {
    Type from = elem_type();
    std::string a = acc(from, rank, d);
    return "(map " + lambda({from}, elem, lim_.exp_depth) + " " + a + ")";
  }
  case 2: {
    Type t1 = elem_type(), t2 = elem_type();
    std::string a = acc(t1, rank, d), b = acc(t2, rank, d);
    return "(zipwith " + lambda({t1, t2}, elem, lim_.exp_depth) + " " + a + " " + b + ")";
  }
  case 3:
    return "(generate " + shape_exp(rank) + " " +
           lambda({Type::index(rank)}, elem, lim_.exp_depth) + ")";
  case 4: return fold_like(elem, rank, d);
  case 5: return scan_like(elem, rank, d);
  case 6: return foldseg(elem, rank, d);
  case 7: return permute(elem, rank, d);
  case 8: return backpermute(elem, rank, d);
  case 9: return reshape(elem, rank, d);
  case 10: return replicate(elem, rank, d);
  case 11: return slice(elem, rank, d);
  case 12: return stencil(elem, rank, d);
  case 13: return awhile(elem, rank, d);
  case 14: return "(atrace \"" + fresh("l") + "\" " + acc(elem, rank, d) + ")";
  case 15: {
    std::string cond = top_exp(Type::scalar(ScalarKind::Bool), 1);
    std::string a = acc(elem, rank, d);
    return "(acond " + cond + " " + a + " " + acc(elem, rank, d) + ")";
  }
  case 16: return alet(elem, rank, d);
  case 17: {
    std::string a = acc(elem, rank, d), b = acc(elem_type(), this->rank(), d);
    return c_.below(2) ? "(aproj 1 (atuple " + b + " " + a + "))"
                       : "(aproj 0 (atuple " + a + " " + b + "))";
  }
  case 18: return "(unit " + top_exp(elem, lim_.exp_depth) + ")";
  case 19: return sugar(elem, rank, d);
  case 20: return define_acc(elem, rank, d);
  case 21: return monoid_reduction(elem, rank, d);
  default: return acc_leaf(elem, rank);
  }
}

std::string Builder::acc_leaf(const Type& elem, int rank) {
  Type t = Type::array(elem, rank);
  std::vector<const Named*> vars;
  for (const Named& a : arrays_)
    if (a.type == t) vars.push_back(&a);
  switch (c_.weighted({3, vars.empty() ? 0 : 8, 2, 2, rank == 0 ? 2 : 0})) {
  case 1: return vars[vars.size() - 1 - size_t(c_.below(int(vars.size())))]->name;
  case 2: return use_literal(elem, rank);
  case 3: return "(generate " + shape_exp(rank) + " " + lambda({Type::index(rank)}, elem, 1) + ")";
  case 4: return "(unit " + top_exp(elem, 1) + ")";
  default: return "(fill " + shape_exp(rank) + " " + top_exp(elem, 0) + ")";
  }
}

std::string Builder::use_literal(const Type& elem, int rank) {
  Shape sh = random_shape(c_, rank, 3);
  Array a = random_array(c_, elem, sh);
  std::string text = "(use (array " + elem.str() + " (";
  for (size_t k = 0; k < sh.size(); ++k)
    text += (k ? " " : "") + std::to_string(sh[k]);
  text += ")";
  for (int64_t i = 0; i < a.size(); ++i) {
    if (a.num_leaves() == 1 && elem.is_scalar()) {
      text += " " + format_literal(a.read(0, i));
    } else {
      text += " (";
      for (size_t leaf = 0; leaf < a.num_leaves(); ++leaf)
        text += (leaf ? " " : "") + format_literal(a.read(leaf, i));
      text += ")";
    }
  }
  return text + "))";
}

std::string Builder::extent_exp() {
  std::vector<const Named*> shaped;
  for (const Named& a : arrays_)
    if (a.type.rank() > 0) shaped.push_back(&a);
  switch (c_.weighted({10, shaped.empty() ? 0 : 3, 1, c_.chance(lim_.error_percent) ? 1 : 0})) {
  case 1: {
    // At most 4, as drawn extents are: a long row's extent (shape_exp) must not
    // become every extent of a new array of rank 2 or 3.
    const Named* a = shaped[size_t(c_.below(int(shaped.size())))];
    return "(min (proj " + std::to_string(c_.below(a->type.rank())) + " (shape " + a->name +
           ")) 4)";
  }
  case 2: return "0";
  case 3: return c_.chance(50) ? "-1" : std::to_string(c_.range(1, 4)); // -1: a shape error
  default: return std::to_string(c_.range(1, 4));
  }
}

std::string Builder::shape_exp(int rank) {
  for (const Named& a : arrays_)
    if (a.type.rank() == rank && c_.chance(15)) return "(shape " + a.name + ")";
  // Rows of several chunks of the small order (chunks of 3 and 4 elements), and
  // rows past the blocked order's thresholds (folds chunked from 32768 elements,
  // scans from 65536), so that their chunks, lanes and carries are compared too.
  if (rank == 1 && c_.chance(10)) return "(ix " + std::to_string(c_.range(5, 40)) + ")";
  if (rank == 1 && c_.chance(1)) return c_.below(2) ? "(ix 32769)" : "(ix 65537)";
  std::string text = "(ix";
  for (int k = 0; k < rank; ++k)
    text += " " + extent_exp();
  return text + ")";
}

std::string Builder::fold_like(const Type& elem, int rank, int depth) {
  ScalarKind k = elem.scalar_kind();
  std::string a = acc(elem, rank + 1, depth);
  if (c_.chance(30)) return "(fold1 " + reduction_op(k) + " " + a + ")";
  return "(fold " + reduction_op(k) + " " + top_exp(elem, 1) + " " + a + ")";
}

std::string Builder::scan_like(const Type& elem, int rank, int depth) {
  ScalarKind k = elem.scalar_kind();
  int kind = c_.weighted({3, 2, 2, 2, 1, rank < lim_.max_rank ? 1 : 0});
  std::string op = reduction_op(k);
  if (kind == 5) // the totals of scanl' have rank R-1
    return "(aproj 1 (scanl' " + op + " " + top_exp(elem, 1) + " " + acc(elem, rank + 1, depth) +
           "))";
  std::string a = acc(elem, rank, depth);
  switch (kind) {
  case 1: return "(scanl1 " + op + " " + a + ")";
  case 2: return "(scanr " + op + " " + top_exp(elem, 1) + " " + a + ")";
  case 3: return "(scanr1 " + op + " " + a + ")";
  case 4: return "(aproj 0 (scanl' " + op + " " + top_exp(elem, 1) + " " + a + "))";
  default: return "(scanl " + op + " " + top_exp(elem, 1) + " " + a + ")";
  }
}

// Segments: K lengths summing to the innermost extent (some empty when it is small).
std::string Builder::foldseg(const Type& elem, int rank, int depth) {
  std::string a = acc(elem, rank, depth);
  return with_array(a, Type::array(elem, rank), [&](const std::string& t) {
    int k = c_.range(1, 3);
    std::string K = std::to_string(k), K1 = std::to_string(k - 1);
    std::string n = "(proj " + std::to_string(rank - 1) + " (shape " + t + "))";
    std::string i = fresh("i");
    std::string segs = c_.chance(lim_.error_percent)
                           ? "(fill (ix " + K + ") 1)" // sums to K: a shape error unless n = K
                           : "(generate (ix " + K + ") (lambda ((" + i +
                                 " (ix 1))) (if (< (proj 0 " + i + ") " + K1 + ") (quot " + n +
                                 " " + K + ") (- " + n + " (* (quot " + n + " " + K + ") " + K1 +
                                 ")))))";
    return "(foldseg " + reduction_op(elem.scalar_kind()) + " " + top_exp(elem, 1) + " " + t + " " +
           segs + ")";
  });
}

std::string Builder::permute(const Type& elem, int rank, int depth) {
  std::string defs = acc(elem, rank, depth);
  return with_array(defs, Type::array(elem, rank), [&](const std::string& d) {
    int rs = this->rank();
    std::string src = acc(elem, rs, depth);
    std::string i = fresh("i");
    ExpScope s;
    s.vars.push_back({i, Type::index(rs)});
    std::string ignore = "(ignore " + std::to_string(rank) + ")";
    std::string target;
    if (c_.chance(lim_.error_percent)) {
      target = index_exp(rank, s, lim_.exp_depth); // may fall outside
    } else {
      target = "(if (== (size " + d + ") 0) " + ignore + " " +
               in_range_index(d, rank, s, lim_.exp_depth) + ")";
      if (c_.chance(30))
        target = "(if " + exp(Type::scalar(ScalarKind::Bool), s, lim_.exp_depth) + " " + ignore +
                 " " + target + ")";
    }
    return "(permute " + reduction_op(elem.scalar_kind(), /*commutative=*/true) + " " + d +
           " (lambda ((" + i + " " + Type::index(rs).str() + ")) " + target + ") " + src + ")";
  });
}

std::string Builder::backpermute(const Type& elem, int rank, int depth) {
  int rs = this->rank();
  std::string a = acc(elem, rs, depth);
  return with_array(a, Type::array(elem, rs), [&](const std::string& t) {
    std::string sh = "(ix";
    for (int k = 0; k < rank; ++k) {
      std::string e = extent_exp();
      sh += " " + (k == 0 ? "(if (== (size " + t + ") 0) 0 " + e + ")" : e);
    }
    sh += ")";
    std::string i = fresh("i");
    ExpScope s;
    s.vars.push_back({i, Type::index(rank)});
    std::string f = "(lambda ((" + i + " " + Type::index(rank).str() + ")) " +
                    in_range_index(t, rs, s, lim_.exp_depth) + ")";
    return "(backpermute " + sh + " " + f + " " + t + ")";
  });
}

std::string Builder::reshape(const Type& elem, int rank, int depth) {
  if (rank == 0) return "(reshape (ix) " + acc(elem, 0, depth) + ")";
  int rs = this->rank();
  std::string a = acc(elem, rs, depth);
  return with_array(a, Type::array(elem, rs), [&](const std::string& t) {
    std::string size = "(size " + t + ")";
    if (c_.chance(lim_.error_percent)) size = "(+ " + size + " 1)"; // a shape error
    std::string sh;
    if (rs == rank && c_.chance(30)) {
      sh = "(shape " + t + ")";
    } else if (rs == 2 && rank == 2 && c_.chance(40)) {
      sh = "(ix (proj 1 (shape " + t + ")) (proj 0 (shape " + t + ")))";
    } else {
      int at = c_.below(rank);
      sh = "(ix";
      for (int k = 0; k < rank; ++k)
        sh += k == at ? " " + size : " 1";
      sh += ")";
    }
    return "(reshape " + sh + " " + t + ")";
  });
}

std::string Builder::replicate(const Type& elem, int rank, int depth) {
  int alls = c_.range(0, rank);
  std::vector<bool> is_all = pick_positions(c_, rank, alls);
  std::string a = acc(elem, alls, depth);
  std::string spec = "(spec";
  for (int k = 0; k < rank; ++k)
    spec += " " + (is_all[size_t(k)] ? std::string("all") : extent_exp());
  return "(replicate " + spec + ") " + a + ")";
}

std::string Builder::slice(const Type& elem, int rank, int depth) {
  int rs = c_.range(rank + 1, lim_.max_rank);
  int fixed = rs - rank;
  std::vector<bool> is_fixed = pick_positions(c_, rs, fixed);
  std::string a = acc(elem, rs, depth);
  return with_array(a, Type::array(elem, rs), [&](const std::string& t) {
    std::string spec = "(spec";
    for (int k = 0; k < rs; ++k) {
      if (!is_fixed[size_t(k)]) {
        spec += " all";
        continue;
      }
      std::string dim = "(proj " + std::to_string(k) + " (shape " + t + "))";
      spec += " (if (== " + dim + " 0) 0 (mod " + top_exp(kI64, 1) + " " + dim + "))";
    }
    return "(slice " + t + " " + spec + "))";
  });
}

std::string Builder::stencil(const Type& elem, int rank, int depth) {
  Type from = elem_type();
  std::string a = acc(from, rank, depth);
  std::vector<int64_t> sizes;
  std::string ws = "(";
  for (int k = 0; k < rank; ++k) {
    static const int64_t choices[] = {3, 1, 3, 5};
    sizes.push_back(choices[c_.below(4)]);
    ws += (k ? " " : "") + std::to_string(sizes.back());
  }
  ws += ")";
  std::string boundary;
  switch (c_.below(4)) {
  case 1: boundary = "mirror"; break;
  case 2: boundary = "wrap"; break;
  case 3: boundary = "(constant " + top_exp(from, 1) + ")"; break;
  default: boundary = "clamp";
  }
  Named window{fresh("nb"), Type::window(from, rank)};
  ExpScope s;
  s.window = &window;
  s.window_sizes = sizes;
  std::string body = exp(elem, s, lim_.exp_depth);
  return "(stencil " + ws + " " + boundary + " (lambda ((" + window.name + " " + window.type.str() +
         ")) " + body + ") " + a + ")";
}

// An array loop whose state carries an iteration counter: at most 3 iterations.
std::string Builder::awhile(const Type& elem, int rank, int depth) {
  Type data = Type::array(elem, rank);
  Type state = Type::tuple({Type::array(kI64, 0), data});
  std::string init = "(atuple (unit 0) " + acc(elem, rank, depth) + ")";
  std::string s = fresh("s"), cnt = fresh("c"), x = fresh("x"), k = fresh("k");
  std::string param = "((" + s + " " + state.str() + "))";
  std::string cond = "(lambda " + param + " (alet ((" + cnt + " (aproj 0 " + s +
                     "))) (unit (< (the " + cnt + ") " + std::to_string(c_.range(0, 3)) + "))))";
  arrays_.push_back({cnt, Type::array(kI64, 0)});
  arrays_.push_back({x, data});
  std::string next = acc(elem, rank, depth);
  arrays_.resize(arrays_.size() - 2);
  std::string body = "(lambda " + param + " (alet ((" + cnt + " (aproj 0 " + s + ")) (" + x +
                     " (aproj 1 " + s + "))) (atuple (map (lambda ((" + k + " i64)) (+ " + k +
                     " 1)) " + cnt + ") " + next + ")))";
  return "(aproj 1 (awhile " + cond + " " + body + " " + init + "))";
}

std::string Builder::alet(const Type& elem, int rank, int depth) {
  int n = c_.range(1, 2);
  std::string bindings;
  size_t before = arrays_.size();
  for (int b = 0; b < n; ++b) {
    Type t = Type::array(elem_type(), this->rank());
    if (c_.chance(40)) t = Type::array(elem, rank); // likely to be used by the body
    std::string value = acc(t.elem(), t.rank(), depth);
    std::string name = fresh("t");
    bindings += (b ? " (" : "(") + name + " " + value + ")";
    arrays_.push_back({name, t});
  }
  std::string body = acc(elem, rank, depth);
  arrays_.resize(before);
  return "(alet (" + bindings + ") " + body + ")";
}

} // namespace strata::gen
