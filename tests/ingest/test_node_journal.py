"""A node's journal as tickets and collectors carry it: read with its host and unit, accounted for
where it was (a transcript's block, a file of its own, a collector's path), never skipped unread."""

from __future__ import annotations

import pytest

from analyzer.ingest import collect, ingest
from analyzer.ingest.journal import journal_lines

# Trimmed from aws/karpenter-provider-aws#2423 (EKS nodes stuck NotReady): the kubelet's journal as
# awslabs/amazon-eks-ami's eks-log-collector.sh saves it (`journalctl --unit=kubelet` into
# kubelet/kubelet.log), year and zone not printed.
EKS_KUBELET_LOG = (
    'Sep 12 22:47:22 ip-10-50-182-117.ec2.internal kubelet[1849]: E0912 22:47:22.727018    1849 kubelet.go:2451] '
    '"Error getting node" err="node \\"ip-10-50-182-117.ec2.internal\\" not found"\n'
    'Sep 12 22:47:22 ip-10-50-182-117.ec2.internal kubelet[1849]: E0912 22:47:22.949738    1849 controller.go:144] '
    'failed to ensure lease exists, will retry in 7s, error: Get "https://BC3C703DF8F128858B273DD34A80F043.gr7.us-east-1'
    '.eks.amazonaws.com/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/ip-10-50-182-117.ec2.internal'
    '?timeout=10s": dial tcp: lookup BC3C703DF8F128858B273DD34A80F043.gr7.us-east-1.eks.amazonaws.com on '
    '10.50.0.2:53: no such host\n'
)


def test_a_journalctl_block_of_a_transcript_is_read_as_its_nodes_journal() -> None:
    """A CKA lab's notes (public code index): the block was "output of 'journalctl -u kubelet -f':
    not kubectl"; now its lines are node01's, the kubelet's (systemd's line about kubelet.service too)."""
    r = ingest({"lab.md": (
        b"controlplane:~$ k get no\n"
        b"NAME           STATUS     ROLES           AGE    VERSION\n"
        b"node01         NotReady   <none>          4d4h   v1.33.2\n"
        b"\n"
        b"node01:~$ journalctl -u kubelet -f\n"
        b'Aug 23 13:53:14 node01 kubelet[8691]: E0823 13:53:14.926448    8691 run.go:72] "command failed" '
        b'err="failed to parse kubelet flag: unknown flag: --improve-speed"\n'
        b"Aug 23 13:53:14 node01 systemd[1]: kubelet.service: Main process exited, code=exited, status=1/FAILURE\n"
    )})
    assert [(j.line, j.host, j.unit, j.program, j.pid) for j in r.node_journal] == [
        (6, "node01", "kubelet", "kubelet", "8691"), (7, "node01", "kubelet", "systemd", "1")]
    assert r.node_journal[0].when == "Aug 23 13:53:14 (year and time zone not printed)"
    (said,) = [s for s in r.skipped if s.location == "lines 5-7"]
    assert said.reason == ("output of 'journalctl -u kubelet -f': 2 journal line(s) of node01 (units kubelet) "
                           "read as the node's journal, no objects")
    assert r.read_anything and not r.rejections


# Trimmed from coredns/coredns#3300 (its description, 2019-09-24: a kubeadm master on CentOS 7.7 in
# a Russian locale, NotReady, CoreDNS Pending): `systemctl status kubelet` as pasted (the paste lost
# its indentation), its journal lines dated as the locale abbreviates the month (сен: September),
# the last one cut by systemctl's ellipsis; the pods' table above it as pasted.
RU_KUBELET_STATUS = """[root@pr02 ~]#  kubectl get pods --all-namespaces -o wide
NAMESPACE     NAME                           READY   STATUS    RESTARTS   AGE   IP              NODE     NOMINATED NODE   READINESS GATES
kube-system   coredns-5644d7b6d9-fl7h8       0/1     Pending   0          25m   <none>          <none>   <none>           <none>
kube-system   etcd-pr02                      1/1     Running   0          24m   178.xxx.xxx.xxx   pr02     <none>           <none>
```
systemctl status kubelet
\u25cf kubelet.service - kubelet: The Kubernetes Node Agent
Loaded: loaded (/usr/lib/systemd/system/kubelet.service; enabled; vendor preset: disabled)
Drop-In: /usr/lib/systemd/system/kubelet.service.d
\u2514\u250010-kubeadm.conf
Active: active (running) since \u0412\u0442 2019-09-24 16:32:08 +06; 13min ago
Docs: https://kubernetes.io/docs/
Main PID: 17233 (kubelet)
Tasks: 22
Memory: 42.0M
CGroup: /system.slice/kubelet.service
\u2514\u250017233 /usr/bin/kubelet --bootstrap-kubeconfig=/etc/kubernetes/bootstrap-kubelet.conf --network-plugin=cni --pod-infr...

\u0441\u0435\u043d 24 16:44:59 pr02 kubelet[17233]: W0924 16:44:59.231530 17233 cni.go:237] Unable to update cni config: no valid networks found in /etc/cni/net.d
\u0441\u0435\u043d 24 16:45:03 pr02 kubelet[17233]: E0924 16:45:03.072008 17233 kubelet.go:2187] Container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:docker: network plugin is not ready: ...fig uninitialized
"""


