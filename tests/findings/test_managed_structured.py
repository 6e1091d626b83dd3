"""Provider-managed marks for a structured dump's kube-system objects that carry no label naming
their manager, where the component catalog names them part of the detected distribution's
platform (OKE labels none of its own add-ons)."""

from __future__ import annotations

import json

import analyzer
from analyzer.findings import collect_findings

# Trimmed from review3's OKE dump (eugsim1/wls-oke-amsterdam20v, `kubectl cluster-info dump
# --output-directory`, OKE v1.18.10, 2020-11): kube-system/daemonsets.json's proxymux-client
# (OKE's API tunnel, label oke-app only) and nodes.json's OKE labels. Before: its deprecated
# critical-pod annotation was a warning for the cluster's owner, though OKE writes and reconciles
# the DaemonSet. A DaemonSet of the same name outside kube-system stays the owner's.


def _daemonset(namespace: str) -> dict:
    return {
        "apiVersion": "apps/v1", "kind": "DaemonSet",
        "metadata": {"name": "proxymux-client", "namespace": namespace, "uid": f"ds-{namespace}",
                     "creationTimestamp": "2020-11-03T10:10:53Z", "labels": {"oke-app": "proxymux-client-ds"},
                     "annotations": {"scheduler.alpha.kubernetes.io/critical-pod": ""}},
        "spec": {"selector": {"matchLabels": {"app": "proxymux-client"}},
                 "template": {"metadata": {"labels": {"app": "proxymux-client"}},
                              "spec": {"containers": [{
                                  "name": "proxymux-client",
                                  "image": "eu-amsterdam-1.ocir.io/axoxdievda5j/oke-public-proxymux-cli@sha256:"
                                           "8cdfbe2aed4e276063ee490dab01a92a057d0d7ea5ab0143687e4265a3abdefe"}]}}},
        "status": {"currentNumberScheduled": 4, "desiredNumberScheduled": 4, "numberAvailable": 4,
                   "numberReady": 4, "numberMisscheduled": 0, "updatedNumberScheduled": 4},
    }


_NODE = {
    "apiVersion": "v1", "kind": "Node",
    "metadata": {"name": "10.0.10.2", "uid": "n1", "creationTimestamp": "2020-11-03T10:12:01Z",
                 "labels": {"displayName": "oke-c3tqnrtgbsg-nrtknjzmvqw-sfsmqzpocga-0",
                            "hostname": "oke-c3tqnrtgbsg-nrtknjzmvqw-sfsmqzpocga-0",
                            "name": "wls-oke-pool", "node.info/compartment.name": "wls",
                            "node.info/kubeletVersion": "v1.18"}},
    "spec": {"providerID": "ocid1.instance.oc1.eu-amsterdam-1.anqw2ljrlu7dqmqclwk2kpmo3t3obsk2ttgcyaqnbkkffdmrr6qy4a2yq4ja"},
    "status": {"conditions": [{"type": "Ready", "status": "True"}], "nodeInfo": {"kubeletVersion": "v1.18.10"}},
}


def test_okes_own_daemonset_in_kube_system_is_marked_and_a_namesake_elsewhere_is_not() -> None:
    dump = {"kind": "List", "items": [_NODE, _daemonset("kube-system"), _daemonset("tools")]}
    cluster = analyzer.load({"dump.json": json.dumps(dump)})
    assert cluster.distribution.name == "oke"
    marks = {(f.namespace, f.name): (f.managed, f.severity) for f in collect_findings(cluster)
             if f.rule == "deprecated-annotation" and f.status == "fail" and f.kind == "DaemonSet"}
    managed, severity = marks[("kube-system", "proxymux-client")]
    assert managed == "component proxymux-client, part of oke by the component catalog (its labels name no manager)"
    assert severity == "info"
    assert marks[("tools", "proxymux-client")][0] == ""


