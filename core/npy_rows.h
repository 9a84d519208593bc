// `.npy` files read and written by rows of their outermost dimension
// (docs/npy.md, "By rows"), for the processes of a distributed run that each
// hold some rows of an array (docs/mpi.md): none of them reads or writes a
// whole large array.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "core/array.h"
#include "core/atomic_file.h"

namespace strata {

namespace npy_detail {
struct Header;
}

// A `.npy` file opened for reading by rows: its header is read and checked
// at once (read_npy's errors: the data's length against the file's too);
// then any rows [lo, hi) are read alone, on any thread. A rank-0 array is one
// row.
class NpyRowsReader {
public:
  explicit NpyRowsReader(std::string path);
  const std::string& path() const { return path_; }
  const Type& elem() const;
  const Shape& shape() const;
  Type type() const { return Type::array(elem(), int(shape().size())); }
  int64_t rows() const { return shape().empty() ? 1 : shape()[0]; }
  // Rows [lo, hi) (0 <= lo <= hi <= rows()): an array of shape(), its
  // first extent hi - lo (a rank-0 array as it is).
  Array read(int64_t lo, int64_t hi) const;
  Array read_all() const { return read(0, rows()); }
  // The data bytes read so far, by this reader and its copies.
  uint64_t bytes_read() const { return *bytes_read_; }

private:
  std::string path_;
  std::shared_ptr<const npy_detail::Header> header_;
  uint64_t data_at_ = 0;
  std::shared_ptr<std::atomic<uint64_t>> bytes_read_;
};

// A `.npy` file written by rows by several writers at once (threads, or
// processes that share a file system), whole or not at all: one writer
// creates a temporary beside the target holding the header and the data's
// length (create); each writer, that one and others opening the same
// temporary (open), writes its rows where they go and flushes them; once
// all have written, the creator commits (renames it over the target, as
// core/atomic_file.h does). A creator destroyed without commit() removes the
// temporary: a failure anywhere leaves the target as it was and no partial
// file. Errors are `input` errors naming the target.
class NpyRowsWriter {
public:
  static NpyRowsWriter create(const std::string& path, const Type& elem, const Shape& shape);
  static NpyRowsWriter open(const std::string& path, const std::string& temp, const Type& elem,
                            const Shape& shape);
  NpyRowsWriter(NpyRowsWriter&& o) noexcept;
  NpyRowsWriter& operator=(NpyRowsWriter&&) = delete;
  NpyRowsWriter(const NpyRowsWriter&) = delete;
  ~NpyRowsWriter();

  const std::string& temp() const { return temp_; }
  // `rows` as rows [lo, lo + its first extent) of the file (a rank-0
  // array: the whole), flushed to disk.
  void write(int64_t lo, const Array& rows) const;
  void commit();

private:
  NpyRowsWriter(std::string path, std::string temp, Type elem, Shape shape, bool owner);
  std::string path_, temp_;
  Type elem_;
  Shape shape_;
  uint64_t data_at_ = 0;
  bool owner_ = false;
  TempOnSignal on_signal_; // the creator's: a terminating signal removes the temporary
};

} // namespace strata
