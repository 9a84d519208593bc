#include "core/printer.h"

#include <algorithm>

#include "core/overload.h"

namespace strata {
namespace {

constexpr size_t kWidth = 100;

// A layout tree: an atom, or a list that prints flat when it fits and is
// otherwise broken over several lines.
struct Doc {
  std::string atom;
  std::vector<Doc> items;
  bool is_list = false;
  size_t keep = 1;    // items kept on the opening line when broken
  size_t step = 2;    // indentation of the other items, from the `(`
  bool fill = false;  // when broken, pack the other items on as few lines as fit
  bool force = false; // never flat (propagated up: a parent of a broken doc breaks)
  bool heavy = false; // holds a collective operation with a function operand
  size_t flat = 0;    // length on one line, saturated just past kWidth
};

Doc leaf(std::string text) {
  Doc d;
  d.flat = text.size();
  d.atom = std::move(text);
  return d;
}

Doc list(std::vector<Doc> items, size_t keep = 1, size_t step = 2) {
  Doc d;
  d.is_list = true;
  d.keep = keep;
  d.step = step;
  size_t len = items.size() + 1; // parens and separating spaces
  for (const Doc& item : items) {
    len += item.flat;
    d.force = d.force || item.force;
    d.heavy = d.heavy || item.heavy;
  }
  d.flat = std::min(len, kWidth + 1);
  d.items = std::move(items);
  return d;
}

// `(name operand ...)` with the first `inline_operands` kept beside the name.
Doc form(std::string_view name, std::vector<Doc> operands, size_t inline_operands = 0) {
  operands.insert(operands.begin(), leaf(std::string(name)));
  return list(std::move(operands), 1 + inline_operands);
}

// A scalar operation `(name a b ...)`: when broken, `a` stays beside the name
// and the other operands line up under it.
Doc call(std::string_view name, std::vector<Doc> operands) {
  size_t step = name.size() + 2;
  Doc d = form(name, std::move(operands), 1);
  d.step = step;
  return d;
}

Doc forced(Doc d) {
  d.force = true;
  return d;
}

class Renderer {
public:
  // `trailing` is the number of `)` that will follow d on its last line.
  void render(const Doc& d, size_t trailing = 0) {
    if (!d.is_list) {
      out_ += d.atom;
      return;
    }
    size_t col = column();
    if (!d.force && col + d.flat + trailing <= kWidth) {
      render_flat(d);
      return;
    }
    out_ += '(';
    size_t n = d.items.size();
    for (size_t i = 0; i < n; ++i) {
      const Doc& item = d.items[i];
      size_t after = i + 1 == n ? trailing + 1 : 0;
      if (i > 0) {
        bool packed = d.fill && !item.force && column() + 1 + item.flat + after <= kWidth;
        if (i < d.keep || packed) {
          out_ += ' ';
        } else {
          out_ += '\n';
          out_.append(col + d.step, ' ');
        }
      }
      render(item, after);
    }
    out_ += ')';
  }

  std::string take() { return std::move(out_); }

private:
  size_t column() const {
    size_t nl = out_.rfind('\n');
    return nl == std::string::npos ? out_.size() : out_.size() - nl - 1;
  }

  void render_flat(const Doc& d) {
    if (!d.is_list) {
      out_ += d.atom;
      return;
    }
    out_ += '(';
    for (size_t i = 0; i < d.items.size(); ++i) {
      if (i > 0) out_ += ' ';
      render_flat(d.items[i]);
    }
    out_ += ')';
  }

  std::string out_;
};

// ------------------------------------------------------------ building docs

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
    case '"': out += "\\\""; break;
    case '\\': out += "\\\\"; break;
    case '\n': out += "\\n"; break;
    case '\t': out += "\\t"; break;
    default: out += c;
    }
  }
  return out + "\"";
}

Doc exp_doc(const ExpPtr& e);
Doc acc_doc(const AccPtr& a);

Doc number(int64_t n) {
  return leaf(std::to_string(n));
}
Doc type_doc(const Type& t) {
  return leaf(t.str());
}

Doc params_doc(const std::vector<Param>& params) {
  std::vector<Doc> items;
  for (const Param& p : params)
    items.push_back(p.typed ? list({leaf(p.name), type_doc(p.type)}, 2) : leaf(p.name));
  return list(std::move(items), 1, 1);
}