def test_a_kubeadm_clusters_haproxy_static_pods_are_not_marked() -> None:
    # realdata kURL support bundle (kubeadm): kURL writes haproxy static pods in kube-system, as a
    # kubeadm HA setup's owner does by hand; the name cannot tell which, and no provider stands
    # behind a kubeadm cluster: the catalog marks nothing there (kURL's own namespace is marked)
    from conftest import REALDATA

    from analyzer.findings.managed import _pasted_platform_components

    cluster = analyzer.load(str(REALDATA / "kubeadm" / "sbctl-kurl-supportbundle"))
    assert cluster.distribution.name == "kubeadm"
    assert not [key for key in _pasted_platform_components(cluster) if key[2].startswith("haproxy-")]


# Trimmed from realdata k3s/udacity-nd064-cluster-info-dump (k3s v1.18.9+k3s1, `kubectl
# cluster-info dump`): the node, the helm controller's helm-install-traefik pod and the traefik
# Service its chart made (labels name Helm only), type LoadBalancer with no address. Before:
# service-lb-pending on it was the owner's to fix, though k3s bundles and reconciles the chart.
def _k3s_dump(release: str) -> dict:
    node = {"apiVersion": "v1", "kind": "Node",
            "metadata": {"name": "localhost", "uid": "n1", "creationTimestamp": "2020-10-09T17:08:53Z",
                         "labels": {"node.kubernetes.io/instance-type": "k3s", "k3s.io/hostname": "localhost"}},
            "spec": {"providerID": "k3s://localhost"},
            "status": {"conditions": [{"type": "Ready", "status": "True"}],
                       "nodeInfo": {"kubeletVersion": "v1.18.9+k3s1"}}}
    job_pod = {"apiVersion": "v1", "kind": "Pod",
               "metadata": {"name": "helm-install-traefik-fnmd5", "namespace": "kube-system", "uid": "p1",
                            "creationTimestamp": "2020-10-13T07:40:23Z",
                            "labels": {"helmcharts.helm.cattle.io/chart": "traefik", "job-name": "helm-install-traefik"},
                            "ownerReferences": [{"apiVersion": "batch/v1", "kind": "Job", "name": "helm-install-traefik",
                                                 "uid": "j1", "controller": True}]},
               "spec": {"nodeName": "localhost", "containers": [{"name": "helm", "image": "rancher/klipper-helm:v0.2.5"}]},
               "status": {"phase": "Succeeded"}}
    service = {"apiVersion": "v1", "kind": "Service",
               "metadata": {"name": "traefik", "namespace": "kube-system", "uid": "s1",
                            "creationTimestamp": "2020-10-13T07:40:37Z",
                            "labels": {"app": "traefik", "app.kubernetes.io/managed-by": "Helm", "chart": "traefik-1.81.0",
                                       "heritage": "Helm", "release": release},
                            "annotations": {"meta.helm.sh/release-name": release,
                                            "meta.helm.sh/release-namespace": "kube-system"}},
               "spec": {"type": "LoadBalancer", "clusterIP": "10.43.13.184", "selector": {"app": "traefik", "release": release},
                        "ports": [{"name": "http", "port": 80, "protocol": "TCP", "targetPort": "http"}]},
               "status": {"loadBalancer": {}}}
    return {"kind": "List", "items": [node, job_pod, service]}


def test_a_service_of_the_chart_k3s_bundles_is_marked_and_a_chart_of_the_owners_is_not() -> None:
    cluster = analyzer.load({"dump.json": json.dumps(_k3s_dump("traefik"))})
    assert cluster.distribution.name == "k3s"
    [lb] = [f for f in collect_findings(cluster) if f.rule == "service-lb-pending" and f.status == "fail"]
    assert lb.managed == ("annotation meta.helm.sh/release-name=traefik, a chart k3s bundles "
                          "(its helm controller's job helm-install-traefik installed it)")
    # the same Service of a release no helm-install job of k3s's installed: the owner's
    owners = analyzer.load({"dump.json": json.dumps(_k3s_dump("edge"))})
    [lb] = [f for f in collect_findings(owners) if f.rule == "service-lb-pending" and f.status == "fail"]
    assert lb.managed == ""
