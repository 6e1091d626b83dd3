"""Manifests or clients that still use an API the cluster's version no longer serves."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.apis import removed_api_kinds, removed_api_users
from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import ev
from analyzer.findings.types import Evidence, Finding, RuleMeta
from analyzer.findings.versions import cluster_version

# Every kind some removed API served.
KINDS = removed_api_kinds()

RULE = RuleMeta(
    id="api-removed-in-cluster", title="Uses an API this cluster version has removed", severity="warning",
    category="deprecations", requires_any=KINDS,
    message="{object}: {source} says {api_version} ({detail}); removed in {removed_in}, the cluster runs {cluster}. Use {replacement}",
    remediation="Update the manifest, chart or client that writes this object to the replacement API; re-applying the old manifest will fail on this cluster.",
)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    version = cluster_version(cluster)
    if version is None:
        yield RULE.not_applicable("the cluster's version is not in the dump")
        return
    for obj, uses in removed_api_users(cluster):
        for use in uses:
            if version.version[:2] < use.api.removed_in:
                continue
            removed = f"{use.api.removed_in[0]}.{use.api.removed_in[1]}"
            finding = RULE.fail(obj, ev(obj, use.field, use.api.api_version, use.api.replacement),
                            Evidence(version.field, version.text, source=version.source),
                            source=use.source, api_version=use.api.api_version, detail=use.detail,
                            removed_in=removed, cluster=version.text, replacement=use.api.replacement)
            yield finding.as_info() if use.stale else finding
