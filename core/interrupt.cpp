#include "core/interrupt.h"

#include <atomic>
#include <thread>

namespace strata {
namespace {
std::atomic<bool> g_requested{false};
// The poll and its thread, set once by a front end before any run.
std::atomic<bool (*)()> g_poll{nullptr};
std::thread::id g_poll_thread;
std::chrono::steady_clock::duration g_every{};
std::chrono::steady_clock::time_point g_last{}; // only the poll's thread reads and writes it
} // namespace

void request_interrupt() {
  g_requested.store(true, std::memory_order_relaxed);
}
void clear_interrupt() {
  g_requested.store(false, std::memory_order_relaxed);
}

bool interrupt_requested() {
  if (g_requested.load(std::memory_order_relaxed)) return true;
  bool (*poll)() = g_poll.load(std::memory_order_acquire);
  if (poll && std::this_thread::get_id() == g_poll_thread) {
    auto now = std::chrono::steady_clock::now();
    if (now - g_last >= g_every) {
      g_last = now;
      if (poll()) request_interrupt();
    }
  }
  return g_requested.load(std::memory_order_relaxed);
}

void throw_if_interrupted() {
  if (interrupt_requested()) throw Interrupted();
}

void set_interrupt_poll(bool (*poll)(), std::chrono::milliseconds every) {
  g_poll_thread = std::this_thread::get_id();
  g_every = every;
  g_poll.store(poll, std::memory_order_release);
}

} // namespace strata
