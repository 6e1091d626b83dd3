"""Fixtures shared by the ingest tests."""

from __future__ import annotations

import pytest

from analyzer import forked
from analyzer.ingest import beside as beside_module


class Children:
    """What the children beside a List's reader did: how many were started, and how many chunks
    each read (None: no result: it failed, or found no CPU idle for it)."""

    def __init__(self) -> None:
        self.started = 0
        self.chunks_read: list[int | None] = []


@pytest.fixture
def children_beside(monkeypatch: pytest.MonkeyPatch) -> Children:
    """Children started beside a large List's reader (`analyzer/ingest/beside.py`) as if a CPU
    were idle for them (the suite runs on every CPU), and watched."""
    monkeypatch.setattr(forked, "_idle_cpu_beside_parent", lambda: True)
    children = Children()
    real_fork_call = beside_module.fork_call

    def fork_call(make, result_type, **kwargs):
        child = real_fork_call(make, result_type, **kwargs)
        if child is None:
            return None
        children.started += 1
        real_result = child.result

        def result():
            got = real_result()
            children.chunks_read.append(None if got is None else len(got.counts))
            return got

        child.result = result
        return child

    monkeypatch.setattr(beside_module, "fork_call", fork_call)
    return children
