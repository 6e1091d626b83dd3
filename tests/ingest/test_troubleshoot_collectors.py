"""troubleshoot.sh support bundles: what its in-cluster collectors other than clusterResources and
logs leave at their fixed paths (configMap, secret, certificates, dns, goldpinger, node-metrics,
sysctl, database and registry checks, collectd, execution-data) is passed over with what it
holds, not rejected as objects without a kind; a copyFromHost collector's empty tar is empty.

The fixture tests/ingest/data/troubleshoot-collectors/supportbundle/ is trimmed from
replicatedhq/troubleshoot @ 5bf008f7d246 test/baselines/supportbundle/baseline.tar.gz (the bundle
its own baseline spec makes of a k3s v1.31.2 node, 2025-12-10): those files, with dns/debug.txt,
sysctl/primary-node and execution-data/summary.txt cut to their first lines,
node-metrics/primary-node.json to the node's name and first system container, and
http-get-example.json's body and headers to their first characters and three headers.
"""

from __future__ import annotations

from pathlib import Path

from analyzer.ingest import ingest

DATA = Path(__file__).parent / "data" / "troubleshoot-collectors"
ROOT = "supportbundle/"


def test_collectors_answers_are_passed_over_with_what_they_hold() -> None:
    r = ingest(str(DATA))
    assert r.accounting_holds()
    assert not r.rejections, r.rejections
    skipped = {s.source.split(ROOT, 1)[1]: s.reason for s in r.skipped if ROOT in s.source}
    for path, words in {
        "configmaps/default/example-configmap.json": "configMap or secret collector's answer",
        "secrets/default/example-secret.json": "configMap or secret collector's answer",
        "certificates/certificates.json": "certificates collector",
        "dns/debug.json": "DNS or goldpinger check",
        "dns/debug.txt": "DNS or goldpinger check",
        "goldpinger/check_all.json": "DNS or goldpinger check",
        "node-metrics/primary-node.json": "kubelet stats summary",
        "sysctl/primary-node": "sysctl values",
        "mysql/mysql-example.json": "database or registry check",
        "registry/registry-images-example.json": "database or registry check",
        "collectd/rrd/primary-node/stderr.txt": "collectd's files",
        "execution-data/summary.txt": "the bundle's collectors",
        # an http collector's file at the root, named by the spec: told by its shape
        "http-get-example.json": "http collector's answer",
        # two blocks of zero bytes: tar's end marker alone (the node had no collectd files)
        "collectd/rrd/primary-node/archive.tar": "an empty tar archive",
    }.items():
        assert words in skipped[path], (path, skipped.get(path))


def test_a_namespace_without_events_is_events_collected() -> None:
    # cluster-resources/events/<ns>.json of a namespace with no events, as the baseline bundle
    # above keeps kube-public's and kube-node-lease's (its `items` null): the bundle collected
    # events, there were none; not an insights archive's trimmed events/<ns>.json
    empty = b'{\n  "kind": "EventList",\n  "apiVersion": "v1",\n  "metadata": {\n    "resourceVersion": "687"\n  },\n  "items": null\n}'
    pod = (b'{"kind": "PodList", "apiVersion": "v1", "items": [{"metadata": {"name": "coredns-56f6fc8fd7-p4x9z", '
           b'"namespace": "kube-system", "uid": "dd820d56-5b83-42c5-955f-058aedc0ad27"}, '
           b'"spec": {"nodeName": "primary-node", "containers": [{"name": "coredns"}]}}]}')
    r = ingest({ROOT + "cluster-resources/events/kube-public.json": empty,
                ROOT + "cluster-resources/events/kube-node-lease.json": empty,
                ROOT + "cluster-resources/pods/kube-system.json": pod})
    assert not r.skipped and not r.rejections and r.accounting_holds()
    assert "Event" in r.collected_kinds
