"""Reports of the four sample dumps, rendered once per test session and shared by the tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import SAMPLE_DUMPS

from analyzer.report.batch import BatchResult, run_batch

SAMPLES = ("aks", "eks", "kubeadm", "oke")


@pytest.fixture(scope="session")
def sample_reports(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, BatchResult]:
    """`kda report sample_dumps/* -o DIR` through the API (fixtures: sample_dumps/, generated)."""
    out = tmp_path_factory.mktemp("reports")
    result = run_batch([str(SAMPLE_DUMPS / "*")], out, progress=False)
    return out, result
