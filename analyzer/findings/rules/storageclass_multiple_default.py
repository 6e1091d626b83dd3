"""More than one StorageClass marked default: before Kubernetes 1.26 the API server refuses every
claim that names no class, since then such claims get the newest of them, which may not be the
one meant."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import ev
from analyzer.findings.storageclasses import ages_known, default_classes
from analyzer.findings.types import Finding, RuleMeta
from analyzer.findings.versions import cluster_version

RULE = RuleMeta(
    id="storageclass-multiple-default", title="More than one default StorageClass", severity="warning",
    category="cluster", requires=("StorageClass",),
    message="{count} StorageClasses are marked default ({names}): {effect}",
    remediation="Keep one default: `kubectl patch storageclass NAME -p '{\"metadata\": {\"annotations\": "
    "{\"storageclass.kubernetes.io/is-default-class\": \"false\"}}}'` on the others (both the GA and the beta "
    "annotation count), or name a class in every claim.",
)
# The release from which the API server gives a claim naming no class the newest default, where
# before it refused the claim ('Internal error occurred: 2 default StorageClasses were found',
# kubernetes/kubernetes#34549; changed after kubernetes/kubernetes#110514).
NEWEST_WINS = (1, 26)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    defaults = default_classes(cluster)
    if len(defaults) < 2:
        return
    version = cluster_version(cluster)
    names = ", ".join(sc.name for sc in defaults)
    evidence = [ev(sc, "metadata.annotations (default class)", "true", "one default class") for sc in defaults]
    # (a kubelet's version is a lower bound of its API server's: never newer)
    if version is not None and version.version[:2] >= NEWEST_WINS:
        finding = RULE.fail(defaults[0], *evidence, count=len(defaults), names=names,
                            effect=f"on Kubernetes {version.text} a claim naming no class gets the newest, "
                                   f"{defaults[0].name}" + ("" if ages_known(cluster, defaults) else
                                                            " (by name: the dump does not say which is newest)"))
        yield finding.as_info(resolved=f"Kubernetes {version.text} picks the newest default rather than refusing "
                                       "the claim (since 1.26)")
        return
    before = ("on Kubernetes " + version.text) if version is not None else "before Kubernetes 1.26 (the dump does not say its version)"
    yield RULE.fail(defaults[0], *evidence, count=len(defaults), names=names,
                    effect=f"{before} the API server refuses every claim naming no class ('2 default "
                           "StorageClasses were found'); from 1.26 it gives it the newest")

