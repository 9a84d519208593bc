#include "core/parser.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <vector>

#include "core/error.h"
#include "core/literal.h"
#include "core/prim.h"
#include "core/sexp.h"
#include "core/sugar.h"

namespace strata {
namespace {

using namespace sexp;

// ===================================================================== literals

// Variable names: a letter or `_`, then any printable ASCII that is not a
// delimiter; never a literal nor the `all` of slice specifications.
bool is_name(std::string_view t) {
  if (t.empty() || !(is_letter(t[0]) || t[0] == '_')) return false;
  for (char c : t)
    if (static_cast<unsigned char>(c) <= 0x20 || static_cast<unsigned char>(c) >= 0x7f)
      return false;
  return t != "true" && t != "false" && t != "all" && !is_special_float(t);
}

// ==================================================================== converter

// Builds IR from s-expressions. Recursion follows the nesting of the lists,
// which the reader has already bounded.
class Converter {
public:
  explicit Converter(std::shared_ptr<const std::string> file) : file_(std::move(file)) {}

  // A file: its definitions, then its program (the last datum).
  Program file(const Sexp& all) const {
    // Every definition's name and place, for the message on a use before it.
    for (const Sexp& d : all.items)
      if (is_definition(d) && d.items.size() > 1 && d.items[1].is_list() &&
          !d.items[1].items.empty() && d.items[1].items[0].is_atom())
        written_.push_back({d.items[1].items[0].text, loc(d)});
    std::vector<Define> defines;
    for (size_t i = 0; i + 1 < all.items.size(); ++i) {
      if (all.items[i].head() == "program")
        fail(all.items[i + 1],
             "expected end of input after the program, found " + describe(all.items[i + 1]));
      defines.push_back(define(all.items[i]));
    }
    const Sexp& last = all.items.back();
    if (is_definition(last))
      fail(last, "expected the program `(program ((x T) ...) body)` after the definitions, "
                 "found none");
    Program p = program(last);
    p.defines = std::move(defines);
    return p;
  }

  Program program(const Sexp& s) const {
    expect_form(s, "program", "a program `(program ((x T) ...) body)`");
    operands(s, 2, "params body");
    Program p;
    p.params = params(s.items[1], false);
    p.body = acc(s.items[2]);
    p.loc = loc(s);
    return p;
  }

  static bool is_definition(const Sexp& s) { return s.head() == "define" || s.head() == "adefine"; }

  // `(define (f p ...) e)` or `(adefine (f p ...) a)`; a parameter is `(x T)`,
  // or a bare name for a scalar of inferred type.
  Define define(const Sexp& s) const {
    if (!is_definition(s))
      fail(s, "expected a definition `(define (f (x T) ...) e)` or `(adefine (f (x T) ...) a)` "
              "before the program, found " +
                  describe(s));
    bool array = s.head() == "adefine";
    operands(s, 2, "(f params ...) body");
    const Sexp& sig = expect_list(s.items[1], "a signature `(f (x T) ...)`");
    if (sig.items.empty()) fail(sig, "expected a signature `(f (x T) ...)`, found `()`");
    Define d;
    d.name = name(sig.items[0]);
    d.loc = loc(s);
    check_function_name(sig.items[0]);
    Function info{d.name, array, {}, d.loc};
    for (size_t i = 1; i < sig.items.size(); ++i) {
      Param p = param(sig.items[i], true);
      if (p.typed && p.type.is_array() && !array)
        fail(sig.items[i], "parameter " + quote(p.name) + " of the scalar function " +
                               quote(d.name) + " is an array: use `adefine` for a function of " +
                               "arrays");
      if (p.typed && (p.type.is_window() || (p.type.is_tuple() && p.type.is_arrays())))
        fail(sig.items[i], "parameter " + quote(p.name) + " of " + quote(d.name) +
                               " must be a scalar, a tuple of scalars or an array, found " +
                               p.type.str());
      info.array_params.push_back(p.typed && p.type.is_array());
      d.params.push_back(std::move(p));
    }
    defining_.push_back(d.name);
    if (array)
      d.array_body = acc(s.items[2]);
    else
      d.scalar_body = exp(s.items[2]);
    defining_.pop_back();
    defines_.push_back(std::move(info));
    return d;
  }

  // A function's name must not hide a form, a primitive or another function.
  void check_function_name(const Sexp& at) const {
    const std::string& n = at.text;
    if (is_keyword(n)) fail(at, quote(n) + " is a form of the language; choose another name");
    for (const Function& f : defines_)
      if (f.name == n) fail(at, quote(n) + " is already defined at " + f.loc.str());
  }

