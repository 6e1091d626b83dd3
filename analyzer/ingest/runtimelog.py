"""A container's log file as its runtime writes it on the node, read as `kubectl logs` prints it.

The kubelet's runtime (containerd, CRI-O) writes `<time> <stream> <tag> <text>` a line, the tag
`F` for a whole line and `P` for a piece of one it split (over 16 KiB: a long JSON line, a Java
stack trace's line), whose rest follows in the stream's next `P` or `F` line; older nodes' Docker
writes json-file lines, `{"log": "<text>\\n", "stream": ..., "time": ...}`, a split line's pieces
without the newline. `kubectl logs` prints the text alone, each split line joined, and with
`--timestamps` the time of its first piece before it (the kubelet's logs.go): so the log's text
is the container's own, and the runtime's times are kept beside it, one a line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime

import orjson

from analyzer.ingest.records import STAMP_WIDTH

# A CRI line's prefix: its time (RFC 3339 with nanoseconds, `Z` or an offset), stream and tag(s).
_CRI_PREFIX = re.compile(
    r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,9})?(?:Z|[+-]\d\d:\d\d)) (stdout|stderr) ([PF])(?::\S*)?(?: |$)",
    re.M)
_STAMP_PARTS = re.compile(r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d)$")
_BLANK_STAMP = " " * STAMP_WIDTH
_DOCKER_START = re.compile(r'^\{"log":')
_STREAMS = frozenset({"stdout", "stderr"})
_TAGS = frozenset({"P", "F"})


@dataclass(frozen=True, slots=True)
class RuntimeLog:
    """A runtime's log file as `kubectl logs` prints it, with what it took to read it so."""

    format: str  # "CRI" or "docker json-file"
    text: str
    stamps: str  # STAMP_WIDTH characters a line of text (records.LogRecord.stamps)
    # (line of text, line of the file) where the two stop following one for one (after a
    # joined line); empty when they never do
    places: tuple[tuple[int, int], ...]


def fixed_stamp(stamp: str) -> str:
    """A runtime's time as `kubectl logs --timestamps` prints it in UTC: nine decimals, `Z`.

    >>> fixed_stamp("2022-11-29T20:55:24.09691747Z"), fixed_stamp("2021-03-04T10:37:14.1+01:00")
    ('2022-11-29T20:55:24.096917470Z', '2021-03-04T09:37:14.100000000Z')
    """
    m = _STAMP_PARTS.match(stamp)
    if m is None:
        return _BLANK_STAMP
    whole, fraction, zone = m.groups()
    if zone != "Z":
        moved = datetime.fromisoformat(whole + zone).astimezone(UTC)
        whole = moved.strftime("%Y-%m-%dT%H:%M:%S")
    return f"{whole}.{(fraction or '').ljust(9, '0')}Z"


def _fixed_stamps(stamps: tuple[str, ...]) -> list[str]:
    """fixed_stamp of each, those already in its form (kubectl's, most of containerd's) as they are."""
    return [stamp if len(stamp) == STAMP_WIDTH and stamp[-1] == "Z" and stamp[10] == "T" and stamp[19] == "."
            else fixed_stamp(stamp) for stamp in stamps]


def read_runtime_log(text: str) -> RuntimeLog | None:
    """The log of a runtime's file, or None when its first line is in neither format.

    >>> log = read_runtime_log("2024-01-01T00:00:00.1Z stdout P {\\"a\\":\\n2024-01-01T00:00:00.2Z stderr F oops\\n"
    ...                        "2024-01-01T00:00:00.3Z stdout F 1}\\n2024-01-01T00:00:00.4Z stdout F done\\n")
    >>> log.text, log.stamps[:30], log.places
    ('{"a":1}\\noops\\ndone\\n', '2024-01-01T00:00:00.100000000Z', ((3, 4),))
    """
    first = text[:200]
    if _CRI_PREFIX.match(first):
        return _read_cri(text)
    if _DOCKER_START.match(first):
        return _read_docker(text)
    return None


def read_timestamped(text: str) -> RuntimeLog | None:
    """A log saved as `kubectl logs --timestamps` prints it (each line after the runtime's time
    of it and a space) with its times apart; None when a line does not start with one.

    >>> log = read_timestamped("2021-08-03T09:27:12.250278575Z I0803 starting router\\n2021-08-03T09:27:13Z \\n")
    >>> log.text, log.stamps[30:]
    ('I0803 starting router\\n\\n', '2021-08-03T09:27:13.000000000Z')
    >>> read_timestamped("2021-08-03T09:27:12Z a\\n  at b\\n") is None
    True
    """
    lines = _lines(text)
    parts = [line.split(" ", 1) for line in lines]
    if not parts or min(map(len, parts)) < 2:
        return None
    stamps, said = zip(*parts, strict=True)
    fixed = _fixed_stamps(stamps)
    if _BLANK_STAMP in fixed:
        return None
    return RuntimeLog("kubectl --timestamps", "\n".join(said) + "\n", "".join(fixed), ())


