"""fork_call: a result made in a forked child comes back typed; every way a child can fail gives
None (the caller makes the result itself), quietly, and leaves no child behind."""

from __future__ import annotations

import io
import os
import signal
import sys
import time
import warnings
from dataclasses import dataclass, field

import pytest

from analyzer import forked
from analyzer.forked import fork_call, fork_supported

IDLE_CPU = forked._idle_cpu  # the real guards (the fixture below stands in for the first)
IDLE_CPU_BESIDE_PARENT = forked._idle_cpu_beside_parent

pytestmark = pytest.mark.skipif(not fork_supported(), reason="needs fork and a second CPU (Linux)")


@pytest.fixture(autouse=True)
def _a_cpu_is_idle(monkeypatch: pytest.MonkeyPatch) -> None:
    # the suite runs on every CPU (pytest -n): as if one were idle, so that a child is made; the
    # tests of the guards below set the load they need
    monkeypatch.setattr(forked, "_idle_cpu", lambda: True)


@dataclass(slots=True)
class Drawn:
    name: str
    svg: str = ""
    png: bytes = field(default=b"", repr=False)
    width: int = 0


@dataclass(slots=True)
class Parts:
    section: dict
    drawn: list[Drawn]


def _gone(pid: int) -> bool:
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return True
    return False


def test_the_result_comes_back_as_the_type_named_with_what_the_child_read() -> None:
    # what this process holds is what the child reads: nothing is passed to it
    held = {"pods": ["web-1", "web-2"], "ratio": 0.1 + 0.2, "missing": float("nan")}
    big = "x" * 3_000_000  # more than a pipe holds: read while the child writes

    def make() -> Parts:
        return Parts({"pods": held["pods"], "ratio": held["ratio"], "missing": held["missing"],
                      "pid": os.getpid(), "nested": {"a": [1, None, True]}},
                     [Drawn("nodes", svg=big), Drawn("timeline", png=b"\x89PNG\x00", width=7)])

    with fork_call(make, Parts) as child:
        parts = child.result()
    assert isinstance(parts, Parts) and all(isinstance(d, Drawn) for d in parts.drawn)
    assert parts.section["pid"] != os.getpid()
    assert parts.section["ratio"] == 0.1 + 0.2  # a float crosses exactly
    assert parts.section["missing"] != parts.section["missing"]  # NaN stays NaN, not None
    assert parts.section["nested"] == {"a": [1, None, True]}
    assert parts.drawn == [Drawn("nodes", svg=big), Drawn("timeline", png=b"\x89PNG\x00", width=7)]


def test_an_error_in_the_child_gives_none_and_prints_nothing(capfd: pytest.CaptureFixture[str]) -> None:
    def make() -> Parts:
        print("from the child")
        raise ValueError("a bug in a diagram")

    with fork_call(make, Parts) as child:
        assert child.result() is None
    out, err = capfd.readouterr()
    assert out == "" and err == ""  # no traceback on the user's terminal: the parent goes on


@pytest.mark.parametrize("end", ["exit", "killed"])
def test_a_child_that_dies_gives_none(end: str) -> None:
    def make() -> Parts:
        if end == "exit":
            os._exit(3)
        os.kill(os.getpid(), signal.SIGKILL)
        raise AssertionError("not reached")

    child = fork_call(make, Parts)
    assert child is not None and child.result() is None
    assert _gone(child.pid)


def test_a_result_not_of_the_type_named_gives_none() -> None:
    with fork_call(lambda: {"not": "parts"}, Parts) as child:
        assert child.result() is None


def test_a_child_that_makes_no_progress_is_killed(monkeypatch: pytest.MonkeyPatch) -> None:
    # a child stuck on a lock uses no CPU: after STALL_SECONDS of that it is killed, and the
    # caller makes the result itself instead of waiting forever
    monkeypatch.setattr(forked, "STALL_SECONDS", 2)
    child = fork_call(lambda: time.sleep(3600), Parts)
    assert child is not None
    started = time.monotonic()
    assert child.result() is None
    assert time.monotonic() - started < 30
    assert _gone(child.pid)


def test_a_child_whose_result_is_not_asked_for_is_stopped() -> None:
    child = fork_call(lambda: time.sleep(3600), Parts)
    assert child is not None
    with child:
        pass  # an error here, or Ctrl-C: the child must not outlive the block
    assert _gone(child.pid)


