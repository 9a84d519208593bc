#include "jit/runtime.h"

#include <cstring>

#include <sys/mman.h>

#include "fusion/checks.h"

namespace strata::jit {

Runtime::Runtime(const KernelGraph& g, size_t table_size, ArrayPool& p)
    : graph(g), pool(p), arrays_(table_size), leaves_(table_size), table_(table_size) {}

namespace {

size_t array_bytes(const Array& a) {
  size_t bytes = 0;
  for (size_t l = 0; l < a.num_leaves(); ++l)
    bytes += a.leaf(l).bytes();
  return bytes;
}

// Large fresh buffers get transparent huge pages before the first write:
// 512x fewer page faults on first touch (on this VM a fresh 64 MiB result
// cost about 50 ms of faults in 4 KiB pages, 8 ms in 2 MiB ones).
void advise_huge_pages(void* data, size_t bytes) {
  constexpr uintptr_t kHuge = uintptr_t(2) << 20;
  if (bytes < 2 * kHuge) return;
  uintptr_t begin = (reinterpret_cast<uintptr_t>(data) + kHuge - 1) & ~(kHuge - 1);
  uintptr_t end = (reinterpret_cast<uintptr_t>(data) + bytes) & ~(kHuge - 1);
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
}

} // namespace

Array ArrayPool::take(const Type& elem, const Shape& shape) {
  std::lock_guard lock(mutex_);
  for (size_t i = 0; i < kept_.size(); ++i) {
    const Array& a = kept_[i];
    bool unused = true; // the pool holds the only reference to every leaf
    for (size_t l = 0; l < a.num_leaves(); ++l)
      unused = unused && a.leaf(l).use_count() == 1;
    if (unused && a.shape() == shape && a.elem_type() == elem) {
      Array out = a;
      kept_.erase(kept_.begin() + std::ptrdiff_t(i));
      kept_.push_back(out);
      return out;
    }
  }
  Array out = Array::allocate(elem, shape, /*zero=*/false);
  for (size_t l = 0; l < out.num_leaves(); ++l)
    advise_huge_pages(out.leaf(l).data(), out.leaf(l).bytes());
  if (array_bytes(out) >= kMinBytes) {
    kept_.push_back(out);
    if (kept_.size() > kKeep) kept_.erase(kept_.begin());
  }
  return out;
}

void Runtime::set(int id, Array a) {
  size_t i = size_t(id);
  arrays_[i] = std::move(a);
  const Array& x = arrays_[i];
  leaves_[i].clear();
  for (size_t l = 0; l < x.num_leaves(); ++l)
    leaves_[i].push_back(x.leaf(l).data());
  table_[i] = JitArray{leaves_[i].data(), x.shape().data(), x.size()};
}

void Runtime::fail(const CompiledKernel& k, const JitError& e) const {
  if (e.site < 0 || size_t(e.site) >= k.code.sites.size())
    throw Error(ErrorKind::Resource, "jit: generated code reported an unknown check");
  throw decode_error(k.code.sites[size_t(e.site)], e,
                     [&](int id) { return arrays_[size_t(id)].shape(); });
}

void Runtime::call(const CompiledKernel& k, int fn, int64_t begin, int64_t end, Slot* aux) const {
  JitError e;
  if (k.fn(fn)(table(), &e, begin, end, aux) != 0) fail(k, e);
}

std::vector<Slot> Runtime::eval(const CompiledKernel& k, const Exp& e) const {
  std::vector<Slot> slots(e.type.leaves().size() + 1, 0);
  call(k, k.code.closed.at(&e), 0, 1, slots.data());
  slots.pop_back();
  return slots;
}

Index Runtime::eval_index(const CompiledKernel& k, const Exp& e) const {
  std::vector<Slot> s = eval(k, e);
  return Index(s.begin(), s.end());
}

Shape Runtime::prepare(const CompiledKernel& k, const Delayed& d) const {
  run_delayed_checks(d, [&](const ExpPtr& e) { return eval_index(k, *e); });
  Shape sh = eval_index(k, *d.shape);
  shape_size(sh); // a clear error for shapes too large to count
  return sh;
}

void Runtime::parallel(const CompiledKernel& k, int fn, int64_t n, int64_t grain, Slot* aux) const {
  JitError first;
  bool failed = parallel_ranges(
      n, grain,
      [&](int64_t b, int64_t e, JitError& err) { return k.fn(fn)(table(), &err, b, e, aux) != 0; },
      first);
  if (failed) fail(k, first);
}

void slots_to_array(const Slot* slots, Array& a, int64_t pos) {
  for (size_t l = 0; l < a.num_leaves(); ++l) {
    size_t size = scalar_size(a.leaf_kind(l));
    std::memcpy(a.leaf(l).data() + size_t(pos) * size, &slots[l], size);
  }
}

void array_to_slots(const Array& a, int64_t pos, Slot* slots) {
  for (size_t l = 0; l < a.num_leaves(); ++l) {
    size_t size = scalar_size(a.leaf_kind(l));
    slots[l] = 0;
    std::memcpy(&slots[l], a.leaf(l).data() + size_t(pos) * size, size);
  }
}

} // namespace strata::jit
