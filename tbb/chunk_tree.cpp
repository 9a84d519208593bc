#include "tbb/chunk_tree.h"

#include <algorithm>
#include <cstring>

namespace strata::tbbe {

ChunkTree::ChunkTree(Runtime& rt, const ScalarFunction& elem, const Shape& shape,
                     const ScalarFunction& f, bool acc_first, int64_t lanes)
    : rt_(rt), elem_(elem), shape_(shape), lanes_(std::max<int64_t>(lanes, 1)),
      ef_(elem.registers(), rt.table),
      c_(f, rt.table, acc_first, int(std::min<int64_t>(lanes_, kBatch))) {
  elem_.prepare(ef_);
  for (size_t size : c_.sizes())
    acc_.emplace_back(size_t(lanes_) * size);
}

void ChunkTree::load(int64_t k, int count, const std::vector<int>& regs) {
  const std::vector<size_t>& sizes = c_.sizes();
  for (size_t l = 0; l < sizes.size(); ++l)
    std::memcpy(c_.frame().reg<std::byte>(regs[l]), acc_[l].data() + size_t(k) * sizes[l],
                size_t(count) * sizes[l]);
}

void ChunkTree::save(int64_t k, int count) {
  const std::vector<size_t>& sizes = c_.sizes();
  for (size_t l = 0; l < sizes.size(); ++l)
    std::memcpy(acc_[l].data() + size_t(k) * sizes[l], c_.frame().reg<std::byte>(c_.acc().regs[l]),
                size_t(count) * sizes[l]);
}

Leaves ChunkTree::run(int64_t first, int64_t m, bool backward) {
  const std::vector<int>& res = elem_.result().regs;
  const std::vector<size_t>& sizes = c_.sizes();
  for (int64_t b = 0; b < m; b += kBatch) {
    // Scan-order elements b..b+count-1: lanes 0..count-1 of the results, or
    // count-1..0 when backward (the batch is computed in row-major order).
    int count = int(std::min<int64_t>(kBatch, m - b));
    run_batch(elem_, ef_, shape_, backward ? first - (b + count - 1) : first + b, count);
    // Rounds: element i goes to lane i mod L; consecutive elements feed
    // consecutive lanes up to lane L-1. A lane's first element starts it.
    for (int j = 0; j < count;) {
      int64_t i = b + j, k = i % lanes_;
      int cnt = int(std::min<int64_t>(lanes_ - k, count - j));
      bool starts = i < lanes_;
      for (size_t l = 0; l < sizes.size(); ++l) {
        const std::byte* from = ef_.reg<std::byte>(res[l]); // may point into an array
        std::byte* to = starts ? acc_[l].data() + size_t(k) * sizes[l]
                               : c_.frame().reg<std::byte>(c_.x().regs[l]);
        if (!backward)
          std::memcpy(to, from + size_t(j) * sizes[l], size_t(cnt) * sizes[l]);
        else
          for (int t = 0; t < cnt; ++t)
            copy_slot(from, count - 1 - (j + t), to, t, sizes[l]);
      }
      if (!starts) {
        load(k, cnt, c_.acc().regs);
        c_.step(Selection::dense(cnt));
        save(k, cnt);
      }
      j += cnt;
    }
  }
  fold_lanes_by_halves(std::min(lanes_, m), [&](int64_t half, int64_t rest) {
    for (int64_t k = 0; k < half; k += kBatch) {
      int cnt = int(std::min<int64_t>(kBatch, half - k));
      load(k, cnt, c_.acc().regs);
      load(rest + k, cnt, c_.x().regs);
      c_.step(Selection::dense(cnt));
      save(k, cnt);
    }
  });
  load(0, 1, c_.acc().regs);
  return read_lane(c_.frame(), c_.acc(), 0);
}

Leaves ChunkTree::total(int64_t first, int64_t m, bool backward) {
  try {
    return run(first, m, backward);
  } catch (const Error&) {
    elements_one_by_one(first, m, backward);
    throw;
  }
}

void ChunkTree::check_elements(int64_t first, int64_t m, bool backward) {
  try {
    for (int64_t b = 0; b < m; b += kBatch) {
      int count = int(std::min<int64_t>(kBatch, m - b));
      run_batch(elem_, ef_, shape_, backward ? first - (b + count - 1) : first + b, count);
    }
  } catch (const Error&) {
    elements_one_by_one(first, m, backward);
    throw;
  }
}

void ChunkTree::elements_one_by_one(int64_t first, int64_t m, bool backward) {
  Frame one(elem_.registers(), rt_.table, 1);
  elem_.prepare(one);
  for (int64_t i = 0; i < m; ++i)
    run_batch(elem_, one, shape_, backward ? first - i : first + i, 1);
}

} // namespace strata::tbbe
