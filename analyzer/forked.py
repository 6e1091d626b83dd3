"""A function's result made in a forked child process, on the other core, while this one goes on.

For work that reads what this process has already built (a dump read into memory: the child
shares it copy-on-write, nothing is read twice) and returns small plain data. The result crosses
a file in memory as msgpack (a pipe says when it is there) and is decoded into the type the
caller names: no pickle, nothing executable crosses. Where a child cannot help (no fork on this
platform, no idle CPU, another child at work, too little free memory or no process to spare) or
fails in any way (an error, a crash, a kill, no progress for a while), the caller gets None and
makes the result itself with the same function, so what it shows is the same either way.

Or for work a child does from memory of its own, started before this process has built anything
(`fork_call(..., own_memory=)`): it reads the same dump itself, on a CPU this process's reading
leaves idle, and neither copies the other's pages as it reads them.

A child may also exchange letters with this process while both work (`fork_call(...,
letters=True)`): it sends what it has made for this process to use (a table family, say) ahead of
its result, and this process sends it what it needs from here once made (a picture's data). A
letter's bytes go through a file in memory and only a few bytes through a pipe, so neither
process ever waits for the other to read: each reads when it needs the letter.
"""

from __future__ import annotations

import builtins
import gc
import os
import select
import signal
import struct
import sys
import tempfile
import time
import warnings
from collections.abc import Callable
from typing import Any, Generic, TypeVar

import msgspec

Result = TypeVar("Result")

STALL_SECONDS = 20  # a child whose CPU time has not moved for this long is stuck: it is killed
_READ = 1 << 20
# A frame on a pipe: what it is, and two numbers (a letter's place and size in its file; a
# result's size in the result's file, and 0).
_FRAME = struct.Struct("!cQQ")
_LETTER, _RESULT = b"L", b"R"


# One child at a time, and none of a child's own: on two CPUs a second would only compete with
# the first (a report's child reads the dump while this process reads it too).
_children: set[int] = set()  # the children of this process not yet reaped
_in_a_child = False


def fork_supported() -> bool:
    """Whether this platform can run a forked child beside this process at all: Linux (fork is
    safe there with the libraries loaded; macOS's frameworks are not) and a second CPU this
    process may run on."""
    return sys.platform == "linux" and hasattr(os, "fork") and len(os.sched_getaffinity(0)) > 1


def can_fork() -> bool:
    """Whether a forked child can help now: `fork_supported()`, no other child of this process
    at work (nor is this one a child), a CPU idle for it, and memory for a copy of this process."""
    return fork_supported() and _alone() and _idle_cpu() and _room_for_a_copy()


def can_fork_own(memory: int) -> bool:
    """Whether a forked child that works from memory of its own (it reads a dump itself, while
    this process reads it too) may start: `fork_supported()`, no other child at work (nor is
    this one a child), and room for `memory` bytes twice (its own and this process's). Whether a
    CPU is idle for it, the child itself finds out, so that this process never waits on the
    check."""
    return fork_supported() and _alone() and _room_for(2 * memory)


def _alone() -> bool:
    # A child that ended but was never reaped (its Forked dropped unclosed) is at work no more.
    return not _in_a_child and all(_cpu_ticks(pid) is None for pid in _children)


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


def _idle_cpu_beside_parent() -> bool:
    # In a child started beside its parent at work: the parent keeps one CPU busy while the
    # child sleeps, so one more must be idle for the child.
    idle = _cpus_idle_over(IDLE_SAMPLE_SECONDS)
    if idle is None:
        return os.getloadavg()[0] < len(os.sched_getaffinity(0)) - 1.5
    return idle >= 0.75


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
        with open("/proc/self/status", "rb") as status:
            resident = next(int(line.split()[1]) for line in status if line.startswith(b"VmRSS:"))
    except (OSError, StopIteration, ValueError, IndexError):
        return False
    return _room_for(2 * resident * 1024)


def _room_for(memory: int) -> bool:
    """Whether the machine has `memory` bytes available (false where it cannot tell)."""
    try:
        with open("/proc/meminfo", "rb") as meminfo:
            available = next(int(line.split()[1]) for line in meminfo
                             if line.startswith(b"MemAvailable:"))
    except (OSError, StopIteration, ValueError, IndexError):
        return False
    return available * 1024 > memory


