"""Every form of synthetic/forms.py, written from one sample cluster and read back through `kda inspect`.

Fixture: the OKE sample cluster (synthetic/clusters/samples/oke.py; it has PVCs, PVs, StorageClasses
and a Job besides the usual kinds), written here in each form.
"""

from __future__ import annotations

import collections
import json
import subprocess
import sys
from pathlib import Path

import pytest

from synthetic.__main__ import main as synthetic_main
from synthetic.clusters.samples.oke import build_oke
from synthetic.emit.cluster_info import CLUSTER_INFO_RESOURCES
from synthetic.emit.kubectl_get import KUBECTL_GET_FILES
from synthetic.emit.must_gather import CLUSTER_SCOPED, NAMESPACED
from synthetic.emit.support_bundle import SUPPORT_BUNDLE_NAMESPACED
from synthetic.forms import CLUSTER_INFO_DEFAULT_NAMESPACES, FORMS

ALL_NAMESPACES = None
# What each form collects: (kinds, namespaces of the namespaced ones; None: all), from the emitters' tables.
COLLECTS = {
    "kubectl-get-yaml": ({k for kinds in KUBECTL_GET_FILES.values() for k in kinds}, ALL_NAMESPACES),
    "cluster-info-dump": ({"Node", *(k for _, k in CLUSTER_INFO_RESOURCES)}, ALL_NAMESPACES),
    "cluster-info-directory": ({"Node", *(k for _, k in CLUSTER_INFO_RESOURCES)}, CLUSTER_INFO_DEFAULT_NAMESPACES),
    "support-bundle": ({"Namespace", "Node", "PersistentVolume", "StorageClass",
                        *(k for _, k in SUPPORT_BUNDLE_NAMESPACED)}, ALL_NAMESPACES),
    "must-gather": ({"Namespace", *CLUSTER_SCOPED.values(), *NAMESPACED.values()}, ALL_NAMESPACES),
}
EXPECTED_FORMAT = {"kubectl-get-yaml": "kubectl-yaml", "cluster-info-dump": "cluster-info-dump",
                   "cluster-info-directory": "cluster-info-dump-dir", "support-bundle": "support-bundle",
                   "must-gather": "must-gather"}


def test_every_form_is_covered() -> None:
    assert set(COLLECTS) == set(FORMS)


@pytest.mark.parametrize("form", sorted(FORMS))
def test_form_reads_back_whole(tmp_path: Path, form: str) -> None:
    cluster = build_oke()
    FORMS[form](cluster, tmp_path / form)
    result = subprocess.run([sys.executable, "-m", "analyzer", "inspect", str(tmp_path / form), "--format", "json"],
                            capture_output=True, text=True, check=True, timeout=300)
    summary = json.loads(result.stdout)
    kinds, namespaces = COLLECTS[form]
    expected = collections.Counter(
        o["kind"] for o in cluster.objects
        if o["kind"] in kinds and (namespaces is None or o["metadata"].get("namespace", "") in ("", *namespaces)))
    assert summary["rejected"] == []
    assert summary["objects_by_kind"] == dict(expected)
    assert any(name.startswith(EXPECTED_FORMAT[form]) for name in summary["formats"]), summary["formats"]


def test_command_line_writes_a_cluster_in_a_form(tmp_path: Path) -> None:
    assert synthetic_main(["write", "kubeadm", "must-gather", "-o", str(tmp_path / "mg")]) == 0
    assert list((tmp_path / "mg").glob("*/cluster-scoped-resources/core/nodes/*.yaml"))
    assert synthetic_main(["nothing"]) == 2
