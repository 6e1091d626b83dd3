"""The narrow view of a dump every stage reads: objects by kind, coverage, capture time, logs.

`analyzer.cluster.Cluster` satisfies it (and the wider views the stages above declare); a stage
types its input with it and never imports `Cluster`, so the stages stay below the facade.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Protocol

from analyzer.ingest.records import KubeObject, LogRecord
from analyzer.ingest.result import CaptureEstimate, IngestResult


class Dump(Protocol):
    """One dump as read: what ingestion kept, indexed by kind, with its coverage and capture time."""

    @property
    def name(self) -> str: ...

    @property
    def show_sensitive(self) -> bool:
        """Whether credential-looking values are shown as they are (masked by default)."""
        ...

    @property
    def ingest(self) -> IngestResult:
        """Everything ingestion hands on: objects, logs, rejections, accounting, coverage."""
        ...

    @property
    def objects(self) -> list[KubeObject]: ...

    @property
    def logs(self) -> list[LogRecord]: ...

    @property
    def capture_time(self) -> datetime | None: ...

    @property
    def capture(self) -> CaptureEstimate:
        """The capture estimate: time, the signal that gave it, confidence, periods (stitched)."""
        ...

    def objects_of(self, *kinds: str, custom: bool = False) -> Iterator[KubeObject]:
        """The objects of the given kinds, in dump order (custom resources named like a
        built-in kind only with `custom=True`)."""
        ...

    def covers(self, kind: str) -> bool:
        """Whether the dump collected this kind at all (so an absent object is really missing)."""
        ...
