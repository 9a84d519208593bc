// Input specs: parsing, checking against the program, and drawing. Random
// numbers come from std::mt19937_64 (its sequence is fixed by the standard)
// mapped to ranges here, not through the standard distributions, whose
// results differ between library implementations.
#include "oracle/input_spec.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <random>
#include <set>
#include <sstream>

namespace strata {
namespace {

[[noreturn]] void fail(const std::string& origin, const std::string& what) {
  throw Error(ErrorKind::Input, origin + ": " + what);
}

std::string trim(const std::string& s) {
  size_t a = s.find_first_not_of(" \t\r\n"), b = s.find_last_not_of(" \t\r\n");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

bool is_name(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  return std::ranges::all_of(s, [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
  });
}

// A number of the spec text: an integer, a decimal, `inf` or `-inf`.
std::optional<long double> number(const std::string& t) {
  std::string s = trim(t);
  if (s == "inf" || s == "+inf") return std::numeric_limits<long double>::infinity();
  if (s == "-inf") return -std::numeric_limits<long double>::infinity();
  if (s.empty() || s.find_first_not_of("0123456789+-.eE") != std::string::npos) return {};
  std::istringstream in(s);
  long double v;
  in >> v;
  if (!in || !in.eof()) return {};
  return v;
}

std::optional<int64_t> integer(const std::string& t) {
  auto v = number(t);
  if (!v || !std::isfinite(*v) || *v != std::floor(*v) || std::fabs(*v) > 9.0e18L) return {};
  return int64_t(*v);
}

// The type's own range (integers exactly; floats: the finite range).
std::pair<long double, long double> type_range(ScalarKind k) {
  return dispatch_kind(k, [](auto tag) {
    using T = decltype(tag);
    return std::pair<long double, long double>(std::numeric_limits<T>::lowest(),
                                               std::numeric_limits<T>::max());
  });
}

Scalar to_scalar(ScalarKind k, long double v) {
  return dispatch_kind(k, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, bool>)
      return Scalar::make<bool>(v != 0);
    else if constexpr (std::is_floating_point_v<T>)
      return Scalar::make<T>(static_cast<T>(v));
    else if constexpr (std::is_signed_v<T>)
      return Scalar::make<T>(static_cast<T>(static_cast<int64_t>(v)));
    else
      return Scalar::make<T>(static_cast<T>(static_cast<uint64_t>(v)));
  });
}

std::mt19937_64 stream(uint64_t seed, long trial, uint64_t which) {
  std::seed_seq seq{uint32_t(seed), uint32_t(seed >> 32), uint32_t(trial), uint32_t(which)};
  return std::mt19937_64(seq);
}

// Uniform in [0, n] (n < 2^64 - 1: rejection of the biased tail).
uint64_t below_or_at(std::mt19937_64& g, uint64_t n) {
  if (n == std::numeric_limits<uint64_t>::max()) return g();
  uint64_t m = n + 1, limit = std::numeric_limits<uint64_t>::max() -
                              (std::numeric_limits<uint64_t>::max() % m);
  uint64_t r;
  do
    r = g();
  while (r >= limit);
  return r % m;
}

double unit(std::mt19937_64& g) {
  return double(g() >> 11) * 0x1.0p-53; // [0, 1)
}

long double range_lo(const ArraySpec& s) {
  return s.range ? s.range->first : type_range(s.elem).first;
}
long double range_hi(const ArraySpec& s) {
  return s.range ? s.range->second : type_range(s.elem).second;
}

// The edge values the spec's range allows, as the element type's scalars.
std::vector<Scalar> edges(const ArraySpec& s) {
  std::vector<Scalar> out;
  if (s.elem == ScalarKind::Bool) return {Scalar::make(false), Scalar::make(true)};
  long double lo = range_lo(s), hi = range_hi(s);
  auto add = [&](long double v) {
    if (v >= lo && v <= hi) out.push_back(to_scalar(s.elem, v));
  };
  auto [tlo, thi] = type_range(s.elem);
  for (long double v : {0.0L, 1.0L, -1.0L, lo, hi, tlo, thi})
    if (std::isfinite(v)) add(v);
  if (is_float(s.elem)) {
    if (lo <= 0 && hi >= 0) out.push_back(to_scalar(s.elem, -0.0L));
    long double tiny = s.elem == ScalarKind::F32 ? std::numeric_limits<float>::denorm_min()
                                                 : std::numeric_limits<double>::denorm_min();
    add(tiny);
    add(-tiny);
    if (!s.range || std::isinf(hi)) out.push_back(to_scalar(s.elem, HUGE_VALL));
    if (!s.range || std::isinf(lo)) out.push_back(to_scalar(s.elem, -HUGE_VALL));
    if (!s.range) out.push_back(to_scalar(s.elem, std::numeric_limits<long double>::quiet_NaN()));
  } else {
    add(lo + 1);
    add(hi - 1);
  }
  return out;
}

// A value uniform over the range (floats without finite ends: every
// magnitude from 2^-30 to 2^30 as likely, either sign).
Scalar uniform(const ArraySpec& s, std::mt19937_64& g) {
  if (s.elem == ScalarKind::Bool) return Scalar::make<bool>(g() & 1);
  long double lo = range_lo(s), hi = range_hi(s);
  if (!is_float(s.elem)) {
    auto span = static_cast<uint64_t>(hi - lo); // exact: both ends are integers of the type
    return to_scalar(s.elem, lo + static_cast<long double>(below_or_at(g, span)));
  }
  if (!s.range || std::isinf(lo) || std::isinf(hi)) {
    long double m = std::ldexp(1.0 + unit(g), int(below_or_at(g, 60)) - 30);
    long double v = (g() & 1) ? -m : m; // no finite end: either sign
    if (s.range && std::isfinite(lo)) v = lo + m;
    if (s.range && std::isfinite(hi)) v = hi - m;
    return to_scalar(s.elem, v);
  }
  long double v = lo + (hi - lo) * static_cast<long double>(unit(g));
  if (!std::isfinite(v)) v = lo / 2 + (hi / 2 - lo / 2) * static_cast<long double>(unit(g)) * 2;
  Scalar x = to_scalar(s.elem, v);
  // Rounding to the element type may step past an end that it cannot hold.
  long double back = x.visit([](auto t) { return static_cast<long double>(t); });
  if (back > hi || back < lo) x = to_scalar(s.elem, back > hi ? hi : lo);
  return x;
}

void parse_size(const std::string& name, const std::string& rhs, const std::string& origin,
                InputSpecs& specs) {
  size_t dots = rhs.find("..");
  std::optional<int64_t> lo, hi;
  if (dots == std::string::npos) {
    lo = hi = integer(rhs);
  } else {
    lo = integer(rhs.substr(0, dots));
    hi = integer(rhs.substr(dots + 2));
  }
  if (!lo || !hi) fail(origin, "a size is written `n: 1000` or `n: 1..100000`");
  if (*lo < 0 || *hi < *lo)
    fail(origin, "the sizes " + std::to_string(*lo) + ".." + std::to_string(*hi) + " are empty");
  specs.sizes.push_back({name, *lo, *hi, origin});
}

void parse_array(const std::string& name, const std::string& rhs, const std::string& origin,
                 InputSpecs& specs) {
  ArraySpec a;
  a.name = name;
  a.origin = origin;
  std::string rest = rhs;
  size_t in = rest.find(" in ");
  std::string range;
  if (in != std::string::npos) {
    range = trim(rest.substr(in + 4));
    rest = trim(rest.substr(0, in));
  }
  size_t open = rest.find('[');
  std::string elem = trim(rest.substr(0, open));
  auto kind = scalar_from_name(elem);
  if (!kind) fail(origin, "`" + elem + "` is not an element type (bool, i8 ... u64, f32, f64)");
  a.elem = *kind;
  if (open != std::string::npos) {
    if (rest.back() != ']') fail(origin, "the shape is written [n, 3]");
    std::string inner = trim(rest.substr(open + 1, rest.size() - open - 2));
    std::stringstream dims(inner);
    for (std::string d; std::getline(dims, d, ',');) {
      d = trim(d);
      if (!is_name(d) && !integer(d))
        fail(origin, "`" + d + "` is neither a size nor a size variable");
      if (auto n = integer(d); n && *n < 0) fail(origin, "the extent " + d + " is negative");
      a.dims.push_back(d);
    }
  }
  if (!range.empty()) {
    if (range.front() != '[' || range.back() != ']' || range.find(',') == std::string::npos)
      fail(origin, "a range is written `in [lo, hi]`");
    std::string body = range.substr(1, range.size() - 2);
    size_t comma = body.find(',');
    auto lo = number(body.substr(0, comma)), hi = number(body.substr(comma + 1));
    if (!lo || !hi) fail(origin, "the range's ends must be numbers (or -inf, inf)");
    if (*hi < *lo) fail(origin, "the range " + range + " is empty");
    if (a.elem == ScalarKind::Bool) fail(origin, "bool values take no range");
    auto [tlo, thi] = type_range(a.elem);
    if (!is_float(a.elem)) {
      if (*lo != std::floor(*lo) || *hi != std::floor(*hi) || std::isinf(*lo) || std::isinf(*hi))
        fail(origin, "an integer range's ends must be integers");
      if (*lo < tlo || *hi > thi)
        fail(origin, "the range " + range + " does not fit " + elem + " (" +
                         format_literal(to_scalar(a.elem, tlo)) + " to " +
                         format_literal(to_scalar(a.elem, thi)) + ")");
    } else if ((std::isfinite(*lo) && (*lo < tlo || *lo > thi)) ||
               (std::isfinite(*hi) && (*hi < tlo || *hi > thi))) {
      fail(origin, "the range " + range + " does not fit " + elem);
    }
    a.range = std::pair{*lo, *hi};
  }
  specs.arrays.push_back(std::move(a));
}

size_t elem_bytes(ScalarKind k) {
  return scalar_size(k);
}

} // namespace

