#include "parallel/permute_native.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <memory>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "core/combiner.h"
#include "core/semantics.h"
#include "parallel/native_ops.h"
#include "parallel/ranges.h"

namespace strata::parallel {
namespace {

bool is_var(const ExpPtr& e, const std::string& name) {
  const auto* v = std::get_if<ex::Var>(&e->node);
  return v && v->name == name;
}

struct Chunks {
  int64_t n = 0, length = 0, count = 1;
  Chunks(int64_t sources, int64_t targets) : n(sources) {
    length = std::max(kMinPermuteChunk, kPermuteChunkPerTarget * targets);
    count = std::max<int64_t>(1, (n + length - 1) / length);
  }
  int64_t begin(int64_t c) const { return c * length; }
  int64_t end(int64_t c) const { return std::min(n, (c + 1) * length); }
};

template <class T, class O>
void combine_op(O op, const T* src, const int64_t* target, int64_t n, PermuteBins& bins) {
  parallel::parallel_ranges(n, bins.chunk_length(), [&](int64_t begin, int64_t end) {
    T* a = static_cast<T*>(bins.bins(begin));
    for (int64_t i = begin; i < end; ++i)
      if (int64_t t = target[i]; t >= 0) a[t] = op(src[i], a[t]);
  });
  bins.merge();
}

// `new` wins: each target gets its last source element.
void take_new(const Array& src, const int64_t* target, int64_t n, Array& out) {
  int64_t m = out.size();
  std::vector<int64_t> last(size_t(m), -1);
  Chunks chunks(n, m);
  if (chunks.count == 1) {
    for (int64_t i = 0; i < n; ++i)
      if (int64_t t = target[i]; t >= 0) last[size_t(t)] = i;
  } else {
    std::vector<std::vector<int64_t>> per(size_t(chunks.count));
    tbb::parallel_for(int64_t(0), chunks.count, [&](int64_t c) {
      std::vector<int64_t> l(size_t(m), -1);
      for (int64_t i = chunks.begin(c), e = chunks.end(c); i < e; ++i)
        if (int64_t t = target[i]; t >= 0) l[size_t(t)] = i;
      per[size_t(c)] = std::move(l);
    });
    for (const auto& l : per) // later chunks win
      for (int64_t t = 0; t < m; ++t)
        if (l[size_t(t)] >= 0) last[size_t(t)] = l[size_t(t)];
  }
  for (size_t leaf = 0; leaf < out.num_leaves(); ++leaf) {
    size_t size = scalar_size(out.leaf_kind(leaf));
    std::byte* o = out.leaf(leaf).data();
    const std::byte* s = src.leaf(leaf).data();
    for (int64_t t = 0; t < m; ++t)
      if (int64_t i = last[size_t(t)]; i >= 0)
        std::memcpy(o + size_t(t) * size, s + size_t(i) * size, size);
  }
}

} // namespace

std::optional<NativeCombine> recognise_combine(const Lambda& f) {
  if (f.params.size() != 2 || f.params[0].name == f.params[1].name) return std::nullopt;
  const std::string& new_v = f.params[0].name;
  const std::string& old_v = f.params[1].name;
  NativeCombine c;
  if (is_var(f.body, new_v)) {
    c.kind = NativeCombine::Kind::TakeNew;
    return c;
  }
  if (is_var(f.body, old_v)) {
    c.kind = NativeCombine::Kind::KeepOld;
    return c;
  }
  // Combined in any order (each engine's permute_kernel.cpp): only combiners that
  // reorder exactly (core/combiner.h).
  std::optional<BinaryCombiner> bc = binary_combiner(f);
  if (!bc || !reorders_exactly(bc->op, bc->kind)) return std::nullopt;
  c.op = bc->op;
  c.type = bc->kind;
  return c;
}

void permute_native(const NativeCombine& c, const Array& src, const int64_t* target, int64_t n,
                    Array& out) {
  switch (c.kind) {
  case NativeCombine::Kind::KeepOld: return;
  case NativeCombine::Kind::TakeNew: return take_new(src, target, n, out);
  case NativeCombine::Kind::Op: break;
  }
  PermuteBins bins(c, n, out);
  dispatch_kind(c.type, [&](auto zero) {
    using T = decltype(zero);
    if constexpr (!std::is_floating_point_v<T>)
      with_op<T>(c.op, [&](auto op) { combine_op<T>(op, src.leaf_data<T>(0), target, n, bins); });
  });
}

// Integer and bool operations are associative and commutative with an
// identity: every grouping and order gives the same bits as the source order.
PermuteBins::PermuteBins(const NativeCombine& c, int64_t sources, Array& out) : c_(c), out_(out) {
  Chunks chunks(sources, out.size());
  length_ = chunks.length;
  if (chunks.count == 1) return;
  private_.resize(size_t(chunks.count));
  dispatch_kind(c.type, [&](auto zero) {
    using T = decltype(zero);
    if constexpr (!std::is_floating_point_v<T>)
      with_op<T>(c.op, [&](auto op) {
        tbb::parallel_for(int64_t(0), chunks.count, [&](int64_t k) {
          auto bytes = std::make_unique<std::byte[]>(sizeof(T) * size_t(out.size()));
          std::fill_n(reinterpret_cast<T*>(bytes.get()), out.size(), op.identity());
          private_[size_t(k)] = std::move(bytes);
        });
      });
  });
}

void* PermuteBins::bins(int64_t begin) {
  if (private_.empty()) return out_.leaf(0).data();
  return private_[size_t(begin / length_)].get();
}

void PermuteBins::merge() {
  if (private_.empty()) return;
  dispatch_kind(c_.type, [&](auto zero) {
    using T = decltype(zero);
    if constexpr (!std::is_floating_point_v<T>)
      with_op<T>(c_.op, [&](auto op) {
        T* out = out_.leaf_data<T>(0);
        tbb::parallel_for(tbb::blocked_range<int64_t>(0, out_.size(), 4096),
                          [&](const tbb::blocked_range<int64_t>& r) {
                            for (const auto& bins : private_) {
                              const T* a = reinterpret_cast<const T*>(bins.get());
                              for (int64_t t = r.begin(); t < r.end(); ++t)
                                out[t] = op(a[t], out[t]);
                            }
                          });
      });
  });
  private_.clear();
}

} // namespace strata::parallel