  ExpPtr exp(const Sexp& s) const {
    if (s.is_atom()) {
      if (auto v = literal(s, std::nullopt)) return make_exp(ex::Const{*v}, loc(s));
      if (is_name(s.text)) return make_exp(ex::Var{s.text}, loc(s));
    }
    if (!s.is_list() || s.items.empty())
      fail(s, "expected a scalar expression, found " + describe(s));
    return make_exp(exp_form(s), loc(s));
  }

  AccPtr acc(const Sexp& s) const {
    if (s.is_atom() && is_name(s.text)) return make_acc(ac::Var{s.text}, loc(s));
    if (!s.is_list() || s.items.empty())
      fail(s, "expected an array expression, found " + describe(s));
    return make_acc(acc_form(s), loc(s));
  }

  Type type(const Sexp& s) const {
    if (s.is_atom())
      if (auto k = scalar_from_name(s.text)) return Type::scalar(*k);
    std::string_view h = s.head();
    if (h == "tuple") {
      std::vector<Type> elems;
      for (size_t i = 1; i < s.items.size(); ++i)
        elems.push_back(type(s.items[i]));
      return Type::tuple(std::move(elems));
    }
    if (h == "ix") {
      operands(s, 1, "R");
      return Type::index(rank(s.items[1]));
    }
    if (h == "array" || h == "window") {
      operands(s, 2, "E R");
      Type elem = type(s.items[1]);
      int r = rank(s.items[2]);
      return h == "array" ? Type::array(std::move(elem), r) : Type::window(std::move(elem), r);
    }
    fail(s, "expected a type, found " + describe(s));
  }

  // The helpers below are public for the form tables that follow the class.
  SrcLoc loc(const Sexp& s) const { return SrcLoc{file_, s.line, s.col}; }

  [[noreturn]] void fail(const Sexp& at, const std::string& message) const {
    throw Error(ErrorKind::Syntax, loc(at), message);
  }

  // ------------------------------------------------------------ shape checks

  std::string_view form_name(const Sexp& s) const {
    if (!s.items[0].is_atom())
      fail(s.items[0], "expected a form name after `(`, found " + describe(s.items[0]));
    return s.items[0].text;
  }

  // The node of a list form in scalar / array position (tables below).
  ExpNode exp_form(const Sexp& s) const;
  AccNode acc_form(const Sexp& s) const;

  // `(form x y z)` must have exactly n operands, listed in `sig` ("f z a").
  void operands(const Sexp& s, size_t n, std::string_view sig) const {
    size_t found = s.operand_count();
    if (found == n) return;
    fail(s, quote(s.head()) + " takes " + std::to_string(n) +
                (n == 1 ? " operand (" : " operands (") + std::string(sig) + "), found " +
                std::to_string(found));
  }

  void expect_form(const Sexp& s, std::string_view name, std::string_view what) const {
    if (s.head() != name) fail(s, "expected " + std::string(what) + ", found " + describe(s));
  }

  const Sexp& expect_list(const Sexp& s, std::string_view what) const {
    if (!s.is_list()) fail(s, "expected " + std::string(what) + ", found " + describe(s));
    return s;
  }

  std::string name(const Sexp& s) const {
    if (!s.is_atom() || !is_name(s.text)) fail(s, "expected a variable name, found " + describe(s));
    return s.text;
  }

  std::string label(const Sexp& s) const {
    if (s.kind != Sexp::Kind::String)
      fail(s, "expected a label string \"...\", found " + describe(s));
    return s.text;
  }

  // A plain non-negative integer (no suffix) of at most `max`.
  int64_t count(const Sexp& s, std::string_view what, int64_t max) const {
    bool digits = s.is_atom() && !s.text.empty() && skip_digits(s.text, 0) == s.text.size();
    if (!digits)
      fail(s, "expected " + std::string(what) + " (a non-negative integer), found " + describe(s));
    int64_t v = 0;
    auto res = std::from_chars(s.text.data(), s.text.data() + s.text.size(), v);
    if (res.ec != std::errc{} || v > max)
      fail(s, quote(s.text) + " is too large for " + std::string(what) + " (at most " +
                  std::to_string(max) + ")");
    return v;
  }

  int rank(const Sexp& s) const { return int(count(s, "a rank", kMaxRank)); }