class Forked(Generic[Result]):
    """A child at work on one result; `result()` waits for it. Use it as a context manager so
    that a child is never left behind (an error or Ctrl-C in this process kills and reaps it).
    With letters: `receive()` the child's next letter, `send()` it one, `end_letters()` when
    there are no more (`result()` says so too)."""

    def __init__(self, pid: int, pipe: int, result_file: int, result_type: type[Result],
                 letters: _Letters | None = None) -> None:
        _children.add(pid)
        self.pid = pid  # the child's process id
        self._pid: int | None = pid  # until reaped
        self._pipe: int | None = pipe
        self._result_file: int | None = result_file
        self._type = result_type
        self._letters = letters
        self._buffer = bytearray()  # what the child wrote on the pipe, not yet taken
        self._ended = False  # the pipe is at its end, or the child stopped making progress
        self._stalled = False

    def result(self) -> Result | None:
        """The child's result, or None if it failed (the reason is not the caller's concern: it
        makes the result itself)."""
        self.end_letters()
        size = self._result_size()
        # the child closed its end (it is exiting: wait for it) or made no progress (kill it)
        status = self._reap(kill=self._stalled, keep_result=True)
        if size is None or status != 0:
            self._close_result()
            return None
        try:
            body = _read_all(self._result_file, size)  # type: ignore[arg-type]
            result, caught = msgspec.msgpack.decode(body, type=tuple[self._type, list[_Warning]])
        except (msgspec.DecodeError, msgspec.ValidationError, OSError):
            return None
        finally:
            self._close_result()
        for w in caught:  # what the child warned about is said here, as if said here
            warnings.warn_explicit(w.message, _category(w.category), w.filename, w.lineno)
        return result

    def receive(self) -> bytes | None:
        """The child's next letter: waits for it. None when it will send none (it is done, it
        failed, or it stopped making progress)."""
        if self._letters is None:
            return None
        while True:
            frame = self._frame()
            if frame is None:
                if self._ended or not self._more():
                    return None
                continue
            kind, place, size = frame
            if kind != _LETTER:  # its result: no letter before it
                return None
            del self._buffer[:_FRAME.size]
            return self._letters.read(place, size)

    def send(self, letter: bytes) -> None:
        """A letter to the child (read when it asks for it; lost if it has ended)."""
        if self._letters is not None:
            self._letters.write(letter)

    def end_letters(self) -> None:
        """No more letters to the child: one waiting for another is told so."""
        if self._letters is not None:
            self._letters.end_writing()

    def _frame(self) -> tuple[bytes, int, int] | None:
        if len(self._buffer) < _FRAME.size:
            return None
        return _FRAME.unpack_from(self._buffer)

    def _result_size(self) -> int | None:
        """The size of the result in its file, once the child says it is there (after any
        letters not asked for); None if it never does. An empty result is no result."""
        while True:
            frame = self._frame()
            if frame is not None and frame[0] == _LETTER:
                del self._buffer[:_FRAME.size]
                continue
            if frame is not None:
                return frame[1] or None
            if self._ended or not self._more():
                return None

    def _close_result(self) -> None:
        if self._result_file is not None:
            os.close(self._result_file)
            self._result_file = None

    def _more(self) -> bool:
        """Read what the child writes next (a child never waits on a full pipe); False at the
        pipe's end or if the child stops making progress."""
        assert self._pipe is not None
        still, last = 0, None
        while True:
            ready, _, _ = select.select([self._pipe], [], [], 1.0)
            if ready:
                chunk = os.read(self._pipe, _READ)
                if not chunk:
                    self._ended = True
                    return False
                self._buffer += chunk
                return True
            cpu = _cpu_ticks(self._pid)
            if cpu is None:  # gone: what it wrote is in the pipe (else a process it made holds it)
                ready, _, _ = select.select([self._pipe], [], [], 1.0)
                if not ready:
                    self._ended = self._stalled = True
                    return False
                continue
            still = still + 1 if cpu == last else 0
            last = cpu
            if still >= STALL_SECONDS:
                self._ended = self._stalled = True
                return False

    def _reap(self, kill: bool, keep_result: bool = False) -> int:
        """Wait for the child (killed first if `kill` and it is still at work); its exit status.
        The result's file is closed too unless `keep_result`."""
        if not keep_result:
            self._close_result()
        pid, self._pid = self._pid, None
        if pid is not None:
            _children.discard(pid)
        if self._pipe is not None:
            os.close(self._pipe)
            self._pipe = None
        if self._letters is not None:
            self._letters.close()
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
        self._close_result()

    def __enter__(self) -> Forked[Result]:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _Letters:
    """One side's ends of the letters between a parent and its child: a file in memory for
    each direction's bytes, and a pipe from parent to child for their frames (the child's
    frames share the pipe of its result)."""

    def __init__(self) -> None:
        self.to_parent = _memory_file()
        self.to_child = _memory_file()
        self.frames_in, self.frames_out = os.pipe()  # parent -> child
        self._written = {self.to_parent: 0, self.to_child: 0}
        self._out: int | None = None  # this side's pipe end for frames
        self._file = self.to_child  # the file this side writes letters to

    def as_parent(self) -> None:
        os.close(self.frames_in)
        self.frames_in, self._out, self._file = -1, self.frames_out, self.to_child

    def as_child(self, result_pipe: int) -> None:
        os.close(self.frames_out)
        self.frames_out, self._out, self._file = -1, result_pipe, self.to_parent

    def write(self, letter: bytes) -> None:
        if self._out is None:
            return
        place = self._written[self._file]
        try:
            os.pwrite(self._file, letter, place)
            self._written[self._file] = place + len(letter)
            os.write(self._out, _FRAME.pack(_LETTER, place, len(letter)))
        except OSError:  # the other side has ended (a broken pipe): the letter is not needed
            pass

    def read(self, place: int, size: int) -> bytes | None:
        letter = os.pread(self.to_parent if self._file == self.to_child else self.to_child, size, place)
        return letter if len(letter) == size else None

    def end_writing(self) -> None:
        if self._out is not None and self._file == self.to_child:
            os.close(self._out)
        self._out = None

    def receive(self) -> bytes | None:
        """The parent's next letter (in the child); None once it sends no more."""
        frame = b""
        while len(frame) < _FRAME.size:
            chunk = os.read(self.frames_in, _FRAME.size - len(frame))
            if not chunk:
                return None
            frame += chunk
        _kind, place, size = _FRAME.unpack(frame)
        return self.read(place, size)

    def close(self) -> None:
        self.end_writing()
        for fd in (self.to_parent, self.to_child, self.frames_in):
            if fd >= 0:
                os.close(fd)
        self.to_parent = self.to_child = self.frames_in = -1


