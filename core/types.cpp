#include "core/types.h"

namespace strata {

Type Type::scalar(ScalarKind k) {
  Type t;
  t.kind_ = Kind::Scalar;
  t.scalar_ = k;
  return t;
}

Type Type::tuple(std::vector<Type> elems) {
  Type t(Kind::Tuple);
  t.elems_ = std::move(elems);
  return t;
}

Type Type::index(int rank) {
  return tuple(std::vector<Type>(size_t(rank), scalar(ScalarKind::I64)));
}

Type Type::array(Type elem, int rank) {
  Type t(Kind::Array);
  t.rank_ = rank;
  t.elems_.push_back(std::move(elem));
  return t;
}

Type Type::window(Type elem, int rank) {
  Type t = array(std::move(elem), rank);
  t.kind_ = Kind::Window;
  return t;
}

bool Type::is_element() const {
  if (is_scalar()) return true;
  if (!is_tuple()) return false;
  for (const Type& e : elems_)
    if (!e.is_element()) return false;
  return true;
}

bool Type::is_index() const {
  if (!is_tuple()) return false;
  for (const Type& e : elems_)
    if (!e.is_scalar(ScalarKind::I64)) return false;
  return true;
}

bool Type::is_arrays() const {
  if (is_array()) return true;
  if (!is_tuple() || elems_.empty()) return false;
  for (const Type& e : elems_)
    if (!e.is_arrays()) return false;
  return true;
}

std::vector<ScalarKind> Type::leaves() const {
  std::vector<ScalarKind> out;
  if (is_scalar()) {
    out.push_back(scalar_);
  } else {
    for (const Type& e : elems_) {
      auto sub = e.leaves();
      out.insert(out.end(), sub.begin(), sub.end());
    }
  }
  return out;
}

bool Type::operator==(const Type& o) const {
  return kind_ == o.kind_ && scalar_ == o.scalar_ && rank_ == o.rank_ && elems_ == o.elems_;
}

std::string Type::str() const {
  switch (kind_) {
  case Kind::Scalar: return std::string(scalar_name(scalar_));
  case Kind::Array: return "(array " + elem().str() + " " + std::to_string(rank_) + ")";
  case Kind::Window: return "(window " + elem().str() + " " + std::to_string(rank_) + ")";
  case Kind::Tuple: {
    if (!elems_.empty() && is_index()) return "(ix " + std::to_string(elems_.size()) + ")";
    std::string s = "(tuple";
    for (const Type& e : elems_) s += " " + e.str();
    return s + ")";
  }
  }
  return "?";
}

} // namespace strata
