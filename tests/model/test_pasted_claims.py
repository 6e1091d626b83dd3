"""A pasted `kubectl get pvc` row lands in the pvcs table's typed columns as the claim's object
would: its ACCESS MODES (those granted, status.accessModes) in access_modes, its CAPACITY in
bytes, beside the pasted volumes' (kubeflow/kubeflow#3481)."""

from __future__ import annotations

from pathlib import Path

import analyzer

PASTE = Path(__file__).parent / "data" / "kubeflow-3481-pv-pvc.txt"
GIB = 1024**3


def test_a_pasted_claims_access_modes_and_capacity_are_in_its_columns() -> None:
    cluster = analyzer.load(PASTE)
    (claim,) = cluster.tables.pvcs.to_dict("records")
    assert (claim["namespace"], claim["name"], claim["phase"], claim["volume"]) == (
        "kubeflow", "katib-mysql", "Bound", "pv-volume3")
    assert claim["access_modes"] == "ReadWriteOnce"  # was <NA>: the row's RWO read, then lost
    assert claim["capacity_bytes"] == 10 * GIB
    volumes = cluster.tables.pvs.set_index("name")
    assert volumes.loc["pv-volume3", "access_modes"] == claim["access_modes"]
    assert list(volumes["capacity_bytes"]) == [10 * GIB, 10 * GIB, 20 * GIB, 20 * GIB]


def test_a_claims_own_spec_says_what_it_asked_for(tmp_path: Path) -> None:
    # An object with both: the column is the spec's (a claim asking RWX granted RWO is rare,
    # but the column says the request, as its description says).
    dump = tmp_path / "pvc.yaml"
    dump.write_text("apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data, namespace: web}\n"
                    "spec: {accessModes: [ReadWriteMany]}\n"
                    "status: {phase: Bound, accessModes: [ReadWriteOnce]}\n")
    assert list(analyzer.load(dump).tables.pvcs["access_modes"]) == ["ReadWriteMany"]
