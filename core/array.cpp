#include "core/array.h"

#include <cstring>
#include <new>

#include "core/error.h"

namespace strata {
namespace {
constexpr size_t kAlign = 64;
constexpr size_t kStaggerSlots = 8; // start offsets cycle through 0, 64, ..., 448 bytes
std::atomic<uint64_t> g_allocations{0};
} // namespace

Buffer Buffer::allocate(size_t bytes, bool zero) {
  uint64_t n = g_allocations.fetch_add(1, std::memory_order_relaxed);
  size_t offset = (n % kStaggerSlots) * kAlign;
  size_t total = bytes + offset;
  if (total < bytes) throw Error(ErrorKind::Resource, "buffer of " + std::to_string(bytes) + " bytes is too large");
  std::byte* base = nullptr;
  try {
    base = static_cast<std::byte*>(::operator new(total == 0 ? kAlign : total, std::align_val_t(kAlign)));
  } catch (const std::bad_alloc&) {
    throw Error(ErrorKind::Resource, "out of memory allocating " + std::to_string(bytes) + " bytes");
  }
  if (zero) std::memset(base, 0, total);
  Buffer b;
  b.data_ = std::shared_ptr<std::byte>(base + offset, [base](std::byte*) {
    ::operator delete(base, std::align_val_t(kAlign));
  });
  b.bytes_ = bytes;
  return b;
}

uint64_t Buffer::allocation_count() { return g_allocations.load(std::memory_order_relaxed); }

Array Array::allocate(const Type& elem, Shape shape, bool zero) {
  Array a;
  a.elem_ = elem;
  a.size_ = shape_size(shape);
  a.shape_ = std::move(shape);
  a.kinds_ = elem.leaves();
  for (ScalarKind k : a.kinds_) {
    size_t bytes = 0;
    if (__builtin_mul_overflow(size_t(a.size_), scalar_size(k), &bytes))
      throw Error(ErrorKind::Resource, "array of shape " + shape_str(a.shape_) + " is too large");
    a.leaves_.push_back(Buffer::allocate(bytes, zero));
  }
  return a;
}

Scalar Array::read(size_t leaf, int64_t i) const {
  ScalarKind k = kinds_[leaf];
  return Scalar::from_bytes(k, leaves_[leaf].data() + size_t(i) * scalar_size(k));
}

void Array::write(size_t leaf, int64_t i, const Scalar& v) {
  ScalarKind k = kinds_[leaf];
  std::memcpy(leaves_[leaf].data() + size_t(i) * scalar_size(k), v.data(), scalar_size(k));
}

bool identical(const Array& a, const Array& b) {
  if (a.elem_type() != b.elem_type() || a.shape() != b.shape()) return false;
  for (size_t l = 0; l < a.num_leaves(); ++l)
    if (std::memcmp(a.leaf(l).data(), b.leaf(l).data(), a.leaf(l).bytes()) != 0) return false;
  return true;
}

} // namespace strata
