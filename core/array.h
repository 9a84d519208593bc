// Regular arrays stored as struct-of-arrays buffers.
//
// An element of type (tuple i32 (tuple f32 f64)) is stored as three buffers,
// one per scalar leaf, each contiguous and row-major. Buffers are 64-byte
// aligned, shared (copying an Array shares its storage: arrays are immutable
// once built) and their start addresses are staggered by multiples of 64 bytes
// so that many arrays do not alias the same cache sets (docs/tbb.md).
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>
#include <vector>

#include "core/scalar.h"
#include "core/shape.h"
#include "core/types.h"

namespace strata {

class Error;

class Buffer {
public:
  Buffer() = default;
  // Zero-filled storage for `bytes` bytes (contents unspecified when !zero).
  static Buffer allocate(size_t bytes, bool zero = true);
  // Storage owned elsewhere (a NumPy array, a DLPack tensor): `data` stays
  // valid while `owner` lives, and the buffer keeps `owner` alive. Not
  // counted in live_bytes(); at least element-aligned, not necessarily 64.
  static Buffer borrow(std::byte* data, size_t bytes, std::shared_ptr<const void> owner);
  std::byte* data() const { return data_.get(); }
  size_t bytes() const { return bytes_; }
  // How many Buffers share this storage (engines reuse storage no one else holds).
  long use_count() const { return data_.use_count(); }
  // How many buffers this process has allocated so far (tests assert on it).
  static uint64_t allocation_count();
  // Bytes held by live buffers, and the most they may hold together:
  // STRATA_MEMORY_LIMIT (bytes, or with a K, M or G suffix) when set,
  // otherwise the memory the system had available (MemAvailable) when the
  // process first allocated. An allocation past the limit is a `resource`
  // error before any memory is taken, never an out-of-memory kill.
  static size_t live_bytes();
  static size_t memory_limit();
  // Whether `e` is an allocation that did not fit (past the memory limit, or
  // refused by the system): an error that depends on what else is live, not
  // only on the program and its inputs.
  static bool out_of_memory(const Error& e);
  // The error of an allocation of `bytes` that the system (or a device,
  // named in `where`: "device memory") refused; out_of_memory() holds for it.
  static Error out_of_memory_error(size_t bytes, const std::string& where = "");

private:
  std::shared_ptr<std::byte> data_;
  size_t bytes_ = 0;
};

class Array {
public:
  Array() = default;
  // A zero-filled array of the element type and shape (contents unspecified
  // when !zero: for engines that write every element).
  static Array allocate(const Type& elem, Shape shape, bool zero = true);
  // An array over existing buffers, one per scalar leaf of `elem`, each of
  // leaf_bytes(shape, kind) bytes or more; Error(Input) otherwise.
  static Array from_leaves(const Type& elem, Shape shape, std::vector<Buffer> leaves);
  // The bytes of one leaf of kind `k` of an array of `shape`; a `resource`
  // error "array of shape (...) is too large" when they overflow (every
  // engine's allocation counts with it, device memory too).
  static size_t leaf_bytes(const Shape& shape, ScalarKind k);

  const Type& elem_type() const { return elem_; }
  Type type() const { return Type::array(elem_, rank()); }
  const Shape& shape() const { return shape_; }
  int rank() const { return int(shape_.size()); }
  int64_t size() const { return size_; }

  size_t num_leaves() const { return leaves_.size(); }
  ScalarKind leaf_kind(size_t leaf) const { return kinds_[leaf]; }
  const Buffer& leaf(size_t leaf) const { return leaves_[leaf]; }
  template <class T> T* leaf_data(size_t leaf) const {
    return reinterpret_cast<T*>(leaves_[leaf].data());
  }

  Scalar read(size_t leaf, int64_t i) const;
  void write(size_t leaf, int64_t i, const Scalar& v);

private:
  Type elem_;
  Shape shape_;
  int64_t size_ = 0;
  std::vector<ScalarKind> kinds_;
  std::vector<Buffer> leaves_;
};

// Bitwise equality of element types, shapes and contents.
bool identical(const Array& a, const Array& b);

} // namespace strata