void parse_input_spec(const std::string& line, const std::string& where, InputSpecs& specs) {
  std::string text = trim(line);
  std::string origin = where + " '" + text + "'";
  size_t colon = text.find(':');
  if (colon == std::string::npos)
    fail(origin, "an input is written `name: f32[n] in [lo, hi]` or `n: lo..hi`");
  std::string name = trim(text.substr(0, colon)), rhs = trim(text.substr(colon + 1));
  if (!is_name(name)) fail(origin, "`" + name + "` is not a name");
  if (rhs.empty()) fail(origin, "nothing after `" + name + ":`");
  if (std::isdigit(static_cast<unsigned char>(rhs[0])) || rhs[0] == '-')
    parse_size(name, rhs, origin, specs);
  else
    parse_array(name, rhs, origin, specs);
}

void parse_input_comments(const std::string& program_text, const std::string& file,
                          InputSpecs& specs) {
  std::istringstream in(program_text);
  int line_no = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_no;
    std::string t = trim(line);
    if (t.empty()) continue;
    if (t[0] != ';') break; // the opening comment block ends at the first code
    size_t text = t.find_first_not_of(';');
    if (text == std::string::npos) continue; // a line of semicolons only
    t = trim(t.substr(text));
    if (t.rfind("input ", 0) == 0)
      parse_input_spec(t.substr(6), file + ":" + std::to_string(line_no) + ": input", specs);
  }
}

