#include "core/shape.h"

#include "core/error.h"

namespace strata {

int64_t shape_size(const Shape& sh) {
  int64_t n = 1;
  for (int64_t d : sh) {
    if (d < 0) throw Error(ErrorKind::Shape, "negative extent in shape " + shape_str(sh));
    if (__builtin_mul_overflow(n, d, &n))
      throw Error(ErrorKind::Resource, "shape " + shape_str(sh) + " has too many elements");
  }
  return n;
}

bool in_bounds(const Shape& sh, const Index& ix) {
  if (ix.size() != sh.size()) return false;
  for (size_t k = 0; k < sh.size(); ++k)
    if (ix[k] < 0 || ix[k] >= sh[k]) return false;
  return true;
}

int64_t to_linear(const Shape& sh, const Index& ix) {
  int64_t i = 0;
  for (size_t k = 0; k < sh.size(); ++k) i = i * sh[k] + ix[k];
  return i;
}

Index from_linear(const Shape& sh, int64_t i) {
  Index ix(sh.size());
  for (size_t k = sh.size(); k-- > 0;) {
    int64_t d = sh[k];
    ix[k] = d == 0 ? 0 : i % d;
    i = d == 0 ? 0 : i / d;
  }
  return ix;
}

std::string shape_str(const std::vector<int64_t>& sh) {
  std::string s = "(";
  for (size_t k = 0; k < sh.size(); ++k) s += (k ? "," : "") + std::to_string(sh[k]);
  return s + ")";
}

} // namespace strata
