"""Objects of two dumps matched by identity: added, removed, changed (field by field), and kinds
that only one dump collected ("not comparable", never "removed")."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from analyzer.redact.masking import mask_sensitive
from analyzer.safeyaml import load_yaml

if TYPE_CHECKING:
    from analyzer.cluster import Cluster
    from analyzer.ingest import KubeObject

VOLATILE_FILE = Path(__file__).with_name("volatile.yaml")
Steps = tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Volatile:
    """Fields left out of the comparison, and kinds compared by count only (volatile.yaml)."""

    paths: tuple[Steps, ...]
    reasons: tuple[str, ...]
    history_kinds: frozenset[str]

    def covers(self, steps: Steps) -> bool:
        """Whether a field path is one of the volatile fields (or below one)."""
        for pattern in self.paths:
            if len(steps) >= len(pattern) and all(p in ("*", s) for p, s in zip(pattern, steps, strict=False)):
                return True
        return False

    def as_list(self) -> list[dict[str, str]]:
        """The volatile fields as data: path as printed, and why they are left out."""
        return [{"path": display_path(p), "why": w} for p, w in zip(self.paths, self.reasons, strict=True)]


@cache
def volatile() -> Volatile:
    """The volatile fields and history kinds, validated once."""
    data = load_yaml(VOLATILE_FILE.read_text(encoding="utf-8"))
    paths, reasons = [], []
    for entry in data["fields"]:
        steps = entry["path"]
        if not isinstance(steps, list) or not steps or not all(isinstance(s, str) for s in steps):
            raise ValueError(f"{VOLATILE_FILE}: a path must be a list of steps: {entry!r}")
        paths.append(tuple(steps))
        reasons.append(str(entry.get("why", "")))
    return Volatile(tuple(paths), tuple(reasons), frozenset(data.get("history_kinds") or ()))


def display_path(steps: Steps) -> str:
    """`spec.template.spec.containers[web].image`; keys with dots or slashes quoted.

    Examples:
        >>> display_path(("metadata", "labels", "app.kubernetes.io/name"))
        'metadata.labels["app.kubernetes.io/name"]'
        >>> display_path(("spec", "containers", "[web]", "image"))
        'spec.containers[web].image'
    """
    out = ""
    for step in steps:
        if step.startswith("["):
            out += step
        elif "." in step or "/" in step or not step:
            out += f'["{step}"]'
        else:
            out += ("." if out else "") + step
    return out


def flatten(value: Any, steps: Steps, out: dict[Steps, Any], skip: Volatile) -> None:
    """Leaf values of a body by path, volatile fields left out.

    A list of mappings that each have a distinct `name` (containers, ports, env) or `type`
    (conditions) is keyed by it, so a reordering is no change and an item keeps its identity.
    """
    if steps and skip.covers(steps):
        return
    if isinstance(value, dict):
        if not value:
            out[steps] = {}
        for k, v in value.items():
            flatten(v, (*steps, str(k)), out, skip)
    elif isinstance(value, list):
        if not value:
            out[steps] = []
            return
        key = _item_key(value)
        for i, item in enumerate(value):
            label = f"[{item[key]}]" if key else f"[{i}]"
            flatten(item, (*steps, label), out, skip)
    else:
        out[steps] = value


def _item_key(items: list[Any]) -> str | None:
    for key in ("name", "type"):
        if all(isinstance(i, dict) and isinstance(i.get(key), str) for i in items):
            names = [i[key] for i in items]
            if len(set(names)) == len(names):
                return key
    return None


@dataclass(frozen=True, slots=True, order=True)
class Identity:
    """Who an object is, the same in every form of dump: group, kind, namespace, name."""

    kind: str
    namespace: str
    name: str
    group: str = ""

    def to_dict(self) -> dict[str, str]:
        return {"kind": self.kind, "namespace": self.namespace, "name": self.name,
                "group": self.group}


def identity(obj: KubeObject) -> Identity:
    """An object's identity; built-in kinds take their one group (apps, not extensions)."""
    from analyzer.ingest.records import group_of_kind, is_builtin_group

    group = obj.key.group
    if is_builtin_group(obj.kind, group):
        group = group_of_kind(obj.kind)
    return Identity(obj.kind, obj.namespace, obj.name, group)


@dataclass(slots=True)
class ObjectChanges:
    """What differs between the objects of two dumps."""

    added: list[dict[str, Any]] = field(default_factory=list)
    removed: list[dict[str, Any]] = field(default_factory=list)
    changed: list[dict[str, Any]] = field(default_factory=list)
    unchanged: int = 0
    not_comparable: list[dict[str, Any]] = field(default_factory=list)
    history: list[dict[str, Any]] = field(default_factory=list)
    # objects whose bodies one side does not have (pasted text): compared by identity only
    shallow: int = 0


