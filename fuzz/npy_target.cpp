// libFuzzer target: the .npy readers (core/npy.h, core/npy_rows.h).
//
// Feeds the input bytes, as a whole .npy file, to all three readers:
// parse_npy (bytes in memory), read_npy and NpyRowsReader (a file: the bytes
// are written to an in-memory file, memfd_create, opened by its
// /proc/self/fd path, so no disk is touched). NpyRowsReader reads all rows,
// then a middle range of rows.
//
// Expected, not a finding: strata::Error (a malformed file: Error(Input), or
// Error(Resource) for an array too large to allocate). A finding: a crash, an
// AddressSanitizer or UBSan report, any other exception escaping (it aborts),
// a hang past -timeout, memory past -rss_limit_mb, or the readers disagreeing:
// one accepts the bytes and another rejects them, or they return arrays that
// differ (strata::identical), which is reported on stderr, then abort().
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "core/array.h"
#include "core/error.h"
#include "core/npy.h"
#include "core/npy_rows.h"

namespace {

// One in-memory file for the whole run, rewritten for each input.
struct MemFile {
  int fd = -1;
  std::string path;
  MemFile() {
    fd = ::memfd_create("strata-fuzz.npy", 0);
    if (fd < 0) {
      std::perror("npy_target: memfd_create");
      std::abort();
    }
    path = "/proc/self/fd/" + std::to_string(fd);
  }
  void write(const uint8_t* data, size_t size) const {
    if (::ftruncate(fd, 0) != 0) std::abort();
    size_t done = 0;
    while (done < size) {
      ssize_t n = ::pwrite(fd, data + done, size - done, off_t(done));
      if (n <= 0) std::abort();
      done += size_t(n);
    }
  }
};

template <class F> std::optional<strata::Array> attempt(F&& f) {
  try {
    return f();
  } catch (const strata::Error&) {
    return std::nullopt;
  }
}

[[noreturn]] void finding(const char* what) {
  std::fprintf(stderr, "npy_target: %s\n", what);
  std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const MemFile file;
  std::string_view bytes(reinterpret_cast<const char*>(data), size);

  std::optional<strata::Array> parsed =
      attempt([&] { return strata::parse_npy(bytes, "fuzz.npy"); });

  file.write(data, size);
  std::optional<strata::Array> read = attempt([&] { return strata::read_npy(file.path); });

  std::optional<strata::Array> rows;
  try {
    strata::NpyRowsReader reader(file.path);
    rows = reader.read_all();
    int64_t n = reader.rows();
    (void)reader.read(n / 3, n - n / 3);
    (void)reader.read(n, n);
  } catch (const strata::Error&) {
  }

  if (parsed.has_value() != read.has_value())
    finding(parsed ? "parse_npy accepts what read_npy rejects"
                   : "read_npy accepts what parse_npy rejects");
  if (parsed.has_value() != rows.has_value())
    finding(parsed ? "parse_npy accepts what NpyRowsReader rejects"
                   : "NpyRowsReader accepts what parse_npy rejects");
  if (parsed && !strata::identical(*parsed, *read)) finding("parse_npy and read_npy differ");
  if (parsed && !strata::identical(*parsed, *rows)) finding("parse_npy and NpyRowsReader differ");
  return 0;
}
