"""The main thread's wait for graphmine's worker (graphmine/_runtime/interrupt.py) raises the
KeyboardInterrupt of a Ctrl-C even when CPython's Condition.wait turns it into a RuntimeError."""

import threading

import pytest

from graphmine._runtime import interrupt


class _RacyEvent:
    """Fails as Event.wait does when SIGINT lands between Condition.wait's release and re-acquire."""

    def wait(self, timeout):
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt:
            raise RuntimeError("release unlocked lock")


class _BrokenEvent:
    def wait(self, timeout):
        raise RuntimeError("something else")


def test_the_lock_race_raises_the_interrupt():
    with pytest.raises(KeyboardInterrupt) as info:
        interrupt._wait(_RacyEvent(), 0.1)
    assert info.value.__cause__ is None and info.value.__suppress_context__


def test_other_errors_and_plain_waits_are_unchanged():
    with pytest.raises(RuntimeError, match="something else"):
        interrupt._wait(_BrokenEvent(), 0.1)
    done = threading.Event()
    assert interrupt._wait(done, 0.01) is False
    done.set()
    assert interrupt._wait(done, 0.01) is True
