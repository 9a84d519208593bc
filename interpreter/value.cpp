#include "interpreter/value.h"

namespace strata {

Value Value::tuple(std::vector<Value> elems) {
  Value v;
  v.elems = std::move(elems);
  v.is_tuple = true;
  return v;
}

Value Value::index(const Index& ix) {
  std::vector<Value> elems;
  elems.reserve(ix.size());
  for (int64_t i : ix)
    elems.emplace_back(Scalar::make<int64_t>(i));
  return tuple(std::move(elems));
}

Index Value::to_index() const {
  Index ix;
  ix.reserve(elems.size());
  for (const Value& e : elems)
    ix.push_back(e.scalar.get<int64_t>());
  return ix;
}

Arrays Arrays::single(Array a) {
  Arrays r;
  r.array = std::move(a);
  return r;
}

Arrays Arrays::tuple(std::vector<Arrays> elems) {
  Arrays r;
  r.elems = std::move(elems);
  r.is_tuple = true;
  return r;
}

void Arrays::flatten_into(std::vector<Array>& out) const {
  if (!is_tuple) {
    out.push_back(array);
    return;
  }
  for (const Arrays& e : elems)
    e.flatten_into(out);
}

namespace {
// Reads the leaves of an element of type t starting at leaf `leaf`.
Value read_leaves(const Array& a, const Type& t, size_t& leaf, int64_t i) {
  if (t.is_scalar()) return Value(a.read(leaf++, i));
  std::vector<Value> elems;
  elems.reserve(t.elems().size());
  for (const Type& e : t.elems())
    elems.push_back(read_leaves(a, e, leaf, i));
  return Value::tuple(std::move(elems));
}

void write_leaves(Array& a, const Value& v, size_t& leaf, int64_t i) {
  if (!v.is_tuple) {
    a.write(leaf++, i, v.scalar);
    return;
  }
  for (const Value& e : v.elems)
    write_leaves(a, e, leaf, i);
}
} // namespace

Value read_element(const Array& a, int64_t i) {
  if (a.num_leaves() == 1 && a.elem_type().is_scalar()) return Value(a.read(0, i));
  size_t leaf = 0;
  return read_leaves(a, a.elem_type(), leaf, i);
}

void write_element(Array& a, int64_t i, const Value& v) {
  size_t leaf = 0;
  write_leaves(a, v, leaf, i);
}

std::string value_str(const Value& v) {
  if (!v.is_tuple) return format_value(v.scalar);
  std::string s = "(";
  for (size_t k = 0; k < v.elems.size(); ++k)
    s += (k ? ", " : "") + value_str(v.elems[k]);
  return s + ")";
}

} // namespace strata
