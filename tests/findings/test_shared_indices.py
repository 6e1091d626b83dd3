"""What the findings find once per dump and share (analyzer/findings/facts.py, containers.py,
apis.py): each must be what its users computed for themselves before, on every sample dump and
every real one."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pandas as pd
import pytest
import yaml
from conftest import REALDATA, SAMPLE_DUMPS
from test_rule_cases import CASES, cluster_of

import analyzer
from analyzer.findings.apis import removed_api_kinds, removed_api_users, removed_api_uses
from analyzer.findings.containers import EVERY_TYPE, judged_containers
from analyzer.findings.coverage import objects_per_file
from analyzer.findings.facts import (
    is_system_namespace,
    objects_by_id,
    objects_by_identity,
    objects_named,
    pods_by_namespace,
)
from analyzer.findings.versions import cluster_version


def _dumps() -> list[Path]:
    real = sorted(p for p in REALDATA.glob("*/*") if p.is_dir()) if REALDATA.is_dir() else []
    return sorted(p for p in SAMPLE_DUMPS.iterdir() if p.is_dir()) + real


@pytest.fixture(scope="module", params=_dumps(), ids=lambda p: f"{p.parent.name}/{p.name}")
def cluster(request: pytest.FixtureRequest) -> analyzer.Cluster:
    return analyzer.load(str(request.param))


def test_objects_by_name_and_identity(cluster: analyzer.Cluster) -> None:
    for kind in ("Pod", "Node", "Deployment", "Service"):
        named = objects_named(cluster, kind)
        assert objects_named(cluster, kind) is named
        expected: dict = {}
        for o in cluster.objects_of(kind):
            expected[(o.namespace, o.name)] = o  # the last of two sharing a name, as before
        assert list(named.items()) == list(expected.items())
    identity: dict = {}
    for o in cluster.objects:
        identity[(o.kind, o.namespace, o.name)] = o
    assert list(objects_by_identity(cluster).items()) == list(identity.items())
    assert objects_by_id(cluster) == {o.key.id: o for o in cluster.objects}
    assert objects_per_file(cluster) == Counter(o.provenance.source for o in cluster.objects)


def test_pods_with_a_label_are_those_carrying_it(cluster: analyzer.Cluster) -> None:
    pods = pods_by_namespace(cluster)
    for namespace, members in pods.items():
        asked = {(k, str(v)) for p in members for k, v in (p.view.metadata.labels or {}).items()}
        for key, value in sorted(asked)[:200] + [("no-such-label", "x")]:
            expected = [p for p in members if key in (p.view.metadata.labels or {})
                        and str(p.view.metadata.labels[key]) == value]
            assert pods.with_label(namespace, key, value) == expected, (namespace, key, value)


def test_each_container_selection_is_its_own_join(cluster: analyzer.Cluster) -> None:
    try:
        containers = cluster.tables["containers"]
    except Exception:  # noqa: BLE001 - a dump without pods has no containers table to judge
        pytest.skip("no containers table")
    pods = cluster.tables["pods"][["namespace", "name", "phase", "owner_kind"]].rename(columns={"name": "pod"})
    for types, system, finished in ((("container",), False, False), (EVERY_TYPE, True, True),
                                    (EVERY_TYPE, False, True), (("init",), True, False)):
        # the selection made first, then joined and sorted (how each rule's selection was made)
        rows = containers[containers["container_type"].isin(types) & containers["image"].notna()]
        rows = rows.merge(pods.astype({"namespace": "string"}), how="left",
                          left_on=[rows["namespace"].astype("string"), "pod"], right_on=["namespace", "pod"],
                          suffixes=("", "_pod"))
        if not system:
            rows = rows[~rows["namespace"].astype("string").map(is_system_namespace).astype(bool)]
        if not finished:
            rows = rows[~rows["phase"].isin(["Succeeded", "Failed"])]
        rows = rows.sort_values(["namespace", "pod", "container_type", "name"], kind="stable")
        pd.testing.assert_frame_equal(judged_containers(cluster, types, system, finished).reset_index(drop=True),
                                      rows.reset_index(drop=True), check_exact=True)


def _api_cases() -> list[dict]:
    cases = []
    for rule in ("api-removed-in-cluster", "api-removed-in-later-version"):
        doc = yaml.safe_load((CASES / f"{rule}.yaml").read_text(encoding="utf-8"))
        cases += doc["cases"]
    return cases


def test_removed_api_claims_are_read_once_per_dump() -> None:
    claimed = 0
    for case in _api_cases():
        c = cluster_of(case)
        version = cluster_version(c)
        expected = [(o, tuple(removed_api_uses(o, version.version if version else None)))
                    for o in c.objects_of(*removed_api_kinds())]
        users = removed_api_users(c)
        assert list(users) == [(o, uses) for o, uses in expected if uses], case["name"]
        assert removed_api_users(c) is users
        claimed += len(users)
    assert claimed  # the cases hold claims, so the comparison above compared something
