"""A table family handed to another process comes back exactly: every cell, every dtype (the
categoricals' categories' dtype too, also of an empty table), or a ValueError and nothing kept.

Fixtures: the sample dumps (sample_dumps/, generated) and every realdata case read as it is
(../shared/realdata, sources in its SOURCES.md): the shapes real dumps give the tables (empty
families, empty categoricals, a namespace only in some rows).
"""

from __future__ import annotations

import pandas as pd
import pytest
from conftest import REALDATA, SAMPLE_DUMPS

import analyzer
from analyzer.model.registry import FAMILIES, adopt_family, build_table, family_tables
from analyzer.model.shipping import tables_from_bytes, tables_to_bytes

DUMPS = sorted(SAMPLE_DUMPS.iterdir()) + (sorted(p for p in REALDATA.glob("*/*") if p.is_dir())
                                          if REALDATA.exists() else [])


def _same(sent: dict[str, pd.DataFrame], back: dict[str, pd.DataFrame]) -> None:
    assert list(back) == list(sent)
    for name, frame in sent.items():
        pd.testing.assert_frame_equal(back[name], frame, check_exact=True)
        assert [repr(t) for t in back[name].dtypes] == [repr(t) for t in frame.dtypes], name


@pytest.mark.parametrize("dump", DUMPS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_family_of_a_real_dump_comes_back_exactly(dump) -> None:  # noqa: ANN001
    cluster = analyzer.load(str(dump))
    for family in FAMILIES:
        tables = family_tables(family, cluster)
        _same(tables, tables_from_bytes(tables_to_bytes(tables)))


def test_an_empty_categorical_keeps_its_categories_and_their_dtype() -> None:
    frame = pd.DataFrame({
        "namespace": pd.Categorical([], categories=pd.Index(["default", "kube-system"], dtype="str")),
        "reason": pd.Categorical([], categories=pd.Index([], dtype="str")),
        "ready": pd.array([], dtype="boolean"),
    })
    _same({"pods": frame}, tables_from_bytes(tables_to_bytes({"pods": frame})))
    one = pd.DataFrame({"reason": pd.Categorical(["OOMKilled"], categories=pd.Index(["OOMKilled"], dtype="str")),
                        "restarts": pd.array([None], dtype="Int64")})
    _same({"containers": one}, tables_from_bytes(tables_to_bytes({"containers": one})))


def test_what_cannot_come_back_exactly_is_refused() -> None:
    indexed = pd.DataFrame({"name": ["a", "b"]}, index=[3, 7])
    with pytest.raises(ValueError, match="index"):
        tables_to_bytes({"pods": indexed})
    noted = pd.DataFrame({"name": ["a"]})
    noted.attrs["stitched"] = True
    with pytest.raises(ValueError, match="attributes"):
        tables_to_bytes({"pods": noted})
    data = tables_to_bytes({"pods": pd.DataFrame({"name": ["a"]})})
    with pytest.raises(ValueError, match="not readable"):
        tables_from_bytes(data[: len(data) // 2])


def test_an_adopted_family_is_what_the_tables_read(monkeypatch: pytest.MonkeyPatch) -> None:
    built = analyzer.load(str(SAMPLE_DUMPS / "eks"))
    shipped = tables_from_bytes(tables_to_bytes(family_tables("pods", built)))
    cluster = analyzer.load(str(SAMPLE_DUMPS / "eks"))
    adopt_family("pods", cluster, shipped)
    from analyzer.model.tables import pods

    def not_again(dump):  # noqa: ANN001, ANN202
        raise AssertionError("built again")

    monkeypatch.setattr(pods, "build", not_again)
    assert cluster.tables["containers"] is shipped["containers"]
    assert build_table("pods", cluster) is shipped["pods"]
    with pytest.raises(ValueError, match="family pods"):
        adopt_family("pods", cluster, {"pods": shipped["pods"]})


def test_a_family_built_here_stays() -> None:
    cluster = analyzer.load(str(SAMPLE_DUMPS / "oke"))
    here = family_tables("pods", cluster)
    other = {name: frame.head(0) for name, frame in here.items()}
    adopt_family("pods", cluster, other)
    assert family_tables("pods", cluster)["pods"] is here["pods"]
