"""A table family as bytes and back, exactly: how a process that built tables hands them to another
(the report's second process builds the pods family while the first builds the graph).

Arrow IPC streams carry the columns (the tables' strings are Arrow arrays already: nothing is
converted cell by cell); a small msgpack header carries what Arrow's pandas metadata does not:
each column's dtype as pandas names it, and the dtype of a categorical's categories (an empty
categorical comes back with object categories). What comes back is checked against the header:
a table that would not come back exactly raises ValueError, and the receiver builds it itself.
"""

from __future__ import annotations

import struct
from collections.abc import Mapping

import msgspec
import pandas as pd
import pyarrow as pa

_HEADER_SIZE = struct.Struct("!Q")


class _Column(msgspec.Struct, array_like=True):
    name: str
    dtype: str
    categories: str | None = None  # a categorical's categories' dtype
    ordered: bool = False


class _Table(msgspec.Struct, array_like=True):
    name: str
    rows: int
    columns: list[_Column]


def tables_to_bytes(tables: Mapping[str, pd.DataFrame]) -> bytes:
    """The tables (name -> DataFrame) as bytes for `tables_from_bytes`. ValueError for a table
    this cannot carry exactly: an index other than 0..n-1, attributes, columns not named by
    distinct strings."""
    header: list[_Table] = []
    sink = pa.BufferOutputStream()
    for name, frame in tables.items():
        if not (isinstance(frame.index, pd.RangeIndex) and frame.index.start == 0
                and frame.index.step == 1 and frame.index.name is None):
            raise ValueError(f"table {name}: its index is not 0..n-1")
        if frame.attrs or frame.columns.name is not None:
            raise ValueError(f"table {name}: has attributes")
        if not all(isinstance(c, str) for c in frame.columns) or frame.columns.has_duplicates:
            raise ValueError(f"table {name}: columns not named by distinct strings")
        columns = []
        for column, dtype in frame.dtypes.items():
            if isinstance(dtype, pd.CategoricalDtype):
                columns.append(_Column(column, str(dtype), str(dtype.categories.dtype), bool(dtype.ordered)))
            else:
                columns.append(_Column(column, str(dtype)))
        header.append(_Table(name, len(frame), columns))
        # one batch, written even when empty: a stream without one would not carry the
        # categoricals' categories
        batch = pa.RecordBatch.from_pandas(frame, preserve_index=False)
        with pa.ipc.new_stream(sink, batch.schema) as writer:
            writer.write_batch(batch)
    head = msgspec.msgpack.encode(header)
    return _HEADER_SIZE.pack(len(head)) + head + sink.getvalue().to_pybytes()


def tables_from_bytes(data: bytes) -> dict[str, pd.DataFrame]:
    """The tables `tables_to_bytes` made, with the dtypes they had; ValueError if they would not
    be exactly those tables (damaged bytes, a pandas or pyarrow that reads them otherwise)."""
    try:
        (size,) = _HEADER_SIZE.unpack_from(data)
        header = msgspec.msgpack.decode(data[_HEADER_SIZE.size:_HEADER_SIZE.size + size], type=list[_Table])
        reader = pa.BufferReader(pa.py_buffer(data)[_HEADER_SIZE.size + size:])
        tables = {}
        for table in header:
            frame = pa.ipc.open_stream(reader).read_all().to_pandas()
            tables[table.name] = _as_declared(frame, table)
    except (struct.error, msgspec.DecodeError, msgspec.ValidationError, pa.ArrowException) as exc:
        raise ValueError(f"tables not readable: {exc}") from exc
    return tables


def _as_declared(frame: pd.DataFrame, table: _Table) -> pd.DataFrame:
    if list(frame.columns) != [c.name for c in table.columns] or len(frame) != table.rows:
        raise ValueError(f"table {table.name}: other columns or rows than sent")
    for column in table.columns:
        dtype = frame[column.name].dtype
        if column.categories is not None and isinstance(dtype, pd.CategoricalDtype):
            categories = dtype.categories
            if str(categories.dtype) != column.categories and len(categories) == 0:
                # an empty categorical's categories come back as objects
                wanted = pd.CategoricalDtype(pd.Index([], dtype=column.categories), ordered=column.ordered)
                frame[column.name] = frame[column.name].astype(wanted)
                dtype = frame[column.name].dtype
            if str(dtype.categories.dtype) != column.categories or bool(dtype.ordered) != column.ordered:
                raise ValueError(f"table {table.name}: column {column.name} came back as {dtype!r}")
        if str(dtype) != column.dtype:
            raise ValueError(f"table {table.name}: column {column.name} came back as {dtype}, "
                             f"not {column.dtype}")
    return frame
