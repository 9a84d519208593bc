#include "interpreter/interpreter.h"

#include "core/check.h"

#include <algorithm>
#include <optional>

#include "core/combiner.h"
#include "core/interrupt.h"
#include "core/runtime_errors.h"
#include "core/scan_layout.h"
#include "core/semantics.h"
#include "interpreter/indexing.h"
#include "interpreter/ordered_reductions.h"
#include "interpreter/primitives.h"
#include "interpreter/trace.h"
#include "interpreter/value.h"

namespace strata {
namespace {

std::string quoted(std::string_view s) {
  return "`" + std::string(s) + "`";
}

class Interpreter {
public:
  explicit Interpreter(const InterpreterOptions& options) : options_(options) {}

  std::vector<Array> run(const Program& p, const std::vector<Array>& inputs) {
    if (inputs.size() != p.params.size())
      throw wrong_input_count(p.params.size(), inputs.size(), p.loc);
    for (size_t i = 0; i < inputs.size(); ++i) {
      const Param& param = p.params[i];
      if (inputs[i].type() != param.type)
        throw wrong_input_type(param.name, param.type, inputs[i].type(), inputs[i].shape(),
                               param.loc);
      arrays_.emplace_back(&param.name, Arrays::single(inputs[i]));
    }
    std::vector<Array> out;
    eval(*p.body).flatten_into(out);
    return out;
  }

  Value run_function(const Lambda& f, Value x, Value y) {
    return apply(f, std::move(x), std::move(y));
  }

  Arrays run_acc(const Acc& a, const std::vector<std::pair<std::string, Arrays>>& env) {
    for (const auto& [name, value] : env)
      arrays_.emplace_back(&name, value);
    return eval(a);
  }

private:
  const InterpreterOptions& options_;
  std::vector<std::pair<const std::string*, Value>> scalars_;
  std::vector<std::pair<const std::string*, Arrays>> arrays_;

  // The stencil window being evaluated: `at` reads around `center`.
  struct Window {
    const std::string* name;
    const Array* array;
    const ac::Stencil* stencil;
    Value constant;
    Index center;
  };
  Window* window_ = nullptr;

  // The collective whose elements are being computed, so that errors and
  // trace lines can say "element (5,2) of `generate`": the operation, the
  // shape its positions run over, what a position is called, and a pointer to
  // the loop counter (so the per-element cost is nothing at all).
  struct Element {
    const Acc* op = nullptr;
    const Shape* shape = nullptr;
    const char* what = "element";
    const int64_t* pos = nullptr;
  };
  Element element_;

  // Calls body(i) for i = 0 .. n-1, the row-major positions of `sh`. An error
  // raised while computing position i is re-raised naming the element and the
  // operation: "..., while computing element (5,2) of `generate` at f:3:1".
  template <class F>
  void for_each_element(const Acc& a, const Shape& sh, int64_t n, F&& body,
                        const char* what = "element") {
    Element saved = element_;
    int64_t i = 0;
    element_ = Element{&a, &sh, what, &i};
    try {
      for (; i < n; ++i) {
        if ((i & 4095) == 4095) throw_if_interrupted(); // core/interrupt.h
        body(i);
      }
    } catch (const Error& e) {
      element_ = saved;
      throw Error(e.kind(), e.loc(), e.message(),
                  e.context() + ", while computing " + what + " " + shape_str(from_linear(sh, i)) +
                      " of " + quoted(form_name(a.node)) + where(a.loc, e.loc()));
    }
    element_ = saved;
  }

  // " at file:line:col", or nothing when unknown or the same as the error's.
  static std::string where(const SrcLoc& loc, const SrcLoc& error_loc) {
    if (!loc.known() || (loc.line == error_loc.line && loc.col == error_loc.col)) return "";
    return " at " + loc.str();
  }

  // Re-raises an error from inside iteration `k` of a loop form naming it.
  [[noreturn]] static void in_iteration(const Error& e, int64_t k, std::string_view form,
                                        const SrcLoc& loc) {
    throw Error(e.kind(), e.loc(), e.message(),
                e.context() + ", in iteration " + std::to_string(k) + " of " + quoted(form) +
                    where(loc, e.loc()));
  }

  // ------------------------------------------------------------ environment
  const Value& lookup_scalar(const std::string& name) const {
    for (auto it = scalars_.rbegin(); it != scalars_.rend(); ++it)
      if (*it->first == name) return it->second;
    throw Error(ErrorKind::Type,
                "unbound variable " + quoted(name) + " (was the program type-checked?)");
  }

