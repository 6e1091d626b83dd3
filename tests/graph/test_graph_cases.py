"""Each relation's case file: tiny objects in, exactly the expected edges of that relation out."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

import analyzer
from analyzer.graph import build_graph
from analyzer.graph.builders import relations

CASES_DIR = Path(__file__).parent / "cases"


def _load_cases() -> list[Any]:
    params = []
    for path in sorted(CASES_DIR.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for case in data["cases"]:
            params.append(pytest.param(data["relation"], case, id=f"{path.stem}: {case['name']}"))
    return params


def _dump(case: dict[str, Any]) -> str | dict[str, str]:
    """The case as a dump: its objects, plus an empty List for each kind it says was collected."""
    if "text" in case:
        return case["text"]
    docs = list(case.get("objects") or [])
    docs += [{"apiVersion": "v1", "kind": f"{kind}List", "items": []} for kind in case.get("collected", ())]
    return {"dump.yaml": yaml.safe_dump_all(docs, sort_keys=False)}


def _edge(text: str) -> tuple[str, str]:
    source, target = (part.strip() for part in text.split("->"))
    return source, target


@pytest.mark.parametrize(("relation", "case"), _load_cases())
def test_relation_case(relation: str, case: dict[str, Any]) -> None:
    cluster = analyzer.load(_dump(case))
    assert not cluster.ingest.rejections, cluster.ingest.rejections
    graph = build_graph(cluster)
    got = {(s, t) for s, t, rel in graph.edges(data="relation") if rel == relation}
    assert got == {_edge(e) for e in case["edges"]}
    for edge in case.get("absent", ()):
        assert _edge(edge) not in got
    for node, state in (case.get("states") or {}).items():
        assert graph.nodes[node]["state"] == state, node


def test_every_relation_has_a_case_file_and_the_files_name_their_relation() -> None:
    files = {p.stem: yaml.safe_load(p.read_text(encoding="utf-8"))["relation"] for p in CASES_DIR.glob("*.yaml")}
    assert set(files) == set(relations())
    assert all(stem == relation for stem, relation in files.items())
    assert len(relations()) >= 12
