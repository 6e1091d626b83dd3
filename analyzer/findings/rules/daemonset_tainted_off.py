"""DaemonSets that run on no node because every node they select carries a taint they do not
tolerate (a Windows pool tainted os=windows:NoSchedule and a Windows DaemonSet without the
toleration: its CSI driver never registers there, so the pods' volumes never mount)."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import ev, knows_labels
from analyzer.findings.placement import picks, tainted_off, template_spec
from analyzer.findings.types import Finding, RuleMeta
from analyzer.model.tables.nodes import taint_text

RULE = RuleMeta(
    id="daemonset-tainted-off", title="DaemonSet kept off the nodes it selects by their taints", severity="warning",
    category="workloads", requires=("DaemonSet", "Node"),
    message="DaemonSet {namespace}/{name} runs on no node: the {count} node(s) it selects ({nodes}) carry taints it does not tolerate ({taints})",
    remediation="Add tolerations for those taints to the DaemonSet's pod template (a Helm chart's windows.tolerations, say), or take the taints off the nodes.",
)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    nodes = list(cluster.objects_of("Node"))
    for ds in cluster.objects_of("DaemonSet"):
        # Only a DaemonSet read whole: a pasted row or describe need not show every toleration.
        if ds.view.text is not None or ds.view.status.desiredNumberScheduled != 0:
            continue
        spec = template_spec(ds)
        off = tainted_off(spec, nodes)
        if not off:
            continue  # it selects no node the dump knows (a Windows DaemonSet on a Linux cluster)
        # Said only where the taints account for every node it selects: a selected node without
        # such a taint, or one whose labels or taints the dump does not show, leaves its 0
        # desired to another cause (a status not yet updated).
        selected = [n for n in nodes if not knows_labels(n) or picks(spec, n.name, n.view.metadata.labels or {})]
        if len(off) != len(selected):
            continue
        taints = sorted({taint_text(t) for _node, ts in off for t in ts})
        names = [node.name for node, _ts in off]
        shown = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
        yield RULE.fail(
            ds, ev(ds, "status.desiredNumberScheduled", 0, f"{len(off)} (the nodes it selects)"),
            ev(ds, "spec.template.spec.tolerations", spec.get("tolerations") or [], "tolerations for " + ", ".join(taints)),
            *(ev(node, "spec.taints", ", ".join(taint_text(t) for t in ts), "a taint the DaemonSet tolerates")
              for node, ts in off[:3]),
            count=len(off), nodes=shown, taints=", ".join(taints))
