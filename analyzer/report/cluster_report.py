"""One cluster's report: its facts and diagrams written as report.html, report.md (+ SVGs), report.json."""

from __future__ import annotations

import json
from collections.abc import Callable
from contextlib import ExitStack, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from analyzer.collector import collector_paused
from analyzer.forked import fork_call
from analyzer.report.cluster_tables import cluster_tables
from analyzer.report.render import Diagram, draw, render_page, write_diagrams
from analyzer.report.sections import cluster_facts, section, timeline_section

if TYPE_CHECKING:
    from analyzer.cluster import Cluster

FORMATS = ("html", "json")
Part = TypeVar("Part")


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
    dependencies, nodes, timeline = diagrams_without_findings(cluster, namespace)
    return [dependencies, nodes, findings_diagram(cluster), timeline]


def findings_diagram(cluster: Cluster) -> Diagram:
    from analyzer.report import diagrams

    return draw("findings", "Failed checks by severity and category",
                lambda: diagrams.findings_by_severity(cluster))


def diagrams_without_findings(cluster: Cluster, namespace: str | None = None) -> list[Diagram]:
    """The dependencies, nodes and timeline diagrams: those that do not read the findings."""
    from analyzer.report import diagrams
    from analyzer.report.timeline import timeline_picture

    if namespace is None:
        try:
            choice = diagrams.system_namespace(cluster)
        except Exception as exc:  # the graph failing must not lose the other diagrams
            choice = diagrams.NamespaceChoice(None, f"{type(exc).__name__}: {exc}")
    else:
        choice = diagrams.NamespaceChoice(namespace, "asked for")
    if choice.namespace is None:
        first = Diagram("dependencies", "Dependencies of the system components", reason=choice.why)
    else:
        ns = choice.namespace
        title = f"Dependencies in namespace {ns}" + (
            f" ({choice.why})" if ns != "kube-system" and choice.why != "asked for" else "")
        first = draw(f"dependencies-{ns}", title, lambda: diagrams.dependency_diagram(cluster, ns))
    return [
        first,
        draw("nodes", "Pods per node, and nodes by kubelet and runtime",
             lambda: diagrams.node_distribution(cluster)),
        draw("timeline", "Restarts, warnings and transitions before the capture",
             lambda: timeline_picture(cluster)),
    ]


@dataclass(slots=True)
class PartsWithoutFindings:
    """What a report shows that does not wait for its findings: the timeline section, and the
    dependencies, nodes and timeline diagrams (none for a report without a page)."""

    timeline: dict[str, Any]
    diagrams: list[Diagram]


def parts_without_findings(cluster: Cluster, pages: bool) -> PartsWithoutFindings:
    return PartsWithoutFindings(section(timeline_section, cluster),
                                diagrams_without_findings(cluster) if pages else [])


# Below this many objects a report takes about a second: second processes would save little of
# it, and each would import matplotlib again.
SECOND_PROCESS_OBJECTS = 5000


def render_cluster_report(cluster: Cluster, outdir: str | Path, formats: tuple[str, ...] = ("html",),
                          facts: dict[str, Any] | None = None,
                          second_process: bool | None = False) -> ReportFiles:
    """Write the report of one cluster into `outdir` (created): HTML+Markdown and/or JSON.

    `second_process`: make what does not wait for the findings (the timeline, three of the four
    diagrams) in a process forked now, on another core, while this one runs the findings; then
    the findings diagram in another, while this one makes the sections. None decides by the
    dump's size. The report is the same either way, byte for byte; where no second process can
    run (`analyzer.forked.can_fork`) or it fails, this one makes the part itself.
    """
    unknown = set(formats) - set(FORMATS)
    if unknown:
        raise ValueError(f"unknown report format(s): {', '.join(sorted(unknown))}")
    directory = Path(outdir)
    directory.mkdir(parents=True, exist_ok=True)
    if second_process is None:
        second_process = len(cluster.objects) >= SECOND_PROCESS_OBJECTS
    pages = "html" in formats
    with ExitStack() as beside:
        # (facts given were made here already, timeline and all: only diagrams are left to make)
        parts = beside.enter_context(_Beside(
            lambda: parts_without_findings(cluster, pages), PartsWithoutFindings,
            second_process and (facts is None or pages)))
        # Figures, pages and table blocks leave few cycles, while the dump's objects, graph and
        # findings are alive: a full collection in the middle would walk them all (0.3-0.4 s of
        # a 20,000-pod report's render), as in the graph's build and the rules' run.
        beside.enter_context(collector_paused())
        return _render(cluster, directory, formats, facts, parts, second_process, beside)


class _Beside(Generic[Part]):
    """A part of the report made in a second process, started now, when there is one and it
    succeeds; else made here, when first asked for."""

    def __init__(self, make: Callable[[], Part], part_type: type[Part], second_process: bool) -> None:
        self._make = make
        self._forked = fork_call(make, part_type) if second_process else None
        self._part: Part | None = None

    def get(self) -> Part:
        if self._part is None:
            forked, self._forked = self._forked, None
            part = forked.result() if forked else None
            self._part = part if part is not None else self._make()
        return self._part

    def __enter__(self) -> _Beside[Part]:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._forked is not None:  # not asked for (an error here): stop the child
            self._forked.close()


def _render(cluster: Cluster, directory: Path, formats: tuple[str, ...],
            facts: dict[str, Any] | None, parts: _Beside[PartsWithoutFindings],
            second_process: bool, beside: ExitStack) -> ReportFiles:
    pages = "html" in formats
    if pages and second_process:
        # the findings made first, so that the process forked next draws their diagram while
        # this one makes the sections (and never imports matplotlib); a failure is for the
        # sections and the diagram to say, as always
        with suppress(Exception):
            cluster.findings  # noqa: B018
        chart = beside.enter_context(_Beside(lambda: findings_diagram(cluster), Diagram, True))
    if facts is None:
        facts = cluster_facts(cluster, made={"timeline": lambda: parts.get().timeline})
    files = ReportFiles(cluster.name, directory, facts=facts)
    if pages:
        dependencies, nodes, timeline = parts.get().diagrams
        findings = chart.get() if second_process else findings_diagram(cluster)
        drawn = [dependencies, nodes, findings, timeline]
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
