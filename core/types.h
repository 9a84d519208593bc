// Types of the Strata language (docs/language.md, Types).
//
// One value type covers scalars, tuples (of scalars or of arrays), arrays and
// the stencil window type. `(ix R)` is not a kind of its own: it is a tuple of
// R i64, exactly as the language defines it.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/scalar.h"

namespace strata {

class Type {
public:
  enum class Kind : uint8_t { Scalar, Tuple, Array, Window };

  Type() = default; // unit: (tuple)
  static Type scalar(ScalarKind k);
  static Type tuple(std::vector<Type> elems);
  static Type index(int rank); // (ix R): a tuple of R i64
  static Type array(Type elem, int rank);
  static Type window(Type elem, int rank);

  Kind kind() const { return kind_; }
  bool is_scalar() const { return kind_ == Kind::Scalar; }
  bool is_scalar(ScalarKind k) const { return kind_ == Kind::Scalar && scalar_ == k; }
  bool is_tuple() const { return kind_ == Kind::Tuple; }
  bool is_array() const { return kind_ == Kind::Array; }
  bool is_window() const { return kind_ == Kind::Window; }
  // An element type: a scalar, or a tuple whose components are element types.
  bool is_element() const;
  // An index type: a tuple of i64 (of any length, including unit).
  bool is_index() const;
  // An array or a tuple of arrays (what Acc expressions have).
  bool is_arrays() const;

  ScalarKind scalar_kind() const { return scalar_; }
  const std::vector<Type>& elems() const { return elems_; } // tuple components
  const Type& elem() const { return elems_[0]; }            // array/window element type
  int rank() const { return rank_; }                        // array/window rank

  // The scalar leaves of an element type, in order (struct-of-arrays layout).
  std::vector<ScalarKind> leaves() const;

  bool operator==(const Type& o) const;
  bool operator!=(const Type& o) const { return !(*this == o); }

  // Canonical text: `f32`, `(tuple i32 f32)`, `(ix 2)`, `(array f32 2)`.
  std::string str() const;

private:
  explicit Type(Kind k) : kind_(k) {}
  Kind kind_ = Kind::Tuple;
  ScalarKind scalar_ = ScalarKind::Bool;
  int rank_ = 0;
  std::vector<Type> elems_;
};

} // namespace strata