  const Arrays& lookup_arrays(const std::string& name) const {
    for (auto it = arrays_.rbegin(); it != arrays_.rend(); ++it)
      if (*it->first == name) return it->second;
    throw Error(ErrorKind::Type,
                "unbound array variable " + quoted(name) + " (was the program type-checked?)");
  }

  const Array& array_var(const Acc& a) {
    return lookup_arrays(std::get<ac::Var>(a.node).name).array;
  }

  Value apply(const Lambda& f, Value x) {
    scalars_.emplace_back(&f.params[0].name, std::move(x));
    Value r = eval(*f.body);
    scalars_.pop_back();
    return r;
  }

  Value apply(const Lambda& f, Value x, Value y) {
    scalars_.emplace_back(&f.params[0].name, std::move(x));
    scalars_.emplace_back(&f.params[1].name, std::move(y));
    Value r = eval(*f.body);
    scalars_.resize(scalars_.size() - 2);
    return r;
  }

  Arrays apply(const ALambda& f, Arrays x) {
    arrays_.emplace_back(&f.params[0].name, std::move(x));
    Arrays r = eval(*f.body);
    arrays_.pop_back();
    return r;
  }

  // ------------------------------------------------------------ scalar forms
  Value eval(const Exp& e) {
    return std::visit([&](const auto& n) { return ev(n, e); }, e.node);
  }

  Value ev(const ex::Const& c, const Exp&) { return c.value; }
  Value ev(const ex::Var& v, const Exp&) { return lookup_scalar(v.name); }

  Value ev(const ex::Let& l, const Exp&) {
    for (const auto& b : l.bindings) {
      Value v = eval(*b.value);
      scalars_.emplace_back(&b.name, std::move(v));
    }
    Value r = eval(*l.body);
    scalars_.resize(scalars_.size() - l.bindings.size());
    return r;
  }

  Value ev(const ex::If& i, const Exp&) {
    return eval(*i.cond).truthy() ? eval(*i.then_branch) : eval(*i.else_branch);
  }

  Value ev(const ex::Tuple& t, const Exp&) {
    std::vector<Value> elems;
    elems.reserve(t.elems.size());
    for (const auto& e : t.elems)
      elems.push_back(eval(*e));
    return Value::tuple(std::move(elems));
  }

  Value ev(const ex::Proj& p, const Exp&) { return eval(*p.tuple).elems[size_t(p.index)]; }

  Value ev(const ex::Index& ix, const Exp&) {
    std::vector<Value> elems;
    elems.reserve(ix.components.size());
    for (const auto& c : ix.components)
      elems.push_back(eval(*c));
    return Value::tuple(std::move(elems));
  }

  Value ev(const ex::Cast& c, const Exp&) { return apply_cast(c.target, eval(*c.arg).scalar); }

  Value ev(const ex::While& w, const Exp& e) {
    Value state = eval(*w.init);
    int64_t k = 0;
    try {
      for (; apply(w.cond, state).truthy(); ++k) {
        if ((k & 4095) == 4095) throw_if_interrupted(); // core/interrupt.h
        state = apply(w.step, std::move(state));
      }
    } catch (const Error& err) {
      in_iteration(err, k, "while", e.loc);
    }
    return state;
  }

  Value ev(const ex::ShapeOf& s, const Exp&) { return Value::index(array_var(*s.array).shape()); }
  Value ev(const ex::SizeOf& s, const Exp&) {
    return Scalar::make<int64_t>(array_var(*s.array).size());
  }

  Value ev(const ex::Read& r, const Exp& e) {
    const Array& a = array_var(*r.array);
    Index ix = eval(*r.index).to_index();
    if (!in_bounds(a.shape(), ix)) {
      ReadNames n = read_names(r);
      throw index_out_of_bounds(ix, a.shape(), n.op, n.array, e.loc);
    }
    return read_element(a, to_linear(a.shape(), ix));
  }

  Value ev(const ex::LinearRead& r, const Exp& e) {
    const Array& a = array_var(*r.array);
    int64_t i = eval(*r.index).scalar.get<int64_t>();
    if (i < 0 || i >= a.size()) {
      ReadNames n = read_names(r);
      throw linear_index_out_of_bounds(i, a.shape(), n.op, n.array, e.loc);
    }
    return read_element(a, i);
  }