@pytest.mark.parametrize("refused", ["fork", "pipe"])
@pytest.mark.parametrize("letters", [False, True])
def test_no_process_or_file_to_spare_gives_none_and_leaves_nothing_open(
        monkeypatch: pytest.MonkeyPatch, refused: str, letters: bool) -> None:
    # a machine at its process limit (EAGAIN), a process at its open-file limit (EMFILE): the
    # caller makes the result itself, as where no CPU is idle
    open_before = sorted(os.listdir("/proc/self/fd"))

    def refuse(*args: object) -> None:
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(os, refused, refuse)
    assert fork_call(lambda *args: Parts({}, []), Parts, letters=letters) is None
    assert sorted(os.listdir("/proc/self/fd")) == open_before


def test_warnings_in_the_child_are_said_in_the_parent() -> None:
    def make() -> Parts:
        warnings.warn("Glyph 12354 missing from font(s) DejaVu Sans.", UserWarning, stacklevel=1)
        warnings.warn("an odd value", RuntimeWarning, stacklevel=1)
        return Parts({}, [])

    with pytest.warns((UserWarning, RuntimeWarning)) as said, fork_call(make, Parts) as child:
        assert child.result() == Parts({}, [])
    assert [(type(w.message), str(w.message)) for w in said] == [
        (UserWarning, "Glyph 12354 missing from font(s) DejaVu Sans."), (RuntimeWarning, "an odd value")]
    assert {w.filename for w in said} == {__file__}  # said where the child's code said it


def test_letters_cross_both_ways_while_both_work() -> None:
    # the child sends what it made ahead of its result and goes on at once (more than a pipe
    # holds, while this process is busy); it asks for this process's letters when it needs them
    ahead = os.urandom(3_000_000)

    def make(letters: forked.ChildLetters) -> Parts:
        letters.send(ahead)
        letters.send(b"second")
        sent_at = time.monotonic()
        first, second, third = letters.receive(), letters.receive(), letters.receive()
        return Parts({"first": first.decode(), "second": second.decode(), "third": third,
                      "sent_at": sent_at}, [])

    with fork_call(make, Parts, letters=True) as child:
        time.sleep(0.3)  # busy here: the child has not waited for this process to read
        assert child.receive() == ahead
        assert child.receive() == b"second"
        child.send(b"view of kube-system")
        child.send(b"findings by severity")
        received_at = time.monotonic()
        parts = child.result()  # says there are no more letters: the third is None
    assert parts.section["first"] == "view of kube-system"
    assert parts.section["second"] == "findings by severity"
    assert parts.section["third"] is None
    assert parts.section["sent_at"] < received_at - 0.2


def test_no_letter_from_a_child_that_sends_none_or_fails() -> None:
    with fork_call(lambda letters: Parts({"sent": 0}, []), Parts, letters=True) as child:
        assert child.receive() is None  # its result came first: no letter will come
        assert child.result() == Parts({"sent": 0}, [])

    def broken(letters: forked.ChildLetters) -> Parts:
        raise RuntimeError("broken before its letter")

    with fork_call(broken, Parts, letters=True) as child:
        assert child.receive() is None
        assert child.result() is None
    assert _gone(child.pid)


def test_a_child_waiting_for_a_letter_is_told_there_is_none() -> None:
    # this process fails before it can send what the child waits for: asking for the result
    # tells the child that no letter comes (else both would wait for ever)
    def make(letters: forked.ChildLetters) -> Parts:
        return Parts({"letter": letters.receive()}, [])

    with fork_call(make, Parts, letters=True) as child:
        assert child.result() == Parts({"letter": None}, [])


def test_a_letter_to_a_child_that_has_ended_is_dropped() -> None:
    child = fork_call(lambda letters: os._exit(0), Parts, letters=True)
    assert child is not None
    assert child.receive() is None
    child.send(b"x" * 100_000)  # no error, no wait
    assert child.result() is None


