"""Rows of a long table stored once each: repeated groups of rows only point to them again.

The pods of one workload repeat the same volumes, env and labels thousands of times; keeping
each distinct group of row tuples once and taking the cast columns by row number saves both
the Python work per row and the conversion of every repeated string.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any

import msgspec
import numpy as np

from analyzer.model.frame import cast_column, columns_from_rows
from analyzer.model.schema import TABLE_SPECS

_ENCODE = msgspec.msgpack.Encoder().encode


def memo_key(value: Any) -> bytes | None:
    """The value's msgpack encoding as a group key, or None when it has none (a huge int).

    Only for values decoded from JSON: there equal encodings mean equal values, while YAML
    can hold dates or sets that encode like strings or lists.

    Examples:
        >>> memo_key({"a": [1, True]}) == memo_key({"a": [1, 1]}), memo_key(10**30)
        (False, None)
    """
    try:
        return _ENCODE(value)
    except (OverflowError, TypeError, msgspec.EncodeError):
        return None


class RowPool:
    """Row tuples of table `name` (its columns from the `first` declared one on), in order,
    where a group of rows added under a key already seen is stored only once.

    Examples:
        >>> pool = RowPool("rejections")
        >>> pool.add_group("k", lambda: [("a", "1", "x"), ("b", "2", "y")])
        2
        >>> pool.add_group("k", lambda: [("never", "made", "")]), pool.add_rows([("c", "3", "z")])
        (2, 1)
        >>> {c: list(v) for c, v in pool.columns().items()}["source"]
        ['a', 'b', 'a', 'b', 'c']
    """

    def __init__(self, name: str, first: int = 0) -> None:
        self.name = name
        self.first = first
        self.rows: list[tuple[Any, ...]] = []
        self.ids: list[int] = []
        self.groups: dict[Hashable, range] = {}

    def add_rows(self, rows: Sequence[tuple[Any, ...]]) -> int:
        """Append rows that are not shared; returns how many."""
        start = len(self.rows)
        self.rows.extend(rows)
        self.ids.extend(range(start, len(self.rows)))
        return len(rows)

    def add_group(self, key: Hashable,
                  make: Callable[[], Sequence[tuple[Any, ...]]]) -> int:
        """Append the rows of group `key` (made by `make` the first time); returns how many.
        The key must determine the rows exactly."""
        stored = self.groups.get(key)
        if stored is None:
            stored = self.groups[key] = self.store(make())
        self.ids.extend(stored)
        return len(stored)

    def store(self, rows: Sequence[tuple[Any, ...]]) -> range:
        """Keep rows without placing them in the table; their row numbers, for `ids`.
        (`add_group` inlined by a hot loop: `groups[key] = store(rows)`, `ids.extend(...)`.)"""
        start = len(self.rows)
        self.rows.extend(rows)
        return range(start, len(self.rows))

    def __len__(self) -> int:
        return len(self.ids)

    def columns(self) -> dict[str, Any]:
        """The table's columns (from `first` on), cast to their declared dtypes, in row order."""
        dtypes = {c.name: c.dtype for c in TABLE_SPECS[self.name].columns}
        ids = np.asarray(self.ids, dtype=np.intp)
        out = {}
        for column, values in columns_from_rows(self.name, self.rows, self.first).items():
            cast = cast_column(values, dtypes[column])
            out[column] = cast[ids] if isinstance(cast, np.ndarray) else cast.take(ids)
        return out
