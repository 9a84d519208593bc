#include "core/npy.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <vector>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/npy_detail.h"

namespace strata::npy_detail {

static_assert(std::endian::native == std::endian::little,
              ".npy I/O copies little-endian data as is; a big-endian host needs byte swaps");

constexpr std::string_view kMagic{"\x93NUMPY", 6};
constexpr size_t kAlign = 64;           // NumPy pads the header so data starts 64-byte aligned
constexpr size_t kGrowthDigits = 21;    // NumPy leaves room to rewrite the first extent in place
constexpr int kMaxDepth = 64;           // nesting limit of the header literal
constexpr size_t kChunkBytes = 1 << 20; // records are converted this many bytes at a time
constexpr uint64_t kMaxVoidPad = uint64_t(1) << 30;

[[noreturn]] void fail(const std::string& what, const std::string& msg) {
  throw Error(ErrorKind::Input, what + ": " + msg);
}

// Text from a file made safe for a one-line message: escapes, length limit.
std::string printable(std::string_view s) {
  std::string out;
  for (char c : s.substr(0, 60)) {
    auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7f) {
      out += c;
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", u);
      out += buf;
    }
  }
  return s.size() > 60 ? out + "..." : out;
}

// ---------------------------------------------------------------------------
// The header: a Python dict literal such as
//   {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }

struct PyValue {
  enum class Kind { Str, Int, Bool, Tuple, List, Dict };
  Kind kind = Kind::Str;
  std::string str;               // Str
  int64_t num = 0;               // Int, Bool
  std::vector<PyValue> items;    // Tuple, List, Dict values
  std::vector<std::string> keys; // Dict keys, parallel to items
};

// A small recursive-descent parser for the literals NumPy writes: strings,
// integers (with Python 2's `L` suffix), True/False, tuples, lists, dicts.
class LiteralParser {
public:
  LiteralParser(std::string_view text, const std::string& what) : text_(text), what_(what) {}

  PyValue parse_all() {
    PyValue v = value(0);
    skip_ws();
    if (pos_ != text_.size()) bad("unexpected text after the dict");
    return v;
  }

private:
  [[noreturn]] void bad(const std::string& msg) const {
    fail(what_, "malformed header: " + msg + " at offset " + std::to_string(pos_));
  }
  void skip_ws() {
    while (pos_ < text_.size() && std::strchr(" \t\r\n", text_[pos_]) && text_[pos_] != '\0')
      ++pos_;
  }
  char peek() {
    skip_ws();
    return pos_ < text_.size() ? text_[pos_] : '\0';
  }
  bool eat(char c) {
    if (peek() != c || pos_ >= text_.size()) return false;
    ++pos_;
    return true;
  }

  PyValue value(int depth) {
    if (depth > kMaxDepth) bad("nesting too deep");
    char c = peek();
    if (pos_ >= text_.size()) bad("unexpected end");
    if (c == '\'' || c == '"') return string();
    if (c == '-' || (c >= '0' && c <= '9')) return number();
    if (c == '(') return tuple(depth);
    if (c == '[') return sequence(']', PyValue::Kind::List, depth);
    if (c == '{') return dict(depth);
    return word();
  }

  PyValue string() {
    char quote = text_[pos_++];
    PyValue v;
    while (pos_ < text_.size() && text_[pos_] != quote) {
      char c = text_[pos_++];
      if (c == '\\' && pos_ < text_.size()) {
        char e = text_[pos_++];
        if (e != '\\' && e != '\'' && e != '"') v.str += '\\';
        c = e;
      }
      v.str += c;
    }
    if (pos_ >= text_.size()) bad("unterminated string");
    ++pos_;
    return v;
  }

