"""The Cluster: one dump, read once, with its tables, distribution, graph and findings on demand.

The facade on top of the stages: it composes them, each imported on first use, and each stage
reads it through the Protocol of its own layer (`analyzer.ingest.dump.Dump`,
`analyzer.model.dump.ModeledDump`, `analyzer.findings.dump.AnalyzedDump`), never importing this
package (docs/architecture.md).
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from datetime import datetime
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from analyzer.ingest import IngestResult, KubeObject, LogRecord, ingest
from analyzer.kube.kinds import BUILTIN_KINDS

if TYPE_CHECKING:
    import networkx as nx
    import pandas as pd

    from analyzer.timeline import TimelineSummary


class Tables(Mapping[str, "pd.DataFrame"]):
    """Table name -> DataFrame, built on first access; also `tables.pods` attribute access."""

    def __init__(self, cluster: Cluster) -> None:
        self._cluster = cluster
        self._built: dict[str, pd.DataFrame] = {}

    def __getitem__(self, name: str) -> pd.DataFrame:
        if name not in self._built:
            from analyzer.cluster.tables import build_table, table_names
            from analyzer.model.registry import unknown_table

            names = table_names()
            if name not in names:
                raise unknown_table(name, names)
            self._built[name] = build_table(name, self._cluster)
        return self._built[name]

    def __getattr__(self, name: str) -> pd.DataFrame:
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self[name]
        except KeyError as exc:
            raise AttributeError(str(exc)) from None

    def __iter__(self) -> Iterator[str]:
        from analyzer.cluster.tables import table_names

        return iter(table_names())

    def __len__(self) -> int:
        from analyzer.cluster.tables import table_names

        return len(table_names())

    def __dir__(self) -> list[str]:
        from analyzer.cluster.tables import table_names

        return [*super().__dir__(), *table_names()]

    def __repr__(self) -> str:
        return f"<Tables: {', '.join(self)}>"


class Cluster:
    """One dump: what was read (`ingest`), typed tables, and the analyses built on them."""

    def __init__(
        self, result: IngestResult, name: str | None = None, show_sensitive: bool = False
    ) -> None:
        self.ingest = result
        self.name = name or _default_name(result)
        # Credential-looking values (event messages, annotations, findings' evidence) are
        # masked in every output unless this is set. Secret data is never kept at all.
        self.show_sensitive = show_sensitive
        self.tables = Tables(self)

    # -- what was read -------------------------------------------------------------------

    @property
    def objects(self) -> list[KubeObject]:
        return self.ingest.objects

    def objects_of(self, *kinds: str, custom: bool = False) -> Iterator[KubeObject]:
        """The objects of the given kinds, in dump order.

        A custom resource named like a built-in kind (longhorn.io's `Node`, a Knative
        `Service`) is not that kind: it is left out unless `custom=True`.
        """
        index = self._all_by_kind if custom else self._by_kind
        if len(kinds) == 1:
            return iter(index.get(kinds[0], ()))
        wanted = set(kinds)
        keep = set(map(id, (o for k in wanted for o in index.get(k, ()))))
        return (o for o in self.ingest.objects if id(o) in keep)

    @cached_property
    def _all_by_kind(self) -> dict[str, list[KubeObject]]:
        # Every stage asks for objects by kind, many times: index them once, in dump order.
        index: dict[str, list[KubeObject]] = {}
        for obj in self.ingest.objects:
            index.setdefault(obj.kind, []).append(obj)
        return index

    @cached_property
    def _by_kind(self) -> dict[str, list[KubeObject]]:
        from analyzer.kube.kinds import is_builtin_group

        index = {}
        for kind, objs in self._all_by_kind.items():
            if kind in BUILTIN_KINDS:
                # Decided per group, not per object: a kind's objects share one or two groups.
                groups = {o.key.group for o in objs}
                builtin = {g for g in groups if is_builtin_group(kind, g)}
                if builtin != groups:
                    objs = [o for o in objs if o.key.group in builtin]
            index[kind] = objs
        return index

    @property
    def logs(self) -> list[LogRecord]:
        return self.ingest.logs

    @cached_property
    def capture_time(self) -> datetime | None:
        return self.capture.time

    @cached_property
    def capture(self) -> Any:
        """The capture estimate: time, the signal that gave it, confidence, periods (stitched)."""
        return self.ingest.capture

    def covers(self, kind: str) -> bool:
        """Whether the dump collected this kind at all (so an absent object is really missing)."""
        return kind in self.ingest.collected_kinds or kind in self._all_by_kind

    # -- analyses (each stage imported on first use) ------------------------------------

    @cached_property
    def distribution(self) -> Any:
        from analyzer.distributions import detect_distribution

        return detect_distribution(self)

    @cached_property
    def virtual(self) -> Any:
        """Whether the dump is of a virtual cluster (vcluster and its like), with evidence."""
        from analyzer.distributions.virtual import detect_virtual

        return detect_virtual(self)

    @cached_property
    def graph(self) -> nx.MultiDiGraph:
        from analyzer.graph import build_graph

        return build_graph(self)

    def impact(self, key: str) -> Any:
        """Everything that depends on the object `key`, transitively, with the paths."""
        from analyzer.graph import impact

        return impact(self.graph, key)

    def dependencies(self, key: str) -> Any:
        """Everything the object `key` depends on, transitively, with the paths."""
        from analyzer.graph import dependencies

        return dependencies(self.graph, key)

    @cached_property
    def findings(self) -> pd.DataFrame:
        from analyzer.findings import run_rules

        return run_rules(self)

    @cached_property
    def incidents(self) -> pd.DataFrame:
        """Findings that share a cause, grouped and ranked (most severe, widest reach first)."""
        from analyzer.findings import run_incidents

        return run_incidents(self)

    @cached_property
    def timeline(self) -> pd.DataFrame:
        """Every dated fact of the dump (and the spans grouping them), oldest first."""
        from analyzer.timeline import build_timeline

        return build_timeline(self)

    @cached_property
    def timeline_summary(self) -> TimelineSummary:
        """The timeline's counts, spans, marks and densest periods (what the report reads)."""
        from analyzer.timeline import summarize, timeline_summary

        if "timeline" in self.__dict__:  # the whole timeline is built already: read from it
            return summarize(self.timeline)
        return timeline_summary(self)

    # -- export --------------------------------------------------------------------------

    def to_parquet(self, directory: str | os.PathLike[str]) -> list[Path]:
        """Write every table as `<directory>/<table>.parquet`; returns the files written."""
        from analyzer.model.export import write_parquet

        return write_parquet(self, Path(directory))

    def summary(self) -> dict[str, Any]:
        """The `kda inspect --format json` contract: counts, rejections, coverage, capture time."""
        from analyzer.cluster.summary import summarize

        return summarize(self)

    def _repr_html_(self) -> str:
        from analyzer.cluster.summary import summary_html

        return summary_html(self)

    def __repr__(self) -> str:
        r = self.ingest
        return (
            f"<Cluster {self.name!r}: {len(r.objects)} objects, {len(r.rejections)} rejected, "
            f"{len(r.logs)} logs>"
        )


