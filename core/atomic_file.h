// Files written whole or not at all. The bytes go to a temporary file beside
// the target (same directory, so the rename cannot cross file systems); commit()
// flushes it to disk and renames it over the target, keeping an existing
// target's permissions. Until then the target is untouched, and an AtomicFile
// destroyed without commit() (an error, an exception) removes its temporary,
// as does a terminating signal (TempOnSignal below): a failure halfway never
// leaves a partial or truncated file, and a tool that rewrites a user's file
// never loses it. Every failure is an `input` error naming the target and
// the reason.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

namespace strata {

// A temporary file registered so that a terminating signal does not leave it
// behind. SIGINT (Ctrl-C), SIGTERM (what mpirun sends the other ranks when
// one dies), SIGHUP and SIGQUIT, for each of which the process has no handler
// of its own when the first temporary is registered, remove every registered
// temporary and then end the process as the signal would have (the exit
// status says which signal). Held from the temporary's creation to its rename
// or removal. The registry is fixed storage a signal handler may read: at
// most 64 temporaries at once, paths under 1024 bytes; others are removed by
// their owners only (not on a signal). SIGKILL cannot be caught.
class TempOnSignal {
public:
  TempOnSignal() = default;
  explicit TempOnSignal(const std::string& temp);
  TempOnSignal(TempOnSignal&& o) noexcept : slot_(o.slot_) { o.slot_ = -1; }
  TempOnSignal& operator=(TempOnSignal&& o) noexcept;
  TempOnSignal(const TempOnSignal&) = delete;
  ~TempOnSignal() { release(); }
  // Unregisters: the temporary was renamed or removed.
  void release();

private:
  int slot_ = -1;
};

class AtomicFile {
public:
  explicit AtomicFile(std::string path);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  void write(const void* data, size_t bytes);
  void write(std::string_view text) { write(text.data(), text.size()); }
  // Flushes the bytes written to disk and closes the temporary (the part of
  // commit() that can fail for want of space): a set of files is finished
  // first, then committed, so that none is replaced unless all are written.
  void finish();
  // Makes the target the bytes written (finishing first if needed); the
  // AtomicFile is done after it.
  void commit();

  const std::string& path() const { return path_; }

private:
  [[noreturn]] void fail(const std::string& why);
  std::string path_;
  std::string temp_;
  std::FILE* file_ = nullptr;
  TempOnSignal on_signal_;
};

// The file a write to `path` replaces: `path`, or for a symbolic link the
// file it names (the link stays a link). A file with several hard links is
// refused, an `input` error saying why: a rename would split them.
std::string write_target(const std::string& path);
// A fresh temporary name beside `path` (".NAME.tmp-PID-N"): no other writer,
// thread or process, uses it.
std::string temp_path_beside(const std::string& path);
// Renames the written and flushed `temp` over `path`, keeping an existing
// target's permissions; an `input` error naming `path` when it cannot.
void replace_with_temp(const std::string& temp, const std::string& path);

// `contents` as the whole of `path`, atomically (above).
void write_file_atomically(const std::string& path, std::string_view contents);

} // namespace strata