  PyValue number() {
    PyValue v;
    v.kind = PyValue::Kind::Int;
    bool negative = text_[pos_] == '-';
    if (negative) ++pos_;
    size_t start = pos_;
    uint64_t mag = 0;
    for (; pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9'; ++pos_)
      if (__builtin_mul_overflow(mag, 10u, &mag) ||
          __builtin_add_overflow(mag, uint64_t(text_[pos_] - '0'), &mag) ||
          mag > uint64_t(INT64_MAX))
        bad("integer too large");
    if (pos_ == start) bad("expected a digit");
    if (pos_ < text_.size() && (text_[pos_] == 'L' || text_[pos_] == 'l')) ++pos_;
    v.num = negative ? -int64_t(mag) : int64_t(mag);
    return v;
  }

  PyValue word() {
    size_t start = pos_;
    while (pos_ < text_.size() && std::isalnum(static_cast<unsigned char>(text_[pos_])))
      ++pos_;
    std::string_view w = text_.substr(start, pos_ - start);
    if (w != "True" && w != "False") {
      pos_ = start;
      bad(w.empty() ? "unexpected character '" + printable(text_.substr(pos_, 1)) + "'"
                    : "unexpected word '" + printable(w) + "'");
    }
    PyValue v;
    v.kind = PyValue::Kind::Bool;
    v.num = w == "True";
    return v;
  }

  // `(x)` is x itself in Python; `()`, `(x,)` and `(x, y)` are tuples.
  PyValue tuple(int depth) {
    ++pos_;
    if (eat(')')) return PyValue{PyValue::Kind::Tuple, {}, 0, {}, {}};
    PyValue first = value(depth + 1);
    if (eat(')')) return first;
    if (!eat(',')) bad("expected ',' or ')'");
    PyValue rest = sequence_tail(')', PyValue::Kind::Tuple, depth);
    rest.items.insert(rest.items.begin(), std::move(first));
    return rest;
  }

  PyValue sequence(char close, PyValue::Kind kind, int depth) {
    ++pos_;
    return sequence_tail(close, kind, depth);
  }

  // Items up to `close`, each followed by ',' except possibly the last.
  PyValue sequence_tail(char close, PyValue::Kind kind, int depth) {
    PyValue v;
    v.kind = kind;
    while (!eat(close)) {
      v.items.push_back(value(depth + 1));
      if (eat(',')) continue;
      if (peek() != close) bad(std::string("expected ',' or '") + close + "'");
    }
    return v;
  }

  PyValue dict(int depth) {
    ++pos_;
    PyValue v;
    v.kind = PyValue::Kind::Dict;
    while (!eat('}')) {
      if (peek() != '\'' && peek() != '"') bad("dict keys must be strings");
      v.keys.push_back(string().str);
      if (!eat(':')) bad("expected ':'");
      v.items.push_back(value(depth + 1));
      if (eat(',')) continue;
      if (peek() != '}') bad("expected ',' or '}'");
    }
    return v;
  }

  std::string_view text_;
  const std::string& what_;
  size_t pos_ = 0;
};

// ---------------------------------------------------------------------------
// dtypes and record layouts

struct DtypeName {
  std::string_view code; // letter and size, e.g. "i4"
  ScalarKind kind;
};
constexpr std::array<DtypeName, kNumScalarKinds> kDtypes = {{
    {"b1", ScalarKind::Bool},
    {"i1", ScalarKind::I8},
    {"i2", ScalarKind::I16},
    {"i4", ScalarKind::I32},
    {"i8", ScalarKind::I64},
    {"u1", ScalarKind::U8},
    {"u2", ScalarKind::U16},
    {"u4", ScalarKind::U32},
    {"u8", ScalarKind::U64},
    {"f4", ScalarKind::F32},
    {"f8", ScalarKind::F64},
}};

// NumPy's name of a scalar kind: '|' for one-byte kinds, '<' otherwise.
std::string dtype_name(ScalarKind k) {
  for (const DtypeName& d : kDtypes)
    if (d.kind == k) return (scalar_size(k) == 1 ? "|" : "<") + std::string(d.code);
  __builtin_unreachable();
}

ScalarKind parse_scalar_dtype(std::string_view s, const std::string& what) {
  std::optional<ScalarKind> kind;
  if (s.size() >= 2 && std::strchr("<>|=", s[0]) && s[0] != '\0')
    for (const DtypeName& d : kDtypes)
      if (s.substr(1) == d.code) kind = d.kind;
  if (!kind) fail(what, "unsupported dtype '" + printable(s) + "'");
  if (scalar_size(*kind) == 1) return *kind;
  if (s[0] == '>') fail(what, "big-endian dtype '" + printable(s) + "' not supported");
  if (s[0] == '|') fail(what, "unsupported dtype '" + printable(s) + "'");
  return *kind;
}

// The size of a void dtype such as '|V4' (NumPy's padding fields), if it is one.
std::optional<uint64_t> void_size(std::string_view s) {
  if (!s.empty() && std::strchr("<>|=", s[0]) && s[0] != '\0') s.remove_prefix(1);
  if (s.size() < 2 || s[0] != 'V' || s.size() > 11) return std::nullopt;
  uint64_t n = 0;
  for (char c : s.substr(1)) {
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + uint64_t(c - '0');
  }
  return n;
}

Type layout_of_descr(const PyValue& d, Layout& lay, const std::string& what);

Type layout_of_fields(const PyValue& list, Layout& lay, const std::string& what) {
  std::vector<Type> fields;
  for (const PyValue& f : list.items) {
    if (f.kind == PyValue::Kind::Tuple && f.items.size() == 3)
      fail(what, "subarray field '" + printable(f.items[0].str) + "' not supported");
    if (f.kind != PyValue::Kind::Tuple || f.items.size() != 2)
      fail(what, "malformed header: a structured dtype field must be a (name, dtype) pair");
    if (f.items[0].kind != PyValue::Kind::Str)
      fail(what, "malformed header: field names must be strings (titles are not supported)");
    const PyValue& dt = f.items[1];
    std::optional<uint64_t> pad =
        dt.kind == PyValue::Kind::Str ? void_size(dt.str) : std::optional<uint64_t>{};
    if (f.items[0].str.empty() && pad) {
      if (*pad > kMaxVoidPad) fail(what, "padding field '" + printable(dt.str) + "' too large");
      lay.itemsize += *pad;
      continue;
    }
    fields.push_back(layout_of_descr(dt, lay, what));
  }
  if (fields.empty())
    fail(what, "structured dtype with no fields (unit tuple element) not supported");
  return Type::tuple(std::move(fields));
}

Type layout_of_descr(const PyValue& d, Layout& lay, const std::string& what) {
  switch (d.kind) {
  case PyValue::Kind::Str: {
    ScalarKind k = parse_scalar_dtype(d.str, what);
    lay.kinds.push_back(k);
    lay.offsets.push_back(lay.itemsize);
    lay.itemsize += scalar_size(k);
    return Type::scalar(k);
  }
  case PyValue::Kind::List: return layout_of_fields(d, lay, what);
  case PyValue::Kind::Dict:
    fail(what, "dict-form dtype descriptors (names/formats/offsets) not supported; "
               "use a packed list-form structured dtype");
  default: fail(what, "malformed header: 'descr' must be a dtype string or a list of fields");
  }
}

// The packed layout Strata writes: leaves in order, no padding.
Layout packed_layout(const Type& elem) {
  Layout lay;
  lay.type = elem;
  lay.kinds = elem.leaves();
  for (ScalarKind k : lay.kinds) {
    lay.offsets.push_back(lay.itemsize);
    lay.itemsize += scalar_size(k);
  }
  return lay;
}

// ---------------------------------------------------------------------------
// The header dict as a whole

const PyValue& dict_entry(const PyValue& dict, std::string_view key, const std::string& what) {
  for (size_t i = 0; i < dict.keys.size(); ++i)
    if (dict.keys[i] == key) return dict.items[i];
  fail(what, "malformed header: missing key '" + std::string(key) + "'");
}

void check_keys(const PyValue& dict, const std::string& what) {
  if (dict.kind != PyValue::Kind::Dict) fail(what, "malformed header: not a dict");
  for (size_t i = 0; i < dict.keys.size(); ++i) {
    const std::string& k = dict.keys[i];
    if (k != "descr" && k != "fortran_order" && k != "shape")
      fail(what, "malformed header: unexpected key '" + printable(k) + "'");
    if (std::count(dict.keys.begin(), dict.keys.end(), k) > 1)
      fail(what, "malformed header: duplicate key '" + printable(k) + "'");
  }
}

Shape shape_of(const PyValue& v, const std::string& what) {
  if (v.kind != PyValue::Kind::Tuple) fail(what, "malformed header: 'shape' must be a tuple");
  Shape sh;
  for (const PyValue& d : v.items) {
    if (d.kind != PyValue::Kind::Int)
      fail(what, "malformed header: 'shape' must be a tuple of integers");
    sh.push_back(d.num);
  }
  for (int64_t d : sh)
    if (d < 0) fail(what, "malformed header: negative dimension in shape " + shape_str(sh));
  return sh;
}

// Fortran and C order store the same bytes when at most one extent exceeds 1.
bool same_in_both_orders(const Shape& sh, int64_t count) {
  return count == 0 || std::count_if(sh.begin(), sh.end(), [](int64_t d) { return d > 1; }) <= 1;
}

Header parse_header(std::string_view text, const std::string& what) {
  PyValue dict = LiteralParser(text, what).parse_all();
  check_keys(dict, what);
  Header h;
  h.shape = shape_of(dict_entry(dict, "shape", what), what);
  const PyValue& fortran = dict_entry(dict, "fortran_order", what);
  if (fortran.kind != PyValue::Kind::Bool)
    fail(what, "malformed header: 'fortran_order' must be True or False");
  h.layout.type = layout_of_descr(dict_entry(dict, "descr", what), h.layout, what);
  try {
    h.count = shape_size(h.shape);
  } catch (const Error&) {
    fail(what, "shape " + shape_str(h.shape) + " has too many elements");
  }
  if (__builtin_mul_overflow(uint64_t(h.count), uint64_t(h.layout.itemsize), &h.data_bytes))
    fail(what, "shape " + shape_str(h.shape) + " has too many bytes");
  if (fortran.num && !same_in_both_orders(h.shape, h.count))
    fail(what, "Fortran-order data of shape " + shape_str(h.shape) +
                   " not supported (save a C-order array, e.g. np.ascontiguousarray)");
  return h;
}

// ---------------------------------------------------------------------------
// The fixed part before the header: magic, version, header length

// `first` holds the first 12 bytes of the file, or all of it when shorter.
Preamble parse_preamble(std::string_view first, const std::string& what) {
  if (first.empty()) fail(what, "not a .npy file (empty file)");
  size_t n = std::min(first.size(), kMagic.size());
  if (first.substr(0, n) != kMagic.substr(0, n)) fail(what, "not a .npy file (bad magic)");
  if (first.size() < 8) fail(what, "truncated header");
  Preamble p;
  p.major = static_cast<unsigned char>(first[6]);
  int minor = static_cast<unsigned char>(first[7]);
  if (p.major < 1 || p.major > 3 || minor != 0)
    fail(what, "unsupported .npy version " + std::to_string(p.major) + "." + std::to_string(minor));
  p.prefix_len = p.major == 1 ? 10 : 12;
  if (first.size() < p.prefix_len) fail(what, "truncated header");
  for (size_t i = p.prefix_len; i-- > 8;)
    p.header_len = p.header_len * 256 + static_cast<unsigned char>(first[i]);
  return p;
}

void check_header_present(const Preamble& p, uint64_t file_size, const std::string& what) {
  if (file_size - p.prefix_len < p.header_len)
    fail(what, "truncated header: expected " + std::to_string(p.header_len) +
                   " header bytes, found " + std::to_string(file_size - p.prefix_len));
}

void check_data_length(const Header& h, uint64_t available, const std::string& what) {
  if (available < h.data_bytes)
    fail(what, "truncated data: expected " + std::to_string(h.data_bytes) + " bytes, found " +
                   std::to_string(available));
  if (available > h.data_bytes)
    fail(what, std::to_string(available - h.data_bytes) +
                   " unexpected bytes after the data (expected " + std::to_string(h.data_bytes) +
                   " data bytes)");
}

// ---------------------------------------------------------------------------
// Converting between interleaved records and struct-of-arrays leaves

// Copies n items of N bytes between two strided byte sequences.
template <size_t N>
void copy_strided_n(std::byte* dst, size_t dst_stride, const std::byte* src, size_t src_stride,
                    int64_t n) {
  for (int64_t i = 0; i < n; ++i)
    std::memcpy(dst + size_t(i) * dst_stride, src + size_t(i) * src_stride, N);
}

void copy_strided(std::byte* dst, size_t dst_stride, const std::byte* src, size_t src_stride,
                  int64_t n, size_t size) {
  if (dst_stride == size && src_stride == size) {
    if (n > 0) std::memcpy(dst, src, size_t(n) * size);
    return;
  }
  switch (size) {
  case 1: return copy_strided_n<1>(dst, dst_stride, src, src_stride, n);
  case 2: return copy_strided_n<2>(dst, dst_stride, src, src_stride, n);
  case 4: return copy_strided_n<4>(dst, dst_stride, src, src_stride, n);
  default: return copy_strided_n<8>(dst, dst_stride, src, src_stride, n);
  }
}

void check_bools(const std::byte* p, int64_t first, int64_t n, const std::string& what) {
  for (int64_t i = 0; i < n; ++i) {
    auto b = static_cast<unsigned>(p[i]);
    if (b > 1) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "0x%02x", b);
      fail(what,
           std::string("invalid bool byte ") + buf + " at element " + std::to_string(first + i));
    }
  }
}

