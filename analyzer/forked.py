"""A function's result made in a forked child process, on the other core, while this one goes on.

For work that reads what this process has already built (a dump read into memory: the child
shares it copy-on-write, nothing is read twice) and returns small plain data. The result crosses
a pipe as msgpack and is decoded into the type the caller names: no pickle, nothing executable
crosses. Where a child cannot help (no fork on this platform, no idle CPU, too little free memory) or
fails in any way (an error, a crash, a kill, no progress for a while), the caller gets None and
makes the result itself with the same function, so what it shows is the same either way.
"""

from __future__ import annotations

import builtins
import gc
import os
import select
import signal
import sys
import time
import warnings
from collections.abc import Callable
from typing import Generic, TypeVar

import msgspec

Result = TypeVar("Result")

STALL_SECONDS = 20  # a child whose CPU time has not moved for this long is stuck: it is killed
_READ = 1 << 20


def fork_supported() -> bool:
    """Whether this platform can run a forked child beside this process at all: Linux (fork is
    safe there with the libraries loaded; macOS's frameworks are not) and a second CPU this
    process may run on."""
    return sys.platform == "linux" and hasattr(os, "fork") and len(os.sched_getaffinity(0)) > 1


def can_fork() -> bool:
    """Whether a forked child can help now: `fork_supported()`, a CPU idle for it, and memory
    for a copy of this process."""
    return fork_supported() and _idle_cpu() and _room_for_a_copy()


# How long the CPUs' counters are watched for an idle one (once per report of a large dump).
IDLE_SAMPLE_SECONDS = 0.05


def _idle_cpu() -> bool:
    # On a busy machine (other reports, a fleet's workers) a child only competes with this
    # process for the same CPU and makes the whole slower by the work it repeats. What the CPUs
    # do now says whether one is free: the 1-minute load average also remembers this process's
    # own last seconds (a batch's previous report ran on two CPUs) and kept the next report in
    # one process. While this process sleeps its CPU is idle too, so one more must be.
    idle = _cpus_idle_over(IDLE_SAMPLE_SECONDS)
    if idle is None:  # no /proc/stat: the load average, which counts this process too
        return os.getloadavg()[0] < len(os.sched_getaffinity(0)) - 0.5
    return idle >= 1.75


def _cpus_idle_over(seconds: float) -> float | None:
    """How many CPUs' worth of time went idle while this process slept `seconds` (None where
    /proc/stat cannot be read)."""
    before = _cpu_times()
    time.sleep(seconds)
    after = _cpu_times()
    if before is None or after is None or after[1] <= before[1]:
        return None
    return (after[0] - before[0]) / (after[1] - before[1]) * after[2]


def _cpu_times() -> tuple[int, int, int] | None:
    """(idle, total) clock ticks of all CPUs since boot, and how many CPUs, from /proc/stat."""
    try:
        with open("/proc/stat", "rb") as stat:
            lines = stat.read().split(b"\n")
        ticks = [int(v) for v in lines[0].split()[1:9]]
    except (OSError, ValueError, IndexError):
        return None
    cpus = sum(1 for line in lines if line.startswith(b"cpu") and line[3:4].isdigit())
    return ticks[3] + ticks[4], sum(ticks), cpus  # idle and iowait; user to steal


def _room_for_a_copy() -> bool:
    # The child shares this process's pages but copies each one it writes, and reading a Python
    # object writes its reference count: a child that reads the whole dump copies most of it
    # (a 743 MB dump read into 470 MB: 670 MB private in the report's child at its end). Where
    # the machine has not twice this process's size free, one process is slower but does not
    # make it swap.
    try:
        with open("/proc/meminfo", "rb") as meminfo:
            available = next(int(line.split()[1]) for line in meminfo
                             if line.startswith(b"MemAvailable:"))
        with open("/proc/self/status", "rb") as status:
            resident = next(int(line.split()[1]) for line in status if line.startswith(b"VmRSS:"))
    except (OSError, StopIteration, ValueError, IndexError):
        return False
    return available > 2 * resident


