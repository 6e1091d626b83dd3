"""Objects served or written with an API a later Kubernetes version removes (upgrade blockers)."""

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
    id="api-removed-in-later-version", title="Uses an API removed in a later version", severity="warning",
    category="deprecations", requires_any=KINDS,
    message="{object}: {source} says {api_version} ({detail}); removed in {removed_in} (cluster runs {cluster}). Migrate to {replacement} before upgrading",
    remediation="Migrate the manifests and clients to the replacement API before upgrading to the version that removes it (tools: kubectl convert, pluto).",
)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    version = cluster_version(cluster)
    for obj, uses in removed_api_users(cluster):
        for use in uses:
            if version is not None and version.version[:2] >= use.api.removed_in:
                continue  # api-removed-in-cluster reports it
            evidence = [ev(obj, use.field, use.api.api_version, use.api.replacement)]
            if version is not None:
                evidence.append(Evidence(version.field, version.text, source=version.source))
            finding = RULE.fail(obj, *evidence, source=use.source, api_version=use.api.api_version,
                            detail=use.detail, removed_in=f"{use.api.removed_in[0]}.{use.api.removed_in[1]}",
                            cluster=version.text if version else "an unknown version",
                            replacement=use.api.replacement)
            yield finding.as_info() if use.stale else finding