  Value ev(const ex::The& t, const Exp&) { return read_element(array_var(*t.array), 0); }

  Value ev(const ex::ToIndex& t, const Exp& e) {
    Index sh = eval(*t.shape).to_index();
    Index ix = eval(*t.index).to_index();
    if (!in_bounds(sh, ix)) throw to_index_out_of_bounds(ix, sh, to_index_op(t), e.loc);
    return Scalar::make<int64_t>(to_linear(sh, ix));
  }

  Value ev(const ex::FromIndex& f, const Exp& e) {
    Index sh = eval(*f.shape).to_index();
    int64_t i = eval(*f.index).scalar.get<int64_t>();
    if (i < 0 || i >= shape_size(sh)) throw from_index_out_of_bounds(i, sh, e.loc);
    return Value::index(from_linear(sh, i));
  }

  Value ev(const ex::Ignore& i, const Exp&) { return Value::index(Index(size_t(i.rank), -1)); }

  Value ev(const ex::Trace& t, const Exp& e) {
    Value v = eval(*t.arg);
    if (options_.trace && trace_selected(options_.trace_filter, e.loc, "trace", t.label))
      *options_.trace << e.loc.str() << e.loc.calls() << ": " << element_context() << "trace "
                      << t.label << ": " << value_str(v) << "\n";
    return v;
  }

  // "map element (3): " while a collective computes an element, else "".
  std::string element_context() const {
    if (!element_.op) return "";
    return std::string(form_name(element_.op->node)) + " " + element_.what + " " +
           shape_str(from_linear(*element_.shape, *element_.pos)) + ": ";
  }

  Value ev(const ex::PrimApp& p, const Exp& e) {
    if (p.op == Prim::And)
      return eval(*p.args[0]).truthy() ? eval(*p.args[1]) : Value(Scalar::make(false));
    if (p.op == Prim::Or)
      return eval(*p.args[0]).truthy() ? Value(Scalar::make(true)) : eval(*p.args[1]);
    Scalar args[2];
    for (size_t i = 0; i < p.args.size(); ++i)
      args[i] = eval(*p.args[i]).scalar;
    return apply_prim(p.op, args, e.loc);
  }

  Value ev(const ex::Call&, const Exp& e) { unexpanded_call(e.loc); } // checking expanded it

  Value ev(const ex::At& a, const Exp&) {
    const Window& w = *window_;
    const Shape& sh = w.array->shape();
    Index ix(sh.size());
    for (size_t k = 0; k < sh.size(); ++k) {
      ix[k] = boundary_coordinate(w.stencil->boundary.kind, w.center[k] + a.offsets[k], sh[k]);
      if (ix[k] < 0) return w.constant;
    }
    return read_element(*w.array, to_linear(sh, ix));
  }

  // ------------------------------------------------------------ array forms
  Arrays eval(const Acc& a) {
    throw_if_interrupted(); // core/interrupt.h
    Arrays r = std::visit([&](const auto& n) { return ev(n, a); }, a.node);
    if (options_.trace_collectives && options_.trace) trace_collective(a, r);
    return r;
  }

  // One line per array a collective produced. Forms that only name, bind,
  // select or pass on arrays print nothing; `awhile` and `atrace` print their own.
  void trace_collective(const Acc& a, const Arrays& r) {
    if (std::holds_alternative<ac::Var>(a.node) || std::holds_alternative<ac::Alet>(a.node) ||
        std::holds_alternative<ac::ATuple>(a.node) || std::holds_alternative<ac::AProj>(a.node) ||
        std::holds_alternative<ac::ACond>(a.node) || std::holds_alternative<ac::Awhile>(a.node) ||
        std::holds_alternative<ac::ATrace>(a.node))
      return;
    trace_arrays(a.loc, form_name(a.node), "", std::string(form_name(a.node)), r);
  }

  // Prints "LOC: HEAD: summary" per array of r ("HEAD [k]: " for a tuple).
  void trace_arrays(const SrcLoc& loc, std::string_view op, std::string_view label,
                    const std::string& head, const Arrays& r) {
    if (!trace_selected(options_.trace_filter, loc, op, label)) return;
    std::vector<Array> arrays;
    r.flatten_into(arrays);
    for (size_t k = 0; k < arrays.size(); ++k)
      *options_.trace << loc.str() << loc.calls() << ": " << head
                      << (arrays.size() > 1 ? " [" + std::to_string(k) + "]" : "") << ": "
                      << summarize_array(arrays[k]) << "\n";
  }