  // A plain integer offset, possibly negative (stencil `at`).
  int64_t offset(const Sexp& s) const {
    bool neg = s.is_atom() && s.text.starts_with('-');
    std::string_view digits = s.is_atom() ? std::string_view(s.text).substr(neg ? 1 : 0) : "";
    if (digits.empty() || skip_digits(digits, 0) != digits.size())
      fail(s, "expected an offset (an integer), found " + describe(s));
    int64_t v = 0;
    auto res = std::from_chars(s.text.data(), s.text.data() + s.text.size(), v);
    if (res.ec != std::errc{}) fail(s, "offset " + quote(s.text) + " is out of range");
    return v;
  }

  // The value of a literal atom, or nullopt for a name (core/literal.h).
  std::optional<Scalar> literal(const Sexp& s, std::optional<ScalarKind> elem) const {
    return read_literal(s, elem, file_);
  }

  // ---------------------------------------------------------- lambdas, params

  // `(x T)`, or (where the type can be inferred) a bare name `x`.
  Param param(const Sexp& p, bool untyped_ok) const {
    if (untyped_ok && p.is_atom()) return Param{name(p), Type{}, loc(p), false};
    if (p.is_list() && p.items.size() == 1 && p.items[0].is_atom())
      fail(p, "parameter " + quote(p.items[0].text) + " has no type: expected `(" +
                  sanitize(p.items[0].text) + " T)`" + (untyped_ok ? " or a bare name" : ""));
    if (!p.is_list() || p.items.size() != 2)
      fail(p, "expected a parameter `(x T)`, found " + describe(p));
    return Param{name(p.items[0]), type(p.items[1]), loc(p)};
  }

  std::vector<Param> params(const Sexp& s, bool untyped_ok) const {
    expect_list(s, "a parameter list `((x T) ...)`");
    std::vector<Param> out;
    for (const Sexp& p : s.items)
      out.push_back(param(p, untyped_ok));
    return out;
  }

  // A function operand: `(lambda (p ...) body)`, or the name of a primitive
  // or of a scalar function, which stands for the lambda that applies it.
  Lambda lambda(const Sexp& s) const {
    if (s.is_atom()) return named_function(s);
    expect_form(s, "lambda", "a function `(lambda ((x T) ...) body)`");
    operands(s, 2, "params body");
    Lambda l;
    l.params = params(s.items[1], true);
    l.body = exp(s.items[2]);
    l.loc = loc(s);
    return l;
  }

  Lambda named_function(const Sexp& s) const {
    Lambda l;
    l.loc = loc(s);
    l.written_as = s.text;
    size_t arity = 0;
    std::optional<Prim> prim = prim_from_name(s.text);
    if (prim) {
      arity = size_t(prim_arity(*prim));
    } else if (const Function* f = function(s.text, false)) {
      arity = f->array_params.size();
    } else {
      fail(s, "expected a function `(lambda (x ...) body)`, a primitive or a scalar function's "
              "name, found " +
                  describe(s));
    }
    std::vector<ExpPtr> args;
    for (size_t i = 0; i < arity; ++i) {
      std::string n = "x" + std::to_string(i + 1);
      l.params.push_back(Param{n, Type{}, l.loc, false});
      args.push_back(make_exp(ex::Var{n}, l.loc));
    }
    if (prim) {
      l.body = make_exp(ex::PrimApp{*prim, std::move(args)}, l.loc);
    } else {
      std::vector<Operand> ops;
      for (ExpPtr& a : args)
        ops.push_back(Operand{nullptr, std::move(a), nullptr});
      l.body = make_exp(ex::Call{s.text, std::move(ops)}, l.loc);
    }
    return l;
  }

  // ------------------------------------------------------------- functions

  // A function the text can call at a point: a definition before it, or a
  // `let`-bound lambda around it.
  struct Function {
    std::string name;
    bool array; // adefine
    std::vector<bool> array_params;
    SrcLoc loc;
  };

  const Function* function(std::string_view n, bool array) const {
    for (auto it = local_.rbegin(); it != local_.rend(); ++it)
      if (it->name == n) return array ? nullptr : &*it;
    for (const Function& f : defines_)
      if (f.name == n && f.array == array) return &f;
    return nullptr;
  }

  const Function* any_function(std::string_view n) const {
    if (const Function* f = function(n, false)) return f;
    return function(n, true);
  }

