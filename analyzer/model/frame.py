"""Column lists -> a typed DataFrame: the one place where the declared dtypes are applied."""

from __future__ import annotations

import math
import os
import re
from collections.abc import Mapping, Sequence
from datetime import datetime
from operator import itemgetter
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
from pandas.arrays import ArrowStringArray

from analyzer.model.schema import TABLE_SPECS, TableSpec

# pyarrow's default pool (mimalloc) hands freed pages back to the OS and faults them in again
# for the next column: measured 3x slower per string column than the C library's allocator,
# a third of the time of the first table built. Left alone when the user chose a pool.
if "ARROW_DEFAULT_MEMORY_POOL" not in os.environ:
    pa.set_memory_pool(pa.system_memory_pool())

DATETIME = "datetime64[ns, UTC]"
TIMEDELTA = "timedelta64[ns]"

Columns = Mapping[str, Sequence[Any] | np.ndarray | pd.Series]


class TableSchemaError(ValueError):
    """A builder produced columns other than its table's declared ones (a bug, not bad input)."""


def _arrow_strings(values: Any) -> pa.Array | None:
    """The values as an Arrow string array, or None when they are not all str/None."""
    if isinstance(values, pd.Series | pd.api.extensions.ExtensionArray | np.ndarray):
        return None
    try:
        return pa.array(values, type=pa.large_string())
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        return None


def _masked(values: Any, arrow_type: pa.DataType, fill: Any) -> tuple[np.ndarray, np.ndarray] | None:
    """(data, mask) of a nullable int or bool column, when the values (a list or tuple) are
    all of that Arrow type or None; None otherwise, and pandas converts them.

    Arrow reads Python ints and bools about 3x faster than `pd.array`; inferring the type
    (rather than asking for it) leaves every mixed case (1 and True, 1 and 2.0) to pandas.
    Missing values' data is `fill`, as pandas sets it.
    """
    if not isinstance(values, list | tuple):
        return None
    try:
        arrow = pa.array(values)
    except (pa.ArrowException, ValueError, TypeError, OverflowError):
        return None
    if arrow.type != arrow_type:
        return None
    data = arrow.fill_null(fill).to_numpy(zero_copy_only=False, writable=True)
    return data, arrow.is_null().to_numpy(zero_copy_only=False, writable=True)


def _hashable(value: Any) -> Any:
    return value if value is None or isinstance(value, str | int | float | bool) else str(value)


_INT64 = range(-(2**63), 2**63)
_MAX_SECONDS = (2**63 - 1) // 10**9  # what a timedelta64[ns] holds


def _is_int64(value: Any) -> bool:
    """Whether a value fits an Int64 column as it is (bools and floats are not ints here).

    >>> [_is_int64(v) for v in (3, 10**20, True, 2.0, "3", None)]
    [True, False, False, False, False, False]
    """
    return type(value) is int and value in _INT64 or isinstance(value, np.integer)


def _categorical(values: Any) -> pd.Categorical:
    """A categorical with lexically sorted categories (so sorting by it sorts by text)."""
    arrow = _arrow_strings(values)
    if arrow is None:
        try:
            cat = pd.Categorical(values)
        except TypeError:  # a list or mapping where the dump should hold text: shown as text
            cat = pd.Categorical([_hashable(v) for v in values])
        if len(cat.categories) == 0:
            # No value at all: keep string categories so files and concatenations stay typed.
            return pd.Categorical(cat, categories=pd.Index([], dtype="str"))
        return cat
    # Dictionary-encoding in Arrow is several times faster than pandas' factorize of a list.
    encoded = arrow.dictionary_encode()
    dictionary = encoded.dictionary
    order = pc.sort_indices(dictionary).to_numpy()
    rank = np.empty(len(order) + 1, dtype=np.int32)
    rank[order] = np.arange(len(order), dtype=np.int32)
    rank[-1] = -1  # missing values
    codes = pc.fill_null(encoded.indices, -1).to_numpy(zero_copy_only=False)
    categories = pd.Index(dictionary.take(pa.array(order)).to_pylist(), dtype="str")
    return pd.Categorical.from_codes(rank[codes], categories=categories)