  Array eval_array(const Acc& a) { return eval(a).array; }

  // A shape computed by a scalar expression for operation `a`; negative
  // extents are errors at the operation.
  Shape eval_shape(const Exp& e, const Acc& a) {
    Shape sh = eval(e).to_index();
    check_extents(sh, std::string(form_name(a.node)), a.loc);
    return sh;
  }

  Array allocate(const Acc& a, Shape sh) { return allocate(a, a.type.elem(), std::move(sh)); }

  // Allocation failures (huge shapes) name the operation and its position.
  Array allocate(const Acc& a, const Type& elem, Shape sh) {
    try {
      return Array::allocate(elem, std::move(sh));
    } catch (const Error& err) {
      throw allocation_failed(err, std::string(form_name(a.node)), a.loc);
    }
  }

  Arrays ev(const ac::Var& v, const Acc&) { return lookup_arrays(v.name); }

  Arrays ev(const ac::Alet& l, const Acc&) {
    for (const auto& b : l.bindings) {
      Arrays v = eval(*b.value);
      arrays_.emplace_back(&b.name, std::move(v));
    }
    Arrays r = eval(*l.body);
    arrays_.resize(arrays_.size() - l.bindings.size());
    return r;
  }

  Arrays ev(const ac::ATuple& t, const Acc&) {
    std::vector<Arrays> elems;
    for (const auto& e : t.elems)
      elems.push_back(eval(*e));
    return Arrays::tuple(std::move(elems));
  }

  Arrays ev(const ac::AProj& p, const Acc&) { return eval(*p.tuple).elems[size_t(p.index)]; }
  Arrays ev(const ac::Use& u, const Acc&) { return Arrays::single(u.value); }

  Arrays ev(const ac::Unit& u, const Acc& a) {
    Array out = allocate(a, {});
    for_each_element(a, out.shape(), 1, [&](int64_t) { write_element(out, 0, eval(*u.value)); });
    return Arrays::single(out);
  }

  Arrays ev(const ac::Generate& g, const Acc& a) {
    Array out = allocate(a, eval_shape(*g.shape, a));
    Index ix(size_t(out.rank()), 0);
    for_each_element(a, out.shape(), out.size(), [&](int64_t i) {
      write_element(out, i, apply(g.f, Value::index(ix)));
      next_index(ix, out.shape());
    });
    return Arrays::single(out);
  }

  Arrays ev(const ac::Fill& f, const Acc& a) {
    Array out = allocate(a, eval_shape(*f.shape, a));
    if (out.size() == 0) return Arrays::single(out); // the value is not evaluated
    Value v = eval(*f.value);
    for (int64_t i = 0; i < out.size(); ++i)
      write_element(out, i, v);
    return Arrays::single(out);
  }

  Arrays ev(const ac::Map& m, const Acc& a) {
    Array src = eval_array(*m.a);
    Array out = allocate(a, src.shape());
    for_each_element(a, out.shape(), out.size(),
                     [&](int64_t i) { write_element(out, i, apply(m.f, read_element(src, i))); });
    return Arrays::single(out);
  }

  Arrays ev(const ac::ZipWith& z, const Acc& a) {
    Array x = eval_array(*z.a), y = eval_array(*z.b);
    Shape sh(x.shape().size());
    for (size_t k = 0; k < sh.size(); ++k)
      sh[k] = std::min(x.shape()[k], y.shape()[k]);
    Array out = allocate(a, sh);
    Index ix(sh.size(), 0);
    for_each_element(a, sh, out.size(), [&](int64_t i) {
      write_element(out, i,
                    apply(z.f, read_element(x, to_linear(x.shape(), ix)),
                          read_element(y, to_linear(y.shape(), ix))));
      next_index(ix, sh);
    });
    return Arrays::single(out);
  }