void scatter_records(const std::byte* src, int64_t first, int64_t n, const Layout& lay,
                     const Array& a, const std::string& what, int64_t file_first) {
  for (size_t l = 0; l < lay.kinds.size(); ++l) {
    size_t sz = scalar_size(lay.kinds[l]);
    std::byte* dst = a.leaf(l).data() + size_t(first) * sz;
    copy_strided(dst, sz, src + lay.offsets[l], lay.itemsize, n, sz);
    if (lay.kinds[l] == ScalarKind::Bool) check_bools(dst, file_first + first, n, what);
  }
}

void gather_records(std::byte* dst, int64_t first, int64_t n, const Layout& lay, const Array& a) {
  for (size_t l = 0; l < lay.kinds.size(); ++l) {
    size_t sz = scalar_size(lay.kinds[l]);
    const std::byte* src = a.leaf(l).data() + size_t(first) * sz;
    copy_strided(dst + lay.offsets[l], lay.itemsize, src, sz, n, sz);
  }
}

int64_t records_per_chunk(size_t itemsize) {
  return int64_t(std::max<size_t>(1, kChunkBytes / std::max<size_t>(1, itemsize)));
}

// ---------------------------------------------------------------------------
// Writing

bool has_unit(const Type& t) {
  if (t.is_scalar()) return false;
  if (t.elems().empty()) return true;
  return std::any_of(t.elems().begin(), t.elems().end(), has_unit);
}

