#include "core/array_format.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace strata {
namespace {

constexpr int64_t kEllipsis = -1;

// The items of a dimension of extent n that are printed; kEllipsis marks the gap.
std::vector<int64_t> shown_items(int64_t n, bool summarise, int edge) {
  std::vector<int64_t> out;
  if (summarise && n > 2 * int64_t(edge)) {
    for (int64_t i = 0; i < edge; ++i)
      out.push_back(i);
    out.push_back(kEllipsis);
    for (int64_t i = n - edge; i < n; ++i)
      out.push_back(i);
  } else {
    for (int64_t i = 0; i < n; ++i)
      out.push_back(i);
  }
  return out;
}

std::string pad_left(std::string s, size_t width) {
  if (s.size() < width) s.insert(0, width - s.size(), ' ');
  return s;
}

class Printer {
public:
  Printer(const Array& a, bool summarise, int edge)
      : a_(a), summarise_(summarise), edge_(std::max(edge, 0)), widths_(a.num_leaves(), 0) {
    int64_t stride = 1;
    strides_.assign(size_t(a.rank()), 1);
    for (int k = a.rank(); k-- > 0;) {
      strides_[size_t(k)] = stride;
      stride *= a.shape()[size_t(k)];
    }
  }

  std::string run() {
    if (a_.rank() == 0) return element(0);
    if (a_.size() == 0) return "[]";
    measure(0, 0);
    return block(0, 0, "");
  }

private:
  std::vector<int64_t> items(int axis) const {
    return shown_items(a_.shape()[size_t(axis)], summarise_, edge_);
  }

  // Widens each leaf's column to fit every element that will be printed.
  void measure(int axis, int64_t base) {
    for (int64_t i : items(axis)) {
      if (i == kEllipsis) continue;
      int64_t at = base + i * strides_[size_t(axis)];
      if (axis + 1 < a_.rank()) {
        measure(axis + 1, at);
        continue;
      }
      for (size_t l = 0; l < widths_.size(); ++l)
        widths_[l] = std::max(widths_[l], format_value(a_.read(l, at)).size());
    }
  }

  // `[...]` for the sub-array at `base` starting at dimension `axis`.
  std::string block(int axis, int64_t base, const std::string& indent) {
    bool innermost = axis + 1 == a_.rank();
    std::string sep =
        innermost ? ", " : ",\n" + std::string(size_t(a_.rank() - axis - 2), '\n') + indent + " ";
    std::string s = "[";
    bool first = true;
    for (int64_t i : items(axis)) {
      if (!first) s += sep;
      first = false;
      int64_t at = base + i * strides_[size_t(axis)];
      if (i == kEllipsis)
        s += "...";
      else
        s += innermost ? element(at) : block(axis + 1, at, indent + " ");
    }
    return s + "]";
  }

  std::string element(int64_t i) {
    size_t leaf = 0;
    return element_of(a_.elem_type(), i, leaf);
  }

  // A scalar, or a tuple `(a, b)` (`(a,)` for one component, `()` for unit).
  std::string element_of(const Type& t, int64_t i, size_t& leaf) {
    if (t.is_scalar()) {
      size_t l = leaf++;
      return pad_left(format_value(a_.read(l, i)), widths_[l]);
    }
    std::string s = "(";
    for (size_t k = 0; k < t.elems().size(); ++k)
      s += (k ? ", " : "") + element_of(t.elems()[k], i, leaf);
    return s + (t.elems().size() == 1 ? ",)" : ")");
  }

  const Array& a_;
  bool summarise_;
  int edge_;
  std::vector<size_t> widths_;
  std::vector<int64_t> strides_;
};

// " min A max B nans N" for one float leaf (min and max leave out NaNs).
template <class T> std::string float_stats(const Array& a, size_t leaf) {
  const std::byte* p = a.leaf(leaf).data();
  int64_t nans = 0;
  bool any = false;
  T lo = 0, hi = 0;
  for (int64_t i = 0; i < a.size(); ++i) {
    T v;
    std::memcpy(&v, p + size_t(i) * sizeof(T), sizeof(T));
    if (std::isnan(v)) {
      ++nans;
    } else {
      lo = any ? std::min(lo, v) : v;
      hi = any ? std::max(hi, v) : v;
      any = true;
    }
  }
  std::string s;
  if (any)
    s += " min " + format_value(Scalar::make<T>(lo)) + " max " + format_value(Scalar::make<T>(hi));
  return s + " nans " + std::to_string(nans);
}

} // namespace

std::string format_array(const Array& a, int64_t threshold, int edge) {
  return Printer(a, a.size() > threshold, edge).run();
}

std::string describe_array(const Array& a) {
  std::string s = a.type().str() + " shape " + shape_str(a.shape());
  bool tuple = !a.elem_type().is_scalar();
  for (size_t l = 0; l < a.num_leaves(); ++l) {
    ScalarKind k = a.leaf_kind(l);
    if (!is_float(k)) continue;
    if (tuple) s += " [" + std::to_string(l) + "]";
    s += k == ScalarKind::F32 ? float_stats<float>(a, l) : float_stats<double>(a, l);
  }
  return s;
}

} // namespace strata