  // fold and fold1: reduce each innermost row, (f acc x), in the order of
  // options_.order (left to right unless an engine's order is replayed).
  Arrays ev(const ac::Fold& f, const Acc& a) {
    Array src = eval_array(*f.a);
    auto [outer, n] = split_inner(src.shape());
    Array out = allocate(a, outer);
    // An operation-level expression: evaluated only for a non-empty result,
    // before any element (docs/language.md, Errors).
    Value seed = f.seed && out.size() > 0 ? eval(*f.seed) : Value();
    if (!f.seed && n == 0 && out.size() > 0) throw fold1_empty_row(src.shape(), a.loc);
    const ReductionOrder& order = options_.order;
    int lanes = chunk_lanes(order, src.elem_type(), f.f);
    std::optional<Value> from = f.seed ? std::optional<Value>(seed) : std::nullopt;
    auto combine = [&](Value acc, Value v) { return apply(f.f, std::move(acc), std::move(v)); };
    auto row_of = [&](int64_t row) {
      return [&src, base = row * n](int64_t j) { return read_element(src, base + j); };
    };
    if (int64_t chunks = fold_chunks(order, n)) {
      // Chunked rows in phases (interpreter/ordered_reductions.h): every
      // row's chunk totals, then each row's totals combined.
      std::vector<std::vector<Value>> totals(size_t(out.size()));
      for_each_element(a, outer, out.size(), [&](int64_t row) {
        auto x = row_of(row);
        totals[size_t(row)] =
            row_chunk_totals<Value>(n, order.fold_chunk, chunks, lanes, x, combine);
      });
      for_each_element(a, outer, out.size(), [&](int64_t row) {
        write_element(out, row, fold_totals<Value>(from, std::move(totals[size_t(row)]), combine));
      });
      return Arrays::single(out);
    }
    for_each_element(a, outer, out.size(), [&](int64_t row) {
      write_element(out, row, fold_row<Value>(order, lanes, n, from, row_of(row), combine));
    });
    return Arrays::single(out);
  }

  Arrays ev(const ac::FoldSeg& f, const Acc& a) {
    Array src = eval_array(*f.a);
    Array segs = eval_array(*f.segs);
    auto [outer, n] = split_inner(src.shape());
    const int64_t* lengths = segs.leaf_data<int64_t>(0);
    foldseg_segment_starts(lengths, segs.size(), src.shape(), a.loc); // checks the lengths
    Array out = allocate(a, with_inner(outer, segs.size()));
    Value seed = out.size() > 0 ? eval(*f.seed) : Value(); // as in fold
    int64_t nsegs = segs.size();
    std::vector<int64_t> starts(size_t(nsegs), 0);
    for (int64_t s = 1; s < nsegs; ++s)
      starts[size_t(s)] = starts[size_t(s - 1)] + lengths[s - 1];
    for_each_element(a, out.shape(), out.size(), [&](int64_t i) {
      int64_t row = i / nsegs, s = i % nsegs, pos = row * n + starts[size_t(s)];
      Value acc = seed;
      for (int64_t j = 0; j < lengths[s]; ++j)
        acc = apply(f.f, std::move(acc), read_element(src, pos + j));
      write_element(out, i, acc);
    });
    return Arrays::single(out);
  }

