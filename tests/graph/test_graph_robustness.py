"""No dump stops the graph: malformed nested fields add no edge; every real dump builds and exports."""

from __future__ import annotations

import pytest
from conftest import REALDATA, SAMPLE_DUMPS

import analyzer
from analyzer.graph import dangling, dependencies, impact
from analyzer.graph.export import FORMATS, export

# Objects whose free-form parts (kept as plain dicts by the views) have shapes the API would
# refuse; written for this test.
MALFORMED = """apiVersion: v1
kind: List
items:
- {apiVersion: v1, kind: Pod, metadata: {name: p, namespace: app, labels: {app: web}}, spec: {containers: [{name: c}]}}
- {apiVersion: policy/v1, kind: PodDisruptionBudget, metadata: {name: a, namespace: app}, spec: {selector: "app=web"}}
- {apiVersion: policy/v1, kind: PodDisruptionBudget, metadata: {name: b, namespace: app}, spec: {selector: {matchLabels: [app, web], matchExpressions: [oops, {key: app, operator: In, values: web}]}}}
- {apiVersion: networking.k8s.io/v1, kind: NetworkPolicy, metadata: {name: n, namespace: app}, spec: {podSelector: [x]}}
- {apiVersion: autoscaling/v2, kind: HorizontalPodAutoscaler, metadata: {name: h, namespace: app}, spec: {scaleTargetRef: web}}
- {apiVersion: networking.k8s.io/v1, kind: Ingress, metadata: {name: i, namespace: app}, spec: {rules: [x, {http: {paths: [y, {backend: 3}]}}], tls: [z], defaultBackend: [w]}}
- {apiVersion: apiregistration.k8s.io/v1, kind: APIService, metadata: {name: v1.x}, spec: {service: name}}
- {apiVersion: gateway.networking.k8s.io/v1, kind: HTTPRoute, metadata: {name: r, namespace: app}, spec: {rules: {backendRefs: x}}}
- {apiVersion: batch/v1, kind: CronJob, metadata: {name: c, namespace: app}, spec: {jobTemplate: {spec: {template: [x]}}}}
- {apiVersion: batch/v1, kind: CronJob, metadata: {name: d, namespace: app}, spec: {jobTemplate: {spec: {template: {spec: {containers: 5}}}}}}
"""


def test_malformed_free_form_fields_add_no_edge():
    cluster = analyzer.load({"bad.yaml": MALFORMED})
    assert len(cluster.objects) == 10 and not cluster.ingest.rejections  # all reach the graph
    graph = cluster.graph
    relations = {rel for _, _, rel in graph.edges(data="relation")}
    assert relations == {"runs_as"}  # only the well-formed pod's default ServiceAccount


def _dirs() -> list:
    if not REALDATA.exists():
        return []
    return sorted(p for p in REALDATA.glob("*/*") if p.is_dir())


@pytest.mark.parametrize("path", _dirs(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_real_dump_builds_queries_and_exports(path):
    cluster = analyzer.load(path)
    graph = cluster.graph
    for fmt in FORMATS:
        assert export(graph, fmt)
    dangling(graph)
    for node in list(graph)[:20]:
        impact(graph, node)
        dependencies(graph, node)


def test_sample_oke_dump_proxymux_client_impact_is_its_pods():
    path = SAMPLE_DUMPS / "oke"
    cluster = analyzer.load(path)
    pods = {
        o.key.id for o in cluster.objects_of("Pod")
        if any(r.kind == "DaemonSet" and r.name == "proxymux-client" for r in o.view.metadata.ownerReferences or ())
    }
    assert pods
    reach = cluster.impact("DaemonSet/kube-system/proxymux-client")
    assert {a.node for a in reach if a.effect == "deleted"} >= pods


def test_optional_references_do_not_propagate_impact():
    # A pod mounting a Secret with optional: true keeps running without it; written for this test.
    dump = analyzer.load({"o.yaml": """apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Pod
  metadata: {name: web, namespace: app}
  spec:
    containers: [{name: c}]
    volumes: [{name: a, secret: {secretName: extra, optional: true}}, {name: b, secret: {secretName: tls}}]
- {apiVersion: v1, kind: Secret, metadata: {name: extra, namespace: app}, type: Opaque}
- {apiVersion: v1, kind: Secret, metadata: {name: tls, namespace: app}, type: kubernetes.io/tls}
"""})
    graph = dump.graph
    assert len(impact(graph, "Secret/app/extra")) == 0
    assert impact(graph, "Secret/app/tls").nodes == ["core/Pod/app/web"]
    effects = {a.node: a.effect for a in dependencies(graph, "Pod/app/web")}
    assert effects["core/Secret/app/extra"] == "optional"
    assert effects["core/Secret/app/tls"] == "required"
