"""Objects carrying annotations Kubernetes replaced by fields (e.g. the critical-pod annotation)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime
from functools import cache
from typing import Any

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import capture_of, ev, owner
from analyzer.findings.types import Finding, RuleMeta
from analyzer.findings.versions import DATA, cluster_version, parse_version
from analyzer.safeyaml import load_yaml

# Pod templates carry the same annotations as their pods; the controllers are reported, not
# every pod they made.
KINDS = ("Pod", "Deployment", "DaemonSet", "StatefulSet", "ReplicaSet", "Job", "CronJob", "Ingress")

RULE = RuleMeta(
    id="deprecated-annotation", title="Deprecated annotation", severity="info",
    category="configuration", requires_any=KINDS,
    message="{object} uses annotation {annotation} ({note}); use {replacement}",
    remediation="Replace the annotation by the field that superseded it; the annotation has no effect on current clusters.",
)


@cache
def deprecated() -> list[dict[str, Any]]:
    return load_yaml((DATA / "deprecated_annotations.yaml").read_text(encoding="utf-8"))


def match(key: str) -> dict[str, Any] | None:
    """The deprecated-annotation row for an annotation key, if any.

    >>> match("scheduler.alpha.kubernetes.io/critical-pod")["replacement"][:17]
    'priorityClassName'
    """
    for row in deprecated():
        if key == row.get("key") or (row.get("key_prefix") and key.startswith(row["key_prefix"])):
            return row
    return None


@cache
def _keys_and_prefixes() -> tuple[frozenset[Any], tuple[str, ...]]:
    rows = deprecated()
    return frozenset(row.get("key") for row in rows), tuple(row["key_prefix"] for row in rows if row.get("key_prefix"))


def _carries_one(obj: Any) -> bool:
    """Whether some annotation of the object has a row of the table (`match` would find one)."""
    keys, prefixes = _keys_and_prefixes()
    for _where, values in annotation_sources(obj):
        for key in values:
            if key in keys or key.startswith(prefixes):
                return True
    return False


def annotation_sources(obj: Any) -> Iterator[tuple[str, dict[str, Any]]]:
    yield "metadata.annotations", obj.view.metadata.annotations or {}
    template = getattr(obj.view.spec, "template", None) if obj.kind != "Pod" and obj.kind != "Ingress" else None
    if template is not None:
        yield "spec.template.metadata.annotations", template.metadata.annotations or {}


def _before_the_field(capture: datetime | None, row: dict[str, Any]) -> bool:
    """Whether the dump was captured before the release that brought the replacement field.

    >>> from datetime import timezone
    >>> _before_the_field(datetime(2018, 9, 16, tzinfo=timezone.utc), {"field_released": "2019-03-25"})
    True
    >>> _before_the_field(None, {"field_released": "2019-03-25"})
    False
    """
    released = row.get("field_released")
    if capture is None or not released:
        return False
    return capture.date() < date.fromisoformat(str(released))


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    version = cluster_version(cluster)
    capture = capture_of(cluster) if version is None else None
    covered: dict[str, bool] = {}  # cluster.covers scans the objects: ask once per kind
    for obj in cluster.objects_of(*KINDS):
        if not _carries_one(obj):
            continue  # nearly every object
        controller = owner(obj)
        if controller and controller[0] not in covered:
            covered[controller[0]] = cluster.covers(controller[0])
        if obj.kind in ("Pod", "ReplicaSet") and controller and covered[controller[0]]:
            continue  # reported on the controller that stamps it
        # One finding per annotation, with each place it was set as evidence.
        places: dict[str, list] = {}
        for where, values in annotation_sources(obj):
            for key in sorted(values):
                if match(key):
                    places.setdefault(key, []).append(ev(obj, f"{where}[{key}]", values[key], "not set"))
        for key, evidence in sorted(places.items()):
            row = match(key)
            since = parse_version(str(row.get("field_since") or ""))
            if version is not None and since is not None and version.version[:2] < since[:2]:
                continue  # the replacement field does not exist at this cluster's version
            if version is None and _before_the_field(capture, row):
                continue  # captured before any cluster had the field: the annotation was the way
            replacement = row["replacement"] + (f" (Kubernetes {since[0]}.{since[1]} or later)"
                                                if since is not None and version is None else "")
            yield RULE.fail(obj, *evidence, annotation=key, note=row["note"], replacement=replacement)