void bind_input_specs(InputSpecs& specs, const Program& program) {
  std::set<std::string> sizes;
  for (const SizeSpec& s : specs.sizes) {
    if (!sizes.insert(s.name).second) fail(s.origin, "the size `" + s.name + "` is given twice");
    for (const Param& p : program.params)
      if (p.name == s.name) fail(s.origin, "`" + s.name + "` is a parameter, not a size");
  }
  std::vector<ArraySpec> ordered;
  for (const ArraySpec& a : specs.arrays) {
    bool found =
        std::ranges::any_of(program.params, [&](const Param& p) { return p.name == a.name; });
    if (!found) {
      std::string names;
      for (const Param& p : program.params)
        names += (names.empty() ? "" : ", ") + p.name;
      fail(a.origin, "the program has no parameter `" + a.name +
                         "` (its parameters: " + (names.empty() ? "none" : names) + ")");
    }
  }
  for (const Param& p : program.params) {
    const ArraySpec* spec = nullptr;
    for (const ArraySpec& a : specs.arrays)
      if (a.name == p.name) {
        if (spec) fail(a.origin, "parameter `" + p.name + "` has two input specs");
        spec = &a;
      }
    if (!spec)
      throw Error(ErrorKind::Input, "parameter `" + p.name + "` of type " + p.type.str() +
                                        " has no input spec: add --input '" + p.name + ": ...'");
    const Type& elem = p.type.elem();
    if (!elem.is_scalar())
      fail(spec->origin,
           "parameter `" + p.name + "` is " + p.type.str() + ": only arrays of scalars are drawn");
    if (elem.scalar_kind() != spec->elem || int(spec->dims.size()) != p.type.rank())
      fail(spec->origin, "parameter `" + p.name + "` is " + p.type.str() + ", the spec gives " +
                             std::string(scalar_name(spec->elem)) + " of rank " +
                             std::to_string(spec->dims.size()));
    for (const std::string& d : spec->dims)
      if (is_name(d) && !sizes.count(d))
        fail(spec->origin,
             "the size variable `" + d + "` is not given (add --input '" + d + ": lo..hi')");
    ordered.push_back(*spec);
  }
  specs.arrays = std::move(ordered);
  // The largest inputs must fit in memory.
  Sizes largest;
  for (const SizeSpec& s : specs.sizes)
    largest[s.name] = s.hi;
  size_t limit = Buffer::memory_limit(), total = 0;
  for (const ArraySpec& a : specs.arrays) {
    long double bytes = static_cast<long double>(elem_bytes(a.elem));
    for (const std::string& d : a.dims)
      bytes *= static_cast<long double>(is_name(d) ? largest[d] : *integer(d));
    if (bytes + static_cast<long double>(total) > static_cast<long double>(limit))
      fail(a.origin, "at its largest (" + sizes_text(largest) + ") the inputs need " +
                         std::to_string(static_cast<unsigned long long>(bytes + total)) +
                         " bytes, more than the memory limit of " + std::to_string(limit) +
                         " bytes (STRATA_MEMORY_LIMIT sets it)");
    total += static_cast<size_t>(bytes);
  }
}