def _index(cluster: Cluster, skip: Volatile) -> tuple[dict[Identity, KubeObject], Counter[str]]:
    objects: dict[Identity, KubeObject] = {}
    history: Counter[str] = Counter()
    for obj in cluster.objects:
        if obj.kind in skip.history_kinds:
            history[obj.kind] += 1
            continue
        objects.setdefault(identity(obj), obj)
    return objects, history


def _body(obj: KubeObject) -> dict[str, Any] | None:
    if obj.raw is None or obj.view.text is not None:
        return None  # pasted text: the object has only what a table or describe showed
    body = obj.body()
    return body if isinstance(body, dict) else None


def _plain(value: Any) -> Any:
    """A leaf value as JSON data (a YAML date or odd scalar as its text)."""
    if value is None or isinstance(value, bool | int | float | str | list | dict):
        return value
    return str(value)


def field_changes(old: dict[str, Any], new: dict[str, Any], skip: Volatile,
                  show_sensitive: bool = False) -> list[dict[str, Any]]:
    """Every leaf that differs between two bodies: [{path, old, new}], in path order.

    Examples:
        >>> v = volatile()
        >>> field_changes({"metadata": {"resourceVersion": "1"}, "spec": {"replicas": 2}},
        ...               {"metadata": {"resourceVersion": "9"}, "spec": {"replicas": 3}}, v)
        [{'path': 'spec.replicas', 'old': 2, 'new': 3}]
    """
    a: dict[Steps, Any] = {}
    b: dict[Steps, Any] = {}
    flatten(old, (), a, skip)
    flatten(new, (), b, skip)
    changes = []
    for steps in sorted(a.keys() | b.keys()):
        before, after = a.get(steps, _MISSING), b.get(steps, _MISSING)
        if before is _MISSING or after is _MISSING or _canonical(before) != _canonical(after):
            changes.append({"path": display_path(steps),
                            "old": None if before is _MISSING else _shown(before, show_sensitive),
                            "new": None if after is _MISSING else _shown(after, show_sensitive)})
    return changes


_MISSING = object()


def _shown(value: Any, show_sensitive: bool) -> Any:
    # env values and annotations quote passwords and tokens: masked unless asked for
    value = _plain(value)
    return mask_sensitive(value, show_sensitive) if isinstance(value, str) else value


def _canonical(value: Any) -> str:
    # 1 and 1.0, a YAML date and its text: equal as the API means them
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return json.dumps(_plain(value), sort_keys=True)


def compare_objects(old: Cluster, new: Cluster, show_sensitive: bool = False) -> ObjectChanges:
    """Added, removed and changed objects; kinds only one dump collected are not comparable."""
    skip = volatile()
    a, history_a = _index(old, skip)
    b, history_b = _index(new, skip)
    out = ObjectChanges()
    kinds = sorted({i.kind for i in a} | {i.kind for i in b})
    uncomparable = set()
    for kind in kinds:
        in_old, in_new = old.covers(kind), new.covers(kind)
        if in_old and in_new:
            continue
        uncomparable.add(kind)
        only = "old" if in_old else "new"
        count = sum(1 for i in (a if in_old else b) if i.kind == kind)
        out.not_comparable.append({
            "kind": kind, "collected_in": only, "objects": count,
            "reason": f"only the {only} dump collected {kind}: its objects are neither added nor removed"})
    for ident in sorted(a.keys() | b.keys()):
        if ident.kind in uncomparable:
            continue
        x, y = a.get(ident), b.get(ident)
        if x is None:
            out.added.append(ident.to_dict())
        elif y is None:
            out.removed.append(ident.to_dict())
        else:
            bx, by = _body(x), _body(y)
            if bx is None or by is None:
                out.shallow += 1
                continue
            changes = field_changes(bx, by, skip, show_sensitive)
            if changes:
                out.changed.append({**ident.to_dict(), "fields": changes})
            else:
                out.unchanged += 1
    for kind in sorted(history_a.keys() | history_b.keys()):
        out.history.append({"kind": kind, "old": history_a.get(kind, 0), "new": history_b.get(kind, 0)})
    return out


def iter_kinds(items: list[dict[str, Any]]) -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """Items grouped by kind, kinds in name order."""
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for item in items:
        by_kind.setdefault(item["kind"], []).append(item)
    yield from sorted(by_kind.items())
