#include "core/npy_rows.h"

#include <algorithm>
#include <cerrno>
#include <fcntl.h>
#include <unistd.h>
#include <vector>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/npy_detail.h"

namespace strata {
using namespace npy_detail;

namespace {

int64_t row_elements(const Shape& shape) {
  int64_t n = 1;
  for (size_t d = 1; d < shape.size(); ++d)
    n *= shape[d];
  return n;
}

Shape rows_shape(const Shape& shape, int64_t count) {
  Shape s = shape;
  if (!s.empty()) s[0] = count;
  return s;
}

void check_rows(const std::string& what, const Shape& shape, int64_t lo, int64_t hi) {
  int64_t rows = shape.empty() ? 1 : shape[0];
  if (lo < 0 || lo > hi || hi > rows)
    fail(what, "rows [" + std::to_string(lo) + ", " + std::to_string(hi) +
                   ") are outside an array of shape " + shape_str(shape));
}

// A file descriptor closed when it goes out of scope.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

void read_at(int fd, std::byte* dst, size_t n, uint64_t at, const std::string& what) {
  while (n > 0) {
    ssize_t got = ::pread(fd, dst, n, off_t(at));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) fail(what, "read error: " + errno_text());
    if (got == 0) fail(what, "file shrank while being read");
    dst += got;
    n -= size_t(got);
    at += uint64_t(got);
  }
}

void write_at(int fd, const std::byte* src, size_t n, uint64_t at, const std::string& what) {
  while (n > 0) {
    ssize_t put = ::pwrite(fd, src, n, off_t(at));
    if (put < 0 && errno == EINTR) continue;
    if (put <= 0) fail(what, "write error: " + errno_text());
    src += put;
    n -= size_t(put);
    at += uint64_t(put);
  }
}

} // namespace

// ------------------------------------------------------------------ reading

NpyRowsReader::NpyRowsReader(std::string path)
    : path_(std::move(path)), bytes_read_(std::make_shared<std::atomic<uint64_t>>(0)) {
  File f = open_for_reading(path_);
  std::optional<uint64_t> size = file_size(f.get());
  if (!size) fail(path_, "cannot read by rows: not a regular file");
  header_ = std::make_shared<const Header>(read_header(f.get(), *size, path_, &data_at_));
}

const Type& NpyRowsReader::elem() const {
  return header_->layout.type;
}
const Shape& NpyRowsReader::shape() const {
  return header_->shape;
}

Array NpyRowsReader::read(int64_t lo, int64_t hi) const {
  check_rows(path_, shape(), lo, hi);
  const Layout& lay = header_->layout;
  Array a = Array::allocate(lay.type, rows_shape(shape(), hi - lo), false);
  int64_t first = lo * row_elements(shape()); // the first record read
  Fd fd{::open(path_.c_str(), O_RDONLY | O_CLOEXEC)};
  if (fd.fd < 0) fail(path_, "cannot open: " + errno_text());
  int64_t chunk = records_per_chunk(lay.itemsize);
  std::vector<std::byte> buf(size_t(std::min(chunk, a.size())) * lay.itemsize);
  for (int64_t done = 0; done < a.size(); done += chunk) {
    int64_t n = std::min(chunk, a.size() - done);
    read_at(fd.fd, buf.data(), size_t(n) * lay.itemsize,
            data_at_ + uint64_t(first + done) * lay.itemsize, path_);
    scatter_records(buf.data(), done, n, lay, a, path_, first);
  }
  *bytes_read_ += uint64_t(a.size()) * lay.itemsize;
  return a;
}

// ------------------------------------------------------------------ writing

NpyRowsWriter::NpyRowsWriter(std::string path, std::string temp, Type elem, Shape shape, bool owner)
    : path_(std::move(path)), temp_(std::move(temp)), elem_(std::move(elem)),
      shape_(std::move(shape)), owner_(owner) {
  data_at_ = header_bytes(elem_, shape_, path_).size();
}

NpyRowsWriter::NpyRowsWriter(NpyRowsWriter&& o) noexcept
    : path_(std::move(o.path_)), temp_(std::move(o.temp_)), elem_(std::move(o.elem_)),
      shape_(std::move(o.shape_)), data_at_(o.data_at_), owner_(o.owner_),
      on_signal_(std::move(o.on_signal_)) {
  o.owner_ = false;
}

NpyRowsWriter::~NpyRowsWriter() {
  if (owner_) ::unlink(temp_.c_str()); // on_signal_ is released after this
}

NpyRowsWriter NpyRowsWriter::create(const std::string& path, const Type& elem, const Shape& shape) {
  std::string header = header_bytes(elem, shape, path);
  uint64_t data = 0;
  for (ScalarKind k : elem.leaves())
    data += Array::leaf_bytes(shape, k);
  std::string target = write_target(path); // through a link; never splitting hard links
  NpyRowsWriter w(target, temp_path_beside(target), elem, shape, true);
  w.on_signal_ = TempOnSignal(w.temp_);
  Fd fd{::open(w.temp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666)};
  if (fd.fd < 0) {
    w.owner_ = false;
    fail(path, "cannot open for writing: " + errno_text());
  }
  write_at(fd.fd, reinterpret_cast<const std::byte*>(header.data()), header.size(), 0, path);
  if (::ftruncate(fd.fd, off_t(header.size() + data)) != 0)
    fail(path, "cannot make room for " + std::to_string(data) + " bytes: " + errno_text());
  return w;
}

NpyRowsWriter NpyRowsWriter::open(const std::string& path, const std::string& temp,
                                  const Type& elem, const Shape& shape) {
  return NpyRowsWriter(path, temp, elem, shape, false);
}

void NpyRowsWriter::write(int64_t lo, const Array& rows) const {
  int64_t count = rows.rank() == 0 ? 1 : rows.shape()[0];
  check_rows(path_, shape_, lo, lo + count);
  if (rows.elem_type() != elem_ || rows_shape(shape_, count) != rows.shape())
    fail(path_, "rows of another type or shape than the file's");
  Fd fd{::open(temp_.c_str(), O_WRONLY | O_CLOEXEC)};
  if (fd.fd < 0) fail(path_, "cannot open for writing: " + errno_text());
  Layout lay = packed_layout(elem_);
  uint64_t at = data_at_ + uint64_t(lo * row_elements(shape_)) * lay.itemsize;
  int64_t chunk = records_per_chunk(lay.itemsize);
  std::vector<std::byte> buf(size_t(std::min(chunk, rows.size())) * lay.itemsize);
  for (int64_t done = 0; done < rows.size(); done += chunk) {
    int64_t n = std::min(chunk, rows.size() - done);
    gather_records(buf.data(), done, n, lay, rows);
    write_at(fd.fd, buf.data(), size_t(n) * lay.itemsize, at + uint64_t(done) * lay.itemsize,
             path_);
  }
  if (::fsync(fd.fd) != 0) fail(path_, "write error: " + errno_text());
}

void NpyRowsWriter::commit() {
  if (!owner_) fail(path_, "only the writer that created the file commits it");
  replace_with_temp(temp_, path_);
  owner_ = false;
  on_signal_.release();
}

} // namespace strata