def cast_column(values: Any, dtype: str) -> Any:
    """Values as the pandas array of a schema dtype (arrays already of that dtype pass through).

    Builders cast an object-level column once and `take` it for long tables, instead of
    repeating the same strings per row.
    """
    if dtype == "category" and isinstance(values, pd.Categorical):
        return values
    if dtype == "str" and isinstance(values, ArrowStringArray):
        return values
    return _cast(values, dtype)


def _cast(values: Any, dtype: str) -> Any:
    if dtype == "str":
        arrow = _arrow_strings(values)
        return pd.array(values, dtype="string") if arrow is None else ArrowStringArray(arrow)
    if dtype == "category":
        return _categorical(values)
    if dtype == "int":
        masked = _masked(values, pa.int64(), fill=1)
        if masked is not None:
            return pd.arrays.IntegerArray(*masked)
        try:
            return pd.array(values, dtype="Int64")
        except (OverflowError, TypeError, ValueError):
            # a number past 64 bits or a value of another type in an edited dump: missing
            return pd.array([v if _is_int64(v) else None for v in values], dtype="Int64")
    if dtype == "float":
        try:
            return np.asarray(values, dtype="float64")
        except (TypeError, ValueError, OverflowError):  # a value of another type: missing
            return np.asarray([v if isinstance(v, int | float) else math.nan for v in values], dtype="float64")
    if dtype == "bool":
        masked = _masked(values, pa.bool_(), fill=False)
        if masked is not None:
            return pd.arrays.BooleanArray(*masked)
        try:
            return pd.array(values, dtype="boolean")
        except (TypeError, ValueError):  # a value of another type in an edited dump: missing
            return pd.array([v if isinstance(v, bool | np.bool_) else None for v in values], dtype="boolean")
    if dtype == "datetime":
        if isinstance(values, pd.Series) and isinstance(values.dtype, pd.DatetimeTZDtype):
            return values.astype(DATETIME).array
        arrow = _arrow_strings(values)
        if arrow is not None:
            try:
                # Arrow's RFC 3339 cast is ~10x faster than pandas' and exact on valid input.
                cast = arrow.cast(pa.timestamp("ns", tz="UTC"))
                return pd.array(cast.to_pandas()).astype(DATETIME)
            except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
                pass  # some value is malformed or has no zone: let pandas coerce it
        # One vectorised parse per column; a malformed timestamp becomes NaT, never an error.
        parsed = pd.to_datetime(pd.Series(values, dtype=object), utc=True, format="ISO8601",
                                errors="coerce")
        return as_nanoseconds(parsed).array
    if dtype == "timedelta":
        try:
            return pd.to_timedelta(pd.Series(values, dtype=object), unit="s").astype(TIMEDELTA).array
        except (OverflowError, ValueError, TypeError):  # pandas' OutOfBoundsTimedelta is a ValueError
            # an age past 292 years (nanoseconds' range) or not a number, in an edited dump: missing
            fits = [v if isinstance(v, int | float) and not isinstance(v, bool) and abs(v) < _MAX_SECONDS else None
                    for v in values]
            return pd.to_timedelta(pd.Series(fits, dtype=object), unit="s").astype(TIMEDELTA).array
    if dtype == "object":
        out = np.empty(len(values), dtype=object)
        out[:] = list(values)
        return out
    raise TableSchemaError(f"unknown dtype {dtype!r}")


def as_nanoseconds(parsed: pd.Series) -> pd.Series:
    """UTC times at the tables' nanosecond unit; NaT for a time a nanosecond clock cannot hold
    (before 1677 or after 2262: a node whose clock read 3024), never an overflow error.

    >>> as_nanoseconds(pd.to_datetime(pd.Series(["2024-05-20T10:00:00Z", "3024-01-01T00:00:00Z"]),
    ...                               utc=True, format="ISO8601")).tolist()
    [Timestamp('2024-05-20 10:00:00+0000', tz='UTC'), NaT]
    """
    if parsed.dtype != DATETIME:
        parsed = parsed.where((parsed >= _NS_FIRST) & (parsed <= _NS_LAST))
    return parsed.astype(DATETIME)


_NS_FIRST = pd.Timestamp.min.tz_localize("UTC")
_NS_LAST = pd.Timestamp.max.tz_localize("UTC")


