"""The kubelet journal's signatures (analyzer/findings/data/kubelet_journal.yaml): each reads its
own example as itself (the first in the catalog's order that matches it), and the lines of a
kubelet stopped or restarted on purpose read as no failure."""

from __future__ import annotations

import re

import pytest

from analyzer.findings.rules import node_kubelet_failing
from analyzer.findings.versions import DATA
from analyzer.safeyaml import load_yaml

CATALOG = load_yaml((DATA / "kubelet_journal.yaml").read_text(encoding="utf-8"))
SIGNATURES = [*CATALOG["exits"], *CATALOG["lasting"]]


@pytest.mark.parametrize("signature", SIGNATURES, ids=[s["id"] for s in SIGNATURES])
def test_each_signature_reads_its_example_as_itself(signature: dict) -> None:
    _units, _started, compiled = node_kubelet_failing._catalog()
    first = next(s for s in compiled if s.pattern.search(signature["example"]))
    assert first.id == signature["id"]


@pytest.mark.parametrize("line", [
    # `systemctl stop kubelet` or `restart` ends it with SIGTERM (a ticket's fix, not its fault)
    "kubelet.service: Main process exited, code=killed, status=15/TERM",
    "kubelet.service: Deactivated successfully.",
    "Stopped kubelet.service - kubelet: The Kubernetes Node Agent.",
    # cAdvisor probing for runtimes the node does not run (a healthy kubelet's journal)
    'I1020 20:40:12.925528   95277 factory.go:219] Registration of the crio container factory failed: Get '
    '"http://%2Fvar%2Frun%2Fcrio%2Fcrio.sock/info": dial unix /var/run/crio/crio.sock: connect: no such file or directory',
    # every kubelet logs these while it starts
    'W0331 08:45:29.625024   13731 cni.go:237] Unable to update cni config: no networks found in /etc/cni/net.d',
    'E0711 09:06:40.521709     437 kubelet.go:2424] "Error getting node" err="node \\"z-k8s-m-1\\" not found"',
])
def test_a_kubelet_stopped_or_starting_reads_as_no_failure(line: str) -> None:
    _units, _started, compiled = node_kubelet_failing._catalog()
    assert [s.id for s in compiled if s.pattern.search(line)] == []


@pytest.mark.parametrize("line", [
    # kubernetes/kubernetes#71692 (`journalctl -r -u kubelet`, cut at the terminal's width)
    "E1204 13:12:57.753600   27165 kubelet.go:2167] Container runtime network not ready: NetworkReady=false reason:NetworkPl",
    # coredns/coredns#3300 (`systemctl status kubelet`, cut by its ellipsis)
    "E0924 16:45:03.072008 17233 kubelet.go:2187] Container runtime network not ready: NetworkReady=false "
    "reason:NetworkPluginNotReady message:docker: network plugin is not ready: ...fig uninitialized",
    # CRI-O's reason (a kubeadm install's notes in the public code index, its repository not named there)
    'E1115 11:09:17.084187   16432 kubelet.go:2349] "Container runtime network not ready" networkReady="NetworkReady=false '
    'reason:NetworkPluginNotReady message:Network plugin returns error: No CNI configuration file in /etc/cni/net.d/. '
    'Has your network provider started?"',
])
def test_the_kubelets_network_not_ready_reads_as_its_cni_however_the_reason_is_said_or_cut(line: str) -> None:
    """The kubelet's own phrase says its network plugin is not ready: a paste cut before the
    runtime's reason (systemctl's ellipsis, a terminal's width), or CRI-O's wording of it, read as
    cni-not-initialized, not as nothing."""
    _units, _started, compiled = node_kubelet_failing._catalog()
    assert next(s.id for s in compiled if s.pattern.search(line)) == "cni-not-initialized"


def test_started_reads_a_kubelet_past_its_start_and_not_systemds_launch() -> None:
    started = re.compile(CATALOG["started"])
    assert started.search('I0603 15:36:24.886841    5645 kubelet_node_status.go:78] "Successfully registered node" node="node02"')
    assert started.search('time="2024-01-02T03:04:05Z" level=info msg="Running kubelet --address=0.0.0.0"')
    # (systemd's line is the launch; the rule reads only the kubelet's own lines for it)
    assert not started.search("Started kubelet.service - kubelet: The Kubernetes Node Agent.")