Doc lambda_doc(const Lambda& f) {
  if (!f.written_as.empty()) return leaf(f.written_as);
  return form("lambda", {params_doc(f.params), exp_doc(f.body)}, 1);
}
Doc lambda_doc(const ALambda& f) {
  return form("lambda", {params_doc(f.params), acc_doc(f.body)}, 1);
}

template <class Binding> Doc bindings_doc(const std::vector<Binding>& bindings) {
  std::vector<Doc> items;
  for (const Binding& b : bindings) {
    if constexpr (std::is_same_v<Binding, ex::Binding>)
      items.push_back(list({leaf(b.name), b.fn ? lambda_doc(*b.fn) : exp_doc(b.value)}, 2));
    else
      items.push_back(list({leaf(b.name), acc_doc(b.value)}, 2));
  }
  return list(std::move(items), 1, 1);
}

std::vector<Doc> exp_docs(const std::vector<ExpPtr>& es) {
  std::vector<Doc> out;
  for (const ExpPtr& e : es)
    out.push_back(exp_doc(e));
  return out;
}

Doc boundary_doc(const ac::Boundary& b);

std::vector<Doc> operand_docs(const std::vector<Operand>& ops) {
  std::vector<Doc> out;
  for (const Operand& o : ops) {
    if (o.boundary >= 0) {
      out.push_back(boundary_doc(ac::Boundary{ac::BoundaryKind(o.boundary), o.scalar}));
    } else if (o.array || o.scalar || o.fn) {
      out.push_back(o.array    ? acc_doc(o.array)
                    : o.scalar ? exp_doc(o.scalar)
                               : lambda_doc(*o.fn));
    } else {
      std::vector<Doc> sizes;
      for (int64_t w : o.window)
        sizes.push_back(leaf(std::to_string(w)));
      out.push_back(list(std::move(sizes)));
    }
  }
  return out;
}

Doc exp_node_doc(const ExpNode& node) {
  return std::visit(
      Overload{
          [](const ex::Const& c) { return leaf(format_literal(c.value)); },
          [](const ex::Var& v) { return leaf(v.name); },
          [](const ex::Let& l) {
            return form("let", {bindings_doc(l.bindings), exp_doc(l.body)}, 1);
          },
          [](const ex::If& i) {
            return call("if", {exp_doc(i.cond), exp_doc(i.then_branch), exp_doc(i.else_branch)});
          },
          [](const ex::Tuple& t) { return call("tuple", exp_docs(t.elems)); },
          [](const ex::Proj& p) {
            return form("proj", {number(p.index), exp_doc(p.tuple)}, 1);
          },
          [](const ex::Index& i) { return call("ix", exp_docs(i.components)); },
          [](const ex::Cast& c) {
            return form("cast", {leaf(std::string(scalar_name(c.target))), exp_doc(c.arg)}, 1);
          },
          [](const ex::While& w) {
            return forced(form("while", {lambda_doc(w.cond), lambda_doc(w.step), exp_doc(w.init)}));
          },
          [](const ex::ShapeOf& s) { return form("shape", {acc_doc(s.array)}, 1); },
          [](const ex::SizeOf& s) { return form("size", {acc_doc(s.array)}, 1); },
          [](const ex::Read& r) {
            return form("!", {acc_doc(r.array), exp_doc(r.index)}, 1);
          },
          [](const ex::LinearRead& r) {
            return form("!!", {acc_doc(r.array), exp_doc(r.index)}, 1);
          },
          [](const ex::The& t) { return form("the", {acc_doc(t.array)}, 1); },
          [](const ex::ToIndex& t) {
            return call("to-index", {exp_doc(t.shape), exp_doc(t.index)});
          },
          [](const ex::FromIndex& f) {
            return call("from-index", {exp_doc(f.shape), exp_doc(f.index)});
          },
          [](const ex::Ignore& i) { return form("ignore", {number(i.rank)}, 1); },
          [](const ex::Trace& t) {
            return form("trace", {leaf(quoted(t.label)), exp_doc(t.arg)}, 1);
          },
          [](const ex::PrimApp& p) { return call(prim_name(p.op), exp_docs(p.args)); },
          [](const ex::At& a) {
            std::vector<Doc> ops{leaf(a.window)};
            for (int64_t o : a.offsets)
              ops.push_back(number(o));
            size_t n = ops.size();
            return form("at", std::move(ops), n);
          },
          [](const ex::Call& c) { return call(c.name, operand_docs(c.args)); },
      },
      node);
}

