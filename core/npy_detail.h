// The parts of the `.npy` format (core/npy.h) that the whole-file and the
// by-rows readers and writers share (core/npy.cpp, core/npy_rows.cpp): the
// header, the record layout, and converting records to and from leaves.
// Every failure is an Error(Input) "what: problem".
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/array.h"

namespace strata::npy_detail {

// Where each scalar leaf of the element type sits inside one file record.
struct Layout {
  Type type;
  std::vector<ScalarKind> kinds;
  std::vector<size_t> offsets;
  size_t itemsize = 0;
};

// The header dict, checked.
struct Header {
  Layout layout;
  Shape shape;
  int64_t count = 0;       // number of elements
  uint64_t data_bytes = 0; // count * itemsize
};

// The fixed part before the header: magic, version, header length.
struct Preamble {
  int major = 1;
  size_t prefix_len = 10; // magic + version + header length
  uint64_t header_len = 0;
};

[[noreturn]] void fail(const std::string& what, const std::string& msg);

// The header of the seekable file `f` of `size` bytes, read from its start,
// its data length checked against the size; *data_at: where the data start.
Header read_header(std::FILE* f, uint64_t size, const std::string& what, uint64_t* data_at);

// The packed layout Strata writes: leaves in order, no padding.
Layout packed_layout(const Type& elem);
// Magic, version, length and padded header of an array of `elem` and `shape`,
// exactly as NumPy writes it.
std::string header_bytes(const Type& elem, const Shape& shape, const std::string& what);

// Scatters records [first, first+n) from `src` into the leaves of `a`
// (checking bool bytes; a bad one is named as element file_first + its index
// in `a`).
void scatter_records(const std::byte* src, int64_t first, int64_t n, const Layout& lay,
                     const Array& a, const std::string& what, int64_t file_first = 0);
// Gathers elements [first, first+n) of `a` into packed records at `dst`.
void gather_records(std::byte* dst, int64_t first, int64_t n, const Layout& lay, const Array& a);
// How many records to convert at a time (about 1 MiB).
int64_t records_per_chunk(size_t itemsize);

std::string errno_text();

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;
// The file open for reading; an error naming it (a directory, cannot open).
File open_for_reading(const std::string& path);
// The file's size, or nothing when it cannot seek (a pipe).
std::optional<uint64_t> file_size(std::FILE* f);

} // namespace strata::npy_detail