class ChildLetters:
    """What a child given letters (`fork_call(..., letters=True)`) sends and receives."""

    def __init__(self, letters: _Letters) -> None:
        self._letters = letters

    def send(self, letter: bytes) -> None:
        """A letter to the parent, read when it asks for it: the child goes on at once."""
        self._letters.write(letter)

    def receive(self) -> bytes | None:
        """The parent's next letter: waits for it. None once the parent sends no more."""
        return self._letters.receive()


def _read_all(fd: int, size: int) -> bytes:
    """The first `size` bytes of a file (in one read, but for a file larger than a read takes)."""
    parts = []
    while size > 0:
        part = os.pread(fd, size, sum(map(len, parts)))
        if not part:
            raise OSError("the result's file is shorter than the child said")
        parts.append(part)
        size -= len(part)
    return parts[0] if len(parts) == 1 else b"".join(parts)


def _memory_file() -> int:
    try:
        return os.memfd_create("kda-forked", os.MFD_CLOEXEC)
    except (AttributeError, OSError):  # no memfd: an unnamed temporary file does the same
        return os.dup(tempfile.TemporaryFile().fileno())


class _Warning(msgspec.Struct, array_like=True):
    category: str
    message: str
    filename: str
    lineno: int


def fork_call(make: Callable[..., Result], result_type: type[Result],
              letters: bool = False, own_memory: int | None = None) -> Forked[Result] | None:
    """`make()` started in a forked child; None where no child can help (`can_fork()`).

    `result_type` is what msgspec decodes the result into (a dataclass, a Struct, plain
    containers of str, int, float, bool, None and bytes); `make` must return exactly that.
    With `letters`, `make` is called with the child's `ChildLetters`.

    `own_memory`: the child works from memory of its own, about this many bytes, not from this
    process's (`can_fork_own`); it starts at once and, where no CPU is idle for it, ends without
    a result (this process then makes it).
    """
    if not (can_fork() if own_memory is None else can_fork_own(own_memory)):
        return None
    opened: list[int] = []
    link: _Letters | None = None
    try:
        read_end, write_end = os.pipe()
        opened += (read_end, write_end)
        result_file = _memory_file()
        opened.append(result_file)
        link = _Letters() if letters else None
        with warnings.catch_warnings():
            # Python 3.12+ warns that forking a process with threads (a progress bar's, a test
            # runner's) may deadlock the child on a lock one of them held. The child takes none
            # of theirs: it writes to no stream of this process and ends with os._exit.
            warnings.simplefilter("ignore", DeprecationWarning)
            pid = os.fork()
    except OSError:  # no process, file or memory to spare (EAGAIN, EMFILE, ENOMEM): this one makes it
        for fd in opened:
            os.close(fd)
        if link is not None:  # (neither side's yet: both its pipe's ends are open)
            os.close(link.frames_out)
            link.close()
        return None
    if pid == 0:  # the child
        status = 1
        try:
            os.close(read_end)
            _child_on_its_own()
            if own_memory is not None and not _idle_cpu_beside_parent():
                return  # (to the finally: status 1) it would only compete with its parent
            args: tuple[Any, ...] = ()
            if link is not None:
                link.as_child(write_end)
                args = (ChildLetters(link),)
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                result = make(*args)
            said = [_Warning(w.category.__name__, str(w.message), w.filename, w.lineno or 0)
                    for w in caught]
            data = memoryview(msgspec.msgpack.encode((result, said)))
            written = 0
            while written < len(data):
                written += os.pwrite(result_file, data[written:], written)
            with open(write_end, "wb") as pipe:
                pipe.write(_FRAME.pack(_RESULT, len(data), 0))
            status = 0
        finally:
            # no exit handlers, buffers or finalizers of the parent's run here; an error ends the
            # child quietly with status 1, and the parent makes the result itself
            os._exit(status)
    os.close(write_end)
    if link is not None:
        link.as_parent()
    return Forked(pid, read_end, result_file, result_type, link)


def _child_on_its_own() -> None:
    # A short life: no collections (each would touch, and so copy, pages shared with the parent),
    # and no writing to the parent's terminal (a thread of the parent may have held its lock).
    global _in_a_child
    _children.clear()
    _in_a_child = True
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