def test_no_child_where_memory_is_short(monkeypatch: pytest.MonkeyPatch) -> None:
    # the child copies what it reads: with less than twice this process free, no child
    assert forked._room_for_a_copy()
    real_open = open

    def short_of_memory(path, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
        if path == "/proc/meminfo":
            return io.BytesIO(b"MemTotal: 8000000 kB\nMemAvailable:     1024 kB\n")
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr("builtins.open", short_of_memory)
    assert not forked._room_for_a_copy()
    assert fork_call(lambda: Parts({}, []), Parts) is None


def test_no_child_where_no_second_cpu_is_idle_or_no_fork(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: {0})
    assert fork_call(lambda: Parts({}, []), Parts) is None
    monkeypatch.undo()
    # two CPUs, one busy with another process while this one sleeps: a child would only compete
    monkeypatch.setattr(forked, "_idle_cpu", IDLE_CPU)
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: {0, 1})
    ticks = iter([(100, 1000, 2), (110, 1020, 2)])  # (idle, total, cpus): half the time idle
    monkeypatch.setattr(forked, "_cpu_times", lambda: next(ticks))
    assert fork_call(lambda: Parts({}, []), Parts) is None
    # both idle now, however high the load average this process's last report left
    monkeypatch.setattr(os, "getloadavg", lambda: (1.9, 1.0, 1.0))
    ticks = iter([(100, 1000, 2), (119, 1020, 2)])
    with fork_call(lambda: Parts({}, []), Parts) as child:
        assert child.result() == Parts({}, [])
    # without /proc/stat, the load average says
    monkeypatch.setattr(forked, "_cpu_times", lambda: None)
    assert fork_call(lambda: Parts({}, []), Parts) is None
    monkeypatch.setattr(os, "getloadavg", lambda: (1.2, 1.0, 1.0))  # this process, and a little
    with fork_call(lambda: Parts({}, []), Parts) as child:
        assert child.result() == Parts({}, [])
    monkeypatch.undo()
    monkeypatch.setattr(sys, "platform", "darwin")
    assert fork_call(lambda: Parts({}, []), Parts) is None


def test_the_cpus_idle_time_is_read_from_the_kernels_counters() -> None:
    if forked._cpu_times() is None:
        pytest.skip("no /proc/stat here")
    idle = forked._cpus_idle_over(0.05)
    assert idle is not None and 0 <= idle <= os.cpu_count() + 0.5


def test_a_child_of_its_own_memory_starts_without_this_process_waiting(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # fork_call(..., own_memory=): no check of idle CPUs here (this process goes on at once);
    # the child finds out, beside its busy parent, and ends without a result where none is idle
    def never_here() -> bool:
        raise AssertionError("this process checked the CPUs")

    monkeypatch.setattr(forked, "_idle_cpu", never_here)
    monkeypatch.setattr(forked, "_idle_cpu_beside_parent", lambda: True)
    with fork_call(lambda: Parts({"pid": os.getpid()}, []), Parts, own_memory=1 << 20) as child:
        made = child.result()
        assert made is not None and made.section["pid"] == child.pid
    monkeypatch.setattr(forked, "_idle_cpu_beside_parent", lambda: False)
    with fork_call(lambda: Parts({}, []), Parts, own_memory=1 << 20) as child:
        assert child.result() is None
    assert _gone(child.pid)
    # beside a parent at work: one more CPU must be idle than the parent keeps busy
    monkeypatch.setattr(forked, "_idle_cpu_beside_parent", IDLE_CPU_BESIDE_PARENT)
    monkeypatch.setattr(forked, "_cpus_idle_over", lambda _s: 0.9)
    assert forked._idle_cpu_beside_parent()
    monkeypatch.setattr(forked, "_cpus_idle_over", lambda _s: 0.3)
    assert not forked._idle_cpu_beside_parent()


def test_no_child_of_its_own_memory_where_twice_that_is_not_free(monkeypatch: pytest.MonkeyPatch) -> None:
    real_open = open

    def four_gigabytes_free(path, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
        if path == "/proc/meminfo":
            return io.BytesIO(b"MemTotal: 8000000 kB\nMemAvailable: 4000000 kB\n")
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr("builtins.open", four_gigabytes_free)
    assert not forked.can_fork_own(3 << 30)  # its own 3 GB and this process's 3 GB
    assert fork_call(lambda: Parts({}, []), Parts, own_memory=3 << 30) is None
    assert forked.can_fork_own(1 << 30)