Doc exp_doc(const ExpPtr& e) {
  return e ? exp_node_doc(e->node) : leaf("<null>");
}

// ------------------------------------------------------------- array forms

// Marks a collective operation: it is broken over lines when an operand holds
// another collective operation with a function (a pipeline stage), and is one
// itself when it takes a function.
Doc collective(Doc d, bool takes_function) {
  d.force = d.force || d.heavy;
  d.heavy = d.heavy || takes_function;
  return d;
}

Doc value_doc(const Array& a, const Type& elem, int64_t i, size_t& leaf_index) {
  if (elem.is_scalar()) return leaf(format_value(a.read(leaf_index++, i)));
  std::vector<Doc> parts;
  for (const Type& t : elem.elems())
    parts.push_back(value_doc(a, t, i, leaf_index));
  return list(std::move(parts));
}

// `(array E (d ...) v ...)`, values packed on as few lines as fit.
Doc array_doc(const Array& a) {
  std::vector<Doc> dims;
  for (int64_t d : a.shape())
    dims.push_back(number(d));
  std::vector<Doc> items{leaf("array"), type_doc(a.elem_type()), list(std::move(dims))};
  for (int64_t i = 0; i < a.size(); ++i) {
    size_t leaf_index = 0;
    items.push_back(value_doc(a, a.elem_type(), i, leaf_index));
  }
  Doc d = list(std::move(items), 3);
  d.fill = true;
  return d;
}

Doc spec_doc(const std::vector<ac::SpecItem>& spec) {
  std::vector<Doc> items;
  for (const ac::SpecItem& s : spec)
    items.push_back(s.is_all() ? leaf("all") : exp_doc(s.extent));
  return form("spec", std::move(items));
}

Doc boundary_doc(const ac::Boundary& b) {
  switch (b.kind) {
  case ac::BoundaryKind::Clamp: return leaf("clamp");
  case ac::BoundaryKind::Mirror: return leaf("mirror");
  case ac::BoundaryKind::Wrap: return leaf("wrap");
  case ac::BoundaryKind::Constant: return form("constant", {exp_doc(b.constant)});
  }
  return leaf("clamp");
}

Doc acc_docs(std::string_view name, const std::vector<AccPtr>& as) {
  std::vector<Doc> items;
  for (const AccPtr& a : as)
    items.push_back(acc_doc(a));
  return form(name, std::move(items));
}

// Folds and scans: the seed is absent from fold1, scanl1 and scanr1.
Doc reduction_doc(std::string_view name, const Lambda& f, const ExpPtr& seed, const AccPtr& a) {
  std::vector<Doc> ops{lambda_doc(f)};
  if (seed) ops.push_back(exp_doc(seed));
  ops.push_back(acc_doc(a));
  return form(name, std::move(ops));
}

Doc stencil_doc(const ac::Stencil& s) {
  std::vector<Doc> window;
  for (int64_t w : s.window)
    window.push_back(number(w));
  return form("stencil",
              {list(std::move(window)), boundary_doc(s.boundary), lambda_doc(s.f), acc_doc(s.a)},
              2);
}

