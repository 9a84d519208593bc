// The reductions of the bounded evaluator: fold, fold1, foldseg, the scans
// and permute. Each is first evaluated as the interpreter does, in
// Freedoms::order (interpreter/ordered_reductions.h): that gives the point
// values and, with no freedom of order, the enclosures. With
// Freedoms::any_order, each reduced value is then widened to what any order
// may give (AnyOrder below; the soundness argument is in bounds.h).
#include <algorithm>

#include "core/combiner.h"
#include "core/runtime_errors.h"
#include "core/scan_layout.h"
#include "interpreter/bound_evaluator.h"
#include "interpreter/indexing.h"
#include "interpreter/ordered_reductions.h"
#include "interpreter/sum_bound.h"

namespace strata {
namespace {

BScalar& leaf_of(BValue& v, size_t k) {
  return v.is_tuple ? v.elems[k].scalar : v.scalar;
}
const BScalar& leaf_of(const BValue& v, size_t k) {
  return v.is_tuple ? v.elems[k].scalar : v.scalar;
}

// The terms of one reduced value (seed or default included), added one by
// one; widen() turns the value one order gave into what any order may give.
class AnyOrder {
public:
  explicit AnyOrder(const std::optional<std::vector<Prim>>* ops) : ops_(ops) {}

  int64_t count() const { return count_; }

  void add(const BValue& term) {
    ++count_;
    if (!*ops_) return;
    const std::vector<Prim>& ops = **ops_;
    if (sums_.empty()) sums_.resize(ops.size());
    for (size_t k = 0; k < ops.size(); ++k)
      if (ops[k] == Prim::Add && is_float(leaf_of(term, k).point.kind()))
        sums_[k].add(leaf_of(term, k));
  }

