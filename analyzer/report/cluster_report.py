"""One cluster's report: its facts and diagrams written as report.html, report.md (+ SVGs), report.json."""

from __future__ import annotations

import json
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from analyzer.collector import collector_paused
from analyzer.forked import ChildLetters, Forked, fork_call
from analyzer.report.cluster_tables import cluster_tables
from analyzer.report.render import Diagram, draw, render_page, write_diagrams
from analyzer.report.sections import SECTIONS, cluster_facts, section
from analyzer.report.views import NamespaceChoice, system_namespace

if TYPE_CHECKING:
    from analyzer.cluster import Cluster

FORMATS = ("html", "json")


@dataclass(slots=True)
class ReportFiles:
    """What a cluster's report wrote, and the facts it was written from."""

    name: str
    directory: Path
    html: Path | None = None
    markdown: Path | None = None
    json: Path | None = None
    images: list[Path] = field(default_factory=list)
    facts: dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def files(self) -> list[Path]:
        return [p for p in (self.html, self.markdown, self.json, *self.images) if p is not None]


def cluster_diagrams(cluster: Cluster, namespace: str | None = None) -> list[Diagram]:
    """The report's diagrams: the dependencies of a namespace (by default the one that best shows
    the system components), nodes and pods, findings, the timeline. One with nothing to draw is
    left out with the reason."""
    return [dependencies_diagram(cluster, namespace), nodes_diagram(cluster),
            findings_diagram(cluster), timeline_diagram(cluster)]


FINDINGS_TITLE = "Failed checks by severity and category"


def findings_diagram(cluster: Cluster) -> Diagram:
    from analyzer.report import diagrams

    return draw("findings", FINDINGS_TITLE, lambda: diagrams.findings_by_severity(cluster))


def nodes_diagram(cluster: Cluster) -> Diagram:
    from analyzer.report import diagrams

    return draw("nodes", "Pods per node, and nodes by kubelet and runtime",
                lambda: diagrams.node_distribution(cluster))


def timeline_diagram(cluster: Cluster) -> Diagram:
    from analyzer.report.timeline import timeline_picture

    return draw("timeline", "Restarts, warnings and transitions before the capture",
                lambda: timeline_picture(cluster))


def dependency_choice(cluster: Cluster, namespace: str | None = None) -> NamespaceChoice:
    """The namespace the dependencies diagram draws, and why (the graph failing: why not)."""
    if namespace is not None:
        return NamespaceChoice(namespace, "asked for")
    try:
        return system_namespace(cluster)
    except Exception as exc:  # the graph failing must not lose the other diagrams
        return NamespaceChoice(None, f"{type(exc).__name__}: {exc}")


def dependencies_diagram(cluster: Cluster, namespace: str | None = None) -> Diagram:
    choice = dependency_choice(cluster, namespace)
    if choice.namespace is None:
        return _no_dependencies(choice.why)

    def build() -> Any:
        from analyzer.report import diagrams

        return diagrams.dependency_diagram(cluster, choice.namespace)

    return draw(*_dependencies_names(choice), build)


def _no_dependencies(why: str) -> Diagram:
    return Diagram("dependencies", "Dependencies of the system components", reason=why)


def _dependencies_names(choice: NamespaceChoice) -> tuple[str, str]:
    ns = choice.namespace
    title = f"Dependencies in namespace {ns}" + (
        f" ({choice.why})" if ns != "kube-system" and choice.why != "asked for" else "")
    return f"dependencies-{ns}", title


# -- the report's second process ----------------------------------------------------------

# Sections that read neither the findings nor the graph: the second process makes them. (The
# pods section, which reads what the findings say of them, is made here: sent over it cost
# more, the second process encoding and this one decoding 20,000 rows, than making it.)
SECTIONS_BESIDE = ("read", "nodes", "services", "timeline")
# The table family both processes read: the second builds it first and sends it over.
FAMILY_BESIDE = "pods"


@dataclass(slots=True)
class PartsBeside:
    """What a report shows that the second process makes: the sections that read neither the
    findings nor the graph, and the nodes and timeline diagrams (none for a report without a
    page); then, from what this process sent it, the dependencies and findings diagrams and the
    pods section (missing where that did not come: this process makes them)."""

    sections: dict[str, dict[str, Any]]
    diagrams: list[Diagram]
    dependencies: Diagram | None = None
    findings: Diagram | None = None


