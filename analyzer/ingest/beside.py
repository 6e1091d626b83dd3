"""A large List's later chunks read by a child on the idle CPU (`analyzer.forked`) while this
process reads the earlier ones: the JSON reader's (`jsondocs`) and the YAML reader's
(`yamlchunks`) split of the work."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from analyzer.forked import Forked, fork_call

Result = TypeVar("Result")
Span = tuple[int, int]  # a chunk's (start, end) in the file


def read_later_beside(spans: list[Span], from_bytes: int, own_share: float, read: Callable[[list[Span]], Result],
                      result_type: type[Result]) -> tuple[Forked[Result] | None, int]:
    """A child started on `read(later spans)`, the spans after this process's `own_share` of
    the bytes, and the first of them; (None, len(spans)) where the spans hold fewer than
    `from_bytes`, no span is left to a child, or none can run now (no second CPU, another child
    at work, too little memory)."""
    size = spans[-1][1] - spans[0][0] if spans else 0
    if size < from_bytes or not spans:
        return None, len(spans)
    own_until = spans[0][0] + own_share * size
    later = next((i for i, (start, _) in enumerate(spans) if start >= own_until), len(spans))
    if later == len(spans):
        return None, later
    later_spans = spans[later:]
    child = fork_call(lambda: read(later_spans), result_type, own_memory=int((1 - own_share) * size))
    return child, later if child is not None else len(spans)
