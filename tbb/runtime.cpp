#include "tbb/runtime.h"

#include "fusion/checks.h"

#include <algorithm>
#include <cstring>
#include <utility>

namespace strata::tbbe {

Runtime::Runtime(const KernelGraph& g, const FunctionTable& f, const ReductionOrder& o)
    : graph(g), functions(f), arrays(g.arrays.size()), table(g.arrays.size()), order(o) {
  for (size_t i = 0; i < arrays.size(); ++i)
    table[i] = &arrays[i];
}

void Runtime::set(ArrayId id, Array a) {
  Array old = std::exchange(arrays[size_t(id)], std::move(a));
  if (old.num_leaves() > 0 && old.size() > 0) keep(id, std::move(old));
}

void Runtime::recycle(int kernel_id, Array a) {
  if (a.num_leaves() > 0 && a.size() > 0) keep(-1 - int64_t(kernel_id), std::move(a));
}

Runtime::Pool Runtime::release() {
  for (size_t id = 0; id < arrays.size(); ++id)
    if (graph.arrays[id].origin == ManifestArray::Origin::Kernel && arrays[id].num_leaves() > 0 &&
        arrays[id].size() > 0)
      keep(int64_t(id), std::move(arrays[id]));
  return std::move(pool_);
}

// Two arrays per key suffice for a loop: the one the current iteration
// reads (the state) and the one it may overwrite (from the iteration before).
void Runtime::keep(int64_t key, Array a) {
  std::vector<Array>& pool = pool_[key];
  if (pool.size() >= 2) pool.erase(pool.begin());
  pool.push_back(std::move(a));
}

Array Runtime::take(int64_t key, const Type& elem, const Shape& sh) {
  auto it = pool_.find(key);
  if (it != pool_.end()) {
    std::vector<Array>& pool = it->second;
    for (size_t i = 0; i < pool.size(); ++i) {
      const Array& a = pool[i];
      bool unused = true;
      for (size_t l = 0; l < a.num_leaves(); ++l)
        unused = unused && a.leaf(l).use_count() == 1;
      if (unused && a.shape() == sh && a.elem_type() == elem) {
        Array out = std::move(pool[i]);
        pool.erase(pool.begin() + std::ptrdiff_t(i));
        return out;
      }
    }
  }
  return Array::allocate(elem, sh, /*zero=*/false); // every kernel writes every element
}

Leaves Runtime::eval(const Exp& e) const {
  const ScalarFunction& fn = functions.of(e);
  Frame frame(fn.registers(), table, 1);
  fn.prepare(frame);
  run_lanes_in_order(fn, frame, 1);
  return read_lane(frame, fn.result(), 0);
}

Index Runtime::eval_index(const Exp& e) const {
  Index ix;
  for (const Scalar& s : eval(e))
    ix.push_back(s.get<int64_t>());
  return ix;
}

Shape Runtime::prepare(const Delayed& d) const {
  run_delayed_checks(d, [&](const ExpPtr& e) { return eval_index(*e); });
  Shape sh = eval_index(*d.shape);
  shape_size(sh); // a clear error for shapes too large to count
  return sh;
}

void write_lane(Frame& f, const std::vector<int>& regs, int lane, const Leaves& v) {
  for (size_t l = 0; l < regs.size(); ++l) {
    size_t size = scalar_size(v[l].kind());
    std::memcpy(f.reg<std::byte>(regs[l]) + size_t(lane) * size, v[l].data(), size);
  }
}

Leaves read_lane(Frame& f, const Operand& op, int lane) {
  Leaves out;
  std::vector<ScalarKind> kinds = op.type.leaves();
  for (size_t l = 0; l < kinds.size(); ++l)
    out.push_back(Scalar::from_bytes(kinds[l], f.reg<std::byte>(op.regs[l]) +
                                                   size_t(lane) * scalar_size(kinds[l])));
  return out;
}

void copy_lanes(Frame& a, const std::vector<int>& from, Frame& b, const std::vector<int>& to,
                const std::vector<size_t>& sizes, int count) {
  for (size_t l = 0; l < from.size(); ++l)
    std::memcpy(b.reg<std::byte>(to[l]), a.reg<std::byte>(from[l]), size_t(count) * sizes[l]);
}

void store_lanes(Frame& f, const std::vector<int>& regs, Array& out, int64_t start, int count) {
  for (size_t l = 0; l < regs.size(); ++l) {
    size_t size = scalar_size(out.leaf_kind(l));
    std::byte* to = out.leaf(l).data() + size_t(start) * size;
    if (f.reg<std::byte>(regs[l]) != to) // computed in place (write_in_place)
      std::memcpy(to, f.reg<std::byte>(regs[l]), size_t(count) * size);
  }
}

void write_in_place(const ScalarFunction& fn, Frame& f, Array& out, int64_t start) {
  const std::vector<int>& regs = fn.result().regs;
  for (size_t l = 0; l < regs.size(); ++l)
    if (fn.result_in_place()[l])
      f.alias(regs[l], out.leaf(l).data() + size_t(start) * scalar_size(out.leaf_kind(l)));
}

bool fill_indices(Frame& f, const std::vector<int>& regs, const Shape& sh, int64_t start,
                  int count) {
  if (regs.empty()) return true;
  if (regs.size() == 1) {
    int64_t* r = f.reg<int64_t>(regs[0]);
    for (int64_t lane = 0; lane < count; ++lane) // 64-bit counter: no widening per lane
      r[lane] = start + lane;
    return true;
  }
  bool one_row = count <= 0 || start / sh.back() == (start + count - 1) / sh.back();
  // Row by row of the innermost dimension: outer components are constant
  // along a row, the innermost one counts up.
  Index ix = from_linear(sh, start);
  size_t last = regs.size() - 1;
  for (int lane = 0; lane < count;) {
    int run = int(std::min<int64_t>(count - lane, sh[last] - ix[last]));
    for (size_t k = 0; k < last; ++k)
      std::fill_n(f.reg<int64_t>(regs[k]) + lane, run, ix[k]);
    int64_t* inner = f.reg<int64_t>(regs[last]) + lane;
    for (int64_t i = 0; i < run; ++i)
      inner[i] = ix[last] + i;
    lane += run;
    ix[last] = 0;
    for (size_t k = last; k-- > 0;) {
      if (++ix[k] < sh[k]) break;
      ix[k] = 0;
    }
  }
  return one_row;
}

void Frame::fill_deferred_index() {
  DeferredIndex d = deferred_;
  deferred_ = {};
  fill_indices(*this, *d.regs, *d.shape, d.start, d.count);
}

void set_position(Frame& f, const std::vector<int>& regs, const Shape& sh, int64_t pos, int lane) {
  for (size_t k = regs.size(); k-- > 1;) {
    f.reg<int64_t>(regs[k])[lane] = pos % sh[k];
    pos /= sh[k];
  }
  if (!regs.empty()) f.reg<int64_t>(regs[0])[lane] = pos;
}

void run_batch(const ScalarFunction& fn, Frame& f, const Shape& sh, int64_t start, int count,
               bool head_only) {
  struct Run { // the marks last for this run only, even when it throws
    Frame& f;
    ~Run() {
      f.set_index_run(false);
      f.defer_index({});
    }
  } run{f};
  const std::vector<int>& regs = fn.params()[0].regs;
  bool one_row =
      regs.size() <= 1 || count <= 0 || start / sh.back() == (start + count - 1) / sh.back();
  if (fn.lazy_index() && one_row && count > 0) {
    // Reads at the index need lanes 0 and count-1 only; the rest on demand.
    set_position(f, regs, sh, start, 0);
    set_position(f, regs, sh, start + count - 1, count - 1);
    f.defer_index({&regs, &sh, start, count});
  } else {
    fill_indices(f, regs, sh, start, count);
  }
  f.set_index_run(one_row);
  run_lanes_in_order(fn, f, count, head_only);
}

} // namespace strata::tbbe