class AheadLetter(msgspec.Struct, array_like=True):
    """What both processes read and the second one makes first: the pods tables (as
    `analyzer.model.shipping` writes them) and the capture estimate; None where not sent. And
    how much the second process read (`read_counts`): one that read the dump itself (started
    before this one read it) must have read the same."""

    tables: bytes | None = None
    capture: bytes | None = None
    read: list[int] | None = None


def read_counts(cluster: Cluster) -> list[int]:
    """How many objects, logs, rejections and files passed over a reading of a dump gave."""
    ingest = cluster.ingest
    return [len(ingest.objects), len(ingest.logs), len(ingest.rejections), len(ingest.skipped)]


class DependenciesLetter(msgspec.Struct, array_like=True):
    """What the dependencies diagram shows, sent to the second process: the namespace chosen
    and why, and its view of the graph (or why there is none)."""

    namespace: str | None
    why: str
    view: bytes | None = None
    error: str | None = None


class FindingsLetter(msgspec.Struct, array_like=True):
    """What the findings say that the second process shows: their tally for the chart (or why
    there is none: the findings failing)."""

    tally: bytes | None = None
    error: str | None = None


def parts_beside(cluster: Cluster, pages: bool, sections: bool,
                 letters: ChildLetters | None = None) -> PartsBeside:
    """The second process's parts (or this process's, made alone: then without letters, the
    dependencies and findings diagrams left to the caller)."""
    if letters is not None:
        letters.send(_ahead_letter(cluster))
    made = {name: section(build, cluster) for name, build in SECTIONS if name in SECTIONS_BESIDE} \
        if sections else {}
    parts = PartsBeside(made, [nodes_diagram(cluster), timeline_diagram(cluster)] if pages else [])
    if letters is None:
        return parts
    if pages:
        parts.dependencies = _dependencies_from(letters.receive(), cluster)
    data = letters.receive()
    if data is None:
        return parts
    if pages:
        parts.findings = _findings_chart_from(msgspec.msgpack.decode(data, type=FindingsLetter), cluster)
    return parts


def _ahead_letter(cluster: Cluster) -> bytes:
    from analyzer.model.registry import family_tables
    from analyzer.model.shipping import tables_to_bytes

    letter = AheadLetter(read=read_counts(cluster))
    with suppress(Exception):  # not sent: the other process builds the family itself
        letter.tables = tables_to_bytes(family_tables(FAMILY_BESIDE, cluster))
    with suppress(Exception):
        estimate = cluster.capture
        sent = msgspec.msgpack.encode(estimate)
        # sent only if it comes back as it is (a time in another zone would come back in UTC)
        if repr(msgspec.msgpack.decode(sent, type=type(estimate))) == repr(estimate):
            letter.capture = sent
    return msgspec.msgpack.encode(letter)


def _adopt_ahead(cluster: Cluster, data: bytes | None) -> bool:
    """Keep what the second process sent ahead as if made here; what did not come (or would
    not be exactly what this process makes) is made here when first read. False where the
    second process read another dump than this one (a file changed between the two readings):
    nothing of it may be used."""
    from analyzer.ingest.result import CaptureEstimate
    from analyzer.model.registry import adopt_family
    from analyzer.model.shipping import tables_from_bytes

    if not data:
        return True
    try:
        letter = msgspec.msgpack.decode(data, type=AheadLetter)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return True
    if letter.read is not None and letter.read != read_counts(cluster):
        return False
    if letter.tables:
        with suppress(ValueError):
            adopt_family(FAMILY_BESIDE, cluster, tables_from_bytes(letter.tables))
    if letter.capture:
        with suppress(msgspec.DecodeError, msgspec.ValidationError):
            # (a cached property of the Cluster: kept as if it had computed it)
            vars(cluster).setdefault("capture", msgspec.msgpack.decode(letter.capture, type=CaptureEstimate))
    return True


def _dependencies_letter(cluster: Cluster) -> bytes:
    from analyzer.report.views import namespace_view, view_to_bytes

    choice = dependency_choice(cluster)
    letter = DependenciesLetter(choice.namespace, choice.why)
    if choice.namespace is not None:
        try:
            view = namespace_view(cluster.graph, choice.namespace)
        except Exception as exc:  # noqa: BLE001 - the diagram says why, as when drawn here
            letter.error = f"{type(exc).__name__}: {exc}"
        else:
            with suppress(ValueError):  # a view that would not come back as it is: drawn here
                letter.view = view_to_bytes(view)
    return msgspec.msgpack.encode(letter)


