"""Many dumps in one call: expand the inputs, report each (a failure is recorded and skipped),
then compare them all. Same inputs, same output bytes.

What counts as a dump: a folder, an archive (.tar, .tar.gz, .tgz, .tar.xz, .txz, .tar.bz2, .tbz2,
.zip, .gz, .xz, .bz2) or a dump file (.json, .yaml, .yml, .txt, .log). Other files (README.md,
scripts) are passed over, with a line saying so, when they come from a glob or a folder listing
(names starting with "." or "_", `_generate.py`, `__pycache__`, quietly); named alone, or among
files none of which is a dump by name (pasted write-ups), they are read anyway.
"""

from __future__ import annotations

import errno
import gc
import glob
import json
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from analyzer.errors import AnalyzerError, InputError
from analyzer.ingest.tree import is_archive

if TYPE_CHECKING:
    from analyzer.cluster import Cluster
    from analyzer.report.cluster_report import ReportFiles

DUMP_SUFFIXES = (".tar", ".tar.gz", ".tgz", ".tar.xz", ".txz", ".tar.bz2", ".tbz2", ".zip",
                 ".gz", ".xz", ".bz2", ".json", ".yaml", ".yml", ".txt", ".log")
SEVERITY_RANK = {"info": 0, "warning": 1, "critical": 2}
EXIT_OK, EXIT_FAIL_ON, EXIT_UNREADABLE, EXIT_INTERNAL = 0, 1, 2, 3


@dataclass(slots=True)
class DumpFailure:
    """A dump that gave no report: which input, and why."""

    input: str
    reason: str
    internal: bool = False  # our failure, not the input's

    def to_dict(self) -> dict[str, str]:
        return {"input": self.input, "reason": self.reason}


@dataclass(slots=True)
class BatchResult:
    """What a batch wrote: one report per readable dump, the failures, the comparison files."""

    reports: list[ReportFiles] = field(default_factory=list)
    failures: list[DumpFailure] = field(default_factory=list)
    passed_over: list[str] = field(default_factory=list)  # files among the inputs not read as dumps
    comparison: list[Path] = field(default_factory=list)
    fail_on_hits: int = 0

    @property
    def exit_code(self) -> int:
        """0; 2 if a dump could not be read at all; 3 on an internal error; 1 for --fail-on."""
        if any(not f.internal for f in self.failures):
            return EXIT_UNREADABLE
        if self.failures:
            return EXIT_INTERNAL
        return EXIT_FAIL_ON if self.fail_on_hits else EXIT_OK


def is_dump_path(path: Path) -> bool:
    """Whether a path found by a glob is a dump by the rule above (folder, archive, dump file)."""
    if path.name.startswith((".", "_")):
        return False
    if path.is_dir():
        return True
    return path.is_file() and path.name.lower().endswith(DUMP_SUFFIXES)


def expand_inputs(inputs: Sequence[str]) -> list[str]:
    """The dumps the arguments name: globs expanded (sorted), non-dumps among them dropped,
    explicit paths kept as given (a missing one fails later with its own message)."""
    return sort_inputs(inputs)[0]


def sort_inputs(inputs: Sequence[str]) -> tuple[list[str], list[str]]:
    """(the dumps the arguments name, the files passed over as no dump): see `expand_inputs`.
    Names starting with "." or "_" are not among those passed over: they are hidden by name."""
    out: list[str] = []
    passed_over: list[str] = []
    for arg in inputs:
        if arg != "-" and glob.has_magic(arg):
            for match in sorted(glob.glob(arg)):
                (out if is_dump_path(Path(match)) else passed_over).append(match)
        elif arg != "-" and Path(arg).is_file() and not is_dump_path(Path(arg)) and _shell_expanded(arg, inputs):
            passed_over.append(arg)  # `kda report sample_dumps/*`: the shell expanded the glob into README.md too
        else:
            out.append(arg)
    said = [p for p in passed_over if not Path(p).name.startswith((".", "_"))]
    return list(dict.fromkeys(out)), list(dict.fromkeys(said))


def _shell_expanded(arg: str, inputs: Sequence[str]) -> bool:
    """A non-dump file next to dumps from the same folder came from a shell glob. (Files that
    are all no dump by name, `kda report a.md b.md`, were named one by one: pasted write-ups.)"""
    parent = os.path.dirname(os.path.normpath(arg))
    return any(a != arg and os.path.dirname(os.path.normpath(a)) == parent and is_dump_path(Path(a))
               for a in inputs)


