"""OpenShift insights archives (openshift/insights-operator) whole: objects kept without kind or
apiVersion (their selfLink or path says them), the operators' configs with their name alone,
and the archive's summaries, metrics, a ConfigMap's values and the operator's records passed
over with what they hold.

The fixture tests/ingest/data/insights-archive/ is trimmed from openshift/insights-operator @
8494b69b8075 docs/insights-archive-sample: those files as they are, config/alerts.json cut to two
alerts, config/metrics to its first lines, the install-config value to its first 16 lines, the
admin ClusterRole to two rules and insights-operator/gathers.json to two of each list.
"""

from __future__ import annotations

from pathlib import Path

from analyzer.ingest import ingest

DATA = Path(__file__).parent / "data" / "insights-archive"


def test_objects_without_kind_are_read_by_their_self_link_or_path() -> None:
    r = ingest(str(DATA))
    assert r.accounting_holds()
    assert not r.rejections, r.rejections
    # (the sample's multus.openshift.io.json holds the snapshot webhook: its own name is kept)
    assert sorted(o.key.id for o in r.objects) == [
        "admissionregistration.k8s.io/ValidatingWebhookConfiguration//snapshot.storage.k8s.io",
        # config/apiserver.json and image.json keep no selfLink (OpenShift 4.7 on): their path says
        "config.openshift.io/APIServer//cluster",
        "config.openshift.io/Image//cluster",
        "config.openshift.io/Infrastructure//cluster",
        "config.openshift.io/Proxy//cluster",
        "operator.openshift.io/DNS//default",
        "rbac.authorization.k8s.io/ClusterRole//admin",
        "security.openshift.io/SecurityContextConstraints//anyuid",
    ]


def test_the_archives_own_files_are_passed_over_with_what_they_hold() -> None:
    r = ingest(str(DATA))
    skipped = {s.source.split("insights-archive/", 1)[1]: s.reason for s in r.skipped}
    for path, words in {
        "config/alerts.json": "an insights archive's summary",
        "config/id": "cluster id or Prometheus metrics",
        "config/metrics": "cluster id or Prometheus metrics",
        # YAML with apiVersion and metadata, but a ConfigMap's value: the path decides
        "config/configmaps/kube-system/cluster-config-v1/install-config": "a ConfigMap's value",
        "config/secrets/openshift-config/support/data.json": "a Secret's data",
        "aggregated/custom_prometheuses_alertmanagers.json": "the insights operator's own records",
        "insights-operator/gathers.json": "the insights operator's own records",
        "events/openshift-machine-api.json": "no object named",
    }.items():
        assert words in skipped[path], (path, skipped.get(path))
