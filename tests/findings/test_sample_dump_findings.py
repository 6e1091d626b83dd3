"""The problems planted in sample_dumps/ (listed in sample_dumps/README.md) are found, by the
right rule, on the right object; and the healthy parts stay quiet."""

from __future__ import annotations

import pytest
from conftest import SAMPLE_DUMPS

import analyzer
from analyzer.findings import collect_findings

# (rule, object) per dump, from the README's "Planted problems" table.
PLANTED: dict[str, list[tuple[str, str]]] = {
    "aks": [
        ("node-memory-pressure", "Node/aks-nodepool1-12345678-vmss000002"),
        ("events-node-oom", "Node/aks-nodepool1-12345678-vmss000002"),
        ("pod-crashloop", "Pod/shop/cart-6mvdgdjsd-nbbzw"),
        ("pod-oomkilled", "Pod/shop/cart-6mvdgdjsd-nbbzw"),
        ("deployment-unavailable", "Deployment/shop/cart"),
        ("container-image-latest", "Pod/shop/recommendations-bqc6nxf8x-xxrk8"),
        ("ref-missing-configmap", "Deployment/shop/recommendations"),
        ("events-failed-mount", "Pod/shop/recommendations-bqc6nxf8x-xxrk8"),
        ("service-no-pods", "Service/shop/payments"),
    ],
    "eks": [
        ("node-not-ready", "Node/ip-10-0-3-45.ec2.internal"),
        ("daemonset-unavailable", "DaemonSet/kube-system/aws-node"),
        ("pod-image-pull", "Pod/payments/worker-8fq7djj4s-jsbsh"),
        ("pod-crashloop", "Pod/payments/reconciler-fjq2qvqhcs-j475k"),
        ("pod-pending", "Pod/payments/report-builder-pr77k7n577-rsf47"),
        ("deployment-unavailable", "Deployment/payments/api"),
    ],
    "oke": [
        ("container-image-latest", "Pod/billing/billing-worker-rmpr66m5hg-vpnj9"),
        ("pod-container-create-error", "Pod/billing/billing-worker-rmpr66m5hg-vpnj9"),
        ("ref-missing-configmap", "Deployment/billing/billing-worker"),
        ("pvc-pending", "PersistentVolumeClaim/billing/billing-db-data"),
        ("pod-pending", "Pod/billing/billing-db-b9smmgwhx-hrnl8"),
        ("job-failed", "Job/billing/billing-migrate-20240915"),
        ("service-lb-pending", "Service/billing/invoice-api"),
        ("deprecated-annotation", "DaemonSet/kube-system/proxymux-client"),
    ],
    "kubeadm": [
        ("control-plane-restarts", "Pod/kube-system/etcd-kube-master-node1"),
        ("node-cordoned", "Node/kube-worker-node2"),
        ("pod-not-ready", "Pod/kube-system/calico-node-mlpjf"),
        ("daemonset-unavailable", "DaemonSet/kube-system/calico-node"),
        ("pod-pending", "Pod/default/inventory-jrwlmwm59-rr7m7"),
        ("deployment-unavailable", "Deployment/default/inventory"),
    ],
}


def object_id(f) -> str:
    return "/".join(x for x in (f.kind, f.namespace, f.name) if x)


@pytest.fixture(scope="module", params=sorted(PLANTED))
def sample(request):
    path = SAMPLE_DUMPS / request.param
    if not path.exists():
        pytest.skip(f"{path} not generated yet")
    return request.param, collect_findings(analyzer.load(str(path)))


def test_planted_problems_are_found(sample) -> None:
    name, findings = sample
    found = {(f.rule, object_id(f)) for f in findings if f.status == "fail"}
    missed = [p for p in PLANTED[name] if p not in found]
    assert not missed


def test_no_missing_reference_where_the_form_has_no_configmaps(sample) -> None:
    name, findings = sample
    if name in ("eks", "kubeadm"):  # cluster-info dumps: ConfigMaps were never collected
        assert not [f for f in findings if f.rule.startswith("ref-missing") and f.status == "fail"]
        na = {f.rule for f in findings if f.status == "not_applicable"}
        assert "ref-missing-configmap" in na


def test_healthy_system_pods_raise_no_alarm(sample) -> None:
    name, findings = sample
    noisy = [f for f in findings if f.status == "fail" and f.namespace == "kube-system"
             and f.rule in ("container-no-requests", "container-no-liveness-probe", "pod-host-network",
                            "container-privileged", "pod-host-path")]
    assert not noisy, [(f.rule, f.name) for f in noisy]
