#include "core/literal.h"

#include <charconv>
#include <cmath>
#include <limits>

#include "core/error.h"

namespace strata {

using namespace sexp;

bool is_special_float(std::string_view t) {
  for (std::string_view base : {"inf", "nan"})
    for (std::string_view suffix : {"", "f32", "f64"})
      if (t.size() == base.size() + suffix.size() && t.starts_with(base) && t.ends_with(suffix))
        return true;
  return false;
}

size_t skip_digits(std::string_view s, size_t i) {
  while (i < s.size() && is_digit(s[i]))
    ++i;
  return i;
}

namespace {

// Reads one literal atom; errors are syntax errors at the atom.
class LiteralReader {
public:
  explicit LiteralReader(std::shared_ptr<const std::string> file) : file_(std::move(file)) {}

  [[noreturn]] void fail(const Sexp& at, const std::string& message) const {
    throw Error(ErrorKind::Syntax, SrcLoc{file_, at.line, at.col}, message);
  }

  // The value of a literal atom, or nullopt when the atom is not a literal
  // (a name). `elem`, inside `use`, is the type the value takes.
  std::optional<Scalar> literal(const Sexp& s, std::optional<ScalarKind> elem) const {
    std::string_view t = s.text;
    if (t == "true" || t == "false") {
      if (elem && *elem != ScalarKind::Bool)
        fail(s, "literal " + quote(t) + " is a bool, but the element type is " +
                    std::string(scalar_name(*elem)));
      return Scalar::make<bool>(t == "true");
    }
    bool neg = t.starts_with('-');
    std::string_view rest = t.substr(neg ? 1 : 0);
    if (rest.starts_with("inf") || rest.starts_with("nan")) return special(s, neg, rest, elem);
    if (rest.empty() || !is_digit(rest[0])) return std::nullopt;

    // digits [. digits] [e [+-] digits] [suffix]
    bool fractional = false;
    size_t i = skip_digits(rest, 0);
    if (i < rest.size() && rest[i] == '.') {
      size_t j = skip_digits(rest, i + 1);
      if (j == i + 1) fail(s, "bad literal " + quote(t) + ": expected digits after `.`");
      i = j;
      fractional = true;
    }
    if (i < rest.size() && (rest[i] == 'e' || rest[i] == 'E')) {
      size_t j = i + 1;
      if (j < rest.size() && (rest[j] == '+' || rest[j] == '-')) ++j;
      size_t k = skip_digits(rest, j);
      if (k == j) fail(s, "bad literal " + quote(t) + ": expected digits in the exponent");
      i = k;
      fractional = true;
    }
    std::optional<ScalarKind> suffix = parse_suffix(s, rest.substr(i));
    ScalarKind kind = literal_kind(s, fractional, suffix, elem);
    if (is_float(kind)) return parse_float(s, t.substr(0, (neg ? 1 : 0) + i), kind);
    return parse_int(s, neg, rest.substr(0, i), kind);
  }

  std::optional<ScalarKind> parse_suffix(const Sexp& s, std::string_view text) const {
    if (text.empty()) return std::nullopt;
    auto k = scalar_from_name(text);
    if (!k || *k == ScalarKind::Bool)
      fail(s, "bad literal " + quote(s.text) + ": unknown type suffix " + quote(text));
    return k;
  }

  // The type a numeric literal takes: its suffix, else the array's element
  // type, else i64 or f64 by its form.
  ScalarKind literal_kind(const Sexp& s, bool fractional, std::optional<ScalarKind> suffix,
                          std::optional<ScalarKind> elem) const {
    if (suffix && fractional && !is_float(*suffix))
      fail(s, "bad literal " + quote(s.text) + ": an integer type cannot have a fraction, " +
                  "exponent, inf or nan");
    if (elem) {
      std::string elem_name(scalar_name(*elem));
      if (suffix && *suffix != *elem)
        fail(s, "literal " + quote(s.text) + " has type " + std::string(scalar_name(*suffix)) +
                    ", but the element type is " + elem_name);
      if (*elem == ScalarKind::Bool || (fractional && !is_float(*elem)))
        fail(s, "literal " + quote(s.text) + " does not fit the element type " + elem_name);
      return *elem;
    }
    if (suffix) return *suffix;
    return fractional ? ScalarKind::F64 : ScalarKind::I64;
  }

  // `inf`, `nan`, `-inf` with an optional float suffix; nullopt for names
  // such as `info`.
  std::optional<Scalar> special(const Sexp& s, bool neg, std::string_view rest,
                                std::optional<ScalarKind> elem) const {
    std::string_view suffix_text = rest.substr(3);
    if (!suffix_text.empty() && !scalar_from_name(suffix_text)) return std::nullopt;
    ScalarKind kind = literal_kind(s, true, parse_suffix(s, suffix_text), elem);
    bool nan = rest.starts_with("nan");
    return dispatch_kind(kind, [&](auto tag) -> Scalar {
      using T = decltype(tag);
      if constexpr (std::is_floating_point_v<T>) {
        T v = nan ? std::numeric_limits<T>::quiet_NaN() : std::numeric_limits<T>::infinity();
        return Scalar::make<T>(neg ? -v : v);
      } else {
        return Scalar{}; // unreachable: literal_kind returned a float kind
      }
    });
  }

