#include "tbb/fold_native.h"

#include "tbb/native_ops.h"

namespace strata::tbbe {
namespace {

bool is_var(const ExpPtr& e, const std::string& name) {
  const auto* v = std::get_if<ex::Var>(&e->node);
  return v && v->name == name;
}

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

// Folds elements [start, start+len) of one row: element e of the chunk goes
// to accumulator lane e mod L (L lanes fill eight 16-byte vectors), the lanes
// are then combined by a fixed tree. Both depend on `len` only.
// With a tail_binary element function (`tail`: its op, or none), element i
// of a batch is tail(a[i], b[i]) computed here, after the head ran.
template <class T, class O, class Tail>
T fold_lanes(Runtime& rt, const ScalarFunction& elem, const Shape& shape, int64_t start,
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
    run_batch(elem, ef, shape, start + b * kBatch, count, fused);
    // Registers may point into arrays: fetched per batch.
    auto x = [&]() {
      if constexpr (fused) {
        const T* a = ef.reg<T>(elem.tail_binary()->a);
        const T* c = ef.reg<T>(elem.tail_binary()->b);
        return [a, c, tail](int i) { return tail(a[i], c[i]); };
      } else {
        const T* r = ef.reg<T>(elem.result().regs[0]);
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
  // A fixed tree that depends on `used` only: the upper half of the lanes
  // folds into the lower half, level by level (the operation is commutative
  // and associative, so any fixed tree will do).
  for (int count = used; count > 1;) {
    int half = count / 2, rest = count - half; // an odd middle lane waits a level
    for (int k = 0; k < half; ++k)
      acc[k] = op(acc[k], acc[rest + k]);
    count = rest;
  }
  return acc[0];
}

} // namespace

std::optional<NativeFold> recognise_fold(const Lambda& f) {
  if (f.params.size() != 2) return std::nullopt;
  const Type& t = f.params[0].type;
  if (!t.is_scalar() || !(f.params[1].type == t)) return std::nullopt;
  const auto* app = std::get_if<ex::PrimApp>(&f.body->node);
  if (!app || app->args.size() != 2) return std::nullopt;
  const std::string &a = f.params[0].name, &b = f.params[1].name;
  if (a == b) return std::nullopt;
  bool plain = is_var(app->args[0], a) && is_var(app->args[1], b);
  bool swapped = is_var(app->args[0], b) && is_var(app->args[1], a);
  if (!plain && !swapped) return std::nullopt;
  ScalarKind k = t.scalar_kind();
  if (k == ScalarKind::Bool) return std::nullopt;
  bool is_float = k == ScalarKind::F32 || k == ScalarKind::F64;
  switch (app->op) {
  case Prim::Add:
  case Prim::Mul: break;
  case Prim::Min:
  case Prim::Max:
  case Prim::BAnd:
  case Prim::BOr:
  case Prim::BXor:
    if (is_float) return std::nullopt;
    break;
  default: return std::nullopt;
  }
  return NativeFold{app->op, k};
}

Leaves fold_chunk_native(Runtime& rt, const Lambda& elem_fn, const Shape& shape, int64_t start,
                         int64_t len, const NativeFold& op) {
  const ScalarFunction& elem = rt.functions.of(elem_fn);
  return dispatch_kind(op.type, [&](auto tag) -> Leaves {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, bool>) {
      throw Error(ErrorKind::Type, "tbb: no native fold on bool (internal error)");
    } else {
      T result{};
      const auto& tail = elem.tail_binary();
      with_op<T>(op.op, [&](auto o) {
        if (!tail || tail->kind != op.type)
          result = fold_lanes<T>(rt, elem, shape, start, len, o, nullptr);
        else if (tail->op == Prim::Mul)
          result = fold_lanes<T>(rt, elem, shape, start, len, o, Op<T, Prim::Mul>{});
        else
          result = fold_lanes<T>(rt, elem, shape, start, len, o, Op<T, Prim::Add>{});
      });
      return Leaves{Scalar::make<T>(result)};
    }
  });
}

} // namespace strata::tbbe
