#include "tbb/fold_native.h"

#include "core/combiner.h"
#include "parallel/native_ops.h"
#include "tbb/chunk_tree.h"

namespace strata::tbbe {

using parallel::Op;
using parallel::with_op;

namespace {

// Folds the consecutive elements r[0..n) (n a multiple of L) into the L
// accumulators, element i into lane i mod L. The accumulators are copied into
// a local array indexed by constants only, which the compiler keeps in vector
// registers: one load and one combine per element, no store.
// `x(i)` is element i (a register lane, or a combination of two).
template <int L, class T, class O, class X> void accumulate_blocks(T* acc, X x, int n, O op) {
  T v[L];
#pragma GCC unroll 128
  for (int k = 0; k < L; ++k)
    v[k] = acc[k];
  for (int i = 0; i < n; i += L) {
#pragma GCC unroll 128
    for (int k = 0; k < L; ++k)
      v[k] = op(v[k], x(i + k));
  }
#pragma GCC unroll 128
  for (int k = 0; k < L; ++k)
    acc[k] = v[k];
}

// Folds elements [start, start+len) of one row by the chunk tree: element e
// of the chunk (scan order: backwards from the end when Backward) goes to
// accumulator lane e mod L (L lanes fill eight 16-byte vectors), the lanes
// are then folded by halves. Both depend on `len` only.
// With a tail_binary element function (`tail`: its op, or none), element i
// of a batch is tail(a[i], b[i]) computed here, after the head ran.
template <class T, bool Backward, class O, class Tail>
T fold_typed(Runtime& rt, const ScalarFunction& elem, const Shape& shape, int64_t start,
             int64_t len, O op, Tail tail) {
  constexpr bool fused = !std::is_same_v<Tail, std::nullptr_t>;
  constexpr int L = 128 / int(sizeof(T));
  static_assert(kBatch % L == 0, "batches hold whole blocks of lanes");
  Frame ef(elem.registers(), rt.table, int(std::min<int64_t>(kBatch, len)));
  elem.prepare(ef);
  alignas(64) T acc[L];
  int used = int(std::min<int64_t>(L, len)); // lanes that receive an element
  for (int64_t b = 0; b * kBatch < len; ++b) {
    int count = int(std::min<int64_t>(kBatch, len - b * kBatch));
    run_batch(elem, ef, shape, Backward ? start + len - b * kBatch - count : start + b * kBatch,
              count, fused);
    // Registers may point into arrays: fetched per batch. Backward, element
    // i of the batch (scan order) is lane count-1-i.
    auto x = [&]() {
      int top = Backward ? count - 1 : 0;
      if constexpr (fused) {
        const T* a = ef.reg<T>(elem.tail_binary()->a);
        const T* c = ef.reg<T>(elem.tail_binary()->b);
        if constexpr (Backward)
          return [a, c, tail, top](int i) { return tail(a[top - i], c[top - i]); };
        else
          return [a, c, tail](int i) { return tail(a[i], c[i]); };
      } else {
        const T* r = ef.reg<T>(elem.result().regs[0]);
        if constexpr (Backward)
          return [r, top](int i) { return r[top - i]; };
        else
          return [r](int i) { return r[i]; };
      }
    }();
    int i = 0;
    if (b == 0)
      for (; i < used; ++i) // the first element of each lane starts it
        acc[i] = x(i);
    int blocks = (count - i) / L * L; // i is 0 or L here, or count (len < L)
    accumulate_blocks<L>(
        acc, [&x, i](int j) { return x(i + j); }, blocks, op);
    for (i += blocks; i < count; ++i) // a last partial block
      acc[i % L] = op(acc[i % L], x(i));
  }
  fold_lanes_by_halves(used, [&](int64_t half, int64_t rest) {
    for (int64_t k = 0; k < half; ++k)
      acc[k] = op(acc[k], acc[rest + k]);
  });
  return acc[0];
}

} // namespace

// The combiners with native code: every one that reorders exactly (the
// integer operations; core/combiner.h), and float + and * in the declared order.
std::optional<NativeFold> recognise_fold(const Lambda& f) {
  std::optional<BinaryCombiner> c = binary_combiner(f);
  if (!c || c->kind == ScalarKind::Bool) return std::nullopt;
  bool float_sum_or_product = is_float(c->kind) && (c->op == Prim::Add || c->op == Prim::Mul);
  if (!reorders_exactly(c->op, c->kind) && !float_sum_or_product) return std::nullopt;
  return NativeFold{c->op, c->kind};
}

bool exact(const NativeFold& op) {
  return reorders_exactly(op.op, op.type);
}

ReductionOrder native_order(const ReductionOrder& declared, const NativeFold& op) {
  return exact(op) ? ReductionOrder{32768, 16384, 16384, 16384, 128} : declared;
}

bool native_runs(const ReductionOrder& declared, const NativeFold& op) {
  return exact(op) ||
         strata::fold_lanes(declared, Type::scalar(op.type)) == 128 / int(scalar_size(op.type));
}

Leaves fold_chunk_native(Runtime& rt, const Lambda& elem_fn, const Shape& shape, int64_t start,
                         int64_t len, const NativeFold& op, bool backward) {
  const ScalarFunction& elem = rt.functions.of(elem_fn);
  return dispatch_kind(op.type, [&](auto tag) -> Leaves {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, bool>) {
      throw Error(ErrorKind::Type, "tbb: no native fold on bool (internal error)");
    } else {
      T result{};
      const auto& tail = elem.tail_binary();
      auto fold = [&](auto backward) {
        constexpr bool B = decltype(backward)::value;
        with_op<T>(op.op, [&](auto o) {
          if (!tail || tail->kind != op.type)
            result = fold_typed<T, B>(rt, elem, shape, start, len, o, nullptr);
          else if (tail->op == Prim::Mul)
            result = fold_typed<T, B>(rt, elem, shape, start, len, o, Op<T, Prim::Mul>{});
          else
            result = fold_typed<T, B>(rt, elem, shape, start, len, o, Op<T, Prim::Add>{});
        });
      };
      // Exact ops give the same bits in any order: forwards only.
      if constexpr (std::is_floating_point_v<T>)
        if (backward) {
          fold(std::true_type{});
          return Leaves{Scalar::make<T>(result)};
        }
      fold(std::false_type{});
      return Leaves{Scalar::make<T>(result)};
    }
  });
}

} // namespace strata::tbbe
