#include "interpreter/bound_value.h"

namespace strata {

BValue BValue::tuple(std::vector<BValue> elems) {
  BValue v;
  v.elems = std::move(elems);
  v.is_tuple = true;
  return v;
}

BValue BValue::exact(const Value& v) {
  if (!v.is_tuple) return BScalar::exact(v.scalar);
  std::vector<BValue> elems;
  elems.reserve(v.elems.size());
  for (const Value& e : v.elems)
    elems.push_back(exact(e));
  return tuple(std::move(elems));
}

Value BValue::point() const {
  if (!is_tuple) return Value(scalar.point);
  std::vector<Value> out;
  out.reserve(elems.size());
  for (const BValue& e : elems)
    out.push_back(e.point());
  return Value::tuple(std::move(out));
}

bool BValue::determined() const {
  return why() == Why::None;
}

Why BValue::why() const {
  if (!is_tuple) return scalar.why;
  for (const BValue& e : elems)
    if (Why w = e.why(); w != Why::None) return w;
  return Why::None;
}

BValue BValue::undetermined(Why w) const {
  if (!is_tuple) return scalar.undetermined(w);
  std::vector<BValue> out;
  out.reserve(elems.size());
  for (const BValue& e : elems)
    out.push_back(e.undetermined(w));
  return tuple(std::move(out));
}

BValue hull(const BValue& a, const BValue& b) {
  if (!a.is_tuple) return hull(a.scalar, b.scalar);
  std::vector<BValue> out;
  out.reserve(a.elems.size());
  for (size_t k = 0; k < a.elems.size(); ++k)
    out.push_back(hull(a.elems[k], b.elems[k]));
  return BValue::tuple(std::move(out));
}

// ------------------------------------------------------------ arrays
BoundedArray BoundedArray::allocate(const Type& elem, const Shape& shape) {
  BoundedArray a;
  a.value = Array::allocate(elem, shape);
  a.lo = Array::allocate(elem, shape, false);
  a.hi = Array::allocate(elem, shape, false);
  a.why.assign(a.value.num_leaves(), std::vector<Why>(size_t(a.value.size()), Why::None));
  return a;
}

BoundedArray BoundedArray::exact(const Array& a) {
  BoundedArray b;
  b.value = a;
  b.lo = a; // arrays are immutable once built: sharing the storage is fine
  b.hi = a;
  b.why.assign(a.num_leaves(), std::vector<Why>(size_t(a.size()), Why::None));
  for (size_t leaf = 0; leaf < a.num_leaves(); ++leaf) {
    if (!is_float(a.leaf_kind(leaf))) continue;
    for (int64_t i = 0; i < a.size(); ++i)
      b.why[leaf][size_t(i)] = BScalar::exact(a.read(leaf, i)).why; // inf, NaN
  }
  return b;
}

BScalar BoundedArray::leaf(size_t leaf, int64_t i) const {
  BScalar s;
  s.point = value.read(leaf, i);
  s.why = why[leaf][size_t(i)];
  if (s.why != Why::None) return s;
  switch (s.point.kind()) {
  case ScalarKind::F32:
    s.lo = lo.leaf_data<float>(leaf)[i];
    s.hi = hi.leaf_data<float>(leaf)[i];
    break;
  case ScalarKind::F64:
    s.lo = lo.leaf_data<double>(leaf)[i];
    s.hi = hi.leaf_data<double>(leaf)[i];
    break;
  default: break;
  }
  return s;
}

void BoundedArray::set_leaf(size_t leaf, int64_t i, const BScalar& s) {
  value.write(leaf, i, s.point);
  why[leaf][size_t(i)] = s.why;
  switch (s.point.kind()) {
  case ScalarKind::F32:
    lo.leaf_data<float>(leaf)[i] = float(s.lo);
    hi.leaf_data<float>(leaf)[i] = float(s.hi);
    break;
  case ScalarKind::F64:
    lo.leaf_data<double>(leaf)[i] = s.lo;
    hi.leaf_data<double>(leaf)[i] = s.hi;
    break;
  default: break;
  }
}

void BoundedArray::mark_all(Why w) {
  for (auto& leaf : why)
    for (Why& x : leaf)
      if (x == Why::None) x = w;
}

void BoundedArray::mark_shape(Why w) {
  if (w == Why::None) return;
  if (shape_why == Why::None) shape_why = w;
  mark_all(w);
}

BArrays BArrays::single(BoundedArray a) {
  BArrays r;
  r.array = std::move(a);
  return r;
}

BArrays BArrays::tuple(std::vector<BArrays> elems) {
  BArrays r;
  r.elems = std::move(elems);
  r.is_tuple = true;
  return r;
}

void BArrays::flatten_into(std::vector<BoundedArray>& out) const {
  if (!is_tuple) {
    out.push_back(array);
    return;
  }
  for (const BArrays& e : elems)
    e.flatten_into(out);
}

void BArrays::mark_shape(Why w) {
  if (!is_tuple) {
    array.mark_shape(w);
    return;
  }
  for (BArrays& e : elems)
    e.mark_shape(w);
}

namespace {
void read_leaves(const BoundedArray& a, const Type& t, size_t& leaf, int64_t i, BValue& out) {
  if (t.is_scalar()) {
    out = a.leaf(leaf++, i);
    return;
  }
  out.is_tuple = true;
  out.elems.resize(t.elems().size());
  for (size_t k = 0; k < t.elems().size(); ++k)
    read_leaves(a, t.elems()[k], leaf, i, out.elems[k]);
}

void write_leaves(BoundedArray& a, const BValue& v, size_t& leaf, int64_t i) {
  if (!v.is_tuple) {
    a.set_leaf(leaf++, i, v.scalar);
    return;
  }
  for (const BValue& e : v.elems)
    write_leaves(a, e, leaf, i);
}
} // namespace

BValue read_element(const BoundedArray& a, int64_t i) {
  BValue v;
  size_t leaf = 0;
  read_leaves(a, a.value.elem_type(), leaf, i, v);
  return v;
}

void write_element(BoundedArray& a, int64_t i, const BValue& v) {
  size_t leaf = 0;
  write_leaves(a, v, leaf, i);
}

} // namespace strata
