#include "core/atomic_file.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <unistd.h>

#include "core/error.h"

namespace strata {
namespace fs = std::filesystem;

// ------------------------------------------------------------- TempOnSignal
namespace {

// What the signal handler reads: fixed storage (a handler may neither
// allocate nor lock), each slot a path and its state, lock-free atomics.
enum SlotState : int { kFree = 0, kFilling = 1, kRegistered = 2 };
struct TempSlot {
  std::atomic<int> state{kFree};
  char path[1024];
};
TempSlot temp_slots[64];
static_assert(std::atomic<int>::is_always_lock_free, "read by a signal handler");

constexpr int kTerminatingSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

extern "C" void remove_temporaries_and_reraise(int sig) {
  int saved = errno;
  for (TempSlot& s : temp_slots)
    if (s.state.load() == kRegistered) ::unlink(s.path);
  errno = saved;
  // SA_RESETHAND made the action the default again, SA_NODEFER lets it
  // through now: the process ends as the signal would have ended it.
  ::raise(sig);
}

// Once per process: takes over the terminating signals that are at their
// default action (a program's own handler, e.g. the fuzz campaign's SIGINT,
// stays its own).
void install_handlers() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (int sig : kTerminatingSignals) {
      struct sigaction old {};
      if (::sigaction(sig, nullptr, &old) != 0) continue;
      if ((old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL) continue;
      struct sigaction sa {};
      sa.sa_handler = remove_temporaries_and_reraise;
      sigemptyset(&sa.sa_mask);
      sa.sa_flags = SA_RESETHAND | SA_NODEFER;
      ::sigaction(sig, &sa, nullptr);
    }
  });
}

} // namespace

TempOnSignal::TempOnSignal(const std::string& temp) {
  if (temp.size() >= sizeof(TempSlot::path)) return;
  install_handlers();
  for (int i = 0; i < int(std::size(temp_slots)); ++i) {
    int expected = kFree;
    if (!temp_slots[i].state.compare_exchange_strong(expected, kFilling)) continue;
    std::memcpy(temp_slots[i].path, temp.c_str(), temp.size() + 1);
    temp_slots[i].state.store(kRegistered);
    slot_ = i;
    return;
  }
}

TempOnSignal& TempOnSignal::operator=(TempOnSignal&& o) noexcept {
  if (this != &o) {
    release();
    slot_ = o.slot_;
    o.slot_ = -1;
  }
  return *this;
}

void TempOnSignal::release() {
  if (slot_ < 0) return;
  temp_slots[slot_].state.store(kFree);
  slot_ = -1;
}

// --------------------------------------------------------------- AtomicFile

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

std::string write_target(const std::string& path) {
  std::error_code ec;
  std::string target = path;
  if (fs::is_symlink(path, ec)) {
    // Through the link: the file it names is replaced, the link stays.
    target = fs::weakly_canonical(path, ec).string();
    if (ec) throw Error(ErrorKind::Input, path + ": cannot follow the link: " + ec.message());
  }
  uintmax_t links = fs::hard_link_count(target, ec);
  if (!ec && links > 1)
    throw Error(ErrorKind::Input,
                path + ": has " + std::to_string(links) +
                    " hard links; replacing it would leave the other names with the old "
                    "contents (write to another file, or copy it first)");
  return target;
}

AtomicFile::AtomicFile(std::string path)
    : path_(write_target(path)), temp_(temp_path_beside(path_)) {
  // Registered before the file exists: a signal in between removes nothing.
  on_signal_ = TempOnSignal(temp_);
  file_ = std::fopen(temp_.c_str(), "wb");
  if (!file_) fail(std::string("cannot open for writing: ") + std::strerror(errno));
}

AtomicFile::~AtomicFile() {
  if (file_) std::fclose(file_);
  if (!temp_.empty()) std::remove(temp_.c_str());
  // on_signal_ is released after this body: the temporary is gone by then.
}

void AtomicFile::fail(const std::string& why) {
  throw Error(ErrorKind::Input, path_ + ": " + why);
}

void AtomicFile::write(const void* data, size_t bytes) {
  if (bytes != 0 && std::fwrite(data, 1, bytes, file_) != bytes)
    fail(std::string("write error: ") + std::strerror(errno));
}

void AtomicFile::finish() {
  if (!file_) return;
  if (std::fflush(file_) != 0 || ::fsync(::fileno(file_)) != 0)
    fail(std::string("write error: ") + std::strerror(errno));
  int closed = std::fclose(file_);
  file_ = nullptr;
  if (closed != 0) fail(std::string("write error: ") + std::strerror(errno));
}

void AtomicFile::commit() {
  finish();
  replace_with_temp(temp_, path_);
  on_signal_.release();
  temp_.clear();
}

void write_file_atomically(const std::string& path, std::string_view contents) {
  AtomicFile f(path);
  f.write(contents);
  f.commit();
}

} // namespace strata
