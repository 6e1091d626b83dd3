"""The timeline's column types and its order (time, then kind, namespace, name, fact, detail):
one place, for the whole frame and for the rows of it a summary puts in order."""

from __future__ import annotations

import numpy as np
import pandas as pd

TEXT_COLUMNS = ("namespace", "name", "detail", "node", "source")
CATEGORY_COLUMNS = ("kind", "fact", "mark")
ORDER = ["time", "kind", "namespace", "name", "fact", "detail"]


def typed(frame: pd.DataFrame) -> pd.DataFrame:
    """Facts with the timeline's column types: UTC times, text, and categories."""
    out = frame.copy()
    for column in ("time", "end"):
        out[column] = pd.Series(out[column], dtype="datetime64[ns, UTC]")
    for column in TEXT_COLUMNS:
        out[column] = out[column].astype("string")
    for column in CATEGORY_COLUMNS:
        out[column] = out[column].astype("string").fillna("").astype("category")
    out["namespace"] = out["namespace"].fillna("")
    out["name"] = out["name"].fillna("")
    out["detail"] = out["detail"].fillna("")
    return out


def in_order(frame: pd.DataFrame) -> pd.DataFrame:
    """Typed facts in the timeline's order (ties kept in the order given); labels kept."""
    return frame.sort_values(ORDER, key=_sort_key, kind="stable", na_position="last")


def _sort_key(column: pd.Series) -> pd.Series:
    """A column as it sorts: by its text (a category by its name's place among the names,
    read from the few names rather than from every row)."""
    if column.name == "time":
        return column
    if isinstance(column.dtype, pd.CategoricalDtype):
        codes = column.cat.codes.to_numpy()
        if (codes >= 0).all():
            names = column.cat.categories.astype("string").to_numpy(dtype=object)
            rank = np.empty(len(names), dtype=np.int64)
            rank[np.argsort(names, kind="stable")] = np.arange(len(names))
            return pd.Series(rank[codes], index=column.index, name=column.name)
    return column.astype("string")