std::string descr_of(const Type& t) {
  if (t.is_scalar()) return "'" + dtype_name(t.scalar_kind()) + "'";
  std::string s = "[";
  for (size_t i = 0; i < t.elems().size(); ++i)
    s += (i ? ", ('f" : "('f") + std::to_string(i) + "', " + descr_of(t.elems()[i]) + ")";
  return s + "]";
}

// Python's repr of a tuple of ints: (), (3,), (2, 3).
std::string shape_repr(const Shape& sh) {
  std::string s = "(";
  for (size_t i = 0; i < sh.size(); ++i)
    s += (i ? ", " : "") + std::to_string(sh[i]);
  return s + (sh.size() == 1 ? ",)" : ")");
}

// The header dict text exactly as NumPy writes it (keys sorted, growth room).
std::string header_dict(const Type& elem, const Shape& shape) {
  std::string s = "{'descr': " + descr_of(elem) +
                  ", 'fortran_order': False, 'shape': " + shape_repr(shape) + ", }";
  if (!shape.empty()) s += std::string(kGrowthDigits - std::to_string(shape[0]).size(), ' ');
  return s;
}

// Magic, version, length and padded header: 1.0 when the length fits 16 bits.
std::string header_bytes(const Type& elem, const Shape& shape, const std::string& what) {
  if (has_unit(elem))
    fail(what,
         "cannot write element type " + elem.str() + " as .npy: unit tuples have no NumPy dtype");
  std::string dict = header_dict(elem, shape);
  for (int major : {1, 2}) {
    size_t prefix = major == 1 ? 10 : 12;
    size_t hlen = dict.size() + 1;
    size_t total = hlen + kAlign - (prefix + hlen) % kAlign; // NumPy pads 1..64 bytes
    if (major == 1 && total > 0xffff) continue;
    std::string out(kMagic);
    out += char(major);
    out += '\0';
    for (size_t i = 0; i < prefix - 8; ++i)
      out += char((total >> (8 * i)) & 0xff);
    out += dict;
    out.append(total - hlen, ' ');
    return out + '\n';
  }
  fail(what, "header too large");
}