def to_frame(
    name: str,
    columns: Columns,
    capture_time: datetime | None = None,
    sort_by: Sequence[str] = (),
    age_from: str = "created",
) -> pd.DataFrame:
    """Build table `name` from column values, cast to its declared dtypes and sorted stably
    by the `sort_by` columns.

    Builders of big tables put the rows in order themselves, before casting (`dense_rank`,
    `child_order`, `in_order`), and pass no `sort_by`: long tables then need not compare their
    strings again, nor take every cast column once more.

    An `age` column holds the age in seconds a pasted table states (None when it does not);
    where that is missing, age is the capture time minus the `age_from` column.

    Examples:
        >>> df = to_frame("rejections", {"source": ["b", "a"], "location": ["", "line 3"],
        ...                              "reason": ["x", "y"]}, sort_by=["source"])
        >>> df.to_dict("list"), str(df["reason"].dtype)
        ({'source': ['a', 'b'], 'location': ['line 3', ''], 'reason': ['y', 'x']}, 'string')
    """
    spec: TableSpec = TABLE_SPECS[name]
    declared = spec.column_names
    if set(columns) != set(declared):
        missing = sorted(set(declared) - set(columns))
        extra = sorted(set(columns) - set(declared))
        raise TableSchemaError(f"table {name}: missing columns {missing}, undeclared {extra}")
    lengths = {len(columns[c]) for c in declared}
    if len(lengths) > 1:
        raise TableSchemaError(f"table {name}: columns of different lengths {sorted(lengths)}")
    data = {c.name: cast_column(columns[c.name], c.dtype) for c in spec.columns}
    df = pd.DataFrame(data, columns=declared)
    if "age" in data and age_from in data and capture_time is not None:
        # Ages from the capture time, vectorised; a stated (pasted) age wins.
        computed = pd.Timestamp(capture_time).tz_convert("UTC") - df[age_from]
        df["age"] = df["age"].fillna(computed).astype(TIMEDELTA)
    if sort_by and len(df) > 1:
        df = df.take(_stable_order(df, sort_by)).reset_index(drop=True)
    return df


_LOCATION = re.compile(r"(:\d+| \(document \d+\))$")


def restate_ages(df: pd.DataFrame, estimate: Any) -> pd.DataFrame:
    """Ages of a stitched dump's rows from the capture time of the period their file belongs
    to, not from the dump's newest time (a stated, pasted age stays)."""
    if not getattr(estimate, "stitched", False) or estimate.time is None or df.empty \
            or not {"age", "created", "source"} <= set(df.columns):
        return df
    sources = df["source"].astype(object)
    capture = {s: estimate.time_for(_LOCATION.sub("", str(s))) for s in pd.unique(sources) if s is not None}
    per_row = pd.to_datetime(sources.map(capture), utc=True)
    created = df["created"]
    computed = pd.Timestamp(estimate.time).tz_convert("UTC") - created
    restate = df["age"].eq(computed).fillna(False) & per_row.notna() & created.notna()
    if restate.any():
        df = df.copy()
        df.loc[restate, "age"] = (per_row[restate] - created[restate]).astype(TIMEDELTA)
    return df


def dense_rank(columns: Sequence[Any]) -> np.ndarray:
    """Per row, the rank of its values when sorted by these (cast) columns; equal rows share it.

    Examples:
        >>> dense_rank([cast_column(["b", "a", "b", "a"], "category"),
        ...             cast_column(["x", "y", "x", "x"], "str")]).tolist()
        [2, 1, 2, 0]
    """
    keys = [sort_key(c) for c in columns]
    n = len(keys[0]) if keys else 0
    if n == 0:
        return np.zeros(0, dtype=np.intp)
    order = np.lexsort(keys[::-1])
    changed = np.zeros(n, dtype=bool)
    for key in keys:
        ordered = key[order]
        changed[1:] |= ordered[1:] != ordered[:-1]
    rank = np.empty(n, dtype=np.intp)
    rank[order] = np.cumsum(changed)
    return rank