def as_written(text: str) -> RuntimeLog:
    """A file in neither format (a run's rotated file among others that are): its lines as they
    are, without times."""
    text = text if not text or text.endswith("\n") else text + "\n"
    return RuntimeLog("plain text", text, _BLANK_STAMP * _line_count(text), ())


def _line_count(text: str) -> int:
    return text.count("\n") + (0 if not text or text.endswith("\n") else 1)


def _lines(text: str) -> list[str]:
    """The file's lines, split at "\\n" only (a message may hold a "\\r" or a U+2028)."""
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


def _read_cri(text: str) -> RuntimeLog:
    lines = _lines(text)
    # (the common file, every line in the format, is read a column at a time, joins aside)
    parts = [line.split(" ", 3) for line in lines]
    if not parts or min(map(len, parts)) < 4:
        return _joined("CRI", lines, _cri_line)
    stamps, streams, tags, said = zip(*parts, strict=True)
    if not set(streams) <= _STREAMS or not set(tags) <= _TAGS:
        return _joined("CRI", lines, _cri_line)
    fixed = _fixed_stamps(stamps)
    if "P" not in tags:
        return RuntimeLog("CRI", "\n".join(said) + "\n", "".join(fixed), ())
    return _join_pieces(stamps=fixed, streams=streams, tags="".join(tags), said=list(said))


def _join_pieces(stamps: list[str], streams: tuple[str, ...], tags: str, said: list[str]) -> RuntimeLog:
    """Each split line's pieces joined into the place of its first, which keeps its time: a
    piece's rest is the next line of its stream (the other stream's lines may come between)."""
    head_of: dict[int, int] = {}
    gone: set[int] = set()
    at = tags.find("P")
    while at >= 0:
        rest = next((j for j in range(at + 1, len(said)) if streams[j] == streams[at]), None)
        if rest is not None:
            head = head_of.get(at, at)
            said[head] += said[rest]
            head_of[rest] = head
            gone.add(rest)
        at = tags.find("P", at + 1)
    places: list[tuple[int, int]] = []
    for count, index in enumerate(sorted(gone), 1):
        if index + 1 not in gone and index + 1 < len(said):
            places.append((index + 2 - count, index + 2))
    kept = [n for n in range(len(said)) if n not in gone]
    return RuntimeLog("CRI", "".join(said[n] + "\n" for n in kept), "".join(stamps[n] for n in kept), tuple(places))


def _cri_line(line: str) -> tuple[str, str, bool, str] | None:
    m = _CRI_PREFIX.match(line)
    if m is None:
        return None
    return m[1], m[2], m[3] == "P", line[m.end():]


def _read_docker(text: str) -> RuntimeLog:
    return _joined("docker json-file", _lines(text), _docker_line)


def _docker_line(line: str) -> tuple[str, str, bool, str] | None:
    try:
        entry = orjson.loads(line)
    except orjson.JSONDecodeError:
        return None
    if not isinstance(entry, dict) or not isinstance(entry.get("log"), str):
        return None
    said = entry["log"]
    whole = said.endswith("\n")
    return str(entry.get("time") or ""), str(entry.get("stream") or ""), not whole, said[:-1] if whole else said


def _joined(fmt: str, lines: list[str], parse: object) -> RuntimeLog:
    """Each line read; a stream's split line joined into the place of its first piece, with
    that piece's time; a line in neither format kept as it is, without a time."""
    out: list[str] = []
    stamps: list[str] = []
    starts: list[int] = []  # the file line each line of text starts at
    open_piece: dict[str, int] = {}  # stream -> index in `out` of its unfinished line
    for number, line in enumerate(lines, 1):
        parsed = parse(line)  # type: ignore[operator]
        if parsed is None:
            out.append(line)
            stamps.append(_BLANK_STAMP)
            starts.append(number)
            continue
        stamp, stream, partial, said = parsed
        at = open_piece.pop(stream, None)
        if at is not None:
            out[at] += said
        else:
            at = len(out)
            out.append(said)
            stamps.append(fixed_stamp(stamp))
            starts.append(number)
        if partial:
            open_piece[stream] = at
    places: list[tuple[int, int]] = []
    shift = 0
    for n, start in enumerate(starts, 1):
        if start - n != shift:
            shift = start - n
            places.append((n, start))
    text = "\n".join(out) + "\n" if out else ""
    return RuntimeLog(fmt, text, "".join(stamps), tuple(places))