  // `text` is the literal without its suffix, sign included.
  Scalar parse_float(const Sexp& s, std::string_view text, ScalarKind kind) const {
    return dispatch_kind(kind, [&](auto tag) -> Scalar {
      using T = decltype(tag);
      if constexpr (std::is_floating_point_v<T>) {
        T v{};
        auto res = std::from_chars(text.data(), text.data() + text.size(), v);
        if (res.ec == std::errc::result_out_of_range)
          fail(s, "literal " + quote(s.text) + " is out of range for " +
                      std::string(scalar_name(kind)));
        if (res.ec != std::errc{} || res.ptr != text.data() + text.size())
          fail(s, "bad literal " + quote(s.text));
        return Scalar::make<T>(v);
      } else {
        return Scalar{}; // unreachable: kind is a float kind
      }
    });
  }

  // `digits` is the magnitude; the literal is checked against the range of `kind`.
  Scalar parse_int(const Sexp& s, bool neg, std::string_view digits, ScalarKind kind) const {
    uint64_t mag = 0;
    auto res = std::from_chars(digits.data(), digits.data() + digits.size(), mag);
    std::optional<Scalar> value;
    if (res.ec == std::errc{}) {
      value = dispatch_kind(kind, [&](auto tag) -> std::optional<Scalar> {
        using T = decltype(tag);
        if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
          auto max = uint64_t(std::numeric_limits<T>::max());
          uint64_t limit = neg ? (std::is_signed_v<T> ? max + 1 : 0) : max;
          if (mag > limit) return std::nullopt;
          return Scalar::make<T>(neg ? T(int64_t(0 - mag)) : T(mag));
        } else {
          return std::nullopt; // unreachable: kind is integral
        }
      });
    }
    if (!value)
      fail(s, "integer literal " + quote(s.text) + " is out of range for " +
                  std::string(scalar_name(kind)));
    return *value;
  }

private:
  std::shared_ptr<const std::string> file_;
};

} // namespace

std::optional<Scalar> read_literal(const Sexp& s, std::optional<ScalarKind> elem,
                                   const std::shared_ptr<const std::string>& file) {
  return LiteralReader(file).literal(s, elem);
}

namespace {

template <class T> std::optional<Scalar> exactly(long double x) {
  if constexpr (std::is_floating_point_v<T>) {
    if (static_cast<long double>(static_cast<T>(x)) != x) return std::nullopt;
  } else {
    if (x != std::floor(x) || x < static_cast<long double>(std::numeric_limits<T>::min()) ||
        x > static_cast<long double>(std::numeric_limits<T>::max()))
      return std::nullopt;
  }
  return Scalar::make<T>(static_cast<T>(x));
}

} // namespace

// Switches of its own rather than dispatch_kind: written with dispatch_kind
// (whose end is __builtin_unreachable()) returning std::optional, GCC 12 at
// -O2 built this file so that its other throws found no handler and every
// syntax error aborted the process (not understood; ParserErrors.BadLiterals
// catches it).
std::optional<Scalar> exact_literal(const Scalar& v, ScalarKind to) {
  long double x = 0;
  switch (v.kind()) {
  case ScalarKind::Bool: return std::nullopt;
  case ScalarKind::I8: x = v.get<int8_t>(); break;
  case ScalarKind::I16: x = v.get<int16_t>(); break;
  case ScalarKind::I32: x = v.get<int32_t>(); break;
  case ScalarKind::I64: x = static_cast<long double>(v.get<int64_t>()); break;
  case ScalarKind::U8: x = v.get<uint8_t>(); break;
  case ScalarKind::U16: x = v.get<uint16_t>(); break;
  case ScalarKind::U32: x = v.get<uint32_t>(); break;
  case ScalarKind::U64: x = static_cast<long double>(v.get<uint64_t>()); break;
  case ScalarKind::F32: x = v.get<float>(); break;
  case ScalarKind::F64: x = v.get<double>(); break;
  }
  switch (to) {
  case ScalarKind::Bool: return std::nullopt;
  case ScalarKind::I8: return exactly<int8_t>(x);
  case ScalarKind::I16: return exactly<int16_t>(x);
  case ScalarKind::I32: return exactly<int32_t>(x);
  case ScalarKind::I64: return exactly<int64_t>(x);
  case ScalarKind::U8: return exactly<uint8_t>(x);
  case ScalarKind::U16: return exactly<uint16_t>(x);
  case ScalarKind::U32: return exactly<uint32_t>(x);
  case ScalarKind::U64: return exactly<uint64_t>(x);
  case ScalarKind::F32: return exactly<float>(x);
  case ScalarKind::F64: return exactly<double>(x);
  }
  return std::nullopt;
}

} // namespace strata
