"""Diff: what changed between two dumps of one cluster (before and after an upgrade, an
incident, a fix).

`diff(old, new)` first checks that both are the same cluster (`same_cluster`), then compares
objects field by field (volatile fields left out), versions, capacity, restarts and findings.
Kinds that only one dump collected are "not comparable", never "removed".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from analyzer.diff.identity import DIFFERENT, same_cluster
from analyzer.diff.objects import compare_objects, pod_controllers, volatile
from analyzer.errors import AnalyzerError

if TYPE_CHECKING:
    from analyzer.cluster import Cluster

__all__ = ["DifferentClusters", "DumpDiff", "REFUSE_CONFIDENCE", "diff", "same_cluster"]

# "Clearly different clusters": a strong identity signal disagrees and none agrees.
REFUSE_CONFIDENCE = 0.85


class DifferentClusters(AnalyzerError):
    """The two dumps are clearly of different clusters (pass force=True to compare anyway)."""

    def __init__(self, verdict: dict[str, Any]) -> None:
        said = "; ".join(f"{e['signal']}: {e['detail']}" for e in verdict["evidence"]
                         if e["says"] == DIFFERENT)
        super().__init__(f"the two dumps are of different clusters (confidence "
                         f"{verdict['confidence']:.2f}): {said}")
        self.verdict = verdict


@dataclass(slots=True)
class DumpDiff:
    """Everything that differs between two dumps, as plain JSON-safe data (`to_dict`)."""

    old: dict[str, Any]
    new: dict[str, Any]
    same_cluster: dict[str, Any]
    added: list[dict[str, Any]] = field(default_factory=list)
    removed: list[dict[str, Any]] = field(default_factory=list)
    replaced: list[dict[str, Any]] = field(default_factory=list)
    changed: list[dict[str, Any]] = field(default_factory=list)
    unchanged: int = 0
    compared_by_identity_only: int = 0
    not_comparable: list[dict[str, Any]] = field(default_factory=list)
    history: list[dict[str, Any]] = field(default_factory=list)
    volatile_fields: list[dict[str, str]] = field(default_factory=list)
    versions: list[dict[str, Any]] = field(default_factory=list)
    capacity: dict[str, Any] = field(default_factory=dict)
    restarts: list[dict[str, Any]] = field(default_factory=list)
    findings: dict[str, Any] = field(default_factory=dict)
    incidents: dict[str, Any] = field(default_factory=dict)
    forced: bool = False

    def to_dict(self) -> dict[str, Any]:
        """The `kda diff --format json` contract."""
        return {
            "old": self.old, "new": self.new, "same_cluster": self.same_cluster,
            "forced": self.forced,
            "added": self.added, "removed": self.removed, "replaced": self.replaced,
            "changed": self.changed,
            "unchanged": self.unchanged,
            "compared_by_identity_only": self.compared_by_identity_only,
            "not_comparable": self.not_comparable, "history": self.history,
            "volatile_fields": self.volatile_fields, "versions": self.versions,
            "capacity": self.capacity, "restarts": self.restarts, "findings": self.findings,
            "incidents": self.incidents,
        }

    # What a notebook shows of analyzer.diff(...): the headline and the listing `kda diff`
    # prints, not the dataclass's lists of dicts (every changed field of every object, on one line).
    def __repr__(self) -> str:
        from analyzer.diff.render import summary_lines

        s = self.same_cluster
        return "\n".join([f"<DumpDiff {self.old['name']} -> {self.new['name']}: same cluster "
                          f"{s['verdict']} (confidence {s['confidence']:.2f})>",
                          *(f"  {line}" for line in summary_lines(self.to_dict())),
                          "  (.text() lists them; .to_dict() is the kda diff --format json contract)"])

    def text(self) -> str:
        """What `kda diff` prints: the verdict, the counts, then each change."""
        from analyzer.diff.render import as_text

        return as_text(self.to_dict())

    def _repr_html_(self) -> str:
        import html

        return f"<pre>{html.escape(self.text())}</pre>"

    @property
    def empty(self) -> bool:
        """Nothing added, removed, replaced or changed, and no finding new or resolved."""
        return not (self.added or self.removed or self.replaced or self.changed or self.findings.get("new")
                    or self.findings.get("resolved"))


def _about(c: Cluster) -> dict[str, Any]:
    import pandas as pd

    capture = c.capture_time
    return {"name": c.name, "inputs": list(c.ingest.inputs), "formats": list(c.ingest.formats),
            "objects": len(c.objects),
            "capture_time": pd.Timestamp(capture).isoformat().replace("+00:00", "Z") if capture else None}


Key = tuple[str, str, str, str]  # (rule, kind, namespace, name) of a failing finding


def _failing(c: Cluster) -> tuple[dict[Key, dict[str, Any]], dict[Key, int], set[str]]:
    """Failing findings by key, each key's finding row (its position), rules not applicable."""
    f = c.findings
    failing: dict[Key, dict[str, Any]] = {}
    rows: dict[Key, int] = {}
    for i, row in enumerate(f[f["status"] == "fail"].itertuples(index=False)):
        # a finding about the whole cluster is named after the dump: two dumps, two names
        name = "" if str(row.kind) == "Cluster" else str(row.name)
        # a hygiene finding said once for its controller's pods stands for each of them (pods
        # come and go between dumps, the one that speaks for the others among them)
        alike = str(row.alike).split(", ") if isinstance(row.alike, str) and row.alike else []
        for each in (name, *alike):
            key = (str(row.rule), str(row.kind), str(row.namespace), each)
            if key not in failing:
                rows[key] = i
                failing[key] = {"rule": key[0], "severity": str(row.severity), "kind": key[1],
                                "namespace": key[2], "name": each or str(row.name),
                                "message": str(row.message)}
    not_applicable = {str(r) for r in f.loc[f["status"] == "not_applicable", "rule"]}
    return failing, rows, not_applicable


