// Runtime values of the reference interpreter.
//
// `Value` is one scalar or a tuple of values (indices are tuples of i64).
// `Arrays` is what an array expression evaluates to: one array or a tuple of
// them. Element reads and writes convert between a `Value` and the
// struct-of-arrays leaves of an Array.
#pragma once

#include <vector>

#include "core/array.h"
#include "core/scalar.h"
#include "core/shape.h"

namespace strata {

struct Value {
  Scalar scalar;            // when !is_tuple
  std::vector<Value> elems; // when is_tuple
  bool is_tuple = false;

  Value() = default;
  Value(Scalar s) : scalar(s) {} // NOLINT: implicit on purpose, scalars are values
  static Value tuple(std::vector<Value> elems);
  static Value index(const Index& ix); // (ix i j ...) as a tuple of i64
  Index to_index() const;              // inverse of index()
  bool truthy() const { return scalar.get<bool>(); }
};

struct Arrays {
  Array array;               // when !is_tuple
  std::vector<Arrays> elems; // when is_tuple
  bool is_tuple = false;

  static Arrays single(Array a);
  static Arrays tuple(std::vector<Arrays> elems);
  // The arrays in order, nested tuples flattened: a program's results.
  void flatten_into(std::vector<Array>& out) const;
};

Value read_element(const Array& a, int64_t i);
void write_element(Array& a, int64_t i, const Value& v);

// "(1, 2)" or "3" or "((1, 2), 0.5)": how values appear in messages.
std::string value_str(const Value& v);

} // namespace strata
