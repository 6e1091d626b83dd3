"""The table registry: every declared table has a builder, and every builder gives exactly the
declared columns with the declared dtypes, on an empty cluster and on a real dump."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from conftest import REALDATA

import analyzer
from analyzer.cluster import Cluster
from analyzer.ingest import IngestResult
from analyzer.model import build_table, table_names
from analyzer.model.frame import DATETIME, TIMEDELTA, TableSchemaError, to_frame
from analyzer.model.registry import FAMILIES, family_builder
from analyzer.model.schema import TABLE_SPECS

KURL = REALDATA / "kubeadm" / "sbctl-kurl-supportbundle"


def dtype_matches(series: pd.Series, declared: str) -> bool:
    """Whether a column has the pandas dtype its schema type maps to."""
    dtype = series.dtype
    return {
        "str": lambda: isinstance(dtype, pd.StringDtype) and dtype.na_value is pd.NA,
        "category": lambda: isinstance(dtype, pd.CategoricalDtype),
        "int": lambda: dtype == "Int64",
        "float": lambda: dtype == "float64",
        "bool": lambda: dtype == "boolean",
        "datetime": lambda: dtype == DATETIME,
        "timedelta": lambda: dtype == TIMEDELTA,
        "object": lambda: dtype == np.dtype(object),
    }[declared]()


def assert_matches_schema(name: str, df: pd.DataFrame) -> None:
    spec = TABLE_SPECS[name]
    assert list(df.columns) == spec.column_names, name
    for col in spec.columns:
        assert dtype_matches(df[col.name], col.dtype), (name, col.name, df[col.name].dtype)


def test_every_declared_table_is_listed_once() -> None:
    names = table_names()
    assert len(names) == len(set(names))
    assert set(TABLE_SPECS) <= set(names)
    built = [t for tables in FAMILIES.values() for t in tables]
    assert sorted(built) == sorted(TABLE_SPECS)


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_family_builds_exactly_its_tables_on_an_empty_cluster(family: str) -> None:
    tables = family_builder(family)(Cluster(IngestResult()))
    assert sorted(tables) == sorted(FAMILIES[family])
    for name, df in tables.items():
        assert len(df) == 0
        assert_matches_schema(name, df)


@pytest.fixture(scope="module")
def kurl() -> Cluster:
    return analyzer.load(KURL)


@pytest.mark.parametrize("name", sorted(TABLE_SPECS))
def test_real_tables_have_the_declared_columns_and_dtypes(kurl: Cluster, name: str) -> None:
    assert_matches_schema(name, kurl.tables[name])


def test_tables_are_built_once_per_cluster(kurl: Cluster) -> None:
    assert build_table("containers", kurl) is build_table("containers", kurl)
    other = analyzer.load(KURL)
    assert build_table("containers", other) is not build_table("containers", kurl)
    pd.testing.assert_frame_equal(build_table("containers", other), build_table("containers", kurl))


def test_unknown_table_is_a_key_error(kurl: Cluster) -> None:
    with pytest.raises(KeyError, match="no table 'podz'"):
        kurl.tables["podz"]
    with pytest.raises(AttributeError):
        kurl.tables.podz  # noqa: B018


def test_a_mistyped_table_name_says_the_close_one(kurl: Cluster) -> None:
    # A notebook's `cluster.tables["pod"]` named every table (50-odd) and left the reader to
    # find the one meant.
    with pytest.raises(KeyError, match=r"no table 'pod'; did you mean pods\?") as raised:
        kurl.tables["pod"]
    assert "tables are" not in str(raised.value)
    with pytest.raises(KeyError, match="did you mean nodes"):
        build_table("node", kurl)
    with pytest.raises(KeyError, match="tables are: objects, namespaces"):
        kurl.tables["zzz"]


def test_a_builder_with_undeclared_columns_is_refused() -> None:
    with pytest.raises(TableSchemaError, match="undeclared \\['extra'\\]"):
        to_frame("rejections", {"source": [], "location": [], "reason": [], "extra": []})
    with pytest.raises(TableSchemaError, match="missing columns \\['reason'\\]"):
        to_frame("rejections", {"source": [], "location": []})
