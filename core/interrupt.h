// Stopping a run from outside it (docs/python.md, "Interrupting a call").
//
// A front end that learns of an interrupt while a run is under way calls
// request_interrupt(), or installs a poll that interrupt_requested() calls
// on the front end's thread (Python's: python/src/program.cpp runs the
// signal handlers there). The engines look at interrupt_requested() between
// kernels (fusion/graph_run.h), between chunks (parallel/ranges.h) and, in
// the interpreter, between collectives and every few thousand elements, and
// throw Interrupted. Interrupted is not an
// Error: it unwinds like one, so the compiled program and the inputs stay
// usable, but no engine reports or agrees on it as a result of the program.
// The request is for the whole process (every run under way stops) until the
// front end clears it.
#pragma once

#include <chrono>
#include <stdexcept>

namespace strata {

class Interrupted : public std::runtime_error {
public:
  Interrupted() : std::runtime_error("interrupted") {}
};

void request_interrupt();
void clear_interrupt();
// Whether a stop was asked for; on the thread that installed the poll, at
// most once per its interval, asks the poll first (true: a stop).
bool interrupt_requested();
// Installs `poll` for the calling thread (nullptr: none).
void set_interrupt_poll(bool (*poll)(), std::chrono::milliseconds every);
// Throws Interrupted when a stop was asked for.
void throw_if_interrupted();

} // namespace strata
