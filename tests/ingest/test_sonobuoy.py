"""Sonobuoy results and JSON arrays of objects.

The fixture tests/ingest/data/sonobuoy-results/ is trimmed from the results tarballs in
vmware-tanzu/sonobuoy @ 307560188828ce124c575f60fcd30e8fb7cd45b7,
pkg/client/results/testdata/results-0.10.tar.gz (a kubeadm cluster on EC2, v1.8.4, 2017-12-13:
one node, the calico-node pod on it, its DaemonSet and Unhealthy events, the server version,
a host's healthz, the query timings, the first lines of the e2e log and of sonobuoy's pod log)
and results-0.8.tar.gz (made on a Mac: `resources/ns/default/results.json` and the AppleDouble
`._Nodes.json` beside its Nodes.json). Sonobuoy writes each kind as `[...]`, the List's items
without the List, and names the file by the kind's plural.
"""

from __future__ import annotations

import json
from pathlib import Path

from analyzer.ingest import ingest

DATA = Path(__file__).parent / "data" / "sonobuoy-results"


def test_a_sonobuoy_result_is_read_by_its_layout() -> None:
    r = ingest(str(DATA))
    assert sorted(o.key.id for o in r.objects) == [
        "apps/DaemonSet/kube-system/calico-node",
        "core/Event/kube-system/calico-node-fb8vk.14ffe9569d812106",
        "core/Event/kube-system/calico-node-fb8vk.14ffe95807caed5c",
        "core/Node//ip-10-0-26-239.us-west-2.compute.internal",
        "core/Pod/kube-system/calico-node-fb8vk",
    ]
    assert r.accounting_holds() and not r.rejections
    assert "sonobuoy" in r.formats
    assert r.server_version == "v1.8.4"
    # the pod log under podlogs/<ns>/<pod>/logs/<container>.txt
    assert [(g.namespace, g.pod, g.container) for g in r.logs] == [("heptio-sonobuoy", "sonobuoy", "kube-sonobuoy")]
    skipped = {s.source.split("sonobuoy-results/", 1)[1]: s.reason for s in r.skipped}
    assert "macOS file metadata" in skipped["resources/cluster/._Nodes.json"]
    assert "plugin's results" in skipped["plugins/e2e/results/e2e.log"]
    for side in ("serverversion.json", "meta/query-time.json", "resources/ns/default/results.json",
                 "hosts/ip-10-0-26-239.us-west-2.compute.internal/healthz.json"):
        assert skipped[side] == "bundle metadata, not Kubernetes objects"


def test_a_json_array_of_objects_is_read_as_the_list_it_was_cut_from(tmp_path: Path) -> None:
    # troubleshoot writes custom resources as an array, each item with its kind (the shape of
    # real-support-bundles/.../custom-resources/addons.k3s.cattle.io/kube-system.json)
    items = [{"apiVersion": "k3s.cattle.io/v1", "kind": "Addon",
              "metadata": {"name": "ccm", "namespace": "kube-system", "uid": "u1"}},
             {"apiVersion": "k3s.cattle.io/v1", "kind": "Addon",
              "metadata": {"name": "coredns", "namespace": "kube-system", "uid": "u2"}}]
    (tmp_path / "addons.json").write_text(json.dumps(items, indent=2))
    r = ingest(str(tmp_path / "addons.json"))
    assert sorted(o.name for o in r.objects) == ["ccm", "coredns"]
    assert r.accounting_holds() and not r.rejections
    # an item's line is its line in the file (the List's opening adds no line)
    rejected = tmp_path / "bad.json"
    rejected.write_text(json.dumps([items[0], {"metadata": {"name": "no-kind"}}], indent=2))
    r = ingest(str(rejected))
    assert [o.name for o in r.objects] == ["ccm"]
    assert len(r.rejections) == 1 and "no kind" in r.rejections[0].reason


def test_an_array_of_messages_is_a_collectors_errors_not_a_broken_document(tmp_path: Path) -> None:
    # troubleshoot's `<collector>-errors.json` (real-support-bundles/.../secrets-errors/...)
    folder = tmp_path / "bundle" / "secrets-errors" / "default"
    folder.mkdir(parents=True)
    (folder / "default-token.json").write_text(
        '[\n  "invalid resource name \\"default/default-token*\\": [may not contain \'/\']"\n]')
    (tmp_path / "bundle" / "kubectl-top-nodes-errors.json").write_text('[\n  "unable to parse requirement"\n]')
    r = ingest(str(tmp_path / "bundle"))
    assert not r.rejections and r.accounting_holds()
    assert sorted(s.reason for s in r.skipped) == 2 * [
        "a collector's errors (what the bundle could not collect), not objects"]


# tests/ingest/data/sonobuoy-results-e2e/ is trimmed from vmware-tanzu/sonobuoy @ 307560188828
# test/integration/testdata/results-4-e2e-failures.tar.gz (kind, v1.21.1, 2021-08-17, sonobuoy
# 0.53): four of its namespaces, the resourcequota test's pod, the query timings of that
# namespace and of the cluster's kinds, and the e2e plugin's defintion.json (sic), its
# sonobuoy_results.yaml cut to three tests, and its e2e log's first lines and the lines where a
# failing test printed the DaemonSetList and PodList it found. Since 0.15 sonobuoy names each
# file <group>_<version>_<resource>.json and writes none for an empty list.
E2E = Path(__file__).parent / "data" / "sonobuoy-results-e2e"


def test_newer_sonobuoy_results_read_by_group_version_resource_names() -> None:
    r = ingest(str(E2E))
    assert r.accounting_holds()
    assert not r.rejections, r.rejections
    assert {(o.kind, o.namespace) for o in r.objects} >= {("Pod", "resourcequota-9871"), ("Namespace", "")}
    skipped = {s.source.split("sonobuoy-results-e2e/", 1)[1]: s.reason for s in r.skipped}
    # the plugin's own files, however much JSON or `items:` they quote (the e2e log's
    # `pods: {"kind":"PodList",...}` made its 1,400 lines 174 rejected objects)
    for path in ("plugins/e2e/defintion.json", "plugins/e2e/sonobuoy_results.yaml",
                 "plugins/e2e/results/global/e2e.log"):
        assert "a sonobuoy plugin's results" in skipped[path], (path, skipped.get(path))


def test_what_sonobuoy_queried_is_collected_even_with_no_file() -> None:
    # meta/query-time.json: persistentvolumeclaims were queried in resourcequota-9871 and none
    # came back (no file); Events were never queried
    r = ingest(str(E2E))
    assert "PersistentVolumeClaim" in r.collected_kinds and "Service" in r.collected_kinds
    assert "Event" not in r.collected_kinds