// The layout of a form before `collective` marks it.
Doc acc_form_doc(const AccNode& node) {
  return std::visit(
      Overload{
          [](const ac::Var& v) { return leaf(v.name); },
          [](const ac::Alet& l) {
            return form("alet", {bindings_doc(l.bindings), acc_doc(l.body)}, 1);
          },
          [](const ac::ATuple& t) { return acc_docs("atuple", t.elems); },
          [](const ac::AProj& p) {
            return form("aproj", {number(p.index), acc_doc(p.tuple)}, 1);
          },
          [](const ac::Use& u) { return form("use", {array_doc(u.value)}, 1); },
          [](const ac::Unit& u) { return form("unit", {exp_doc(u.value)}); },
          [](const ac::Generate& g) {
            return form("generate", {exp_doc(g.shape), lambda_doc(g.f)}, 1);
          },
          [](const ac::Fill& f) {
            return form("fill", {exp_doc(f.shape), exp_doc(f.value)}, 1);
          },
          [](const ac::Map& m) {
            return form("map", {lambda_doc(m.f), acc_doc(m.a)});
          },
          [](const ac::ZipWith& z) {
            return form("zipwith", {lambda_doc(z.f), acc_doc(z.a), acc_doc(z.b)});
          },
          [](const ac::Fold& f) {
            return reduction_doc(f.seed ? "fold" : "fold1", f.f, f.seed, f.a);
          },
          [](const ac::FoldSeg& f) {
            return form("foldseg",
                        {lambda_doc(f.f), exp_doc(f.seed), acc_doc(f.a), acc_doc(f.segs)});
          },
          [](const ac::Scan& s) { return reduction_doc(scan_name(s.kind), s.f, s.seed, s.a); },
          [](const ac::Permute& p) {
            return form("permute", {lambda_doc(p.combine), acc_doc(p.defaults),
                                    lambda_doc(p.target), acc_doc(p.source)});
          },
          [](const ac::Backpermute& b) {
            return form("backpermute", {exp_doc(b.shape), lambda_doc(b.source_index), acc_doc(b.a)},
                        1);
          },
          [](const ac::Reshape& r) {
            return form("reshape", {exp_doc(r.shape), acc_doc(r.a)}, 1);
          },
          [](const ac::Replicate& r) {
            return form("replicate", {spec_doc(r.spec), acc_doc(r.a)});
          },
          [](const ac::Slice& s) {
            return form("slice", {acc_doc(s.a), spec_doc(s.spec)});
          },
          [](const ac::Stencil& s) { return stencil_doc(s); },
          [](const ac::Awhile& w) {
            return forced(
                form("awhile", {lambda_doc(w.cond), lambda_doc(w.body), acc_doc(w.init)}));
          },
          [](const ac::ATrace& t) {
            return form("atrace", {leaf(quoted(t.label)), acc_doc(t.a)}, 1);
          },
          [](const ac::ACond& c) {
            return form("acond", {exp_doc(c.cond), acc_doc(c.then_branch), acc_doc(c.else_branch)},
                        1);
          },
          [](const ac::Call& c) { return form(c.name, operand_docs(c.args)); },
      },
      node);
}

// The forms that take a scalar or array function.
bool takes_function(const AccNode& node) {
  return std::holds_alternative<ac::Generate>(node) || std::holds_alternative<ac::Map>(node) ||
         std::holds_alternative<ac::ZipWith>(node) || std::holds_alternative<ac::Fold>(node) ||
         std::holds_alternative<ac::FoldSeg>(node) || std::holds_alternative<ac::Scan>(node) ||
         std::holds_alternative<ac::Permute>(node) ||
         std::holds_alternative<ac::Backpermute>(node) ||
         std::holds_alternative<ac::Stencil>(node) || std::holds_alternative<ac::Awhile>(node) ||
         (std::holds_alternative<ac::Call>(node) &&
          std::ranges::any_of(std::get<ac::Call>(node).args,
                              [](const Operand& o) { return o.fn != nullptr; }));
}

Doc acc_node_doc(const AccNode& node) {
  if (std::holds_alternative<ac::Var>(node)) return acc_form_doc(node);
  return collective(acc_form_doc(node), takes_function(node));
}

Doc acc_doc(const AccPtr& a) {
  return a ? acc_node_doc(a->node) : leaf("<null>");
}

std::string render(const Doc& d) {
  Renderer r;
  r.render(d);
  return r.take();
}

} // namespace

// `(define (f p ...) body)`: the signature and the body on their own lines
// unless the whole fits on one.
Doc define_doc(const Define& d) {
  std::vector<Doc> sig{leaf(d.name)};
  for (Doc& p : params_doc(d.params).items)
    sig.push_back(std::move(p));
  Doc body = d.array_body ? acc_doc(d.array_body) : exp_doc(d.scalar_body);
  return form(d.array_body ? "adefine" : "define", {list(std::move(sig), 1, 1), std::move(body)},
              1);
}

// Definitions, each followed by a blank line, then the program.
std::string print_program(const Program& p) {
  std::string out;
  for (const Define& d : p.defines)
    out += render(define_doc(d)) + "\n\n";
  return out + render(forced(form("program", {params_doc(p.params), acc_doc(p.body)}, 1))) + "\n";
}

std::string print_exp(const Exp& e) {
  return render(exp_node_doc(e.node));
}

std::string print_acc(const Acc& a) {
  return render(acc_node_doc(a.node));
}

} // namespace strata