def slug(text: str) -> str:
    """A file-name-safe id: lower case, runs of other characters as '-'.

    >>> slug("Cluster Info (prod).tar.gz")
    'cluster-info-prod'
    """
    name = text
    for suffix in sorted(DUMP_SUFFIXES, key=len, reverse=True):
        if name.lower().endswith(suffix):
            name = name[: -len(suffix)]
            break
    return re.sub(r"[^a-z0-9._]+", "-", name.lower()).strip("-.") or "dump"


def dump_ids(inputs: Sequence[str]) -> list[str]:
    """A stable, unique id per input: its name's slug, with parent folders added on a clash.

    >>> dump_ids(["a/dump", "b/dump", "aks"])
    ['a-dump', 'b-dump', 'aks']
    """
    parts = [[p for p in Path(i).parts if p not in ("/", ".", "..")] or [_unnamed(i)] if i != "-" else ["stdin"]
             for i in inputs]
    depth = [1] * len(inputs)
    ids = [slug(p[-1]) for p in parts]
    for _ in range(8):
        clashes = {i for i in ids if ids.count(i) > 1}
        if not clashes:
            break
        for n, i in enumerate(ids):
            if i in clashes and depth[n] < len(parts[n]):
                depth[n] += 1
                ids[n] = slug("-".join(parts[n][-depth[n]:]))
    # Still equal (the same path twice, spelled differently): number them in input order.
    totals = {i: ids.count(i) for i in ids}
    seen: dict[str, int] = {}
    numbered = []
    for i in ids:
        seen[i] = seen.get(i, 0) + 1
        numbered.append(f"{i}-{seen[i]}" if totals[i] > 1 else i)
    return numbered


def _unnamed(spec: str) -> str:
    """The name of an input whose path names no file (`.`, `..`, `/`): the folder it is."""
    return Path(spec).resolve().name or "root"


def _load(spec: str, show_sensitive: bool = False) -> Cluster:
    from analyzer.cluster import Cluster
    from analyzer.ingest import ingest

    if spec != "-" and not os.path.exists(spec):
        raise InputError(spec, "no such file or folder")
    result = ingest(spec)
    if not result.read_anything:
        said = result.rejections or result.skipped  # refused, else passed over as what it holds
        reasons = "; ".join(f"{r.source} {r.location}: {r.reason}".strip() for r in said[:3])
        raise NothingRead(spec, "nothing could be read" + (f" ({reasons})" if reasons else ""),
                          Cluster(result, show_sensitive=show_sensitive))
    return Cluster(result, show_sensitive=show_sensitive)


def _named_load(spec: str, name: str, show_sensitive: bool) -> Cluster:
    cluster = _load(spec, show_sensitive)
    cluster.name = name
    return cluster


def _plain_size(spec: str) -> int:
    """The bytes a dump file or folder holds, 0 where a second reading of it is not the same
    or not cheap: stdin, an archive or compressed file (decompressed twice, to an unknown size)."""
    if spec == "-":
        return 0
    try:
        if os.path.isdir(spec):
            return sum(os.path.getsize(os.path.join(folder, name))
                       for folder, _, names in os.walk(spec) for name in names)
        with open(spec, "rb") as f:
            head = f.read(512)
        return 0 if is_archive(head) else os.path.getsize(spec)
    except OSError:
        return 0


class NothingRead(InputError):
    """A dump of which nothing could be read, with what its reading found (rejections, files)."""

    def __init__(self, source: str, reason: str, cluster: Cluster) -> None:
        super().__init__(source, reason)
        self.cluster = cluster


def _write_failure_json(exc: NothingRead, folder: Path, reason: str) -> None:
    """--format json keeps its contract for an unreadable dump: report.json holds the inspect
    summary (objects 0, every rejection with file, place and reason) and the error."""
    summary = exc.cluster.summary()
    summary["error"] = reason
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "report.json").write_text(json.dumps(summary, indent=2, sort_keys=True, default=str) + "\n",
                                        encoding="utf-8")


def _fail_on_hits(cluster: Cluster, fail_on: str | None) -> int:
    if fail_on is None:
        return 0
    f = cluster.findings
    failed = f[f["status"] == "fail"]
    threshold = SEVERITY_RANK[fail_on]
    return int(sum(SEVERITY_RANK.get(str(s), 0) >= threshold for s in failed["severity"]))


