"""Every pasted-text file in shared/realdata reads into the objects its text states."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from conftest import REALDATA

from analyzer.ingest.text import looks_like_kubectl_text, parse_kubectl_text
from ingest.text.expect import check_case

CASES = yaml.safe_load((Path(__file__).parent / "cases" / "realdata.yaml").read_text("utf-8"))
# The text files of realdata that are not kubectl text: container logs and cluster-info dumps.
NOT_PASTED = ("logs.txt", "cluster-info-dump.txt", "cluster-dump.txt")


@pytest.mark.parametrize("case", CASES, ids=[case["file"] for case in CASES])
def test_realdata_text(case: dict) -> None:
    text = (REALDATA / case["file"]).read_text("utf-8")
    assert looks_like_kubectl_text(text) is case["looks"]
    check_case(parse_kubectl_text(text, case["file"]), case)


def test_every_pasted_text_file_has_a_case() -> None:
    pasted = sorted(
        str(path.relative_to(REALDATA)) for path in REALDATA.rglob("*.txt")
        if path.name not in NOT_PASTED
    )
    assert pasted == sorted(case["file"] for case in CASES)
