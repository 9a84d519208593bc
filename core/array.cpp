#include "core/array.h"

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <new>
#include <string>

#include "core/environment.h"
#include "core/error.h"
#include "core/semantics.h"

namespace strata {
namespace {
constexpr size_t kAlign = 64;
constexpr size_t kStaggerSlots = 8; // start offsets cycle through 0, 64, ..., 448 bytes
std::atomic<uint64_t> g_allocations{0};
std::atomic<size_t> g_live_bytes{0};

// MemAvailable of /proc/meminfo in bytes; 0 when unknown.
size_t mem_available() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  size_t kib = 0;
  std::string unit;
  while (in >> key >> kib >> unit)
    if (key == "MemAvailable:") return kib * 1024;
  return 0;
}

std::string bytes_str(size_t bytes) {
  return std::to_string(bytes) + " bytes";
}
} // namespace

size_t Buffer::live_bytes() {
  return g_live_bytes.load(std::memory_order_relaxed);
}

size_t Buffer::memory_limit() {
  // Read at every allocation (tests and long-lived processes change it); a
  // malformed value is a usage error naming the variable (core/environment.h).
  if (auto limit = environment_bytes("STRATA_MEMORY_LIMIT"))
    return *limit > SIZE_MAX ? SIZE_MAX : size_t(*limit);
  static const size_t available = [] {
    size_t a = mem_available();
    return a ? a : SIZE_MAX;
  }();
  return available;
}

// The two messages of an allocation that does not fit (Buffer::out_of_memory).
constexpr const char* kPastMemoryLimit = " would exceed the memory limit of ";
constexpr const char* kOutOfMemory = "out of memory allocating ";

bool Buffer::out_of_memory(const Error& e) {
  return e.kind() == ErrorKind::Resource &&
         (e.message().find(kPastMemoryLimit) != std::string::npos ||
          e.message().find(kOutOfMemory) != std::string::npos);
}

Buffer Buffer::allocate(size_t bytes, bool zero) {
  uint64_t n = g_allocations.fetch_add(1, std::memory_order_relaxed);
  size_t offset = (n % kStaggerSlots) * kAlign;
  size_t total = bytes + offset;
  if (total < bytes)
    throw Error(ErrorKind::Resource, "buffer of " + std::to_string(bytes) + " bytes is too large");
  size_t limit = memory_limit(), live = live_bytes();
  if (total > limit || live > limit - total)
    throw Error(ErrorKind::Resource, "allocating " + bytes_str(bytes) + kPastMemoryLimit +
                                         bytes_str(limit) + " (" + bytes_str(live) +
                                         " in use; STRATA_MEMORY_LIMIT sets the limit)");
  std::byte* base = nullptr;
  try {
    base = static_cast<std::byte*>(
        ::operator new(total == 0 ? kAlign : total, std::align_val_t(kAlign)));
  } catch (const std::bad_alloc&) {
    throw out_of_memory_error(bytes);
  }
  if (zero) std::memset(base, 0, total);
  Buffer b;
  g_live_bytes.fetch_add(total, std::memory_order_relaxed);
  b.data_ = std::shared_ptr<std::byte>(base + offset, [base, total](std::byte*) {
    g_live_bytes.fetch_sub(total, std::memory_order_relaxed);
    ::operator delete(base, std::align_val_t(kAlign));
  });
  b.bytes_ = bytes;
  return b;
}

Buffer Buffer::borrow(std::byte* data, size_t bytes, std::shared_ptr<const void> owner) {
  Buffer b;
  b.data_ = std::shared_ptr<std::byte>(std::move(owner), data); // shares owner's lifetime
  b.bytes_ = bytes;
  return b;
}

Error Buffer::out_of_memory_error(size_t bytes, const std::string& where) {
  return Error(ErrorKind::Resource, kOutOfMemory + std::to_string(bytes) + " bytes" +
                                        (where.empty() ? "" : " of " + where));
}

uint64_t Buffer::allocation_count() {
  return g_allocations.load(std::memory_order_relaxed);
}

Array Array::allocate(const Type& elem, Shape shape, bool zero) {
  Array a;
  a.elem_ = elem;
  a.size_ = shape_size(shape);
  a.shape_ = std::move(shape);
  a.kinds_ = elem.leaves();
  for (ScalarKind k : a.kinds_) {
    size_t bytes = leaf_bytes(a.shape_, k);
    try {
      a.leaves_.push_back(Buffer::allocate(bytes, zero));
    } catch (const Error& e) {
      throw Error(e.kind(), "array of shape " + shape_str(a.shape_) + ": " + e.message());
    }
  }
  return a;
}

Array Array::from_leaves(const Type& elem, Shape shape, std::vector<Buffer> leaves) {
  Array a;
  a.elem_ = elem;
  a.size_ = shape_size(shape);
  a.shape_ = std::move(shape);
  a.kinds_ = elem.leaves();
  if (leaves.size() != a.kinds_.size())
    throw Error(ErrorKind::Input, "an array of " + elem.str() + " needs " +
                                      std::to_string(a.kinds_.size()) + " buffer(s), found " +
                                      std::to_string(leaves.size()));
  for (size_t l = 0; l < leaves.size(); ++l)
    if (leaves[l].bytes() < leaf_bytes(a.shape_, a.kinds_[l]))
      throw Error(ErrorKind::Input, "a buffer of " + std::to_string(leaves[l].bytes()) +
                                        " bytes is too small for an array of shape " +
                                        shape_str(a.shape_));
  a.leaves_ = std::move(leaves);
  return a;
}

size_t Array::leaf_bytes(const Shape& shape, ScalarKind k) {
  size_t bytes = 0;
  if (__builtin_mul_overflow(size_t(shape_size(shape)), scalar_size(k), &bytes))
    throw Error(ErrorKind::Resource, "array of shape " + shape_str(shape) + " is too large");
  return bytes;
}

Scalar Array::read(size_t leaf, int64_t i) const {
  ScalarKind k = kinds_[leaf];
  return Scalar::from_bytes(k, leaves_[leaf].data() + size_t(i) * scalar_size(k));
}

void Array::write(size_t leaf, int64_t i, const Scalar& v) {
  ScalarKind k = kinds_[leaf];
  std::byte* to = leaves_[leaf].data() + size_t(i) * scalar_size(k);
  if (k == ScalarKind::F32 || k == ScalarKind::F64) // one NaN (sem::canonical)
    v.visit([&](auto x) {
      auto c = sem::canonical(x);
      std::memcpy(to, &c, sizeof c);
    });
  else
    std::memcpy(to, v.data(), scalar_size(k));
}

bool identical(const Array& a, const Array& b) {
  if (a.elem_type() != b.elem_type() || a.shape() != b.shape()) return false;
  for (size_t l = 0; l < a.num_leaves(); ++l)
    if (std::memcmp(a.leaf(l).data(), b.leaf(l).data(), a.leaf(l).bytes()) != 0) return false;
  return true;
}

} // namespace strata