def run_batch(inputs: Sequence[str], outdir: str | Path, fail_on: str | None = None,
              progress: bool = True, formats: tuple[str, ...] = ("html",),
              show_sensitive: bool = False) -> BatchResult:
    """Report every dump the inputs name into `outdir/<dump-id>/`, and compare them when 2+."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from analyzer.report.cluster_report import render_cluster_report, start_second_process
    from analyzer.report.comparison import render_comparison

    if fail_on is not None and fail_on not in SEVERITY_RANK:
        raise ValueError(f"fail_on must be one of {', '.join(SEVERITY_RANK)}, not {fail_on!r}")
    specs, passed_over = sort_inputs(inputs)
    ids = dump_ids(specs)
    outdir = Path(outdir)
    # The folder is made first: a place that cannot hold it fails the batch once, up front,
    # instead of every dump in turn.
    if outdir.exists() and not outdir.is_dir():
        raise NotADirectoryError(errno.ENOTDIR, "exists and is not a folder", str(outdir))
    outdir.mkdir(parents=True, exist_ok=True)
    result = BatchResult(passed_over=passed_over)
    loaded: list[tuple[str, Cluster]] = []
    console = Console(stderr=True, highlight=False)
    bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                   TimeElapsedColumn(), console=console, disable=not progress, transient=True)
    with bar:
        task = bar.add_task("reporting", total=len(specs))
        for index, (spec, dump_id) in enumerate(zip(specs, ids, strict=True)):
            bar.update(task, description=f"reporting {dump_id}")
            if index and not gc.isenabled():
                # a caller that runs with the collector off (kda report): what the last dump's
                # report left in cycles (figures drawn here, say) is freed before the next
                gc.collect()
            # A large dump is read by a second process too, on the core this one's reading
            # leaves idle; it then makes the timeline and diagrams while this one runs the rules.
            started = start_second_process(partial(_named_load, spec, dump_id, show_sensitive),
                                           _plain_size(spec), formats)
            try:
                cluster = _named_load(spec, dump_id, show_sensitive)
                result.reports.append(render_cluster_report(cluster, outdir / dump_id, formats,
                                                            second_process=None, started=started))
                result.fail_on_hits += _fail_on_hits(cluster, fail_on)
                loaded.append((dump_id, cluster))
            # Failures are listed once, after the batch (summary_lines), each with its input.
            except AnalyzerError as exc:
                reason = exc.reason if isinstance(exc, InputError) and exc.source == spec else str(exc)
                result.failures.append(DumpFailure(spec, reason))
                if isinstance(exc, NothingRead) and "json" in formats:
                    _write_failure_json(exc, outdir / dump_id, reason)
            except Exception as exc:  # our bug on one dump: report it, keep going with the rest
                if isinstance(exc, OSError) and _inside(exc.filename, outdir):
                    raise  # the output cannot be written (disk full, permissions): nor the next one
                result.failures.append(DumpFailure(spec, f"internal error: {type(exc).__name__}: {exc}", True))
            finally:
                if started is not None:
                    started.close()  # (a no-op once the report has its result)
            bar.advance(task)
    if len(loaded) >= 2:
        result.comparison = render_comparison([c for _, c in loaded], outdir, ids=[i for i, _ in loaded],
                                              failures=[f.to_dict() for f in result.failures],
                                              formats=formats)
    return result


def _inside(filename: object, folder: Path) -> bool:
    """Whether an error's file name is in `folder` (or is it)."""
    if not isinstance(filename, str | os.PathLike):
        return False
    try:
        return Path(filename).resolve().is_relative_to(folder.resolve())
    except (OSError, ValueError):
        return False


def summary_lines(result: BatchResult) -> list[str]:
    """One line per report written, per failure and per file passed over, for the terminal."""
    lines: list[Any] = [f"wrote {r.html or r.json}" for r in result.reports]
    if result.comparison:
        lines.append(f"wrote {result.comparison[0]}")
    lines += [f"failed {f.input}: {f.reason}" for f in result.failures]
    lines += [f"passed over {p}: named among dumps, and not one by its name (a folder, an archive, "
              ".json, .yaml, .txt, .log); name it alone to read it" for p in result.passed_over]
    return lines
