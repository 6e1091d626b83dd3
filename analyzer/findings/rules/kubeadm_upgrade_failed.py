"""A `kubeadm upgrade apply` or `node` run a paste shows failing, with why kubeadm said it did:
a preflight check, a control plane component whose static pod the kubelet did not restart within
five minutes (kubeadm then restores the earlier manifests), etcd. The control plane stays at
the version it had; history once the same paste shows a later run succeed, or the dump shows
the API server at the version the run was to reach."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import holds_a_paste
from analyzer.findings.types import Evidence, Finding, RuleMeta
from analyzer.ingest.kubeadm_upgrade import KubeadmUpgrade

RULE = RuleMeta(
    id="kubeadm-upgrade-failed", title="kubeadm upgrade failed", severity="warning",
    category="cluster",
    message="`kubeadm upgrade{verb}`{versions} failed (line {line}): {why}{rolled_back}",
    remediation="Read the failed step: for a preflight check, fix what it names (or skip it knowingly with "
    "--ignore-preflight-errors); for a static pod whose hash did not change, read the kubelet's log on that "
    "node (`journalctl -u kubelet`) and the component's container log (`crictl logs`), since the new manifest's "
    "pod did not start; for etcd, check its health first. Then run the same `kubeadm upgrade` again.",
)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    runs: list[KubeadmUpgrade] = list(getattr(cluster.ingest, "kubeadm_upgrades", None) or ())
    if not runs:
        if not holds_a_paste(cluster):
            yield RULE.not_applicable("the dump holds no pasted `kubeadm upgrade` run")
        return
    server = str(getattr(cluster.ingest, "server_version", "") or "")
    for index, run in enumerate(runs):
        if run.succeeded or not run.failure:
            continue
        evidence = Evidence("kubeadm upgrade", run.failure, "the upgrade done", source=run.source,
                            line=run.failure_line)
        versions = f" from {run.cluster_version}" if run.cluster_version else ""
        versions += f" to {run.target}" if run.target else ""
        what = (f"its preflight check {run.check} failed: " if run.check else "") + _why(run)
        node = run.node or ""
        finding = RULE.fail(None, evidence, kind="Node" if node else "", namespace="",
                            name=node or "kubeadm upgrade", verb=f" {run.verb}" if run.verb else "", versions=versions,
                            line=run.failure_line, why=what, component=run.component, check=run.check,
                            rolled_back="; kubeadm restored the earlier control plane" if run.rolled_back else "")
        later = _succeeded_later(runs[index + 1:], run) or _reached(server, run)
        yield finding.as_info(resolved=later) if later else finding


def _why(run: KubeadmUpgrade) -> str:
    """The reason as kubeadm gave it, the component and node first where it names them."""
    if run.component:
        return (f"the kubelet on {run.node} did not restart {run.component}'s static pod with its new manifest "
                f"within the wait ({run.failure})")
    return run.failure


def _succeeded_later(later: list[KubeadmUpgrade], failed: KubeadmUpgrade) -> str:
    """A later run of the same paste that said it succeeded."""
    for run in later:
        if run.source == failed.source and run.succeeded:
            return f"a later `kubeadm upgrade {run.verb or 'apply'}` (line {run.line}) succeeded"
    return ""


def _reached(server: str, run: KubeadmUpgrade) -> str:
    """The dump's API server version (from `kubectl version`) already the run's target."""
    if run.target and server and server.split("+")[0] == run.target.split("+")[0] and server != run.cluster_version:
        return f"the dump shows the API server at {server}, the version this run was to reach"
    return ""