def test_a_journal_in_the_nodes_locale_is_read_with_its_month() -> None:
    """coredns#3300's block was "output of 'systemctl status kubelet': not kubectl": its lines name
    the month in Russian (journalctl prints the locale's `%b`), which only English names and CJK
    numbers were read in. Now they are pr02's kubelet's, dated September 2019 in the zone the
    Active: line states."""
    r = ingest({"ticket.md": RU_KUBELET_STATUS.encode()})
    assert [(j.line, j.host, j.unit, j.pid) for j in r.node_journal] == [
        (19, "pr02", "kubelet", "17233"), (20, "pr02", "kubelet", "17233")]
    assert [j.when for j in r.node_journal] == ["\u0441\u0435\u043d 24 16:44:59 2019 +06",
                                                "\u0441\u0435\u043d 24 16:45:03 2019 +06"]
    assert r.node_journal[1].moment == (2019, 9, 24, 16, 45, 3)
    # (its process began at the Active: line's time: the kubelet's age at each line is known)
    assert r.node_journal[1].since == (2019, 9, 24, 16, 32, 8)
    (said,) = [s for s in r.skipped if "journal" in s.reason]
    assert said.reason.startswith("output of 'systemctl status kubelet': 2 journal line(s) of pr02 (units kubelet) "
                                  "read as the node's journal, no objects")


@pytest.mark.parametrize(("stamp", "month"), [
    ("Mai 22 08:07:35", 5),     # de_DE (kubernetes/website#8668's journal: `Mai 22 08:07:35 kuber-master-01 dockerd[1058]`)
    ("10\u6708 25 16:08:09", 10),  # zh_CN (kubernetes/kubernetes#54542)
    ("\u0441\u0435\u043d 24 16:44:59", 9),  # ru_RU (coredns/coredns#3300)
    ("Sep 12 22:47:22", 9),
])
def test_a_journal_lines_month_is_read_in_the_locales_tickets_come_in(stamp: str, month: int) -> None:
    (line,) = journal_lines([(1, f"{stamp} node1 kubelet[1]: E0101 x")], "t")
    assert line.moment is not None and line.moment[1] == month


def test_a_collectors_kubelet_log_is_read_as_the_nodes_journal() -> None:
    """eks-log-collector's kubelet/kubelet.log was "plain text that is neither a dump nor a known log
    layout"; its lines are the node's now, told apart by host."""
    r = ingest({"eks_i-0abc_2022-09-12/kubelet/kubelet.log": EKS_KUBELET_LOG.encode()})
    assert {(j.host, j.unit) for j in r.node_journal} == {("ip-10-50-182-117.ec2.internal", "kubelet")}
    (said,) = r.skipped
    assert said.reason == ("the kubelet's journal on the node (eks-log-collector: journalctl --unit=kubelet), not "
                           "Kubernetes objects: 2 journal line(s) of ip-10-50-182-117.ec2.internal (units kubelet) "
                           "read as the node's journal, no objects")
    assert [f.format for f in r.files] == ["node-journal"]


def test_prose_with_a_journal_line_quoted_is_not_a_journal_file() -> None:
    """A text file is a journal when most of its lines are; a note quoting one line is not read as one."""
    note = "The kubelet fails on the node.\nWe checked the config.\nWe restarted it twice.\n" + \
        EKS_KUBELET_LOG.splitlines()[0] + "\nStill NotReady.\n"
    r = ingest({"note.txt": note.encode()})
    assert r.node_journal == []


def test_a_long_journal_keeps_its_last_lines_and_says_how_many_it_left(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ten days of a kubelet's journal: the end is the node's state now; what is left unread is said."""
    monkeypatch.setattr(collect, "_JOURNAL_TAIL", 2)
    lines = EKS_KUBELET_LOG.splitlines()
    r = ingest({"kubelet/kubelet.log": "\n".join([lines[0], lines[0], *lines]).encode() + b"\n"})
    assert [j.line for j in r.node_journal] == [3, 4]
    assert "its first 2 line(s) not read (the journal's last 2 kept)" in r.skipped[0].reason


@pytest.mark.parametrize(("name", "prefixed"), [
    # Notepad++'s search results (`Line 918: `, the prefix a review found in istio/community#749's paste)
    ("kubelet-search.txt", lambda no, line: f"\tLine {917 + no}: {line}"),
    ("kubelet-numbered.txt", lambda no, line: f"   {917 + no}\t{line}"),  # cat -n
    ("ticket.md", lambda no, line: f"> {line}"),  # a quote in a write-up
    ("loki-export.txt", lambda no, line: f"2022-09-12T22:47:23.101Z {line}"),  # the time a log viewer received it
])
def test_a_viewers_prefix_on_each_line_does_not_hide_the_journal(name: str, prefixed) -> None:
    text = "".join(prefixed(no, line) + "\n" for no, line in enumerate(EKS_KUBELET_LOG.splitlines(), start=1))
    r = ingest({name: ("Search results, the node stuck NotReady:\n" + text).encode()})
    assert [(j.line, j.host, j.unit, j.pid) for j in r.node_journal] == [
        (2, "ip-10-50-182-117.ec2.internal", "kubelet", "1849"), (3, "ip-10-50-182-117.ec2.internal", "kubelet", "1849")]
    assert r.node_journal[1].message.startswith("E0912 22:47:22.949738    1849 controller.go:144] failed to ensure lease")
    assert not r.rejections


def test_a_number_or_quote_before_prose_is_not_read_as_a_journal() -> None:
    r = ingest({"notes.md": b"> 918: the kubelet restarted\n918\tthen it failed again\nLine 2: Sep 12 it was fine\n"})
    assert r.node_journal == []