  // `(f e ...)` of a function in scope: its operands by the parameters' kinds.
  std::vector<Operand> call_operands(const Sexp& s, const Function& f) const {
    if (s.operand_count() != f.array_params.size())
      fail(s, quote(f.name) + " takes " + std::to_string(f.array_params.size()) +
                  (f.array_params.size() == 1 ? " argument" : " arguments") + " (defined at " +
                  f.loc.str() + "), found " + std::to_string(s.operand_count()));
    std::vector<Operand> out;
    for (size_t i = 1; i < s.items.size(); ++i) {
      if (f.array_params[i - 1])
        out.push_back(Operand{acc(s.items[i]), nullptr, nullptr});
      else
        out.push_back(Operand{nullptr, exp(s.items[i]), nullptr});
    }
    return out;
  }

  std::vector<Operand> sugar_operands(const Sexp& s, const SugarForm& f) const {
    if (!sugar_arity_ok(f, s.operand_count()))
      fail(s, quote(f.name) + " takes operands (" + std::string(f.sig) + "), found " +
                  std::to_string(s.operand_count()));
    std::vector<Operand> out;
    for (size_t i = 1; i < s.items.size(); ++i) {
      switch (sugar_operand_kind(f, i - 1)) {
      case 'a': out.push_back(Operand{acc(s.items[i]), nullptr, nullptr}); break;
      case 'e': out.push_back(Operand{nullptr, exp(s.items[i]), nullptr}); break;
      case 'w': out.push_back(Operand{nullptr, nullptr, nullptr, window(s.items[i])}); break;
      case 'b': {
        ac::Boundary b = boundary(s.items[i]);
        out.push_back(Operand{nullptr, b.constant, nullptr, {}, int(b.kind)});
        break;
      }
      default:
        out.push_back(Operand{nullptr, nullptr, std::make_shared<Lambda>(lambda(s.items[i]))});
      }
    }
    return out;
  }

  // The message for a name in call position that is no function here.
  [[noreturn]] void not_a_function(const Sexp& s, std::string_view f, bool array_position) const {
    for (const std::string& d : defining_)
      if (d == f)
        fail(s, quote(f) + " calls itself: a function cannot be recursive (nor use its own name)");
    if (const Function* other = any_function(f))
      fail(s, quote(f) + " is " + (other->array ? "an array" : "a scalar") +
                  " function (defined at " + other->loc.str() + "), but " +
                  (array_position ? "an array" : "a scalar") + " expression is expected here");
    for (const auto& [name, at] : written_)
      if (name == f)
        fail(s, quote(f) + " is defined later, at " + at.str() +
                    ": a function is seen only by the definitions after it and the program; "
                    "define it before its first use");
    fail(s, "unknown form " + quote(f));
  }

  ALambda alambda(const Sexp& s) const {
    expect_form(s, "lambda", "an array function `(lambda ((x T) ...) body)`");
    operands(s, 2, "params body");
    ALambda l;
    l.params = params(s.items[1], true);
    l.body = acc(s.items[2]);
    l.loc = loc(s);
    return l;
  }

  // ---------------------------------------------------------- helper forms

  std::vector<ExpPtr> exps(const Sexp& s, size_t from) const {
    std::vector<ExpPtr> out;
    for (size_t i = from; i < s.items.size(); ++i)
      out.push_back(exp(s.items[i]));
    return out;
  }

  std::vector<AccPtr> accs(const Sexp& s, size_t from) const {
    std::vector<AccPtr> out;
    for (size_t i = from; i < s.items.size(); ++i)
      out.push_back(acc(s.items[i]));
    return out;
  }

  int component(const Sexp& s) const {
    return int(count(s, "a tuple component", std::numeric_limits<int>::max()));
  }

  // The bindings of `let`/`alet`: each checked to be `(x value)`.
  const std::vector<Sexp>& binding_list(const Sexp& s) const {
    expect_list(s, "a list of bindings `((x value) ...)`");
    for (const Sexp& b : s.items)
      if (!b.is_list() || b.items.size() != 2)
        fail(b, "expected a binding `(x value)`, found " + describe(b));
    return s.items;
  }

  // A binding is `(x e)`, or `(f (lambda (p ...) body))`: a function of the
  // bindings after it and of the body.
  ExpNode let(const Sexp& s) const {
    ex::Let let;
    size_t functions = 0;
    for (const Sexp& b : binding_list(s.items[1])) {
      std::string n = name(b.items[0]);
      if (b.items[1].head() != "lambda") {
        let.bindings.push_back(ex::Binding{n, exp(b.items[1]), loc(b)});
        continue;
      }
      defining_.push_back(n);
      auto fn = std::make_shared<Lambda>(lambda(b.items[1]));
      defining_.pop_back();
      local_.push_back(Function{n, false, std::vector<bool>(fn->params.size(), false), loc(b)});
      ++functions;
      let.bindings.push_back(ex::Binding{n, nullptr, loc(b), std::move(fn)});
    }
    let.body = exp(s.items[2]);
    local_.resize(local_.size() - functions);
    return let;
  }

