#include "cuda/codegen_scalar.h"

#include <bit>
#include <cstdio>
#include <limits>

#include "core/check.h"
#include "core/overload.h"

namespace strata::cuda {

std::string c_type(ScalarKind k) {
  switch (k) {
  case ScalarKind::Bool: return "bool";
  case ScalarKind::I8: return "i8";
  case ScalarKind::I16: return "i16";
  case ScalarKind::I32: return "i32";
  case ScalarKind::I64: return "i64";
  case ScalarKind::U8: return "u8";
  case ScalarKind::U16: return "u16";
  case ScalarKind::U32: return "u32";
  case ScalarKind::U64: return "u64";
  case ScalarKind::F32: return "f32";
  case ScalarKind::F64: return "f64";
  }
  return "void";
}

namespace {

std::string unsigned_type(ScalarKind k) {
  switch (bit_width(k)) {
  case 8: return "u8";
  case 16: return "u16";
  case 32: return "u32";
  default: return "u64";
  }
}

// An integer of kind k from its 64-bit two's complement pattern.
std::string int_literal(ScalarKind k, uint64_t bits) {
  return "((" + c_type(k) + ")" + std::to_string(bits) + "ull)";
}

std::string float_bound(ScalarKind k, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return "((" + c_type(k) + ")" + buf + ")";
}

const char* float_fn(Prim op) {
  switch (op) {
  case Prim::Sqrt: return "sqrt";
  case Prim::Exp: return "exp";
  case Prim::Log: return "log";
  case Prim::Sin: return "sin";
  case Prim::Cos: return "cos";
  case Prim::Tan: return "tan";
  case Prim::Asin: return "asin";
  case Prim::Acos: return "acos";
  case Prim::Atan: return "atan";
  case Prim::Sinh: return "sinh";
  case Prim::Cosh: return "cosh";
  case Prim::Tanh: return "tanh";
  case Prim::Atan2: return "atan2";
  case Prim::Pow: return "pow";
  case Prim::Floor: return "floor";
  case Prim::Ceil: return "ceil";
  case Prim::Round: return "round";
  case Prim::Trunc: return "trunc";
  default: return nullptr;
  }
}

} // namespace

std::string c_literal(const Scalar& v) {
  return v.visit([&](auto x) -> std::string {
    using T = decltype(x);
    if constexpr (std::is_same_v<T, bool>) {
      return x ? "true" : "false";
    } else if constexpr (std::is_same_v<T, float>) {
      return "s_f32(" + std::to_string(std::bit_cast<uint32_t>(x)) + "u)";
    } else if constexpr (std::is_same_v<T, double>) {
      return "s_f64(" + std::to_string(std::bit_cast<uint64_t>(x)) + "ull)";
    } else {
      return int_literal(kind_of<T>, uint64_t(x));
    }
  });
}

// ------------------------------------------------------------------ emission
std::string ScalarGen::fresh() {
  return "v" + std::to_string(counter_++);
}

void ScalarGen::line(const std::string& s) {
  code_.append(size_t(indent_) * 2, ' ');
  code_ += s;
  code_ += '\n';
}
void ScalarGen::open(const std::string& s) {
  line(s);
  ++indent_;
}
void ScalarGen::close(const std::string& s) {
  --indent_;
  line(s);
}
void ScalarGen::otherwise() {
  close("} else {");
  ++indent_;
}

std::string ScalarGen::var(ScalarKind k, const std::string& init) {
  std::string v = fresh();
  line(c_type(k) + " " + v + " = " + init + ";");
  return v;
}

Val ScalarGen::copy(const Val& v) {
  Val out{v.type, {}};
  std::vector<ScalarKind> kinds = v.type.leaves();
  for (size_t l = 0; l < kinds.size(); ++l)
    out.leaves.push_back(var(kinds[l], v.leaves[l]));
  return out;
}

void ScalarGen::assign(const Val& to, const Val& from) {
  for (size_t l = 0; l < to.leaves.size(); ++l)
    line(to.leaves[l] + " = " + from.leaves[l] + ";");
}

int ScalarGen::site(ErrorSite s) {
  out_.sites.push_back(std::move(s));
  return int(out_.sites.size()) - 1;
}

// ------------------------------------------------------------------ arrays
ArrayId ScalarGen::array_of(const Acc& a) const {
  const auto* v = std::get_if<ac::Var>(&a.node);
  ArrayId id = v ? g_.id_of(v->name) : -1;
  if (id < 0) throw Error(ErrorKind::Type, a.loc, "kernel code reads an unknown array");
  return id;
}

std::string ScalarGen::shape_word(ArrayId id, int k) const {
  return "c.T[" + std::to_string(out_.offsets[size_t(id)] + k) + "]";
}
std::string ScalarGen::size_word(ArrayId id) const {
  return "c.T[" + std::to_string(out_.offsets[size_t(id)] + out_.slots[size_t(id)].rank()) + "]";
}
std::string ScalarGen::leaf_ptr(ArrayId id, size_t leaf) const {
  const Type& t = out_.slots[size_t(id)];
  ScalarKind k = t.elem().leaves()[leaf];
  int word = out_.offsets[size_t(id)] + t.rank() + 1 + int(leaf);
  return "((" + c_type(k) + "*)(uptr)c.T[" + std::to_string(word) + "])";
}

// A float is stored as s_canon of it: one NaN (docs/language.md, "NaN").
void ScalarGen::store(ArrayId id, const std::string& pos, const Val& v) {
  std::vector<ScalarKind> kinds = out_.slots[size_t(id)].elem().leaves();
  for (size_t l = 0; l < v.leaves.size(); ++l) {
    bool fl = kinds[l] == ScalarKind::F32 || kinds[l] == ScalarKind::F64;
    line(leaf_ptr(id, l) + "[" + pos +
         "] = " + (fl ? "s_canon(" + v.leaves[l] + ")" : v.leaves[l]) + ";");
  }
}

Val ScalarGen::load(ArrayId id, const std::string& pos) {
  const Type& elem = out_.slots[size_t(id)].elem();
  Val out{elem, {}};
  std::vector<ScalarKind> kinds = elem.leaves();
  for (size_t l = 0; l < kinds.size(); ++l)
    out.leaves.push_back(var(kinds[l], leaf_ptr(id, l) + "[" + pos + "]"));
  return out;
}

// A bounds-checked read at index ix; out of range reports and reads nothing.
Val ScalarGen::read(ArrayId id, const std::vector<std::string>& ix, const Exp& e,
                    const ReadNames& names) {
  std::string pos = var(ScalarKind::I64, "0"), ok = var(ScalarKind::Bool, "true");
  for (size_t k = 0; k < ix.size(); ++k) {
    std::string n = shape_word(id, int(k));
    line("if (" + ix[k] + " < 0 || " + ix[k] + " >= " + n + ") " + ok + " = false;");
    line(pos + " = " + pos + " * " + n + " + " + ix[k] + ";");
  }
  ErrorSite s;
  s.kind = ErrorSite::Kind::Read;
  s.loc = e.loc;
  s.opname = names.op;
  s.array = names.array;
  s.array_id = id;
  s.rank = int(ix.size());
  int n = site(s);
  open("if (!" + ok + ") {");
  open("if (s_fail(c, " + std::to_string(n) + ")) {");
  for (size_t k = 0; k < ix.size(); ++k)
    line("c.E->v[" + std::to_string(k) + "] = " + ix[k] + ";");
  close();
  line(pos + " = 0;");
  close();
  Val out{e.type, {}};
  std::vector<ScalarKind> kinds = e.type.leaves();
  for (size_t l = 0; l < kinds.size(); ++l)
    out.leaves.push_back(var(kinds[l], ok + " ? " + leaf_ptr(id, l) + "[" + pos + "] : (" +
                                           c_type(kinds[l]) + ")0"));
  return out;
}

// ------------------------------------------------------------------ forms
Val ScalarGen::apply(const Lambda& f, const std::vector<Val>& args) {
  size_t depth = env_.size();
  for (size_t i = 0; i < f.params.size(); ++i)
    env_.emplace_back(f.params[i].name, args[i]);
  Val r = exp(*f.body);
  env_.resize(depth);
  return r;
}

Val ScalarGen::exp(const Exp& e) {
  return std::visit(
      Overload{
          [&](const ex::Const& x) -> Val {
            return Val{e.type, {var(x.value.kind(), c_literal(x.value))}};
          },
          [&](const ex::Var& x) -> Val {
            for (auto it = env_.rbegin(); it != env_.rend(); ++it)
              if (it->first == x.name) return it->second;
            throw Error(ErrorKind::Type, e.loc,
                        "kernel code reads unknown variable `" + x.name + "`");
          },
          [&](const ex::Let& x) -> Val {
            size_t depth = env_.size();
            for (const auto& b : x.bindings)
              env_.emplace_back(b.name, exp(*b.value));
            Val r = exp(*x.body);
            env_.resize(depth);
            return r;
          },
          [&](const ex::If& x) -> Val {
            Val cond = exp(*x.cond);
            Val out{e.type, {}};
            for (ScalarKind k : e.type.leaves())
              out.leaves.push_back(var(k, "(" + c_type(k) + ")0"));
            open("if (" + cond.leaves[0] + ") {");
            assign(out, exp(*x.then_branch));
            otherwise();
            assign(out, exp(*x.else_branch));
            close();
            return out;
          },
          [&](const ex::Tuple& x) -> Val {
            Val out{e.type, {}};
            for (const auto& el : x.elems) {
              Val v = exp(*el);
              out.leaves.insert(out.leaves.end(), v.leaves.begin(), v.leaves.end());
            }
            return out;
          },
          [&](const ex::Proj& x) -> Val {
            Val t = exp(*x.tuple);
            size_t first = 0;
            for (int k = 0; k < x.index; ++k)
              first += t.type.elems()[size_t(k)].leaves().size();
            size_t n = e.type.leaves().size();
            return Val{e.type, std::vector<std::string>(t.leaves.begin() + long(first),
                                                        t.leaves.begin() + long(first + n))};
          },
          [&](const ex::Index& x) -> Val {
            Val out{e.type, {}};
            for (const auto& c : x.components)
              out.leaves.push_back(exp(*c).leaves[0]);
            return out;
          },
          [&](const ex::Cast& x) -> Val { return cast(exp(*x.arg), x.target); },
          [&](const ex::While& x) -> Val {
            Val state = copy(exp(*x.init));
            open("for (;;) {");
            Val cond = apply(x.cond, {state});
            line("if (c.failed || !" + cond.leaves[0] + ") break;");
            Val next = copy(apply(x.step, {state}));
            assign(state, next);
            close();
            return state;
          },
          [&](const ex::ShapeOf& x) -> Val {
            ArrayId id = array_of(*x.array);
            Val out{e.type, {}};
            for (int k = 0; k < out_.slots[size_t(id)].rank(); ++k)
              out.leaves.push_back(shape_word(id, k));
            return out;
          },
          [&](const ex::SizeOf& x) -> Val {
            return Val{e.type, {size_word(array_of(*x.array))}};
          },
          [&](const ex::The& x) -> Val { return load(array_of(*x.array), "0"); },
          [&](const ex::Read& x) -> Val {
            return read(array_of(*x.array), exp(*x.index).leaves, e, read_names(x));
          },
          [&](const ex::LinearRead& x) -> Val {
            ArrayId id = array_of(*x.array);
            std::string i = exp(*x.index).leaves[0];
            std::string ok = var(ScalarKind::Bool, i + " >= 0 && " + i + " < " + size_word(id));
            ErrorSite s;
            s.kind = ErrorSite::Kind::LinearRead;
            s.loc = e.loc;
            ReadNames names = read_names(x);
            s.opname = names.op;
            s.array = names.array;
            s.array_id = id;
            int n = site(s);
            line("if (!" + ok + " && s_fail(c, " + std::to_string(n) + ")) c.E->v[0] = " + i + ";");
            Val out{e.type, {}};
            std::vector<ScalarKind> kinds = e.type.leaves();
            for (size_t l = 0; l < kinds.size(); ++l)
              out.leaves.push_back(var(kinds[l], ok + " ? " + leaf_ptr(id, l) + "[" + i + "] : (" +
                                                     c_type(kinds[l]) + ")0"));
            return out;
          },
          [&](const ex::ToIndex& x) -> Val {
            std::vector<std::string> sh = exp(*x.shape).leaves, ix = exp(*x.index).leaves;
            std::string pos = var(ScalarKind::I64, "0"), ok = var(ScalarKind::Bool, "true");
            for (size_t k = 0; k < sh.size(); ++k) {
              line("if (" + ix[k] + " < 0 || " + ix[k] + " >= " + sh[k] + ") " + ok + " = false;");
              line(pos + " = (i64)((u64)" + pos + " * (u64)" + sh[k] + " + (u64)" + ix[k] + ");");
            }
            ErrorSite s;
            s.kind = ErrorSite::Kind::ToIndex;
            s.loc = e.loc;
            s.opname = to_index_op(x);
            s.rank = int(sh.size());
            int n = site(s);
            open("if (!" + ok + ") {");
            open("if (s_fail(c, " + std::to_string(n) + ")) {");
            for (size_t k = 0; k < sh.size(); ++k) {
              line("c.E->v[" + std::to_string(k) + "] = " + sh[k] + ";");
              line("c.E->v[" + std::to_string(sh.size() + k) + "] = " + ix[k] + ";");
            }
            close();
            line(pos + " = 0;");
            close();
            return Val{e.type, {pos}};
          },
          [&](const ex::FromIndex& x) -> Val {
            std::vector<std::string> sh = exp(*x.shape).leaves;
            std::string i = exp(*x.index).leaves[0];
            std::string size = var(ScalarKind::I64, "1");
            for (const std::string& d : sh)
              line(size + " = (i64)((u64)" + size + " * (u64)" + d + ");");
            std::string ok = var(ScalarKind::Bool, i + " >= 0 && " + i + " < " + size);
            ErrorSite s;
            s.kind = ErrorSite::Kind::FromIndex;
            s.loc = e.loc;
            s.opname = "from-index";
            s.rank = int(sh.size());
            int n = site(s);
            open("if (!" + ok + " && s_fail(c, " + std::to_string(n) + ")) {");
            for (size_t k = 0; k < sh.size(); ++k)
              line("c.E->v[" + std::to_string(k) + "] = " + sh[k] + ";");
            line("c.E->v[" + std::to_string(sh.size()) + "] = " + i + ";");
            close();
            std::string rest = var(ScalarKind::I64, ok + " ? " + i + " : 0");
            Val out{e.type, std::vector<std::string>(sh.size())};
            for (size_t k = sh.size(); k-- > 0;) {
              out.leaves[k] =
                  var(ScalarKind::I64, sh[k] + " > 0 ? " + rest + " % " + sh[k] + " : 0");
              line(rest + " = " + sh[k] + " > 0 ? " + rest + " / " + sh[k] + " : 0;");
            }
            return out;
          },
          [&](const ex::Ignore& x) -> Val {
            return Val{e.type, std::vector<std::string>(size_t(x.rank), "((i64)-1)")};
          },
          [&](const ex::Trace& x) -> Val { return exp(*x.arg); },
          [&](const ex::PrimApp& x) -> Val { return prim(x, e); },
          [&](const ex::Call&) -> Val { unexpanded_call(e.loc); },
          [&](const ex::At& x) -> Val {
            if (!window || x.window != window->name)
              throw Error(ErrorKind::Type, e.loc, "`at` outside its stencil");
            const WindowGen& w = *window;
            ArrayId id = w.array;
            std::string pos = var(ScalarKind::I64, "0"), out_of = var(ScalarKind::Bool, "false");
            for (size_t k = 0; k < x.offsets.size(); ++k) {
              std::string n = shape_word(id, int(k));
              std::string i = var(ScalarKind::I64,
                                  "s_boundary(" + std::to_string(w.boundary) + ", " + w.center[k] +
                                      " + (" + std::to_string(x.offsets[k]) + "), " + n + ")");
              line("if (" + i + " < 0) " + out_of + " = true;");
              line(pos + " = " + pos + " * " + n + " + " + i + ";");
            }
            Val out{e.type, {}};
            std::vector<ScalarKind> kinds = e.type.leaves();
            for (size_t l = 0; l < kinds.size(); ++l) {
              std::string outside =
                  w.boundary == 3 ? w.constant.leaves[l] : "(" + c_type(kinds[l]) + ")0";
              out.leaves.push_back(var(kinds[l], out_of + " ? " + outside + " : " +
                                                     leaf_ptr(id, l) + "[" + pos + "]"));
            }
            return out;
          },
      },
      e.node);
}

Val ScalarGen::cast(const Val& a, ScalarKind to) {
  ScalarKind from = a.type.scalar_kind();
  const std::string& x = a.leaves[0];
  std::string t = c_type(to), r;
  if (to == ScalarKind::Bool) {
    r = "(" + x + " != (" + c_type(from) + ")0)";
  } else if (from == ScalarKind::Bool) {
    r = "(" + t + ")(" + x + " ? 1 : 0)";
  } else if (is_integral(to) && is_float(from)) {
    double lo = 0, hi = 0;
    uint64_t mn = 0, mx = 0;
    dispatch_kind(to, [&](auto tag) {
      using To = decltype(tag);
      if constexpr (!std::is_same_v<To, bool> && !std::is_floating_point_v<To>) {
        lo = double(std::numeric_limits<To>::min());
        hi = 2.0 * double(std::numeric_limits<To>::max() / 2 + 1);
        mn = uint64_t(std::numeric_limits<To>::min());
        mx = uint64_t(std::numeric_limits<To>::max());
      }
    });
    r = "s_f2i<" + t + ", " + c_type(from) + ">(" + x + ", " + float_bound(from, lo) + ", " +
        float_bound(from, hi) + ", " + int_literal(to, mn) + ", " + int_literal(to, mx) + ")";
  } else {
    r = "(" + t + ")" + x;
  }
  return Val{Type::scalar(to), {var(to, r)}};
}

Val ScalarGen::prim(const ex::PrimApp& p, const Exp& e) {
  ScalarKind rk = e.type.is_scalar() ? e.type.scalar_kind() : ScalarKind::Bool;
  if (p.op == Prim::And || p.op == Prim::Or) {
    std::string a = exp(*p.args[0]).leaves[0];
    std::string out = var(ScalarKind::Bool, p.op == Prim::And ? "false" : "true");
    open(p.op == Prim::And ? "if (" + a + ") {" : "if (!" + a + ") {");
    line(out + " = " + exp(*p.args[1]).leaves[0] + ";");
    close();
    return Val{e.type, {out}};
  }
  Val av = exp(*p.args[0]);
  Val bv = p.args.size() > 1 ? exp(*p.args[1]) : av;
  ScalarKind k = av.type.scalar_kind();
  const std::string &a = av.leaves[0], &b = bv.leaves[0];
  std::string T = c_type(k), U = is_integral(k) ? unsigned_type(k) : "";
  std::string W = std::to_string(bit_width(k));
  bool f32 = k == ScalarKind::F32;
  auto wrap = [&](const char* op) {
    return "(" + T + ")((u64)" + a + " " + op + " (u64)" + b + ")";
  };
  std::string r;
  switch (p.op) {
  case Prim::Add: r = is_float(k) ? a + " + " + b : wrap("+"); break;
  case Prim::Sub: r = is_float(k) ? a + " - " + b : wrap("-"); break;
  case Prim::Mul: r = is_float(k) ? a + " * " + b : wrap("*"); break;
  case Prim::Neg: r = is_float(k) ? "-" + a : "s_neg(" + a + ")"; break;
  case Prim::Abs:
    if (is_float(k))
      r = (f32 ? "fabsf(" : "fabs(") + a + ")";
    else if (is_signed(k))
      r = "(" + a + " < 0 ? s_neg(" + a + ") : " + a + ")";
    else
      r = a;
    break;
  case Prim::Signum: r = "s_signum(" + a + ")"; break;
  case Prim::Min: r = "s_min(" + a + ", " + b + ")"; break;
  case Prim::Max: r = "s_max(" + a + ", " + b + ")"; break;
  case Prim::Div: r = a + " / " + b; break;
  case Prim::Quot:
  case Prim::Rem:
  case Prim::IDiv:
  case Prim::Mod: {
    ErrorSite s;
    s.kind = ErrorSite::Kind::Division;
    s.op = p.op;
    s.type = k;
    s.loc = e.loc;
    int n = site(s);
    std::string zero = var(ScalarKind::Bool, b + " == 0");
    line("if (" + zero + " && s_fail(c, " + std::to_string(n) + ")) { c.E->v[0] = (i64)" + a +
         "; c.E->v[1] = (i64)" + b + "; }");
    const char* fn = p.op == Prim::Quot   ? "s_quot"
                     : p.op == Prim::Rem  ? "s_rem"
                     : p.op == Prim::IDiv ? "s_idiv"
                                          : "s_mod";
    r = zero + " ? (" + T + ")0 : " + fn + "(" + a + ", " + b + ")";
    break;
  }
  case Prim::Eq: r = a + " == " + b; break;
  case Prim::Ne: r = a + " != " + b; break;
  case Prim::Lt: r = a + " < " + b; break;
  case Prim::Le: r = a + " <= " + b; break;
  case Prim::Gt: r = a + " > " + b; break;
  case Prim::Ge: r = a + " >= " + b; break;
  case Prim::Not: r = "!" + a; break;
  case Prim::BAnd: r = "(" + T + ")(" + a + " & " + b + ")"; break;
  case Prim::BOr: r = "(" + T + ")(" + a + " | " + b + ")"; break;
  case Prim::BXor: r = "(" + T + ")(" + a + " ^ " + b + ")"; break;
  case Prim::BNot: r = "(" + T + ")~" + a; break;
  case Prim::Shl:
    r = "(" + T + ")(" + U + ")((" + U + ")" + a + " << (u32)((u64)" + b + " & " + W + "ull - 1))";
    break;
  case Prim::Shr: r = "(" + T + ")(" + a + " >> (u32)((u64)" + b + " & " + W + "ull - 1))"; break;
  case Prim::Popcount: r = "(" + T + ")s_popc64((u64)(" + U + ")" + a + ")"; break;
  case Prim::Clz: r = "(" + T + ")(s_clz64((u64)(" + U + ")" + a + ") - (64 - " + W + "))"; break;
  case Prim::Ctz:
    r = "(" + T + ")(" + a + " == 0 ? " + W + "ull : s_ctz64((u64)(" + U + ")" + a + "))";
    break;
  case Prim::IsNaN: r = "s_isnan(" + a + ")"; break;
  case Prim::IsInf: r = "s_isinf(" + a + ")"; break;
  default: {
    const char* fn = float_fn(p.op);
    if (!fn || !is_float(k))
      throw Error(ErrorKind::Type, e.loc,
                  "primitive `" + std::string(prim_name(p.op)) + "` is not defined on " +
                      std::string(scalar_name(k)));
    r = std::string(fn) + (f32 ? "f(" : "(") + a + (p.args.size() > 1 ? ", " + b : "") + ")";
  }
  }
  return Val{e.type, {var(rk, r)}};
}

} // namespace strata::cuda
