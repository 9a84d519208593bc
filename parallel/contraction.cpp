// run_contraction (parallel/contraction.h): checks that every read is in
// range, reduces the loop to (batch, i, j, k) with strides (contraction_plan.h)
// and runs the tiles of the widest vectors this CPU has.
#include "parallel/contraction.h"

#include <atomic>
#include <cstring>
#include <optional>

#include "core/types.h"
#include "fusion/contraction.h"
#include "parallel/contraction_plan.h"

namespace strata::parallel {
namespace {

std::atomic<uint64_t> runs{0};

// The stride of each loop variable in an operand (0: it does not depend on it).
std::vector<int64_t> var_strides(const ContractionInput& in, size_t rank) {
  std::vector<int64_t> by_var(rank, 0);
  int64_t stride = 1;
  for (size_t d = in.shape.size(); d-- > 0;) {
    by_var[size_t(in.vars[d])] = stride;
    stride *= in.shape[d];
  }
  return by_var;
}

} // namespace

bool run_contraction(const ContractionRun& run) {
  detail::TileElem elem_kind;
  switch (run.kind) {
  case ScalarKind::F32: elem_kind = detail::TileElem::F32; break;
  case ScalarKind::F64: elem_kind = detail::TileElem::F64; break;
  case ScalarKind::I32: elem_kind = detail::TileElem::U32; break;
  case ScalarKind::I64: elem_kind = detail::TileElem::U64; break;
  default: return false;
  }
  const Shape& loop = run.loop;
  size_t rank = loop.size();
  if (rank < 2) return false;
  int64_t outputs = 1;
  for (size_t v = 0; v + 1 < rank; ++v)
    outputs *= loop[v];
  if (outputs == 0) return true;
  size_t elem = scalar_size(run.kind);
  int64_t depth = loop.back();
  if (depth == 0) {
    if (!run.seed) return false; // fold1 of an empty row: the caller's error
    for (int64_t o = 0; o < outputs; ++o)
      std::memcpy(static_cast<char*>(run.out) + size_t(o) * elem, run.seed, elem);
    return true;
  }
  for (const ContractionInput* in : {&run.x, &run.y}) {
    if (in->vars.size() != in->shape.size()) return false;
    for (size_t d = 0; d < in->shape.size(); ++d)
      if (loop[size_t(in->vars[d])] > in->shape[d]) return false;
  }
  std::vector<int64_t> sx = var_strides(run.x, rank), sy = var_strides(run.y, rank);
  // (batch..., i, j, k): i is v(R-3) when there is one.
  size_t vk = rank - 1, vj = rank - 2;
  bool has_i = rank >= 3;
  size_t vi = has_i ? rank - 3 : 0;
  detail::Plan p;
  p.n = loop[vj];
  p.k = depth;
  p.out = run.out;
  p.seed = run.seed;
  p.x = {run.x.data, {}, has_i ? sx[vi] : 0, sx[vj], sx[vk], sx[vj] == 0};
  p.y = {run.y.data, {}, has_i ? sy[vi] : 0, sy[vj], sy[vk], sy[vj] == 0};
  if (p.x.row && p.y.row) p.y.row = false; // one is packed (its lanes then all equal)
  // A packed operand that depends on i cannot be shared by a tile's rows:
  // i becomes a batch variable.
  bool i_in_batch = has_i && ((!p.x.row && p.x.si != 0) || (!p.y.row && p.y.si != 0));
  size_t batch_vars = has_i ? (i_in_batch ? rank - 2 : rank - 3) : 0;
  p.m = has_i && !i_in_batch ? loop[vi] : 1;
  if (i_in_batch) p.x.si = p.y.si = 0;
  int64_t batches = 1;
  for (size_t v = 0; v < batch_vars; ++v)
    batches *= loop[v];
  p.batches = batches;
  for (auto [op, strides] : {std::pair{&p.x, &sx}, std::pair{&p.y, &sy}}) {
    op->batch_offset.resize(size_t(batches));
    for (int64_t b = 0; b < batches; ++b) {
      int64_t rest = b, offset = 0;
      for (size_t v = batch_vars; v-- > 0;) {
        offset += (rest % loop[v]) * (*strides)[v];
        rest /= loop[v];
      }
      op->batch_offset[size_t(b)] = offset;
    }
  }
  runs.fetch_add(1, std::memory_order_relaxed);
#if defined(__x86_64__)
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl")) {
    detail::run_tiles_avx512(p, elem_kind);
    return true;
  }
  if (__builtin_cpu_supports("avx2")) {
    detail::run_tiles_avx2(p, elem_kind);
    return true;
  }
#endif
  detail::run_tiles_sse2(p, elem_kind);
  return true;
}

uint64_t contractions_run() {
  return runs.load(std::memory_order_relaxed);
}

bool fold_as_contraction(const KernelGraph& g, const kn::Fold& fold,
                         const std::vector<Array>& arrays, const Shape& loop, const void* seed,
                         Array& out) {
  // Below this many multiply-adds the general fold is as fast, and the
  // recogniser's cost would show on small folds run many times.
  constexpr int64_t kMinWork = int64_t(1) << 14;
  if (loop.size() < 2 || shape_size(loop) < kMinWork) return false;
  std::optional<Contraction> c = find_contraction(g, fold);
  if (!c) return false;
  const Array& x = arrays[size_t(c->x.array)];
  const Array& y = arrays[size_t(c->y.array)];
  ContractionRun run{c->kind,
                     {x.leaf(0).data(), x.shape(), c->x.vars},
                     {y.leaf(0).data(), y.shape(), c->y.vars},
                     loop,
                     out.leaf(0).data(),
                     seed};
  return run_contraction(run);
}

} // namespace strata::parallel
