"""The notebooks: stored without outputs, and each runs top to bottom on the sample dumps."""

from __future__ import annotations

from pathlib import Path

import nbclient
import nbformat
import pytest
from conftest import ROOT

NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def test_there_are_the_three_notebooks() -> None:
    assert [p.name for p in NOTEBOOKS] == [
        "01-explore-a-dump.ipynb", "02-compare-distributions.ipynb", "03-graph-and-impact.ipynb"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_stored_without_outputs(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, path.name


def _text(nb: nbformat.NotebookNode) -> str:
    parts = []
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            parts.append(out.get("text", ""))
            parts += [str(v) for k, v in out.get("data", {}).items() if k.startswith(("text/", "image/svg"))]
    return "\n".join(parts)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_runs_top_to_bottom(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(nb, kernel_name="python3", timeout=300,
                                     resources={"metadata": {"path": str(path.parent)}})
    client.execute()  # raises CellExecutionError with the cell and traceback on any error
    out = _text(nb)
    assert "Traceback" not in out
    if path.stem.startswith("03"):
        assert "kubectl logs/exec" in out and "proxymux-client-" in out and "system-node-critical" in out
        assert "konnectivity-agent" in out
    if path.stem.startswith("02"):
        assert "172.20.0.10" in out and "proxymux-client" in out
    if path.stem.startswith("01"):
        assert "eks" in out and "pod-crashloop" in out and "<svg" in out
