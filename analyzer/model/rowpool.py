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

from analyzer.model.frame import cast_column, columns_of
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
    """Row tuples of table `name` (its columns from the `first` declared one on, or the named
    `columns`), as a sequence of groups of rows, each group placed for one parent (the object,
    pod or container the rows belong to). A group added under a key already seen is stored
    only once.

    Per placed group only its number and parent are recorded, not per row: the table's row
    numbers are worked out with numpy at the end (`layout`).

    Examples:
        >>> pool = RowPool("rejections")
        >>> pool.add_group("k", list, [("a", "1", "x"), ("b", "2", "y")], parent=7)
        2
        >>> pool.add_group("k", list, [("never", "made", "")], parent=8)
        2
        >>> pool.add_rows([("c", "3", "z")], parent=9), len(pool)
        (1, 5)
        >>> {c: list(v) for c, v in pool.columns().items()}["source"]
        ['a', 'b', 'a', 'b', 'c']
        >>> pool.parent_of().tolist()
        [7, 7, 8, 8, 9]
    """

    def __init__(self, name: str, first: int = 0, columns: Sequence[str] | None = None
                 ) -> None:
        self.name = name
        # The columns the row tuples hold: the declared ones from `first` on, unless named.
        self.column_names = (TABLE_SPECS[name].column_names[first:] if columns is None
                             else columns)
        self.rows: list[tuple[Any, ...]] = []  # the distinct rows, group after group
        self.groups: dict[Hashable, int] = {}  # key -> group number
        self.starts: list[int] = []  # group number -> its first row in `rows`
        self.sizes: list[int] = []  # group number -> its number of rows
        self.placed: list[int] = []  # the table's groups, in order
        self.parents: list[int] = []  # the parent of each placed group

    def add_group(self, key: Hashable | None, make: Callable[[Any], Sequence[tuple[Any, ...]]],
                  value: Any, parent: int) -> int:
        """Place the rows `make(value)` for `parent`; returns how many. Under a key already
        seen, the rows stored then are placed again (so the key must determine the rows);
        a key of None shares nothing."""
        group = self.groups.get(key) if key is not None else None
        if group is None:
            group = self.store(make(value))
            if key is not None:
                self.groups[key] = group
        return self.place(group, parent)

    def add_rows(self, rows: Sequence[tuple[Any, ...]], parent: int) -> int:
        """Place rows that are not shared for `parent`; returns how many."""
        return self.place(self.store(rows), parent)

    def store(self, rows: Sequence[tuple[Any, ...]]) -> int:
        """Keep rows as a new group without placing it; returns the group number.
        (A builder with its own keys: `store` once, then `place` each time.)"""
        self.starts.append(len(self.rows))
        self.sizes.append(len(rows))
        self.rows.extend(rows)
        return len(self.sizes) - 1

    def place(self, group: int, parent: int) -> int:
        """Append stored group `group` to the table, for `parent`; returns its number of rows."""
        self.placed.append(group)
        self.parents.append(parent)
        return self.sizes[group]

    def __len__(self) -> int:
        sizes = self.sizes
        return sum(sizes[group] for group in self.placed)

    def layout(self) -> tuple[np.ndarray, np.ndarray]:
        """Per table row: its index in `rows`, and the index of its placed group."""
        placed = np.asarray(self.placed, dtype=np.intp)
        sizes = np.asarray(self.sizes, dtype=np.intp)[placed]
        placement = np.repeat(np.arange(len(placed), dtype=np.intp), sizes)
        # Row k of a placement starting at table row s is stored at start + (k - s).
        first_row = np.cumsum(sizes) - sizes
        shift = np.asarray(self.starts, dtype=np.intp)[placed] - first_row
        ids = np.arange(len(placement), dtype=np.intp) + shift[placement]
        return ids, placement

    def parent_of(self) -> np.ndarray:
        """Per table row, its parent."""
        _, placement = self.layout()
        return np.asarray(self.parents, dtype=np.intp)[placement]

    def distinct_columns(self) -> dict[str, Any]:
        """The columns of the distinct rows (`rows`), cast to their declared dtypes."""
        dtypes = {c.name: c.dtype for c in TABLE_SPECS[self.name].columns}
        return {column: cast_column(values, dtypes[column]) for column, values
                in columns_of(self.rows, self.column_names, self.name).items()}

    def columns(self, order: np.ndarray | None = None) -> dict[str, Any]:
        """The table's columns (from `first` on), cast to their declared dtypes, in row order
        or, when given, in `order` (row numbers)."""
        ids, _ = self.layout()
        return take_rows(self.distinct_columns(), ids if order is None else ids[order])


def take_rows(columns: dict[str, Any], rows: np.ndarray) -> dict[str, Any]:
    """Each cast column's values at `rows`."""
    return {c: v[rows] if isinstance(v, np.ndarray) else v.take(rows) for c, v in columns.items()}