  Arrays ev(const ac::Scan& s, const Acc& a) {
    using ac::ScanKind;
    Array src = eval_array(*s.a);
    auto [outer, n] = split_inner(src.shape());
    int64_t rows = shape_size(outer);
    // Every seeded scan's result is non-empty exactly when it has rows.
    Value seed = s.seed && rows > 0 ? eval(*s.seed) : Value();
    Type elem = src.elem_type();
    Array out = allocate(a, elem, with_inner(outer, scan_output_extent(s.kind, n)));
    Array totals = s.kind == ScanKind::ScanlPrime ? allocate(a, elem, outer) : Array();
    // Positions q run in scan order (core/scan_layout.h: a right scan is a
    // left scan over the row read backwards, combining (f x acc)).
    bool right = scans_from_the_right(s.kind);
    auto combine = [&](Value acc, Value v) {
      return right ? apply(s.f, std::move(v), std::move(acc))
                   : apply(s.f, std::move(acc), std::move(v));
    };
    auto row_of = [&](int64_t row) {
      return [&src, &s, n, base = row * n](int64_t q) {
        return read_element(src, base + scan_element(s.kind, n, q));
      };
    };
    // Each row's carries: the seed alone, or for chunked rows, in phases
    // (interpreter/ordered_reductions.h), every row's chunk totals, then
    // every row's carries; then every row is scanned from them.
    const ReductionOrder& order = options_.order;
    std::optional<Value> from = scan_is_seeded(s.kind) ? std::optional<Value>(seed) : std::nullopt;
    std::vector<std::vector<std::optional<Value>>> carries(size_t(rows), {from});
    if (int64_t count = scan_totals(order, n)) {
      int lanes = chunk_lanes(order, elem, s.f);
      std::vector<std::vector<Value>> totals_of(static_cast<size_t>(rows));
      auto phase = [&](auto&& body) { for_each_element(a, outer, rows, body, "row"); };
      phase([&](int64_t row) {
        auto x = row_of(row);
        totals_of[size_t(row)] =
            row_chunk_totals<Value>(n, order.scan_chunk, count, lanes, x, combine);
      });
      phase([&](int64_t row) {
        carries[size_t(row)] =
            scan_carries<Value>(from, std::move(totals_of[size_t(row)]), combine);
      });
    }
    int64_t chunk = order.scan_chunked(n) ? order.scan_chunk : std::max<int64_t>(n, 1);
    for_each_element(
        a, outer, rows,
        [&](int64_t row) {
          int64_t o = row * scan_output_extent(s.kind, n);
          if (int64_t i = scan_seed_output(s.kind, n); i >= 0) write_element(out, o + i, seed);
          auto x = row_of(row);
          auto emit = [&](int64_t q, const Value& acc) {
            if (int64_t i = scan_output_after(s.kind, n, q); i >= 0) write_element(out, o + i, acc);
          };
          std::optional<Value> last =
              scan_chunks<Value>(n, chunk, std::move(carries[size_t(row)]), x, combine, emit);
          if (s.kind == ScanKind::ScanlPrime) write_element(totals, row, *last);
        },
        "row");
    if (s.kind == ScanKind::ScanlPrime)
      return Arrays::tuple({Arrays::single(out), Arrays::single(totals)});
    return Arrays::single(out);
  }

  Arrays ev(const ac::Permute& p, const Acc& a) {
    Array defs = eval_array(*p.defaults);
    Array src = eval_array(*p.source);
    Array out = allocate(a, defs.shape());
    for (size_t l = 0; l < out.num_leaves(); ++l)
      std::copy_n(defs.leaf(l).data(), defs.leaf(l).bytes(), out.leaf(l).data());
    Index ix(size_t(src.rank()), 0);
    for_each_element(
        a, src.shape(), src.size(),
        [&](int64_t i) {
          Index target = apply(p.target, Value::index(ix)).to_index();
          next_index(ix, src.shape());
          if (is_ignore_target(target)) return;
          if (!in_bounds(out.shape(), target))
            throw permute_target_out_of_bounds(target, out.shape(), from_linear(src.shape(), i),
                                               a.loc);
          int64_t t = to_linear(out.shape(), target);
          write_element(out, t, apply(p.combine, read_element(src, i), read_element(out, t)));
        },
        "source element");
    return Arrays::single(out);
  }

  Arrays ev(const ac::Backpermute& b, const Acc& a) {
    Array src = eval_array(*b.a);
    Array out = allocate(a, eval_shape(*b.shape, a));
    Index ix(size_t(out.rank()), 0);
    for_each_element(a, out.shape(), out.size(), [&](int64_t i) {
      Index from = apply(b.source_index, Value::index(ix)).to_index();
      next_index(ix, out.shape());
      if (!in_bounds(src.shape(), from))
        throw backpermute_source_out_of_bounds(from, src.shape(), a.loc);
      write_element(out, i, read_element(src, to_linear(src.shape(), from)));
    });
    return Arrays::single(out);
  }

  Arrays ev(const ac::Reshape& r, const Acc& a) {
    Array src = eval_array(*r.a); // the source first, as every other form and engine
    Shape sh = eval_shape(*r.shape, a);
    if (shape_size(sh) != src.size()) throw reshape_size_mismatch(src.shape(), sh, a.loc);
    Array out = allocate(a, sh);
    for (size_t l = 0; l < out.num_leaves(); ++l)
      std::copy_n(src.leaf(l).data(), src.leaf(l).bytes(), out.leaf(l).data());
    return Arrays::single(out);
  }

  // Evaluates the expressions of a spec (nullopt for `all`).
  std::vector<std::optional<int64_t>> eval_spec(const std::vector<ac::SpecItem>& spec) {
    std::vector<std::optional<int64_t>> out;
    for (const auto& s : spec) {
      if (s.is_all())
        out.push_back(std::nullopt);
      else
        out.push_back(eval(*s.extent).scalar.get<int64_t>());
    }
    return out;
  }