def _dependencies_from(data: bytes | None, cluster: Cluster) -> Diagram | None:
    from analyzer.report.views import view_from_bytes

    if data is None:
        return None
    letter = msgspec.msgpack.decode(data, type=DependenciesLetter)
    choice = NamespaceChoice(letter.namespace, letter.why)
    if choice.namespace is None:
        return _no_dependencies(choice.why)
    diagram_id, title = _dependencies_names(choice)
    if letter.error is not None:
        return Diagram(diagram_id, title, reason=letter.error)
    if letter.view is None:
        return None

    def build() -> Any:
        from analyzer.report import diagrams

        return diagrams.view_diagram(view_from_bytes(letter.view), cluster.name)

    return draw(diagram_id, title, build)


def _findings_letter(cluster: Cluster) -> bytes:
    from analyzer.report.views import findings_tally, tally_to_bytes

    letter = FindingsLetter()
    try:
        letter.tally = tally_to_bytes(findings_tally(cluster.findings))
    except Exception as exc:  # noqa: BLE001 - the chart says why, as when drawn here
        letter.error = f"{type(exc).__name__}: {exc}"
    return msgspec.msgpack.encode(letter)


def _findings_chart_from(letter: FindingsLetter, cluster: Cluster) -> Diagram:
    from analyzer.report.views import tally_from_bytes

    if letter.tally is None:
        return Diagram("findings", FINDINGS_TITLE, reason=letter.error or "no findings")

    def build() -> Any:
        from analyzer.report import diagrams

        return diagrams.tally_chart(tally_from_bytes(letter.tally), cluster.name)

    return draw("findings", FINDINGS_TITLE, build)


# Below this many objects a report takes about a second: a second process would save little of
# it, and would import matplotlib again.
SECOND_PROCESS_OBJECTS = 5000
# A dump file or folder this large is read by the second process too, from the start, on the
# core this process's reading leaves idle: then neither copies the pages of the other's dump
# (a child that works from its parent's dump copies each page it reads: 0.25 s of the
# parent's and 0.25 s of the child's CPU on a 743 MB dump).
EARLY_BYTES = 32 << 20
# What a dump read into memory takes, for each byte of it on disk (JSON: 1.3 at most).
MEMORY_PER_BYTE = 1.5


def start_second_process(load: Callable[[], Cluster], size: int,
                         formats: tuple[str, ...] = ("html",)) -> Forked[PartsBeside] | None:
    """A second process for the report of a dump not read yet (`size` bytes on disk, not
    compressed): it reads the dump with `load` itself, then makes its parts of the report. For
    `render_cluster_report(..., started=)`, which closes it; None where it would not help (a
    small dump, no fork here, too little memory). `load` must read exactly what this process
    will read (the same files): the report checks that both read as much."""
    import warnings

    if size < EARLY_BYTES:
        return None
    pages = "html" in formats

    def make(letters: ChildLetters) -> PartsBeside:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # said by this process, which reads the dump too
            cluster = load()
        return parts_beside(cluster, pages, True, letters)

    return fork_call(make, PartsBeside, letters=True, own_memory=int(size * MEMORY_PER_BYTE))


def render_cluster_report(cluster: Cluster, outdir: str | Path, formats: tuple[str, ...] = ("html",),
                          facts: dict[str, Any] | None = None,
                          second_process: bool | None = False,
                          started: Forked[PartsBeside] | None = None) -> ReportFiles:
    """Write the report of one cluster into `outdir` (created): HTML+Markdown and/or JSON.

    `second_process`: make what does not read the findings or the graph (the pods tables, some
    sections, the diagrams) in a process forked now, on another core, while this one builds the
    graph and runs the findings; it gets from this one what the dependencies and findings
    diagrams show. None decides by the dump's size. The report is the same either way, byte for
    byte; where no second process can run (`analyzer.forked.can_fork`) or it fails, this one
    makes the part itself. `started`: the second process, started before the dump was read
    (`start_second_process`), used instead of forking one now (and ended if none is wanted).
    """
    unknown = set(formats) - set(FORMATS)
    if unknown:
        raise ValueError(f"unknown report format(s): {', '.join(sorted(unknown))}")
    directory = Path(outdir)
    directory.mkdir(parents=True, exist_ok=True)
    if second_process is None:
        second_process = len(cluster.objects) >= SECOND_PROCESS_OBJECTS
    pages = "html" in formats
    with _Beside(cluster, pages, sections=facts is None,
                 second_process=second_process and (facts is None or pages), started=started) as beside, \
            collector_paused():
        # Figures, pages and table blocks leave few cycles, while the dump's objects, graph and
        # findings are alive: a full collection in the middle would walk them all (0.3-0.4 s of
        # a 20,000-pod report's render), as in the graph's build and the rules' run.
        return _render(cluster, directory, formats, facts, beside)