  AccNode alet(const Sexp& s) const {
    ac::Alet let;
    for (const Sexp& b : binding_list(s.items[1]))
      let.bindings.push_back(ac::Binding{name(b.items[0]), acc(b.items[1]), loc(b)});
    let.body = acc(s.items[2]);
    return let;
  }

  ExpNode at(const Sexp& s) const {
    if (s.items.size() < 2)
      fail(s, "`at` takes a window and offsets (nb o ...), found no operands");
    ex::At at{name(s.items[1]), {}};
    for (size_t i = 2; i < s.items.size(); ++i)
      at.offsets.push_back(offset(s.items[i]));
    return at;
  }

  ExpNode cast(const Sexp& s) const {
    Type t = type(s.items[1]);
    if (!t.is_scalar())
      fail(s.items[1], "`cast` converts to a scalar type, found `" + t.str() + "`");
    return ex::Cast{t.scalar_kind(), exp(s.items[2])};
  }

  std::vector<ac::SpecItem> spec(const Sexp& s) const {
    expect_form(s, "spec", "a specification `(spec s ...)`");
    std::vector<ac::SpecItem> out;
    for (size_t i = 1; i < s.items.size(); ++i)
      out.push_back(ac::SpecItem{s.items[i].is_atom("all") ? nullptr : exp(s.items[i])});
    return out;
  }

  std::vector<int64_t> window(const Sexp& s) const {
    std::vector<int64_t> sizes;
    for (const Sexp& w : expect_list(s, "window sizes `(w ...)`").items)
      sizes.push_back(count(w, "a window size", std::numeric_limits<int64_t>::max()));
    return sizes;
  }

  ac::Boundary boundary(const Sexp& s) const {
    using K = ac::BoundaryKind;
    if (s.is_atom("clamp")) return {K::Clamp, nullptr};
    if (s.is_atom("mirror")) return {K::Mirror, nullptr};
    if (s.is_atom("wrap")) return {K::Wrap, nullptr};
    if (s.head() == "constant") {
      operands(s, 1, "e");
      return {K::Constant, exp(s.items[1])};
    }
    fail(s, "expected a stencil boundary (`clamp`, `mirror`, `wrap` or `(constant e)`), found " +
                describe(s));
  }

  // ------------------------------------------------------------ array literal

  // `(array E (d ...) v ...)`: values row-major, tuple values as `(v1 v2 ...)`.
  Array array_literal(const Sexp& s) const {
    expect_form(s, "array", "an array literal `(array E (d ...) v ...)`");
    if (s.items.size() < 3)
      fail(s, "`array` literal needs an element type and a shape `(array E (d ...) v ...)`");
    Type elem = type(s.items[1]);
    if (!elem.is_element())
      fail(s.items[1],
           "array literal element type must be a scalar or a tuple, found `" + elem.str() + "`");
    Shape shape = dims(s.items[2]);
    size_t found = s.items.size() - 3;
    int64_t needed = 1;
    for (int64_t d : shape)
      if (__builtin_mul_overflow(needed, d, &needed))
        fail(s, "array literal of shape " + shape_str(shape) + " is too large");
    if (uint64_t(needed) != found)
      fail(s, "array literal of shape " + shape_str(shape) + " needs " + std::to_string(needed) +
                  " values, found " + std::to_string(found));
    Array a = Array::allocate(elem, shape);
    for (size_t i = 0; i < found; ++i) {
      size_t leaf = 0;
      write_value(a, elem, s.items[3 + i], int64_t(i), leaf);
    }
    return a;
  }

  Shape dims(const Sexp& s) const {
    expect_list(s, "an array literal shape `(d ...)`");
    if (s.items.size() > size_t(kMaxRank))
      fail(s, "array literal rank " + std::to_string(s.items.size()) + " is too large (at most " +
                  std::to_string(kMaxRank) + ")");
    Shape shape;
    for (const Sexp& d : s.items)
      shape.push_back(count(d, "an extent", std::numeric_limits<int64_t>::max()));
    return shape;
  }