// Calls sink(bytes, n) with the data section, a chunk at a time.
template <class Sink> void emit_data(const Array& a, Sink&& sink) {
  if (a.elem_type().is_scalar()) {
    sink(a.leaf(0).data(), a.leaf(0).bytes());
    return;
  }
  Layout lay = packed_layout(a.elem_type());
  int64_t chunk = records_per_chunk(lay.itemsize);
  std::vector<std::byte> buf(size_t(std::min(chunk, a.size())) * lay.itemsize);
  for (int64_t first = 0; first < a.size(); first += chunk) {
    int64_t n = std::min(chunk, a.size() - first);
    gather_records(buf.data(), first, n, lay, a);
    sink(buf.data(), size_t(n) * lay.itemsize);
  }
}

// ---------------------------------------------------------------------------
// Files

std::string errno_text() {
  return std::strerror(errno);
}

File open_for_reading(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) fail(path, "cannot read: is a directory");
  File f(std::fopen(path.c_str(), "rb"));
  if (!f) fail(path, "cannot open: " + errno_text());
  return f;
}

std::optional<uint64_t> file_size(std::FILE* f) {
  if (fseeko(f, 0, SEEK_END) != 0) return std::nullopt;
  off_t size = ftello(f);
  if (size < 0 || fseeko(f, 0, SEEK_SET) != 0) return std::nullopt;
  return uint64_t(size);
}