class _Beside:
    """The report's parts made in a second process, started now, when there is one and it
    succeeds; else made here, when first asked for."""

    def __init__(self, cluster: Cluster, pages: bool, sections: bool, second_process: bool,
                 started: Forked[PartsBeside] | None = None) -> None:
        self._cluster, self._pages, self._sections = cluster, pages, sections
        self._parts: PartsBeside | None = None
        if started is not None and not (second_process and sections):
            started.close()  # (it makes the sections: a report given its facts has no use for it)
            started = None
        if started is not None or not second_process:
            self._forked = started
        else:
            self._forked = fork_call(lambda letters: parts_beside(cluster, pages, sections, letters),
                                     PartsBeside, letters=True)

    def before_findings(self) -> None:
        """This process's work that the other's needs (the dependencies diagram's view), in an
        order that gives it time: the distribution and the graph (as the findings would), then
        the tables and capture estimate it sent."""
        forked = self._forked
        if forked is None:
            return
        cluster = self._cluster
        # (failing here, they fail again where they are read, and say so there)
        with suppress(Exception):
            cluster.distribution  # noqa: B018
        with suppress(Exception):
            cluster.graph  # noqa: B018
        if not _adopt_ahead(cluster, forked.receive()):
            forked.close()  # it read another dump: everything is made here
            self._forked = None
            return
        if self._pages:
            forked.send(_dependencies_letter(cluster))

    def after_findings(self) -> None:
        if self._forked is not None:
            if self._pages:
                self._forked.send(_findings_letter(self._cluster))
            self._forked.end_letters()

    def get(self) -> PartsBeside:
        if self._parts is None:
            forked, self._forked = self._forked, None
            parts = forked.result() if forked else None
            self._parts = parts if parts is not None else parts_beside(self._cluster, self._pages,
                                                                       self._sections)
            if self._pages and self._parts.dependencies is None:
                self._parts.dependencies = dependencies_diagram(self._cluster)
            if self._pages and self._parts.findings is None:
                self._parts.findings = findings_diagram(self._cluster)
        return self._parts

    def __enter__(self) -> _Beside:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._forked is not None:  # not asked for (an error here): stop the child
            self._forked.close()


def _render(cluster: Cluster, directory: Path, formats: tuple[str, ...],
            facts: dict[str, Any] | None, beside: _Beside) -> ReportFiles:
    pages = "html" in formats
    beside.before_findings()
    with suppress(Exception):  # a failure is for the sections and the diagram to say, as always
        cluster.findings  # noqa: B018
    beside.after_findings()
    if facts is None:
        facts = cluster_facts(cluster, made={name: _made_beside(beside, name, build, cluster)
                                             for name, build in SECTIONS
                                             if name in SECTIONS_BESIDE})
    files = ReportFiles(cluster.name, directory, facts=facts)
    if pages:
        parts = beside.get()
        dependencies, nodes, timeline = parts.dependencies, *parts.diagrams
        drawn = [dependencies, nodes, parts.findings, timeline]
        tables = cluster_tables(facts)
        files.html = directory / "report.html"
        files.html.write_text(render_page("cluster.html.j2", r=facts, t=tables, diagrams=drawn),
                              encoding="utf-8")
        files.markdown = directory / "report.md"
        files.markdown.write_text(render_page("cluster.md.j2", r=facts, t=tables, diagrams=drawn),
                                  encoding="utf-8")
        files.images = write_diagrams(drawn, directory)
    if "json" in formats:
        files.json = directory / "report.json"
        files.json.write_text(json.dumps(facts, indent=2, sort_keys=True, default=str) + "\n",
                              encoding="utf-8")
    return files


def _made_beside(beside: _Beside, name: str, build: Callable[[Cluster], dict[str, Any]],
                 cluster: Cluster) -> Callable[[], dict[str, Any]]:
    """The section the second process made, or (where it did not) made here."""
    def made() -> dict[str, Any]:
        done = beside.get().sections.get(name)
        return done if done is not None else section(build, cluster)
    return made
