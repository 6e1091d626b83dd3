"""The must-gather emitter (synthetic/emit/must_gather.py), read back through `kda inspect`.

Fixture: the EKS sample cluster (synthetic/clusters/samples/eks.py, as in sample_dumps/eks),
written here as a must-gather instead of a cluster-info dump.
"""

from __future__ import annotations

import collections
import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from synthetic.clusters.samples.component_logs import ContainerLogs
from synthetic.clusters.samples.eks import build_eks
from synthetic.emit.must_gather import GATHER_IMAGE_DIR, write_must_gather


@pytest.fixture(scope="module")
def gathered(tmp_path_factory: pytest.TempPathFactory) -> tuple[object, Path]:
    cluster = build_eks()
    out = tmp_path_factory.mktemp("must-gather")
    write_must_gather(cluster, out, ContainerLogs(cluster))
    return cluster, out


def test_layout_is_the_must_gather_one(gathered: tuple[object, Path]) -> None:
    _, out = gathered
    root = out / GATHER_IMAGE_DIR
    assert (root / "cluster-scoped-resources/core/nodes/ip-10-0-3-45.ec2.internal.yaml").is_file()
    assert (root / "namespaces/payments/payments.yaml").is_file()
    services = (root / "namespaces/payments/core/services.yaml").read_text(encoding="utf-8")
    assert services.startswith("---\napiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Service\n")
    document = yaml.safe_load(services.removeprefix("---\n"))
    assert document["kind"] == "ServiceList" and "managedFields" not in document["items"][0]["metadata"]
    empty = yaml.safe_load((root / "namespaces/payments/apps/statefulsets.yaml").read_text(encoding="utf-8"))
    assert empty["items"] == [] and empty["kind"] == "StatefulSetList"
    logs = list((root / "namespaces/payments/pods").glob("*/*/*/logs/current.log"))
    assert logs and all(path.parts[-4] == path.parts[-3] for path in logs)


def test_kda_reads_every_object_and_log_back(gathered: tuple[object, Path]) -> None:
    cluster, out = gathered
    result = subprocess.run([sys.executable, "-m", "analyzer", "inspect", str(out), "--format", "json"],
                            capture_output=True, text=True, check=True, timeout=300)
    summary = json.loads(result.stdout)
    assert summary["formats"] == ["must-gather", "must-gather logs"]
    assert summary["rejected"] == []
    assert summary["objects_by_kind"] == dict(collections.Counter(o["kind"] for o in cluster.objects))
    # each pod is in core/pods.yaml and again in pods/<pod>/<pod>.yaml, as `oc adm inspect` writes it
    assert summary["duplicates"] == summary["objects_by_kind"]["Pod"]
    scheduled = [p for p in cluster.of_kind("Pod") if p["spec"].get("nodeName")]
    assert summary["logs"]["containers"] == sum(
        len(p["spec"].get("initContainers", []) + p["spec"]["containers"]) for p in scheduled)
