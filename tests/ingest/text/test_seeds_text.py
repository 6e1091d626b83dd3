"""Every pasted table and describe in shared/seeds reads into the objects the posts show."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from conftest import SEEDS

from analyzer.ingest.text import looks_like_kubectl_text, parse_kubectl_text
from ingest.text.expect import check_case

CASES = yaml.safe_load((Path(__file__).parent / "cases" / "seeds.yaml").read_text("utf-8"))


@pytest.mark.parametrize("case", CASES, ids=[case["file"] for case in CASES])
def test_seed_text(case: dict) -> None:
    text = (SEEDS / case["file"]).read_text("utf-8")
    assert looks_like_kubectl_text(text) is case["looks"]
    check_case(parse_kubectl_text(text, case["file"]), case)


def test_every_seed_has_a_case() -> None:
    assert sorted(p.name for p in SEEDS.glob("*.txt")) == sorted(c["file"] for c in CASES)