def _one_per_row(items: list[tuple[Key, dict[str, Any]]], rows: dict[Key, int]) -> list[dict[str, Any]]:
    """The entries of one list, one per finding row: a finding said once for a controller's
    pods is matched pod by pod, then said once as its dump said it (the first of its pods, the
    one its message names), the pods it replaces gathered."""
    out: dict[int, dict[str, Any]] = {}
    for key, item in items:
        first = out.setdefault(rows[key], dict(item))
        if item.get("replaces") and first.get("replaces") != item["replaces"]:
            earlier = [x for x in first.get("replaces", "").split(", ") if x]
            earlier += [x for x in item["replaces"].split(", ") if x not in earlier]
            first.update(replaces=", ".join(earlier), owner=item["owner"])
    return list(out.values())


def compare_findings(old: Cluster, new: Cluster, gone_unknown: dict[str, set[str]] | None = None
                     ) -> dict[str, Any]:
    """Failing findings new in the second dump, resolved since the first, and still open.

    A finding is "resolved" only where the second dump could have shown it: its rule could
    tell there, and its object is there or its kind was collected in full. Otherwise (a rule
    not applicable, a kind not collected or only pasted) it is not comparable; the same holds
    the other way round for "new". `gone_unknown` maps "old"/"new" to such kinds of that dump.
    """
    a, rows_a, na_old = _failing(old)
    b, rows_b, na_new = _failing(new)
    unknown = gone_unknown or {"old": set(), "new": set()}
    order = {"critical": 0, "warning": 1, "info": 2}

    def ranked(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return sorted(items, key=lambda x: (order.get(x["severity"], 3), x["rule"], x["kind"],
                                            x["namespace"], x["name"]))

    def could_tell(key: tuple[str, str, str, str], cluster: Cluster, side: str,
                   not_applicable: set[str]) -> bool:
        rule, kind = key[0], key[1]
        if rule in not_applicable:
            return False
        if kind in ("", "Cluster") or kind not in unknown[side]:
            return kind in ("", "Cluster") or cluster.covers(kind)
        return any(o.namespace == key[2] and o.name == key[3] for o in cluster.objects_of(kind))

    replaced = _replacements([k for k in a if k not in b], [k for k in b if k not in a],
                             pod_controllers(old), pod_controllers(new))
    new_items, resolved, uncomparable_new, uncomparable_old = [], [], [], []
    still = [(k, v) for k, v in b.items() if k in a]
    for k, v in b.items():
        if k in replaced:
            earlier, owner = replaced[k]
            still.append((k, {**v, "replaces": ", ".join(e[3] for e in earlier), "owner": owner}))
        elif k not in a:
            (new_items if could_tell(k, old, "old", na_old) else uncomparable_new).append((k, v))
    taken = {e for earlier, _ in replaced.values() for e in earlier}
    for k, v in a.items():
        if k not in b and k not in taken:
            (resolved if could_tell(k, new, "new", na_new) else uncomparable_old).append((k, v))
    # a finding row open on some of its pods is open: its controller's other pods, come or gone
    # between the dumps, are that finding, neither new nor resolved
    open_new = {rows_b[k] for k, _ in still}
    open_old = {rows_a[k] for k, _ in still if k in a} | {rows_a[e] for e in taken}
    new_items = [(k, v) for k, v in new_items if rows_b[k] not in open_new]
    resolved = [(k, v) for k, v in resolved if rows_a[k] not in open_old]
    return {"new": ranked(_one_per_row(new_items, rows_b)),
            "resolved": ranked(_one_per_row(resolved, rows_a)),
            "open": ranked(_one_per_row(still, rows_b)),
            "not_comparable": ranked(_one_per_row(uncomparable_new, rows_b)
                                     + _one_per_row(uncomparable_old, rows_a))}


def _replacements(gone: list[Key], came: list[Key], owners_old: dict[tuple[str, str], str],
                  owners_new: dict[tuple[str, str], str]) -> dict[Key, tuple[list[Key], str]]:
    """Findings on pods that replaced their controller's failing pods: a pod only the new dump
    holds, failing a rule a pod of the same controller that only the old dump holds failed, is
    that finding still open (a ReplicaSet's Pending pod made again is Pending still; a
    Deployment's pods rolled out without a probe lack it still), not one resolved and one new.
    Paired in name order; where one side has more pods (the controller scaled between the
    dumps), the last new pod stands for the old ones left over and the new ones left over stand
    for the last old one: the controller fails the rule in both dumps, whatever its size.
    New key -> (old keys, controller)."""
    def by_owner(keys: list[Key], owners: dict[tuple[str, str], str],
                 other: dict[tuple[str, str], str]) -> dict[tuple[str, str], list[Key]]:
        grouped: dict[tuple[str, str], list[Key]] = {}
        for k in sorted(keys):
            owner = owners.get((k[2], k[3])) if k[1] == "Pod" else None
            if owner is not None and (k[2], k[3]) not in other:  # the pod is gone from the other dump
                grouped.setdefault((k[0], owner), []).append(k)
        return grouped

    before = by_owner(gone, owners_old, owners_new)
    pairs: dict[Key, tuple[list[Key], str]] = {}
    for (rule, owner), keys in by_owner(came, owners_new, owners_old).items():
        earlier = before.get((rule, owner))
        if not earlier:
            continue
        for i, later in enumerate(keys):
            mine = earlier[i:] if i == len(keys) - 1 else earlier[min(i, len(earlier) - 1):][:1]
            pairs[later] = (mine or earlier[-1:], owner)
    return pairs


def _incidents(c: Cluster) -> list[dict[str, Any]]:
    out = []
    for row in c.incidents.itertuples(index=False):
        cause = str(row.cause)
        objects = {x for x in str(row.objects).split(", ") if x}
        # an incident about the whole cluster is named after the dump: two dumps, two names
        if cause.startswith("Cluster "):
            objects = {"Cluster"}
        out.append({"severity": str(row.severity), "headline": str(row.headline), "cause": cause,
                    "cause_rule": str(row.cause_rule), "workloads": int(row.workloads),
                    "findings": int(row.findings), "objects": sorted(objects or {cause})})
    return out


def compare_incidents(old: Cluster, new: Cluster) -> dict[str, list[dict[str, Any]]]:
    """Incidents (findings grouped by cause) new in the second dump, resolved, still open.

    Two incidents are one when they concern an object in common (a pod's controller counts as
    one it concerns): the cause a dump can name
    shifts with what it holds (without ConfigMaps, a missing ConfigMap is seen as its mount
    failing), and the problem is the same. An open incident says what it was (`was`)."""
    a, b = _incidents(old), _incidents(new)
    order = {"critical": 0, "warning": 1, "info": 2}
    # a pod's incident concerns its controller too: its pod made again (a ReplicaSet's Pending
    # pod replaced by another, Pending alike) is the same incident, still open
    owners = {f"Pod {ns}/{name}": owner for side in (old, new) for (ns, name), owner in pod_controllers(side).items()}

    def concerns(incident: dict[str, Any]) -> set[str]:
        return {*incident["objects"], *(owners[o] for o in incident["objects"] if o in owners)}

    def ranked(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return sorted(items, key=lambda x: (order.get(x["severity"], 3), -x["workloads"], x["cause"]))

    matched: set[int] = set()
    new_items, still = [], []
    for x in b:
        earlier = [k for k, y in enumerate(a) if concerns(y) & concerns(x)]
        if earlier:
            matched.update(earlier)
            still.append({**x, "was": [a[k]["headline"] for k in earlier]})
        else:
            new_items.append(x)
    return {"new": ranked(new_items), "resolved": ranked([y for k, y in enumerate(a) if k not in matched]),
            "open": ranked(still)}


def diff(old: Cluster, new: Cluster, force: bool = False) -> DumpDiff:
    """Compare two dumps of one cluster; raises DifferentClusters when they are clearly not
    (unless `force`)."""
    # pandas comes with the comparison, not with `import analyzer` (kda inspect stays light)
    from analyzer.diff.versions import compare_capacity, compare_versions, restarts_gained

    verdict = same_cluster(old, new)
    if verdict["verdict"] == DIFFERENT and verdict["confidence"] >= REFUSE_CONFIDENCE and not force:
        raise DifferentClusters(verdict)
    objects = compare_objects(old, new, show_sensitive=old.show_sensitive or new.show_sensitive)
    return DumpDiff(
        old=_about(old), new=_about(new), same_cluster=verdict, forced=force,
        added=objects.added, removed=objects.removed, replaced=objects.replaced, changed=objects.changed,
        unchanged=objects.unchanged, compared_by_identity_only=objects.shallow,
        not_comparable=objects.not_comparable, history=objects.history,
        volatile_fields=volatile().as_list(), versions=compare_versions(old, new),
        capacity=compare_capacity(old, new), restarts=restarts_gained(old, new),
        findings=compare_findings(old, new, {side: set(kinds) for side, kinds in objects.pasted.items()}),
        incidents=compare_incidents(old, new),
    )
