"""A long call stops when a signal's handler raises (Ctrl-C's
KeyboardInterrupt, an alarm's exception), within a fraction of a second, on
every engine; the compiled program and its inputs stay usable. The signal
is sent from a timer thread, as a terminal or an alarm would."""
import os
import signal
import threading
import time

import numpy as np
import pytest

import strata

# Adds 1 to every element until the largest reaches `limit`: above 2^24 the
# f32 sum no longer grows, so a limit of 1e30 never ends.
COUNT_UP = ("(program ((xs (array f32 1)) (limit (array f32 0)))"
            " (awhile (lambda (a) (map (lambda (s) (< s (! limit (ix))))"
            "                          (fold max 0f32 a)))"
            "         (lambda (a) (map (lambda (x) (+ x 1f32)) a)) xs))")


def engines():
    return [e["name"] for e in strata.engines()
            if e["available"] and e["name"] in ("interp", "tbb", "jit", "mpi")]


@pytest.fixture(params=engines())
def engine(request):
    return request.param


def send_later(sig, seconds):
    t = threading.Timer(seconds, lambda: os.kill(os.getpid(), sig))
    t.start()
    return t


def test_ctrl_c_stops_a_long_call_and_leaves_the_program_usable(engine):
    f = strata.compile(COUNT_UP, engine=engine)
    xs = np.zeros(20_000, dtype=np.float32)
    assert np.array_equal(f(xs, np.float32(3)), np.full(20_000, 3, dtype=np.float32))
    send_later(signal.SIGINT, 0.3)
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        f(xs, np.float32(1e30))
    assert time.monotonic() - start < 3.0
    # The same compiled program and input again: the right result.
    assert np.array_equal(f(xs, np.float32(5)), np.full(20_000, 5, dtype=np.float32))
    assert not xs.any()


class Alarm(Exception):
    pass


def test_an_alarm_handlers_exception_ends_the_call():
    def raise_alarm(signum, frame):
        raise Alarm()
    old = signal.signal(signal.SIGALRM, raise_alarm)
    try:
        f = strata.compile(COUNT_UP, engine="interp")
        signal.setitimer(signal.ITIMER_REAL, 0.3)
        start = time.monotonic()
        with pytest.raises(Alarm):
            f(np.zeros(1000, dtype=np.float32), np.float32(1e30))
        assert time.monotonic() - start < 3.0
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def test_a_handler_that_does_not_raise_lets_the_call_finish():
    seen = []
    old = signal.signal(signal.SIGUSR1, lambda signum, frame: seen.append(signum))
    try:
        f = strata.compile(COUNT_UP, engine="interp")
        send_later(signal.SIGUSR1, 0.1)
        # About a second of work: the signal arrives in the middle, its
        # handler runs, and the call goes on to the right result.
        out = f(np.zeros(1000, dtype=np.float32), np.float32(20_000))
        assert np.array_equal(out, np.full(1000, 20_000, dtype=np.float32))
        assert seen == [signal.SIGUSR1]
    finally:
        signal.signal(signal.SIGUSR1, old)