class Forked(Generic[Result]):
    """A child at work on one result; `result()` waits for it. Use it as a context manager so
    that a child is never left behind (an error or Ctrl-C in this process kills and reaps it)."""

    def __init__(self, pid: int, pipe: int, result_type: type[Result]) -> None:
        self.pid = pid  # the child's process id
        self._pid: int | None = pid  # until reaped
        self._pipe: int | None = pipe
        self._type = result_type

    def result(self) -> Result | None:
        """The child's result, or None if it failed (the reason is not the caller's concern: it
        makes the result itself)."""
        data = self._read()
        # the child closed its end (it is exiting: wait for it) or made no progress (kill it)
        status = self._reap(kill=data is None)
        if data is None or status != 0:
            return None
        try:
            result, caught = msgspec.msgpack.decode(data, type=tuple[self._type, list[_Warning]])
        except (msgspec.DecodeError, msgspec.ValidationError):
            return None
        for w in caught:  # what the child warned about is said here, as if said here
            warnings.warn_explicit(w.message, _category(w.category), w.filename, w.lineno)
        return result

    def _read(self) -> bytes | None:
        """Everything the child writes, read as it comes (a child never waits on a full pipe);
        None if it stops making progress."""
        assert self._pipe is not None
        chunks: list[bytes] = []
        still, last = 0, None
        while True:
            ready, _, _ = select.select([self._pipe], [], [], 1.0)
            if ready:
                chunk = os.read(self._pipe, _READ)
                if not chunk:
                    return b"".join(chunks)
                chunks.append(chunk)
                continue
            cpu = _cpu_ticks(self._pid)
            if cpu is None:  # gone: what it wrote is in the pipe (else a process it made holds it)
                ready, _, _ = select.select([self._pipe], [], [], 1.0)
                if not ready:
                    return None
                continue
            still = still + 1 if cpu == last else 0
            last = cpu
            if still >= STALL_SECONDS:
                return None

    def _reap(self, kill: bool) -> int:
        """Wait for the child (killed first if `kill` and it is still at work); its exit status."""
        pid, self._pid = self._pid, None
        if self._pipe is not None:
            os.close(self._pipe)
            self._pipe = None
        if pid is None:
            return -1
        try:
            if kill:
                os.kill(pid, signal.SIGKILL)
            _, status = os.waitpid(pid, 0)
        except (ChildProcessError, ProcessLookupError):  # reaped elsewhere (an app's SIGCHLD handler)
            return -1
        return os.waitstatus_to_exitcode(status)

    def close(self) -> None:
        """Stop and reap the child if `result()` was not (or could not be) asked for."""
        if self._pid is not None or self._pipe is not None:
            self._reap(kill=True)

    def __enter__(self) -> Forked[Result]:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _Warning(msgspec.Struct, array_like=True):
    category: str
    message: str
    filename: str
    lineno: int


def fork_call(make: Callable[[], Result], result_type: type[Result]) -> Forked[Result] | None:
    """`make()` started in a forked child; None where no child can help (`can_fork()`).

    `result_type` is what msgspec decodes the result into (a dataclass, a Struct, plain
    containers of str, int, float, bool, None and bytes); `make` must return exactly that.
    """
    if not can_fork():
        return None
    read_end, write_end = os.pipe()
    with warnings.catch_warnings():
        # Python 3.12+ warns that forking a process with threads (a progress bar's, a test
        # runner's) may deadlock the child on a lock one of them held. The child takes none of
        # theirs: it writes to no stream of this process and ends with os._exit.
        warnings.simplefilter("ignore", DeprecationWarning)
        pid = os.fork()
    if pid == 0:  # the child
        status = 1
        try:
            os.close(read_end)
            _child_on_its_own()
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                result = make()
            said = [_Warning(w.category.__name__, str(w.message), w.filename, w.lineno or 0)
                    for w in caught]
            data = msgspec.msgpack.encode((result, said))
            with open(write_end, "wb") as pipe:
                pipe.write(data)
            status = 0
        finally:
            # no exit handlers, buffers or finalizers of the parent's run here; an error ends the
            # child quietly with status 1, and the parent makes the result itself
            os._exit(status)
    os.close(write_end)
    return Forked(pid, read_end, result_type)


def _child_on_its_own() -> None:
    # A short life: no collections (each would touch, and so copy, pages shared with the parent),
    # and no writing to the parent's terminal (a thread of the parent may have held its lock).
    gc.disable()
    devnull = open(os.devnull, "w")  # noqa: SIM115 - lives as long as the child
    sys.stdout = sys.stderr = devnull
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # Ctrl-C ends it at once, not in a handler


def _cpu_ticks(pid: int | None) -> int | None:
    """The process's user and system CPU time so far, in clock ticks; None if it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()
    except OSError:
        return None
    if fields[0] == b"Z":  # exited, not yet reaped
        return None
    return int(fields[11]) + int(fields[12])


def _category(name: str) -> type[Warning]:
    found = getattr(builtins, name, None)
    return found if isinstance(found, type) and issubclass(found, Warning) else UserWarning