void read_exact(std::FILE* f, void* dst, size_t n, const std::string& what) {
  if (n > 0 && std::fread(dst, 1, n, f) != n)
    fail(what, std::ferror(f) ? "read error: " + errno_text() : "file shrank while being read");
}

std::string read_all(std::FILE* f, const std::string& what) {
  std::string bytes;
  char buf[1 << 16];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0)
    bytes.append(buf, n);
  if (std::ferror(f)) fail(what, "read error: " + errno_text());
  return bytes;
}

Header read_header(std::FILE* f, uint64_t size, const std::string& what, uint64_t* data_at) {
  std::string first(size_t(std::min<uint64_t>(size, 12)), '\0');
  read_exact(f, first.data(), first.size(), what);
  Preamble p = parse_preamble(first, what);
  check_header_present(p, size, what);
  std::string text(size_t(p.header_len), '\0');
  if (fseeko(f, off_t(p.prefix_len), SEEK_SET) != 0) fail(what, "seek error: " + errno_text());
  read_exact(f, text.data(), text.size(), what);
  Header h = parse_header(text, what);
  *data_at = p.prefix_len + p.header_len;
  check_data_length(h, size - *data_at, what);
  return h;
}

// Reads the data section straight into the leaves of a freshly allocated array.
Array read_data(std::FILE* f, const Header& h, const std::string& what) {
  Array a = Array::allocate(h.layout.type, h.shape);
  const Layout& lay = h.layout;
  if (lay.type.is_scalar()) {
    read_exact(f, a.leaf(0).data(), size_t(h.data_bytes), what);
    if (lay.kinds[0] == ScalarKind::Bool) check_bools(a.leaf(0).data(), 0, a.size(), what);
    return a;
  }
  int64_t chunk = records_per_chunk(lay.itemsize);
  std::vector<std::byte> buf(size_t(std::min(chunk, a.size())) * lay.itemsize);
  for (int64_t first = 0; first < a.size(); first += chunk) {
    int64_t n = std::min(chunk, a.size() - first);
    read_exact(f, buf.data(), size_t(n) * lay.itemsize, what);
    scatter_records(buf.data(), first, n, lay, a, what);
  }
  return a;
}

} // namespace strata::npy_detail