Sizes draw_sizes(const InputSpecs& specs, uint64_t seed, long trial) {
  Sizes out;
  std::mt19937_64 g = stream(seed, trial, 0);
  for (const SizeSpec& s : specs.sizes) {
    if (trial == 0 || s.lo == s.hi) {
      out[s.name] = s.lo;
    } else if (trial == 1) {
      out[s.name] = s.hi;
    } else {
      double a = std::log(double(s.lo) + 1), b = std::log(double(s.hi) + 1);
      auto n = static_cast<int64_t>(std::floor(std::exp(a + (b - a) * unit(g)))) - 1;
      out[s.name] = std::clamp(n, s.lo, s.hi);
    }
  }
  return out;
}

Shape spec_shape(const ArraySpec& spec, const Sizes& sizes) {
  Shape shape;
  for (const std::string& d : spec.dims)
    shape.push_back(is_name(d) ? sizes.at(d) : *integer(d));
  return shape;
}

std::vector<Array> draw_inputs(const InputSpecs& specs, const Sizes& sizes, uint64_t seed,
                               long trial, Values values) {
  std::vector<Array> out;
  for (size_t k = 0; k < specs.arrays.size(); ++k) {
    const ArraySpec& s = specs.arrays[k];
    std::mt19937_64 g = stream(seed, trial, k + 1);
    std::vector<Scalar> edge = values == Values::WithEdges ? edges(s) : std::vector<Scalar>{};
    Array a = Array::allocate(Type::scalar(s.elem), spec_shape(s, sizes), false);
    for (int64_t i = 0; i < a.size(); ++i)
      a.write(0, i,
              !edge.empty() && (g() & 7) == 0 ? edge[below_or_at(g, edge.size() - 1)]
                                              : uniform(s, g));
    out.push_back(std::move(a));
  }
  return out;
}

Array truncate_to(const Array& a, const Shape& shape) {
  Array out = Array::allocate(a.elem_type(), shape, false);
  Shape from = a.shape();
  int r = int(shape.size());
  for (int64_t i = 0; i < out.size(); ++i) {
    // Row-major index i of `shape` -> row-major index of `from`.
    int64_t rest = i, j = 0, stride = 1;
    for (int d = r - 1; d >= 0; --d) {
      j += (rest % shape[size_t(d)]) * stride;
      rest /= shape[size_t(d)];
      stride *= from[size_t(d)];
    }
    for (size_t l = 0; l < a.num_leaves(); ++l)
      out.write(l, i, a.read(l, j));
  }
  return out;
}

std::vector<Scalar> simple_values(const ArraySpec& spec) {
  if (spec.elem == ScalarKind::Bool) return {Scalar::make(false), Scalar::make(true)};
  long double lo = range_lo(spec), hi = range_hi(spec);
  std::vector<Scalar> out;
  for (long double v : {0.0L, 1.0L, -1.0L, 2.0L, lo, hi})
    if (std::isfinite(v) && v >= lo && v <= hi) {
      Scalar s = to_scalar(spec.elem, v);
      if (std::ranges::none_of(out, [&](const Scalar& o) { return o.identical(s); }))
        out.push_back(s);
    }
  return out;
}

std::string sizes_text(const Sizes& sizes) {
  std::string s;
  for (const auto& [name, n] : sizes)
    s += (s.empty() ? "" : " ") + name + "=" + std::to_string(n);
  return s.empty() ? "no sizes" : s;
}

} // namespace strata
