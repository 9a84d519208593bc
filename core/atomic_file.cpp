#include "core/atomic_file.h"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <unistd.h>

#include "core/error.h"

namespace strata {
namespace fs = std::filesystem;

std::string temp_path_beside(const std::string& path) {
  static std::atomic<uint64_t> counter{0};
  fs::path p(path);
  std::string name = "." + p.filename().string() + ".tmp-" + std::to_string(::getpid()) + "-" +
                     std::to_string(counter++);
  return (p.parent_path() / name).string();
}

void replace_with_temp(const std::string& temp, const std::string& path) {
  std::error_code ec;
  fs::perms perms = fs::status(path, ec).permissions();
  if (!ec && perms != fs::perms::unknown) fs::permissions(temp, perms, ec);
  if (std::rename(temp.c_str(), path.c_str()) != 0)
    throw Error(ErrorKind::Input, path + ": cannot replace: " + std::strerror(errno));
}

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)), temp_(temp_path_beside(path_)) {
  file_ = std::fopen(temp_.c_str(), "wb");
  if (!file_) fail(std::string("cannot open for writing: ") + std::strerror(errno));
}

AtomicFile::~AtomicFile() {
  if (file_) std::fclose(file_);
  if (!temp_.empty()) std::remove(temp_.c_str());
}

void AtomicFile::fail(const std::string& why) {
  throw Error(ErrorKind::Input, path_ + ": " + why);
}

void AtomicFile::write(const void* data, size_t bytes) {
  if (bytes != 0 && std::fwrite(data, 1, bytes, file_) != bytes)
    fail(std::string("write error: ") + std::strerror(errno));
}

void AtomicFile::commit() {
  if (std::fflush(file_) != 0 || ::fsync(::fileno(file_)) != 0)
    fail(std::string("write error: ") + std::strerror(errno));
  int closed = std::fclose(file_);
  file_ = nullptr;
  if (closed != 0) fail(std::string("write error: ") + std::strerror(errno));
  replace_with_temp(temp_, path_);
  temp_.clear();
}

void write_file_atomically(const std::string& path, std::string_view contents) {
  AtomicFile f(path);
  f.write(contents);
  f.commit();
}

} // namespace strata