namespace strata {
using namespace npy_detail;

Array parse_npy(std::string_view bytes, const std::string& what) {
  Preamble p = parse_preamble(bytes.substr(0, 12), what);
  check_header_present(p, bytes.size(), what);
  Header h = parse_header(bytes.substr(p.prefix_len, size_t(p.header_len)), what);
  size_t data_at = p.prefix_len + size_t(p.header_len);
  check_data_length(h, bytes.size() - data_at, what);
  Array a = Array::allocate(h.layout.type, h.shape);
  const auto* data = reinterpret_cast<const std::byte*>(bytes.data() + data_at);
  scatter_records(data, 0, a.size(), h.layout, a, what);
  return a;
}

Array read_npy(const std::string& path) {
  File f = open_for_reading(path);
  std::optional<uint64_t> size = file_size(f.get());
  if (!size) return parse_npy(read_all(f.get(), path), path);
  uint64_t data_at = 0;
  Header h = read_header(f.get(), *size, path, &data_at);
  return read_data(f.get(), h, path);
}

std::string encode_npy(const Array& a) {
  std::string out = header_bytes(a.elem_type(), a.shape(), "encode_npy");
  emit_data(a,
            [&](const std::byte* p, size_t n) { out.append(reinterpret_cast<const char*>(p), n); });
  return out;
}

namespace {

void write_into(AtomicFile& f, const Array& a) {
  f.write(header_bytes(a.elem_type(), a.shape(), f.path()));
  emit_data(a, [&](const std::byte* p, size_t n) { f.write(p, n); });
}

} // namespace

void write_npy(const std::string& path, const Array& a) {
  AtomicFile f(path); // whole or not at all: a failure leaves no partial file
  write_into(f, a);
  f.commit();
}

void write_npy_set(const std::vector<std::string>& paths, const std::vector<Array>& arrays) {
  // A rename over a directory would fail after others had been renamed.
  for (const std::string& p : paths)
    if (std::filesystem::is_directory(p))
      throw Error(ErrorKind::Input, p + ": is a directory, not a .npy file");
  std::vector<std::unique_ptr<AtomicFile>> files;
  for (size_t i = 0; i < paths.size(); ++i) {
    files.push_back(std::make_unique<AtomicFile>(paths[i]));
    write_into(*files.back(), arrays.at(i));
    files.back()->finish();
  }
  for (auto& f : files)
    f->commit();
}

} // namespace strata