def child_order(parent_rank: np.ndarray, parent_of: np.ndarray, *then: np.ndarray
                ) -> np.ndarray:
    """The stable order of a long table's rows sorted by their parent's columns (as ranked by
    `dense_rank`), then by the rows' own columns, given as their `sort_key`s `then`.

    Examples:
        >>> child_order(np.array([1, 0]), np.array([0, 1, 0, 1]),
        ...             sort_key(cast_column(["b", "z", "a", "y"], "str"))).tolist()
        [3, 1, 2, 0]
    """
    parents = parent_rank[parent_of]
    if not then:
        return np.argsort(parents, kind="stable")
    return np.lexsort([*reversed(then), parents])


def sort_key(values: Any) -> np.ndarray:
    """Integers that order like a cast column, missing values first.

    Examples:
        >>> sort_key(cast_column(["b", None, "a", "b"], "str")).tolist()
        [1, -1, 0, 1]
    """
    return _sort_key(pd.Series(values, copy=False))


def _sort_key(series: pd.Series) -> np.ndarray:
    if isinstance(series.dtype, pd.CategoricalDtype):
        return series.cat.codes.to_numpy()  # categories are sorted, missing is -1
    if isinstance(series.dtype, pd.DatetimeTZDtype):
        return series.to_numpy(dtype="datetime64[ns]").view("int64")  # NaT is the minimum
    codes, _ = pd.factorize(series, sort=True, use_na_sentinel=True)
    return codes


def _stable_order(df: pd.DataFrame, sort_by: Sequence[str]) -> np.ndarray:
    # np.lexsort is stable and sorts by the last key first.
    return np.lexsort([_sort_key(df[c]) for c in reversed(sort_by)])


def columns_from_rows(name: str, rows: Sequence[tuple[Any, ...]], first: int = 0
                      ) -> dict[str, Sequence[Any]]:
    """Columns of table `name` from row tuples holding its columns in declared order, from
    the `first` declared column on (the builder supplies the ones before it).

    Examples:
        >>> columns_from_rows("rejections", [("f.json", "line 3", "bad"), ("g", "", "worse")])
        {'source': ('f.json', 'g'), 'location': ('line 3', ''), 'reason': ('bad', 'worse')}
        >>> columns_from_rows("rejections", [("line 3", "bad")], first=1)
        {'location': ('line 3',), 'reason': ('bad',)}
    """
    return columns_of(rows, TABLE_SPECS[name].column_names[first:], name)


def columns_of(rows: Sequence[tuple[Any, ...]], names: Sequence[str], table: str = ""
               ) -> dict[str, Sequence[Any]]:
    """Columns `names` from row tuples holding them in that order (of table `table`).

    Examples:
        >>> columns_of([(1, "a"), (2, "b")], ("n", "s")), columns_of([], ("n",))
        ({'n': (1, 2), 's': ('a', 'b')}, {'n': []})
    """
    if rows and len(rows[0]) != len(names):
        raise TableSchemaError(f"table {table}: rows of {len(rows[0])} values, "
                               f"{len(names)} columns declared")
    if not rows:
        return {c: [] for c in names}
    return dict(zip(names, zip(*rows, strict=True), strict=True))


def in_order(values: Sequence[Any], order: np.ndarray) -> Sequence[Any]:
    """The items of a list or tuple (row tuples, a column of Python values) at positions
    `order`: reordering before casting spares taking every cast column again.

    Examples:
        >>> in_order(["a", "b", "c"], np.array([2, 0])), in_order(["a"], np.array([0]))
        (('c', 'a'), ['a'])
    """
    if len(order) < 2:  # itemgetter of one index returns the item itself, of none fails
        return [values[i] for i in order]
    return itemgetter(*order.tolist())(values)


def positions(order: np.ndarray) -> np.ndarray:
    """Where each row lands when the rows are put in `order` (the inverse permutation).

    Examples:
        >>> positions(np.array([2, 0, 1])).tolist()
        [1, 2, 0]
    """
    where = np.empty(len(order), dtype=np.intp)
    where[order] = np.arange(len(order), dtype=np.intp)
    return where


def empty_columns(name: str) -> dict[str, list[Any]]:
    """A fresh dict of empty column lists for table `name`, in declared order."""
    return {c: [] for c in TABLE_SPECS[name].column_names}
