// Values of the bounded evaluation (interpreter/bounds.h), shaped as the
// interpreter's (interpreter/value.h): a BValue is one bounded scalar or a
// tuple of them; a BoundedArray is an array of the interpreter's values with,
// per scalar leaf, the enclosures of every float element and why an element
// is undetermined.
#pragma once

#include <cstdint>
#include <vector>

#include "core/array.h"
#include "interpreter/bound_scalar.h"
#include "interpreter/value.h"

namespace strata {

struct BValue {
  BScalar scalar;            // when !is_tuple
  std::vector<BValue> elems; // when is_tuple
  bool is_tuple = false;

  BValue() = default;
  BValue(BScalar s) : scalar(s) {} // NOLINT: implicit on purpose, as Value's
  static BValue tuple(std::vector<BValue> elems);
  // A value with no freedom (BScalar::exact on every leaf).
  static BValue exact(const Value& v);
  Value point() const;
  // Every leaf determined?
  bool determined() const;
  // The first undetermined leaf's reason (Why::None when determined).
  Why why() const;
  // Every leaf undetermined for `w` (leaves already undetermined keep theirs).
  BValue undetermined(Why w) const;
};

// The leafwise hull of two values of one type (bound_scalar.h's hull).
BValue hull(const BValue& a, const BValue& b);

struct BoundedArray {
  Array value;                       // the interpreter's values
  Array lo, hi;                      // same type and shape; only float leaves are meaningful
  std::vector<std::vector<Why>> why; // per leaf, per element
  Why shape_why = Why::None;         // the shape itself depends on an undetermined value

  static BoundedArray allocate(const Type& elem, const Shape& shape);
  // An array with no freedom: the enclosures are the values themselves.
  static BoundedArray exact(const Array& a);
  const Shape& shape() const { return value.shape(); }
  int64_t size() const { return value.size(); }
  BScalar leaf(size_t leaf, int64_t i) const;
  void set_leaf(size_t leaf, int64_t i, const BScalar& s);
  // Every element undetermined for `w` (an undetermined target...).
  void mark_all(Why w);
  // The shape, and so every element, undetermined for `w`.
  void mark_shape(Why w);
};

struct BArrays {
  BoundedArray array;         // when !is_tuple
  std::vector<BArrays> elems; // when is_tuple
  bool is_tuple = false;

  static BArrays single(BoundedArray a);
  static BArrays tuple(std::vector<BArrays> elems);
  void flatten_into(std::vector<BoundedArray>& out) const;
  void mark_shape(Why w);
};

BValue read_element(const BoundedArray& a, int64_t i);
void write_element(BoundedArray& a, int64_t i, const BValue& v);

} // namespace strata