  BValue widen(BValue acc) const {
    if (count_ <= 2) return acc; // f(x, y): one order only
    if (!*ops_) return acc.undetermined(Why::Order);
    const std::vector<Prim>& ops = **ops_;
    for (size_t k = 0; k < ops.size(); ++k) {
      BScalar& s = leaf_of(acc, k);
      ScalarKind kind = s.point.kind();
      if (ops[k] == Prim::Add && is_float(kind))
        s = sums_[k].enclosure(s.point);
      else if (!order_free(ops[k], kind))
        s = s.undetermined(Why::Order);
    }
    return acc;
  }

private:
  const std::optional<std::vector<Prim>>* ops_;
  std::vector<SumBound> sums_;
  int64_t count_ = 0;
};

bool has_float_leaf(const Type& t) {
  for (ScalarKind k : t.leaves())
    if (is_float(k)) return true;
  return false;
}

bool any_undetermined(const BoundedArray& a) {
  for (const auto& leaf : a.why)
    for (Why w : leaf)
      if (w != Why::None) return true;
  return a.shape_why != Why::None;
}

} // namespace

BArrays BoundEvaluator::ev(const ac::Fold& f, const Acc& a) {
  BoundedArray src = eval_array(*f.a);
  auto [outer, n] = split_inner(src.shape());
  BoundedArray out = allocate(a, a.type.elem(), outer);
  // Seeds: evaluated for a non-empty result only, as in the interpreter.
  BValue seed = f.seed && out.size() > 0 ? eval(*f.seed) : BValue();
  if (!f.seed && n == 0 && out.size() > 0)
    throw Error(ErrorKind::EmptyReduction, a.loc,
                "fold1 over an empty row (row " + shape_str(from_linear(outer, 0)) + " of shape " +
                    shape_str(src.shape()) + ")");
  const ReductionOrder& order = freedoms_.order;
  int lanes = chunk_lanes(order, src.value.elem_type(), f.f);
  auto ops = freedoms_.any_order ? componentwise_ops(f.f) : std::nullopt;
  for (int64_t row = 0; row < out.size(); ++row) {
    int64_t base = row * n;
    auto x = [&](int64_t j) { return read_element(src, base + j); };
    auto combine = [&](BValue acc, BValue v) { return apply(f.f, std::move(acc), std::move(v)); };
    BValue r = fold_row<BValue>(order, lanes, n,
                                f.seed ? std::optional<BValue>(seed) : std::nullopt, x, combine);
    if (freedoms_.any_order) {
      AnyOrder any(&ops);
      if (f.seed) any.add(seed);
      for (int64_t j = 0; j < n; ++j)
        any.add(x(j));
      r = any.widen(std::move(r));
    }
    write_element(out, row, r);
  }
  return finish(std::move(out), src.shape_why);
}

BArrays BoundEvaluator::ev(const ac::FoldSeg& f, const Acc& a) {
  BoundedArray src = eval_array(*f.a);
  BoundedArray segs = eval_array(*f.segs);
  auto [outer, n] = split_inner(src.shape());
  const int64_t* lengths = segs.value.leaf_data<int64_t>(0);
  foldseg_segment_starts(lengths, segs.size(), src.shape(), a.loc); // checks the lengths
  BoundedArray out = allocate(a, a.type.elem(), with_inner(outer, segs.size()));
  BValue seed = out.size() > 0 ? eval(*f.seed) : BValue();
  int64_t nsegs = segs.size();
  std::vector<int64_t> starts(size_t(nsegs), 0);
  for (int64_t s = 1; s < nsegs; ++s)
    starts[size_t(s)] = starts[size_t(s - 1)] + lengths[s - 1];
  auto ops = freedoms_.any_order ? componentwise_ops(f.f) : std::nullopt;
  for (int64_t i = 0; i < out.size(); ++i) {
    int64_t row = i / nsegs, s = i % nsegs, pos = row * n + starts[size_t(s)];
    BValue acc = seed;
    AnyOrder any(&ops);
    any.add(seed);
    for (int64_t j = 0; j < lengths[s]; ++j) {
      BValue x = read_element(src, pos + j);
      if (freedoms_.any_order) any.add(x);
      acc = apply(f.f, std::move(acc), std::move(x));
    }
    write_element(out, i, freedoms_.any_order ? any.widen(std::move(acc)) : acc);
  }
  Why sw = any_undetermined(segs) ? Why::Index : src.shape_why;
  return finish(std::move(out), sw);
}

BArrays BoundEvaluator::ev(const ac::Scan& s, const Acc& a) {
  using ac::ScanKind;
  BoundedArray src = eval_array(*s.a);
  auto [outer, n] = split_inner(src.shape());
  int64_t rows = shape_size(outer);
  BValue seed = s.seed && rows > 0 ? eval(*s.seed) : BValue();
  Type elem = src.value.elem_type();
  int64_t m = scan_output_extent(s.kind, n);
  BoundedArray out = allocate(a, elem, with_inner(outer, m));
  BoundedArray totals = allocate(a, elem, s.kind == ScanKind::ScanlPrime ? outer : Shape{0});
  bool right = scans_from_the_right(s.kind), seeded = scan_is_seeded(s.kind);
  auto ops = freedoms_.any_order ? componentwise_ops(s.f) : std::nullopt;
  int lanes = chunk_lanes(freedoms_.order, elem, s.f);
  for (int64_t row = 0; row < rows; ++row) {
    // As the interpreter's scan: positions q in scan order (core/scan_layout.h).
    int64_t in = row * n, o = row * m;
    auto x = [&](int64_t q) { return read_element(src, in + scan_element(s.kind, n, q)); };
    auto combine = [&](BValue acc, BValue v) {
      return right ? apply(s.f, std::move(v), std::move(acc))
                   : apply(s.f, std::move(acc), std::move(v));
    };
    if (int64_t i = scan_seed_output(s.kind, n); i >= 0) write_element(out, o + i, seed);
    AnyOrder any(&ops);
    if (seeded) any.add(seed);
    std::optional<BValue> last = scan_row<BValue>(
        freedoms_.order, lanes, n, seeded ? std::optional<BValue>(seed) : std::nullopt, x, combine,
        [&](int64_t q, const BValue& acc) {
          if (freedoms_.any_order) any.add(x(q));
          if (int64_t i = scan_output_after(s.kind, n, q); i >= 0)
            write_element(out, o + i, freedoms_.any_order ? any.widen(acc) : acc);
        });
    if (s.kind == ScanKind::ScanlPrime)
      write_element(totals, row, freedoms_.any_order ? any.widen(*last) : *last);
  }
  out.mark_shape(src.shape_why);
  if (s.kind == ScanKind::ScanlPrime) {
    totals.mark_shape(src.shape_why);
    return BArrays::tuple({BArrays::single(std::move(out)), BArrays::single(std::move(totals))});
  }
  return BArrays::single(std::move(out));
}

BArrays BoundEvaluator::ev(const ac::Permute& p, const Acc& a) {
  BoundedArray defs = eval_array(*p.defaults);
  BoundedArray src = eval_array(*p.source);
  BoundedArray out = allocate(a, a.type.elem(), defs.shape());
  for (size_t l = 0; l < out.value.num_leaves(); ++l) {
    std::copy_n(defs.value.leaf(l).data(), defs.value.leaf(l).bytes(), out.value.leaf(l).data());
    std::copy_n(defs.lo.leaf(l).data(), defs.lo.leaf(l).bytes(), out.lo.leaf(l).data());
    std::copy_n(defs.hi.leaf(l).data(), defs.hi.leaf(l).bytes(), out.hi.leaf(l).data());
    out.why[l] = defs.why[l];
  }
  // Only a float combiner may combine in any order (core/reduction_order.h).
  bool free = freedoms_.any_order && has_float_leaf(a.type.elem());
  auto ops = free ? componentwise_ops(p.combine) : std::nullopt;
  std::vector<AnyOrder> cells;
  if (free) cells.assign(size_t(out.size()), AnyOrder(&ops));
  bool target_undecided = false;
  Index ix(size_t(src.value.rank()), 0);
  for (int64_t i = 0; i < src.size(); ++i) {
    BValue target_value = apply(p.target, BValue::exact(Value::index(ix)));
    Index target = target_value.point().to_index();
    target_undecided = target_undecided || !target_value.determined();
    next_index(ix, src.shape());
    if (is_ignore_target(target)) continue;
    if (!in_bounds(out.shape(), target))
      throw Error(ErrorKind::Bounds, a.loc,
                  "target index " + shape_str(target) + " out of bounds for shape " +
                      shape_str(out.shape()) + " in `permute`");
    int64_t t = to_linear(out.shape(), target);
    BValue x = read_element(src, i);
    if (free) {
      if (cells[size_t(t)].count() == 0) cells[size_t(t)].add(read_element(defs, t));
      cells[size_t(t)].add(x);
    }
    write_element(out, t, apply(p.combine, std::move(x), read_element(out, t)));
  }
  for (int64_t t = 0; free && t < out.size(); ++t)
    if (cells[size_t(t)].count() > 0)
      write_element(out, t, cells[size_t(t)].widen(read_element(out, t)));
  if (target_undecided) out.mark_all(Why::Index);
  Why sw = defs.shape_why != Why::None ? defs.shape_why : src.shape_why;
  return finish(std::move(out), sw);
}

} // namespace strata
