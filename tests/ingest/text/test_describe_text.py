"""Each table kind kubectl prints becomes objects of that kind (cases/describes.yaml)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from analyzer.ingest.text import parse_kubectl_text
from ingest.text.expect import check_case

CASES = yaml.safe_load((Path(__file__).parent / "cases" / "describes.yaml").read_text("utf-8"))


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_describe(case: dict) -> None:
    check_case(parse_kubectl_text(case["text"], "case.txt"), case)
