"""Table columns from values of another type than the schema's (hand-edited dumps: a number past
64 bits, a mapping where text is, text where a bool is): the column keeps its dtype, the odd
value is missing or shown as text, never an error that stops the table (a structural fuzz of
shared/realdata and of the rule cases found each of these stopping a table)."""

from __future__ import annotations

import pandas as pd
import pytest

from analyzer.model.frame import cast_column


@pytest.mark.parametrize(("dtype", "values", "expected"), [
    ("int", [1, None, 10**20], [1, None, None]),
    ("int", [1, "3", {"a": 1}], [1, None, None]),
    ("bool", [True, None, {"a": 1}, "yes"], [True, None, None, None]),
    ("float", [1.5, None, {"a": 1}, "x", 3], [1.5, None, None, None, 3.0]),
    ("category", ["a", {"x": 1}, None], ["a", "{'x': 1}", None]),
    ("str", ["a", {"x": 1}, 3, None], ["a", "{'x': 1}", "3", None]),
    ("timedelta", [5, None, 10**20, "x"], [pd.Timedelta(seconds=5), None, None, None]),
])
def test_an_odd_value_is_missing_or_text(dtype: str, values: list, expected: list) -> None:
    column = cast_column(values, dtype)
    assert [None if pd.isna(v) else v for v in pd.Series(column).astype(object)] == expected


def test_the_fast_paths_keep_their_dtypes() -> None:
    assert str(cast_column([1, None], "int").dtype) == "Int64"
    assert str(cast_column([True, None], "bool").dtype) == "boolean"
    assert str(cast_column([1, 10**20], "int").dtype) == "Int64"
