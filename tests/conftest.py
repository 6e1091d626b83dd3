"""Shared test locations: the repo root, and the read-only shared material beside the repo."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# CI clones the repo with shared/ beside it; tests read real dumps and seeds from there.
SHARED = ROOT.parent / "shared"
REALDATA = SHARED / "realdata"
SEEDS = SHARED / "seeds"
SAMPLE_DUMPS = ROOT / "sample_dumps"
TEST_DATA = ROOT / "tests" / "data"


@pytest.fixture(autouse=True, scope="session")
def _report_cache_of_the_test_run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The report's compiled templates are kept in a folder of the test run, not in the user's
    cache (`KDA_CACHE_DIR`; also read by the commands and notebooks the tests start)."""
    from analyzer.report.template_cache import CACHE_DIR_VARIABLE

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(CACHE_DIR_VARIABLE, str(tmp_path_factory.mktemp("kda-cache")))
        yield