  void write_value(Array& a, const Type& elem, const Sexp& v, int64_t i, size_t& leaf) const {
    if (elem.is_scalar()) {
      std::optional<Scalar> x;
      if (v.is_atom()) x = literal(v, elem.scalar_kind());
      if (!x) fail(v, "expected a " + elem.str() + " value, found " + describe(v));
      a.write(leaf++, i, *x);
      return;
    }
    if (!v.is_list() || v.items.size() != elem.elems().size())
      fail(v, "expected a value of type " + elem.str() + ", written `(v1 ...)` with " +
                  std::to_string(elem.elems().size()) + " components, found " + describe(v));
    for (size_t k = 0; k < v.items.size(); ++k)
      write_value(a, elem.elems()[k], v.items[k], i, leaf);
  }

  static bool is_keyword(std::string_view n);

  std::shared_ptr<const std::string> file_;
  mutable std::vector<Function> defines_;     // the definitions read so far
  mutable std::vector<Function> local_;       // `let`-bound functions in scope, innermost last
  mutable std::vector<std::string> defining_; // the functions whose bodies are being read
  // Every definition of the file, read or not: (name, where).
  mutable std::vector<std::pair<std::string, SrcLoc>> written_;
};

// ======================================================================== forms

// One form of the text: its keyword, its operand count (-1: checked by the
// builder) with their names for messages, and how to build its node.
template <class Node> struct Form {
  std::string_view name;
  int arity;
  std::string_view operands;
  Node (*build)(const Converter&, const std::vector<Sexp>&, const Sexp&);
};

using ExpForm = Form<ExpNode>;
using AccForm = Form<AccNode>;
using Items = std::vector<Sexp>;
using C = const Converter&;

const ExpForm kExpForms[] = {
    {"let", 2, "bindings body", [](C c, const Items&, const Sexp& s) { return c.let(s); }},
    {"if", 3, "c t e",
     [](C c, const Items& x, const Sexp&) -> ExpNode {
       return ex::If{c.exp(x[1]), c.exp(x[2]), c.exp(x[3])};
     }},
    {"tuple", -1, "",
     [](C c, const Items&, const Sexp& s) -> ExpNode { return ex::Tuple{c.exps(s, 1)}; }},
    {"proj", 2, "K e",
     [](C c, const Items& x, const Sexp&) -> ExpNode {
       return ex::Proj{c.component(x[1]), c.exp(x[2])};
     }},
    {"ix", -1, "",
     [](C c, const Items&, const Sexp& s) -> ExpNode { return ex::Index{c.exps(s, 1)}; }},
    {"cast", 2, "T e", [](C c, const Items&, const Sexp& s) { return c.cast(s); }},
    {"while", 3, "cond step init",
     [](C c, const Items& x, const Sexp&) -> ExpNode {
       return ex::While{c.lambda(x[1]), c.lambda(x[2]), c.exp(x[3])};
     }},
    {"shape", 1, "A",
     [](C c, const Items& x, const Sexp&) -> ExpNode { return ex::ShapeOf{c.acc(x[1])}; }},
    {"size", 1, "A",
     [](C c, const Items& x, const Sexp&) -> ExpNode { return ex::SizeOf{c.acc(x[1])}; }},
    {"!", 2, "A ix",
     [](C c, const Items& x, const Sexp&) -> ExpNode {
       return ex::Read{c.acc(x[1]), c.exp(x[2])};
     }},
    {"!!", 2, "A i",
     [](C c, const Items& x, const Sexp&) -> ExpNode {
       return ex::LinearRead{c.acc(x[1]), c.exp(x[2])};
     }},
    {"the", 1, "A",
     [](C c, const Items& x, const Sexp&) -> ExpNode { return ex::The{c.acc(x[1])}; }},
    {"to-index", 2, "sh ix",
     [](C c, const Items& x, const Sexp&) -> ExpNode {
       return ex::ToIndex{c.exp(x[1]), c.exp(x[2])};
     }},
    {"from-index", 2, "sh i",
     [](C c, const Items& x, const Sexp&) -> ExpNode {
       return ex::FromIndex{c.exp(x[1]), c.exp(x[2])};
     }},
    {"ignore", 1, "R",
     [](C c, const Items& x, const Sexp&) -> ExpNode { return ex::Ignore{c.rank(x[1])}; }},
    {"trace", 2, "label e",
     [](C c, const Items& x, const Sexp&) -> ExpNode {
       return ex::Trace{c.label(x[1]), c.exp(x[2])};
     }},
    {"at", -1, "", [](C c, const Items&, const Sexp& s) { return c.at(s); }},
};

AccNode scan(C c, const Items& x, ac::ScanKind kind) {
  bool seeded = x.size() == 4;
  return ac::Scan{kind, c.lambda(x[1]), seeded ? c.exp(x[2]) : nullptr, c.acc(x[seeded ? 3 : 2])};
}

const AccForm kAccForms[] = {
    {"alet", 2, "bindings body", [](C c, const Items&, const Sexp& s) { return c.alet(s); }},
    {"atuple", -1, "",
     [](C c, const Items&, const Sexp& s) -> AccNode { return ac::ATuple{c.accs(s, 1)}; }},
    {"aproj", 2, "K a",
     [](C c, const Items& x, const Sexp&) -> AccNode {
       return ac::AProj{c.component(x[1]), c.acc(x[2])};
     }},
    {"use", 1, "literal",
     [](C c, const Items& x, const Sexp&) -> AccNode { return ac::Use{c.array_literal(x[1])}; }},
    {"unit", 1, "e",
     [](C c, const Items& x, const Sexp&) -> AccNode { return ac::Unit{c.exp(x[1])}; }},
    {"generate", 2, "sh f",
     [](C c, const Items& x, const Sexp&) -> AccNode {
       return ac::Generate{c.exp(x[1]), c.lambda(x[2])};
     }},
    {"fill", 2, "sh e",
     [](C c, const Items& x, const Sexp&) -> AccNode {
       return ac::Fill{c.exp(x[1]), c.exp(x[2])};
     }},
    {"map", 2, "f a",
     [](C c, const Items& x, const Sexp&) -> AccNode {
       return ac::Map{c.lambda(x[1]), c.acc(x[2])};
     }},
    {"zipwith", 3, "f a b",
     [](C c, const Items& x, const Sexp&) -> AccNode {
       return ac::ZipWith{c.lambda(x[1]), c.acc(x[2]), c.acc(x[3])};
     }},
    {"fold", 3, "f z a",
     [](C c, const Items& x, const Sexp&) -> AccNode {
       return ac::Fold{c.lambda(x[1]), c.exp(x[2]), c.acc(x[3])};
     }},
    {"fold1", 2, "f a",
     [](C c, const Items& x, const Sexp&) -> AccNode {
       return ac::Fold{c.lambda(x[1]), nullptr, c.acc(x[2])};
     }},
    {"foldseg", 4, "f z a segs",
     [](C c, const Items& x, const Sexp&) -> AccNode {
       return ac::FoldSeg{c.lambda(x[1]), c.exp(x[2]), c.acc(x[3]), c.acc(x[4])};
     }},
    {"scanl", 3, "f z a",
     [](C c, const Items& x, const Sexp&) { return scan(c, x, ac::ScanKind::Scanl); }},
    {"scanl1", 2, "f a",
     [](C c, const Items& x, const Sexp&) { return scan(c, x, ac::ScanKind::Scanl1); }},
    {"scanr", 3, "f z a",
     [](C c, const Items& x, const Sexp&) { return scan(c, x, ac::ScanKind::Scanr); }},
    {"scanr1", 2, "f a",
     [](C c, const Items& x, const Sexp&) { return scan(c, x, ac::ScanKind::Scanr1); }},
    {"scanl'", 3, "f z a",
     [](C c, const Items& x, const Sexp&) { return scan(c, x, ac::ScanKind::ScanlPrime); }},
    {"permute", 4, "comb defs target src",
     [](C c, const Items& x, const Sexp&) -> AccNode {
       return ac::Permute{c.lambda(x[1]), c.acc(x[2]), c.lambda(x[3]), c.acc(x[4])};
     }},
    {"backpermute", 3, "sh f a",
     [](C c, const Items& x, const Sexp&) -> AccNode {
       return ac::Backpermute{c.exp(x[1]), c.lambda(x[2]), c.acc(x[3])};
     }},
    {"reshape", 2, "sh a",
     [](C c, const Items& x, const Sexp&) -> AccNode {
       return ac::Reshape{c.exp(x[1]), c.acc(x[2])};
     }},
    {"replicate", 2, "spec a",
     [](C c, const Items& x, const Sexp&) -> AccNode {
       return ac::Replicate{c.spec(x[1]), c.acc(x[2])};
     }},
    {"slice", 2, "a spec",
     [](C c, const Items& x, const Sexp&) -> AccNode {
       return ac::Slice{c.acc(x[1]), c.spec(x[2])};
     }},
    {"stencil", 4, "window boundary f a",
     [](C c, const Items& x, const Sexp&) -> AccNode {
       return ac::Stencil{c.window(x[1]), c.boundary(x[2]), c.lambda(x[3]), c.acc(x[4])};
     }},
    {"awhile", 3, "cond body init",
     [](C c, const Items& x, const Sexp&) -> AccNode {
       return ac::Awhile{c.alambda(x[1]), c.alambda(x[2]), c.acc(x[3])};
     }},
    {"atrace", 2, "label a",
     [](C c, const Items& x, const Sexp&) -> AccNode {
       return ac::ATrace{c.label(x[1]), c.acc(x[2])};
     }},
    {"acond", 3, "c a b",
     [](C c, const Items& x, const Sexp&) -> AccNode {
       return ac::ACond{c.exp(x[1]), c.acc(x[2]), c.acc(x[3])};
     }},
};

template <class Node, size_t N>
const Form<Node>* find_form(const Form<Node> (&table)[N], std::string_view name) {
  for (const Form<Node>& f : table)
    if (f.name == name) return &f;
  return nullptr;
}

ExpNode Converter::exp_form(const Sexp& s) const {
  std::string_view f = form_name(s);
  if (const ExpForm* form = find_form(kExpForms, f)) {
    if (form->arity >= 0) operands(s, size_t(form->arity), form->operands);
    return form->build(*this, s.items, s);
  }
  if (auto p = prim_from_name(f)) {
    int n = prim_arity(*p);
    operands(s, size_t(n), n == 1 ? "a" : "a b");
    return ex::PrimApp{*p, exps(s, 1)};
  }
  if (const Function* fn = function(f, false)) return ex::Call{fn->name, call_operands(s, *fn)};
  if (const SugarForm* sugar = find_sugar(f, false, s.operand_count()))
    return ex::Call{std::string(f), sugar_operands(s, *sugar)};
  if (find_form(kAccForms, f) || find_sugar(f, true, s.operand_count()))
    fail(s, "expected a scalar expression, found the array operation " + quote(f) +
                " (nested data parallelism)");
  not_a_function(s, f, false);
}

AccNode Converter::acc_form(const Sexp& s) const {
  std::string_view f = form_name(s);
  if (const SugarForm* sugar = find_sugar(f, true, s.operand_count()))
    return ac::Call{std::string(f), sugar_operands(s, *sugar)};
  if (const AccForm* form = find_form(kAccForms, f)) {
    if (form->arity >= 0) operands(s, size_t(form->arity), form->operands);
    return form->build(*this, s.items, s);
  }
  if (const Function* fn = function(f, true)) return ac::Call{fn->name, call_operands(s, *fn)};
  if (find_form(kExpForms, f) || prim_from_name(f) || find_sugar(f, false, s.operand_count()))
    fail(s, "expected an array expression, found the scalar form " + quote(f));
  not_a_function(s, f, true);
}

bool Converter::is_keyword(std::string_view n) {
  return find_form(kExpForms, n) || find_form(kAccForms, n) || prim_from_name(n) ||
         find_sugar(n, true, 99) || find_sugar(n, false, 99) || n == "lambda" || n == "program" ||
         n == "define" || n == "adefine" || n == "fold1";
}

template <class F>
auto parse_with(std::string_view text, const std::string& file_name, std::string_view what,
                std::string_view after, F&& convert) {
  auto file = std::make_shared<const std::string>(file_name);
  Sexp s = read_sexp(text, file, what, after);
  Converter c(file);
  return convert(c, s);
}

} // namespace

Program parse_program(std::string_view text, const std::string& file_name) {
  auto file = std::make_shared<const std::string>(file_name);
  Sexp all = read_sexps(text, file, "a program `(program ...)`");
  Converter c(file);
  return c.file(all);
}

ExpPtr parse_exp(std::string_view text, const std::string& file_name) {
  return parse_with(text, file_name, "a scalar expression", "the expression",
                    [](Converter& c, const Sexp& s) { return c.exp(s); });
}

AccPtr parse_acc(std::string_view text, const std::string& file_name) {
  return parse_with(text, file_name, "an array expression", "the expression",
                    [](Converter& c, const Sexp& s) { return c.acc(s); });
}

Type parse_type(std::string_view text, const std::string& file_name) {
  return parse_with(text, file_name, "a type", "the type",
                    [](Converter& c, const Sexp& s) { return c.type(s); });
}

} // namespace strata
