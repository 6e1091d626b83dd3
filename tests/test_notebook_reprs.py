"""What a notebook shows of cluster.distribution, cluster.capture and cluster.timeline_summary:
one line saying what each is (not the dataclass's every evidence row, signal and frame), and
an escaped HTML table of what decided it."""

from __future__ import annotations

import pytest
from conftest import REALDATA

import analyzer
from analyzer.distributions.result import (
    RUNNER_UP_ROWS,
    ControlPlane,
    Distribution,
    Evidence,
    RunnerUp,
)

EKS = REALDATA / "eks" / "holmesgpt-fixtures"
MIXED = REALDATA / "unknown" / "troubleshoot-analyze-files"
K3S = REALDATA / "k3s" / "troubleshoot-testdata-supportbundle"


@pytest.fixture(scope="module")
def eks() -> analyzer.Cluster:
    return analyzer.load(EKS)


def test_a_distribution_shows_its_verdict_and_the_rows_that_decided_it(eks: analyzer.Cluster) -> None:
    shown = repr(eks.distribution)
    assert shown.startswith("<Distribution eks (0.99 confidence, control plane managed): "
                            "6 evidence rows counted, kubelet_version_regex v1.30.4-eks-a737599 "
                            "(weight 10, 3 objects), ")
    assert shown.endswith(" and 3 more>")
    # the rows that did not count (a weaker row of a signal already counted) are not named
    assert "aws-node" not in shown and "Evidence(" not in shown
    table = eks.distribution._repr_html_()
    assert table.count("<tr>") == 1 + 6


def test_a_mixed_verdict_names_each_distribution_of_its_rows() -> None:
    shown = repr(analyzer.load(MIXED).distribution)
    assert shown.startswith("<Distribution mixed ")
    assert "doks: node_label_key_prefix doks.digitalocean.com/node-id" in shown
    assert "microk8s: node_label_key_prefix microk8s.io/cluster" in shown


def test_a_distribution_never_shows_a_credential_and_escapes_its_values() -> None:
    row = Evidence("workload_arg", "core/Pod/x/<b>api</b>", "--oidc-client-secret=s3cr3tvalue",
                   9.0, "demo", note="a <flag>")
    verdict = Distribution("demo", 0.9, [row], control_plane=ControlPlane("managed"))
    assert "s3cr3tvalue" not in repr(verdict)
    assert "1 evidence row counted" in repr(verdict)
    table = verdict._repr_html_()
    assert "s3cr3tvalue" not in table and "<b>api" not in table and "&lt;flag&gt;" in table
    assert repr(Distribution("unknown", 0.0)) == (
        "<Distribution unknown (0.00 confidence, control plane unknown)>")


def test_a_distribution_table_shows_why_the_runner_up_scored() -> None:
    # a k3d support bundle: k3s wins, and RKE2 scores by the k3s.cattle.io Addon kinds both ship
    table = analyzer.load(K3S).distribution._repr_html_()
    runner = table[table.index("Runner-up"):]
    assert runner.startswith("Runner-up <b>rke2</b> (6): 2 counted rows</p><table>")
    assert runner.count("<tr>") == 1 + 2 and "RKE2 shares k3s&#x27;s Addon resources" in runner


def test_a_runner_up_of_many_rows_shows_its_heaviest_masked_and_escaped() -> None:
    rows = [Evidence("workload_arg", f"core/Pod/kube-system/p{i}", f"--token=s3cr3t{i} <i>", float(i),
                     "<rke2>") for i in range(1, 9)]
    verdict = Distribution("k3s", 0.7, runner_up=RunnerUp.of("<rke2>", 36.0, rows))
    table = verdict._repr_html_()
    runner = table[table.index("Runner-up"):]
    assert f"8 counted rows, the heaviest {RUNNER_UP_ROWS} of 8" in runner
    assert runner.count("<tr>") == 1 + RUNNER_UP_ROWS and "<td>8</td>" in runner
    assert "s3cr3t" not in table and "<rke2>" not in table and "<i>" not in table
    assert "&lt;rke2&gt;" in table


def test_the_capture_and_the_timeline_summary_say_what_they_are(eks: analyzer.Cluster) -> None:
    assert repr(eks.capture) == "<CaptureEstimate 2024-11-18T10:30:53Z (lease renewal, high confidence)>"
    assert repr(eks.timeline_summary) == (
        "<TimelineSummary 25 facts, 2024-10-14T06:10:44Z .. 2024-11-18T10:27:57Z "
        "(captured 2024-11-18T10:30:53Z); densest 10 minutes from 2024-10-14T10:30:00Z: 9 of them>")
    table = eks.timeline_summary._repr_html_()
    assert table.count("</tr>") == 1 + len(eks.timeline_summary.densest)
