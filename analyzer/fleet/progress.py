"""Progress while a fleet runs: a Rich bar per phase on stderr, or nothing."""

from __future__ import annotations

from types import TracebackType

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)


class FleetProgress:
    """One bar per phase (hashing, analysing); a no-op when disabled."""

    def __init__(self, enabled: bool, console: Console | None = None) -> None:
        self._progress = Progress(
            TextColumn("{task.description:<10}"), BarColumn(), MofNCompleteColumn(),
            TextColumn("{task.fields[failed]} failed"), TimeElapsedColumn(),
            TimeRemainingColumn(), TextColumn("{task.fields[last]}", style="dim"),
            console=console or Console(stderr=True), transient=False,
        ) if enabled else None
        self._tasks: dict[str, TaskID] = {}
        self._failed: dict[str, int] = {}

    def __enter__(self) -> FleetProgress:
        if self._progress is not None:
            self._progress.start()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self._progress is not None:
            self._progress.stop()

    def phase(self, name: str, total: int) -> None:
        """Start a phase with `total` steps."""
        self._failed[name] = 0
        if self._progress is not None:
            self._tasks[name] = self._progress.add_task(name, total=total, failed=0, last="")

    def advance(self, name: str, label: str, ok: bool = True) -> None:
        """One step of the phase done (`label` names the dump)."""
        if not ok:
            self._failed[name] += 1
        if self._progress is not None:
            self._progress.update(self._tasks[name], advance=1, failed=self._failed[name],
                                  last=label[-40:])