def _default_name(result: IngestResult) -> str:
    if len(result.inputs) == 1:
        p = Path(result.inputs[0].split("!/")[0])
        name = p.name
        for suffix in (".gz", ".tgz", ".xz", ".tar", ".zip", ".json", ".yaml", ".yml", ".txt"):
            name = name.removesuffix(suffix)
        if name in ("cluster-info-dump", "dump", "") and p.parent.name:
            name = p.parent.name
        return name or "cluster"
    return "cluster"


def load(*inputs: Any, name: str | None = None, show_sensitive: bool = False) -> Cluster:
    """Read dumps (paths, "-", bytes, text, or {path: content} maps) into one Cluster.

    A `str` that is not an existing path and contains a newline, or opens with `{` or `[` (one
    line of JSON), is taken as dump text. A path that names nothing raises MissingInputError
    (a FileNotFoundError), naming the closest names beside it.
    """
    from analyzer.ingest.tree import MemoryTree

    specs: list[Any] = []
    for i, spec in enumerate(inputs):
        if isinstance(spec, str) and _is_dump_text(spec) and not os.path.exists(spec):
            specs.append(MemoryTree({"": spec}, name=f"<text {i}>"))
        elif isinstance(spec, str | os.PathLike) and str(spec) != "-" and not os.path.exists(spec):
            # A mistyped path in a notebook raises, as open() would, rather than give a Cluster
            # of nothing that reads on as empty tables (kda says it once and exits 2).
            raise _missing_input(spec)
        else:
            specs.append(spec)
    return Cluster(ingest(*specs), name=name, show_sensitive=show_sensitive)


def _missing_input(spec: str | os.PathLike[str]) -> Exception:
    from difflib import get_close_matches

    from analyzer.errors import MissingInputError

    path = Path(spec)
    reason = "no such file or folder"
    if path.name and path.parent.is_dir():
        near = get_close_matches(path.name, [p.name for p in path.parent.iterdir()], n=3)
        if near:
            reason += f"; did you mean {', '.join(str(path.parent / n) for n in near)}?"
    return MissingInputError(str(spec), reason)


def _is_dump_text(spec: str) -> bool:
    # A path never holds a newline, and no one names a dump file "{...": one line of JSON
    # (`kubectl get -o json | jq -c`) is text, not a file name too long to open.
    return "\n" in spec or spec.lstrip()[:1] in ("{", "[")
