// Scalar expressions (docs/language.md, Scalar expressions) for the program builder: every
// form and primitive, type-directed, with guarded divisions and reads.
#include <algorithm>

#include "core/scalar.h"
#include "oracle/gen/builder.h"
#include "oracle/gen/values.h"

namespace strata::gen {
namespace {

constexpr ScalarKind kAllKinds[] = {ScalarKind::Bool, ScalarKind::I8,  ScalarKind::I16,
                                    ScalarKind::I32,  ScalarKind::I64, ScalarKind::U8,
                                    ScalarKind::U16,  ScalarKind::U32, ScalarKind::U64,
                                    ScalarKind::F32,  ScalarKind::F64};

std::string int_literal(ScalarKind k, int v) {
  return dispatch_kind(k, [&](auto tag) {
    using T = decltype(tag);
    return format_literal(Scalar::make<T>(T(v)));
  });
}

std::string call(const std::string& op, const std::string& a) {
  return "(" + op + " " + a + ")";
}
std::string call(const std::string& op, const std::string& a, const std::string& b) {
  return "(" + op + " " + a + " " + b + ")";
}

const Type kI64 = Type::scalar(ScalarKind::I64);
const Type kBool = Type::scalar(ScalarKind::Bool);

} // namespace

ScalarKind Builder::scalar_kind() {
  // Choice 0 is i64, the type of shapes and indices.
  static constexpr ScalarKind order[] = {ScalarKind::I64, ScalarKind::F32,  ScalarKind::I32,
                                         ScalarKind::F64, ScalarKind::Bool, ScalarKind::U8,
                                         ScalarKind::I8,  ScalarKind::U16,  ScalarKind::I16,
                                         ScalarKind::U32, ScalarKind::U64};
  return order[c_.below(int(std::size(order)))];
}

ScalarKind Builder::reducible_kind() {
  return scalar_kind();
}

Type Builder::elem_type() {
  if (!c_.chance(10)) return Type::scalar(scalar_kind());
  return Type::tuple({Type::scalar(scalar_kind()), Type::scalar(scalar_kind())});
}

std::string Builder::literal(ScalarKind k) {
  return format_literal(edge_scalar(c_, k));
}

bool Builder::can_produce(const Type& from, const Type& want) const {
  if (from == want) return true;
  if (!from.is_tuple()) return false;
  return std::any_of(from.elems().begin(), from.elems().end(),
                     [&](const Type& e) { return can_produce(e, want); });
}

// `text` has type `from`; returns an expression of type `want` projecting into it.
std::string Builder::component(const Type& from, const std::string& text, const Type& want) {
  if (from == want) return text;
  std::vector<int> ok;
  for (size_t j = 0; j < from.elems().size(); ++j)
    if (can_produce(from.elems()[j], want)) ok.push_back(int(j));
  int j = ok[size_t(c_.below(int(ok.size())))];
  return component(from.elems()[size_t(j)], "(proj " + std::to_string(j) + " " + text + ")", want);
}

const Named* Builder::pick_var(const std::vector<Named>& vars, const Type& want, bool allow_proj) {
  std::vector<const Named*> ok;
  for (const Named& v : vars)
    if (allow_proj ? can_produce(v.type, want) : v.type == want) ok.push_back(&v);
  if (ok.empty()) return nullptr;
  // Choice 0 is the innermost (most recently bound) variable.
  return ok[ok.size() - 1 - size_t(c_.below(int(ok.size())))];
}

std::string Builder::exp(const Type& t, ExpScope& s, int depth) {
  // now and then a function: a `define`d one, or a `let`-bound one (not
  // inside a stencil function, whose window may not be passed on)
  if (depth > 0 && !s.window && lim_.defines && c_.chance(3)) return define_exp(t, s, depth);
  if (depth > 0 && !s.window && c_.chance(3)) return let_function(t, s, depth);
  if (t.is_scalar()) return scalar_exp(t.scalar_kind(), s, depth);
  return tuple_exp(t, s, depth);
}

std::string Builder::top_exp(const Type& t, int depth) {
  ExpScope s;
  return exp(t, s, depth);
}

Builder::LambdaText Builder::lambda_parts(const std::vector<Type>& params, const Type& result,
                                          int depth) {
  ExpScope s;
  LambdaText out;
  out.text = "(lambda (";
  for (size_t i = 0; i < params.size(); ++i) {
    std::string name = fresh("x");
    // a third of the parameters leave their type to the checker
    std::string p = c_.below(3) == 0 ? name : "(" + name + " " + params[i].str() + ")";
    out.text += (i ? " " : "") + p;
    s.vars.push_back({name, params[i]});
    out.names.push_back(name);
  }
  out.body = exp(result, s, depth);
  out.text += ") " + out.body + ")";
  return out;
}

std::string Builder::lambda(const std::vector<Type>& params, const Type& result, int depth) {
  return lambda_parts(params, result, depth).text;
}

std::string Builder::reduction_op(ScalarKind k, bool commutative) {
  std::string op;
  std::string a = fresh("a"), b = fresh("b"), ty(scalar_name(k));
  std::string params = "(lambda ((" + a + " " + ty + ") (" + b + " " + ty + ")) ";
  if (k == ScalarKind::Bool) {
    op = c_.below(2) ? "or" : "and";
  } else if (is_float(k)) {
    static const char* ops[] = {"+", "min", "max"};
    op = ops[c_.below(3)];
  } else {
    static const char* ops[] = {"+", "*", "min", "max", "band", "bor", "bxor"};
    // Folds and scans may also get associative operators that are not
    // commutative (docs/language.md, Pinned semantics, fixes their operand order): the first
    // and the last non-zero operand. Zero is their neutral element.
    int pick = c_.below(commutative ? 7 : 9);
    if (pick >= 7) {
      std::string zero = "(cast " + ty + " 0)";
      return params +
             (pick == 7 ? "(if (/= " + a + " " + zero + ") " + a + " " + b + ")"
                        : "(if (/= " + b + " " + zero + ") " + b + " " + a + ")") +
             ")";
    }
    op = ops[pick];
  }
  if (c_.below(4) == 0) return op; // the primitive passed by name
  return params + "(" + op + " " + a + " " + b + "))";
}

// ------------------------------------------------------------------ leaves
std::string Builder::scalar_leaf(ScalarKind k, ExpScope& s) {
  Type t = Type::scalar(k);
  const Named* var = pick_var(s.vars, t, true);
  bool window = s.window && can_produce(s.window->type.elem(), t);
  const Named* rank0 = nullptr;
  for (const Named& a : arrays_)
    if (a.type.rank() == 0 && can_produce(a.type.elem(), t)) rank0 = &a;
  bool size = k == ScalarKind::I64 && !arrays_.empty();
  // Any scalar variable, converted: keeps data flowing from the inputs.
  std::vector<const Named*> scalars;
  for (const Named& v : s.vars)
    if (v.type.is_scalar()) scalars.push_back(&v);
  bool window_cast = s.window && s.window->type.elem().is_scalar() && !window;
  switch (c_.weighted({3, var ? 8 : 0, window ? 8 : 0, rank0 ? 1 : 0, size ? 1 : 0,
                       scalars.empty() ? 0 : 4, window_cast ? 8 : 0})) {
  case 6: {
    std::string at = "(at " + s.window->name;
    for (int64_t w : s.window_sizes)
      at += " " + std::to_string(c_.range(0, int(w - 1)) - int(w / 2));
    return "(cast " + std::string(scalar_name(k)) + " " + at + "))";
  }
  case 5: {
    const Named* v = scalars[size_t(c_.below(int(scalars.size())))];
    if (v->type == t) return v->name;
    return "(cast " + std::string(scalar_name(k)) + " " + v->name + ")";
  }
  case 1: return component(var->type, var->name, t);
  case 2: {
    std::string at = "(at " + s.window->name;
    for (int64_t w : s.window_sizes)
      at += " " + std::to_string(c_.range(0, int(w - 1)) - int(w / 2));
    return component(s.window->type.elem(), at + ")", t);
  }
  case 3: return component(rank0->type.elem(), "(the " + rank0->name + ")", t);
  case 4: return "(size " + arrays_[size_t(c_.below(int(arrays_.size())))].name + ")";
  default: return literal(k);
  }
}

// -------------------------------------------------------------- compound
std::string Builder::scalar_exp(ScalarKind k, ExpScope& s, int depth) {
  if (depth <= 0 || !c_.chance(75)) return scalar_leaf(k, s);
  if (k == ScalarKind::Bool) return bool_exp(s, depth);
  Type t = Type::scalar(k);
  bool fl = is_float(k), in = is_integral(k);
  bool readable = std::any_of(arrays_.begin(), arrays_.end(),
                              [&](const Named& a) { return can_produce(a.type.elem(), t); });
  bool i64 = k == ScalarKind::I64 && !arrays_.empty();
  auto sub = [&](int d = 1) { return scalar_exp(k, s, depth - d); };
  switch (c_.weighted({8, 3, 3, in ? 4 : 0, in ? 3 : 0, fl ? 12 : 0, fl ? 2 : 0, 3, 2, 2, 1, 1, 1,
                       readable ? 3 : 0, readable ? 2 : 0, i64 ? 1 : 0, i64 ? 1 : 0})) {
  case 0: {
    static const char* ops[] = {"+", "-", "*", "min", "max"};
    return call(ops[c_.below(5)], sub(), sub());
  }
  case 1: {
    static const char* ops[] = {"neg", "abs", "signum"};
    return call(ops[c_.below(3)], sub());
  }
  case 2: {
    if (fl) return call("/", sub(), sub());
    static const char* ops[] = {"quot", "rem", "div", "mod"};
    return guarded_divide(ops[c_.below(4)], k, s, depth);
  }
  case 3: {
    static const char* ops[] = {"band", "bor", "bxor", "shl", "shr"};
    return call(ops[c_.below(5)], sub(), sub());
  }
  case 4: {
    static const char* ops[] = {"bnot", "popcount", "clz", "ctz"};
    return call(ops[c_.below(4)], sub());
  }
  case 5: {
    static const char* ops[] = {"sqrt", "exp",  "log",  "sin",  "cos",   "tan",  "asin",  "acos",
                                "atan", "sinh", "cosh", "tanh", "floor", "ceil", "round", "trunc"};
    return call(ops[c_.below(int(std::size(ops)))], sub());
  }
  case 6: return call(c_.below(2) ? "pow" : "atan2", sub(), sub());
  case 7: {
    ScalarKind from = kAllKinds[c_.below(int(std::size(kAllKinds)))];
    return "(cast " + std::string(scalar_name(k)) + " " + scalar_exp(from, s, depth - 1) + ")";
  }
  case 8: return "(if " + bool_exp(s, depth - 1) + " " + sub() + " " + sub() + ")";
  case 9: return let_exp(t, s, depth);
  case 10: return loop_exp(t, s, depth);
  case 11: return "(trace \"" + fresh("l") + "\" " + sub() + ")";
  case 12: {
    ScalarKind other = scalar_kind();
    return "(proj 0 (tuple " + sub() + " " + scalar_exp(other, s, depth - 1) + "))";
  }
  case 13: return read_exp(t, s, depth, false);
  case 14: return read_exp(t, s, depth, true);
  case 15: { // (to-index (shape A) ix)
    const Named& a = arrays_[size_t(c_.below(int(arrays_.size())))];
    return "(if (== (size " + a.name + ") 0) 0 (to-index (shape " + a.name + ") " +
           in_range_index(a.name, a.type.rank(), s, depth - 1) + "))";
  }
  default: { // a component of (from-index (shape A) i)
    const Named& a = arrays_[size_t(c_.below(int(arrays_.size())))];
    if (a.type.rank() == 0) return "(size " + a.name + ")";
    std::string i = "(mod " + scalar_exp(ScalarKind::I64, s, depth - 1) + " (size " + a.name + "))";
    return "(if (== (size " + a.name + ") 0) 0 (proj " + std::to_string(c_.below(a.type.rank())) +
           " (from-index (shape " + a.name + ") " + i + ")))";
  }
  }
}

std::string Builder::bool_exp(ExpScope& s, int depth) {
  if (depth <= 0) return scalar_leaf(ScalarKind::Bool, s);
  auto sub = [&] { return scalar_exp(ScalarKind::Bool, s, depth - 1); };
  bool readable = std::any_of(arrays_.begin(), arrays_.end(),
                              [&](const Named& a) { return can_produce(a.type.elem(), kBool); });
  switch (c_.weighted({6, 3, 2, 2, 1, 1, 1, readable ? 2 : 0, 1, 1})) {
  case 0: {
    static const char* ops[] = {"==", "/=", "<", "<=", ">", ">="};
    ScalarKind k = scalar_kind();
    return call(ops[c_.below(6)], scalar_exp(k, s, depth - 1), scalar_exp(k, s, depth - 1));
  }
  case 1: return call(c_.below(2) ? "or" : "and", sub(), sub());
  case 2: return call("not", sub());
  case 3: {
    ScalarKind k = c_.below(2) ? ScalarKind::F64 : ScalarKind::F32;
    return call(c_.below(2) ? "isinf" : "isnan", scalar_exp(k, s, depth - 1));
  }
  case 4: return "(if " + sub() + " " + sub() + " " + sub() + ")";
  case 5: return let_exp(kBool, s, depth);
  case 6: return "(cast bool " + scalar_exp(scalar_kind(), s, depth - 1) + ")";
  case 7: return read_exp(kBool, s, depth, c_.below(2) == 1);
  case 8: return "(trace \"" + fresh("l") + "\" " + sub() + ")";
  default: return loop_exp(kBool, s, depth);
  }
}

std::string Builder::tuple_exp(const Type& t, ExpScope& s, int depth) {
  const Named* var = pick_var(s.vars, t, true);
  bool readable = std::any_of(arrays_.begin(), arrays_.end(),
                              [&](const Named& a) { return can_produce(a.type.elem(), t); });
  bool deep = depth > 0;
  switch (c_.weighted({4, var ? 4 : 0, deep ? 1 : 0, deep ? 1 : 0, deep && readable ? 2 : 0})) {
  case 1: return component(var->type, var->name, t);
  case 2:
    return "(if " + bool_exp(s, depth - 1) + " " + tuple_exp(t, s, depth - 1) + " " +
           tuple_exp(t, s, depth - 1) + ")";
  case 3: return let_exp(t, s, depth);
  case 4: return read_exp(t, s, depth, c_.below(2) == 1);
  default: {
    bool index = t.is_index() && c_.below(2);
    std::string text = index ? "(ix" : "(tuple";
    for (const Type& e : t.elems())
      text += " " + exp(e, s, depth - 1);
    return text + ")";
  }
  }
}

std::string Builder::guarded_divide(const std::string& op, ScalarKind k, ExpScope& s, int depth) {
  std::string a = scalar_exp(k, s, depth - 1), b = scalar_exp(k, s, depth - 1);
  if (c_.chance(lim_.error_percent)) return call(op, a, b); // may divide by zero
  std::string d = fresh("d");
  return call(op, a,
              "(let ((" + d + " " + b + ")) (if (== " + d + " " + int_literal(k, 0) + ") " +
                  int_literal(k, 1) + " " + d + "))");
}

// A `while` whose state carries a counter: at most 4 iterations.
std::string Builder::loop_exp(const Type& t, ExpScope& s, int depth) {
  if (c_.below(2)) { // a counted `for`
    std::string i = fresh("i"), acc = fresh("acc");
    std::string n = std::to_string(c_.range(0, 4));
    std::string init = exp(t, s, depth - 1);
    s.vars.push_back({i, kI64});
    s.vars.push_back({acc, t});
    std::string step = exp(t, s, depth - 1);
    s.vars.pop_back();
    s.vars.pop_back();
    return "(for " + n + " " + init + " (lambda (" + i + " " + acc + ") " + step + "))";
  }
  std::string st = fresh("s");
  Type state = Type::tuple({kI64, t});
  std::string n = std::to_string(c_.range(0, 4));
  std::string init = exp(t, s, depth - 1);
  s.vars.push_back({st, state});
  std::string step = exp(t, s, depth - 1);
  s.vars.pop_back();
  std::string param = "((" + st + " " + state.str() + "))";
  return "(proj 1 (while (lambda " + param + " (< (proj 0 " + st + ") " + n + ")) (lambda " +
         param + " (tuple (+ (proj 0 " + st + ") 1) " + step + ")) (tuple 0 " + init + ")))";
}

std::string Builder::let_exp(const Type& t, ExpScope& s, int depth) {
  std::string v = fresh("v");
  Type bt = elem_type();
  std::string value = exp(bt, s, depth - 1);
  s.vars.push_back({v, bt});
  std::string body = exp(t, s, depth - 1);
  s.vars.pop_back();
  return "(let ((" + v + " " + value + ")) " + body + ")";
}

std::string Builder::index_exp(int rank, ExpScope& s, int depth) {
  std::string text = "(ix";
  for (int k = 0; k < rank; ++k)
    text += " " + scalar_exp(ScalarKind::I64, s, depth);
  return text + ")";
}

// An index into array variable `array` (rank `rank`), in range when the array is not empty.
std::string Builder::in_range_index(const std::string& array, int rank, ExpScope& s, int depth) {
  std::string text = "(ix";
  for (int k = 0; k < rank; ++k)
    text += " (mod " + scalar_exp(ScalarKind::I64, s, depth) + " (proj " + std::to_string(k) +
            " (shape " + array + ")))";
  return text + ")";
}

// (! A ix) or (!! A i) for an array variable whose elements can give `t`.
std::string Builder::read_exp(const Type& t, ExpScope& s, int depth, bool linear) {
  std::vector<const Named*> ok;
  for (const Named& a : arrays_)
    if (can_produce(a.type.elem(), t)) ok.push_back(&a);
  const Named& a = *ok[size_t(c_.below(int(ok.size())))];
  const std::string& n = a.name;
  int r = a.type.rank();
  bool unguarded = c_.chance(lim_.error_percent);
  std::string read;
  if (linear) {
    std::string i = scalar_exp(ScalarKind::I64, s, depth - 1);
    read =
        unguarded ? "(!! " + n + " " + i + ")" : "(!! " + n + " (mod " + i + " (size " + n + ")))";
  } else if (unguarded) {
    read = "(! " + n + " (ix";
    for (int k = 0; k < r; ++k)
      read += " " + std::to_string(c_.range(0, 3) - 1);
    read += "))";
  } else if (r == 0) {
    return component(a.type.elem(), "(! " + n + " (ix))", t); // a rank-0 array has one element
  } else if (c_.chance(25)) {
    read = "(! " + n + " (from-index (shape " + n + ") (mod " +
           scalar_exp(ScalarKind::I64, s, depth - 1) + " (size " + n + "))))";
  } else {
    read = "(! " + n + " " + in_range_index(n, r, s, depth - 1) + ")";
  }
  read = component(a.type.elem(), read, t);
  if (unguarded) return read;
  return "(if (== (size " + n + ") 0) " + exp(t, s, 0) + " " + read + ")";
}

} // namespace strata::gen
