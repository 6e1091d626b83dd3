"""Manifests the API server refused to map because it serves no such kind at their apiVersion,
as a pasted `kubectl apply` or Helm error quotes it (`no matches for kind "PodSecurityPolicy" in
version "policy/v1beta1"`): the object was not created or changed. Said with why, whatever the
dump holds of the cluster's version: an API removed in some release (a chart written for an
older Kubernetes), a custom kind whose CustomResourceDefinition is not installed, or a version
of a built-in kind this cluster does not serve."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import holds_a_paste
from analyzer.findings.types import Evidence, Finding, RuleMeta
from analyzer.findings.versions import removed_apis
from analyzer.ingest.refusals import UnservedApi
from analyzer.kube.kinds import is_builtin_group

RULE = RuleMeta(
    id="api-version-refused", title="Manifest refused: the API server serves no such kind at its apiVersion",
    severity="warning",
    # not hygiene: an apply or a chart's install failed, and what it was to make is not there
    category="cluster",
    message="{kind} {shown}: the API server serves no {api_version} {kind} ({times} refusal(s) quoted, first at "
            "{where}), so it was not created or changed{manifest}: {why}",
    remediation="Move a removed API's manifest or chart to its replacement (a chart version made for this Kubernetes "
    "version); install a custom kind's CRD (its operator or chart) before objects of it.",
)

# the name a finding gives an object Helm's or an older kubectl's words do not name
NOT_NAMED = "(not named by the error)"


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    refusals = list(getattr(cluster.ingest, "unserved_apis", None) or ())
    if not refusals:
        if not holds_a_paste(cluster):
            yield RULE.not_applicable("the dump holds no pasted session to quote an apply the API server refused")
        return
    # an object the words do not name is told by the file it came from (older kubectl names the
    # file only: elgris/microservice-app-example#21's `kubectl create -R -f k8s/`, one per file)
    by_object: dict[tuple[str, str, str, str], list[UnservedApi]] = {}
    for refusal in refusals:
        name = refusal.name or (f"{NOT_NAMED[:-1]}, in {refusal.manifest})" if refusal.manifest else "")
        by_object.setdefault((refusal.kind, refusal.namespace, name, refusal.api_version), []).append(refusal)
    served = _served_by_crds(cluster)
    for (kind, namespace, label, api_version), quoted in by_object.items():
        first = quoted[0]
        name = first.name
        why, expected, removed_in, replacement = _why(kind, api_version)
        evidence = Evidence("no matches for kind", f'{kind} in version "{api_version}"', expected,
                            source=first.source, line=first.line)
        shown = (f"{namespace}/{name}" if namespace else name) if name else NOT_NAMED
        finding = RULE.fail(None, evidence, kind=kind, namespace=namespace, name=label or NOT_NAMED, shown=shown,
                            api_version=api_version, times=len(quoted), where=f"line {first.line}", why=why,
                            removed_in=removed_in, replacement=replacement,
                            manifest=f" (from {first.manifest})" if first.manifest else "",
                            named=bool(name), command=first.command, refused_by=_refused_by(first),
                            refused_for=_refused_for(kind, api_version, removed_in), file=first.manifest)
        since = _made_since(cluster, served, kind, namespace, name, api_version)
        yield finding.as_info(resolved=since) if since else finding


def _refused_by(refusal: UnservedApi) -> str:
    """Which command's output quotes the refusal: its source and the line of the command (else of
    the code block; the whole source when neither shows), so that one apply or install's refusals
    can be told from another's."""
    return f"{refusal.source}:{refusal.command_line}"


def _refused_for(kind: str, api_version: str, removed_in: str) -> str:
    """The one reason refusals share: a removed API (its group and version: a chart written for
    an older Kubernetes refuses its Deployments and Ingresses of extensions/v1beta1 alike), a
    custom group whose CRDs are not installed, or a built-in kind's version never served."""
    group = api_version.rpartition("/")[0]
    if removed_in:
        return f"removed {api_version}"
    if not is_builtin_group(kind, group):
        return f"no CRD of {group}"
    return f"unserved {api_version} {kind}"


def _served_by_crds(cluster: AnalyzedDump) -> set[tuple[str, str]]:
    """(apiVersion, kind) the dump's CustomResourceDefinitions serve."""
    out = set()
    for crd in cluster.objects_of("CustomResourceDefinition"):
        spec = crd.body().get("spec") or {}
        kind = (spec.get("names") or {}).get("kind")
        versions = [v.get("name") for v in spec.get("versions") or () if isinstance(v, dict) and v.get("served", True)]
        versions += [spec["version"]] if spec.get("version") else []  # apiextensions v1beta1's one version
        out.update((f"{spec.get('group')}/{v}", kind) for v in versions if v and kind)
    return out


def _made_since(cluster: AnalyzedDump, served: set[tuple[str, str]], kind: str, namespace: str, name: str,
                api_version: str) -> str:
    """Why the refusal is history: the dump shows the object, or a CRD now serving its kind there."""
    if name and any(obj.name == name and (obj.namespace or "") == namespace for obj in cluster.objects_of(kind)):
        return f"the dump shows {kind} {name} (made since)"
    if (api_version, kind) in served:
        return f"the dump shows a CustomResourceDefinition serving {api_version} {kind} (installed since)"
    return ""


def _why(kind: str, api_version: str) -> tuple[str, str, str, str]:
    """Why the API server serves no such kind there, what would be served, and (for a removed
    API) the release that removed it and its replacement."""
    api = removed_apis().get((api_version, kind))
    if api is not None:
        removed = f"{api.removed_in[0]}.{api.removed_in[1]}"
        return f"removed in Kubernetes {removed}. Use {api.replacement}", api.replacement, removed, api.replacement
    group = api_version.rpartition("/")[0]
    if not is_builtin_group(kind, group):
        return ("no CustomResourceDefinition serves it: its CRD is not installed (install its operator's or chart's "
                "CRDs first), or serves other versions", "a CRD serving it", "", "")
    return ("not a version of the built-in kind this cluster serves (a newer Kubernetes' or none ever)",
            "a version the cluster serves", "", "")