  Arrays ev(const ac::Replicate& r, const Acc& a) {
    Array src = eval_array(*r.a);
    auto spec = eval_spec(r.spec);
    Shape sh;
    size_t next_src_dim = 0;
    for (const auto& s : spec)
      sh.push_back(s ? *s : src.shape()[next_src_dim++]);
    check_extents(sh, "replicate", a.loc);
    Array out = allocate(a, sh);
    Index ix(sh.size(), 0), from;
    for (int64_t i = 0; i < out.size(); ++i, next_index(ix, sh)) {
      from.clear();
      for (size_t k = 0; k < spec.size(); ++k)
        if (!spec[k]) from.push_back(ix[k]);
      write_element(out, i, read_element(src, to_linear(src.shape(), from)));
    }
    return Arrays::single(out);
  }

  Arrays ev(const ac::Slice& s, const Acc& a) {
    Array src = eval_array(*s.a);
    auto spec = eval_spec(s.spec);
    Shape sh;
    for (size_t k = 0; k < spec.size(); ++k) {
      if (!spec[k]) {
        sh.push_back(src.shape()[k]);
      } else if (*spec[k] < 0 || *spec[k] >= src.shape()[k]) {
        throw slice_index_out_of_bounds(*spec[k], int(k), src.shape()[k], a.loc);
      }
    }
    Array out = allocate(a, sh);
    Index ix(sh.size(), 0), from(spec.size());
    for (int64_t i = 0; i < out.size(); ++i, next_index(ix, sh)) {
      for (size_t k = 0, kept = 0; k < spec.size(); ++k)
        from[k] = spec[k] ? *spec[k] : ix[kept++];
      write_element(out, i, read_element(src, to_linear(src.shape(), from)));
    }
    return Arrays::single(out);
  }

  Arrays ev(const ac::Stencil& s, const Acc& a) {
    Array src = eval_array(*s.a);
    Window w{&s.f.params[0].name, &src, &s, Value(), Index(size_t(src.rank()), 0)};
    // Evaluated for a non-empty array only, before any element (even when no
    // window reaches past the edge).
    if (s.boundary.kind == ac::BoundaryKind::Constant && src.size() > 0)
      w.constant = eval(*s.boundary.constant);
    Array out = allocate(a, src.shape());
    Window* saved = window_;
    window_ = &w;
    for_each_element(a, src.shape(), out.size(), [&](int64_t i) {
      write_element(out, i, eval(*s.f.body));
      next_index(w.center, src.shape());
    });
    window_ = saved;
    return Arrays::single(out);
  }

  Arrays ev(const ac::Awhile& w, const Acc& a) {
    Arrays state = eval(*w.init);
    int64_t k = 0;
    try {
      for (; read_element(apply(w.cond, state).array, 0).truthy(); ++k)
        state = apply(w.body, std::move(state));
    } catch (const Error& err) {
      in_iteration(err, k, "awhile", a.loc);
    }
    if (options_.trace_collectives && options_.trace)
      trace_arrays(a.loc, "awhile", "", "awhile after " + std::to_string(k) + " iteration(s)",
                   state);
    return state;
  }

  Arrays ev(const ac::ATrace& t, const Acc& a) {
    Arrays v = eval(*t.a);
    if (options_.trace) trace_arrays(a.loc, "atrace", t.label, "atrace " + t.label, v);
    return v;
  }

  Arrays ev(const ac::Call&, const Acc& a) { unexpanded_call(a.loc); } // checking expanded it

  Arrays ev(const ac::ACond& c, const Acc&) {
    return eval(*c.cond).truthy() ? eval(*c.then_branch) : eval(*c.else_branch);
  }
};

} // namespace

std::vector<Array> interpret(const Program& program, const std::vector<Array>& inputs,
                             const InterpreterOptions& options) {
  require_checked(program);
  return Interpreter(options).run(program, inputs);
}

Arrays interpret_acc(const Acc& a, const std::vector<std::pair<std::string, Arrays>>& env) {
  const InterpreterOptions options;
  return Interpreter(options).run_acc(a, env);
}

Value apply_function(const Lambda& f, const Value& x, const Value& y) {
  const InterpreterOptions options;
  return Interpreter(options).run_function(f, x, y);
}

} // namespace strata
