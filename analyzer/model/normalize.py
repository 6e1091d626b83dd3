"""Small normalizers the table builders share: owners, selectors, conditions, joined lists."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from analyzer.ingest.records import KubeObject
from analyzer.kube.kinds import BUILTIN_KINDS, is_builtin_group
from analyzer.kube.views import Condition, Meta, OwnerRef

if TYPE_CHECKING:
    from analyzer.ingest.dump import Dump

def is_builtin(obj: KubeObject) -> bool:
    """Whether the object is the built-in kind its name says, not a same-named custom resource
    (longhorn.io's Node, a Knative Service, ...).

    Examples:
        >>> from analyzer.kube.keys import ObjectKey
        >>> is_builtin(KubeObject(ObjectKey("longhorn.io", "Node", "", "n1"), "", None, None, None))
        False
    """
    key = obj.key  # read directly: this runs for every object, often twice
    return is_builtin_group(key.kind, key.group)


def builtin_objects(cluster: Dump, *kinds: str) -> Iterator[KubeObject]:
    """The objects of these built-in kinds, in dump order, without same-named custom resources."""
    objects = cluster.objects_of(*kinds)
    if all(kind in BUILTIN_KINDS for kind in kinds):
        return objects  # the cluster's index of built-in kinds leaves custom resources out
    return (o for o in objects if is_builtin(o))


def builtin_objects_by_kind(cluster: Dump, *kinds: str) -> Iterator[KubeObject]:
    """The objects of these built-in kinds, kind after kind (each kind in dump order).

    For a table sorted by its kind column among others: rows of two kinds never tie there, so
    the order comes out as from `builtin_objects`, which for several kinds walks every object
    of the dump to keep its order.
    """
    for kind in kinds:
        yield from builtin_objects(cluster, kind)


def as_dict(value: Any) -> dict[str, Any]:
    """The value if it is a mapping, else {} (free-form fields of a hand-edited dump vary).

    Examples:
        >>> as_dict({"a": 1}), as_dict("oops"), as_dict(None)
        ({'a': 1}, {}, {})
    """
    return value if isinstance(value, dict) else {}


def as_list(value: Any) -> list[Any]:
    """The value if it is a list, else [].

    Examples:
        >>> as_list([1]), as_list({"a": 1}), as_list(7)
        ([1], [], [])
    """
    return value if isinstance(value, list) else []


def joined(items: Iterable[Any]) -> str | None:
    """Comma-separated text of the non-empty items; None when there are none.

    Examples:
        >>> joined(["a", None, "b"]), joined([])
        ('a,b', None)
    """
    text = ",".join(str(i) for i in items if i is not None and i != "")
    return text or None


def pairs(mapping: Mapping[str, Any] | None) -> str | None:
    """A map as sorted `k=v` pairs, comma-separated; None when empty.

    Examples:
        >>> pairs({"tier": "web", "app": "shop"})
        'app=shop,tier=web'
    """
    if not mapping:
        return None
    if not isinstance(mapping, Mapping):
        return str(mapping)
    return ",".join(f"{k}={'' if v is None else v}" for k, v in sorted(mapping.items()))


def selector_text(selector: Mapping[str, Any] | None) -> str | None:
    """A LabelSelector (or a ReplicationController's plain map) as kubectl writes it.

    Examples:
        >>> selector_text({"matchLabels": {"app": "web"},
        ...                "matchExpressions": [{"key": "tier", "operator": "In",
        ...                                      "values": ["a", "b"]},
        ...                                     {"key": "canary", "operator": "DoesNotExist"}]})
        'app=web,tier in (a,b),!canary'
        >>> selector_text({"app": "web"})
        'app=web'
        >>> selector_text({})
    """
    if not selector:
        return None
    if not isinstance(selector, Mapping):
        return str(selector)
    if "matchLabels" not in selector and "matchExpressions" not in selector:
        return pairs(selector)
    parts = []
    if labels := selector.get("matchLabels"):
        parts.append(pairs(labels))
    for expr in as_list(selector.get("matchExpressions")):
        if not isinstance(expr, dict):
            continue
        key, op = expr.get("key", ""), str(expr.get("operator", ""))
        values = ",".join(str(v) for v in as_list(expr.get("values")))
        if op == "Exists":
            parts.append(key)
        elif op == "DoesNotExist":
            parts.append(f"!{key}")
        else:
            parts.append(f"{key} {op.lower()} ({values})")
    return joined(parts)


def controller_of(meta: Meta) -> OwnerRef | None:
    """The controlling owner reference (or the only one, for dumps that omit `controller`).

    Examples:
        >>> controller_of(Meta(ownerReferences=[OwnerRef(kind="ReplicaSet", name="web-1")])).name
        'web-1'
    """
    refs = meta.ownerReferences
    if not refs:
        return None
    for ref in refs:
        if ref.controller:
            return ref
    if len(refs) == 1 and refs[0].controller is None:
        return refs[0]
    return None


def find_condition(conditions: list[Condition] | None, kind: str) -> Condition | None:
    """The condition of the given type, if present."""
    for cond in conditions or ():
        if cond.type == kind:
            return cond
    return None


def condition_true(conditions: list[Condition] | None, kind: str) -> bool | None:
    """Whether the condition is True (None when it is absent)."""
    cond = find_condition(conditions, kind)
    return None if cond is None else cond.status == "True"


def conditions_text(conditions: list[Condition] | None) -> str | None:
    """Conditions as TYPE=STATUS, comma-separated.

    Examples:
        >>> conditions_text([Condition(type="Ready", status="True"),
        ...                  Condition(type="DiskPressure", status="False")])
        'Ready=True,DiskPressure=False'
    """
    return joined(f"{c.type}={c.status}" for c in conditions or ())


def source_of(obj: KubeObject) -> str:
    """Where the object was read: `file:line`, or the file, document index and, for an item of
    a List whose line is not looked for in its file here (a table of 20,000 pods would cost a
    pass over the file), its index."""
    p = obj.provenance
    if p.known_line is not None:
        return f"{p.source}:{p.known_line}"
    if p.document is not None:
        return f"{p.source} (document {p.document}{'' if p.item is None else f', item {p.item}'})"
    return p.source


def ready_counts(text: str | None) -> tuple[int | None, int | None]:
    """A READY cell ("1/2") as (ready, total).

    Examples:
        >>> ready_counts("1/2"), ready_counts(None), ready_counts("x")
        ((1, 2), (None, None), (None, None))
    """
    if not text:
        return None, None
    ready, sep, total = text.partition("/")
    if not sep or not ready.strip().isdigit() or not total.strip().isdigit():
        return None, None
    return int(ready), int(total)


def newest(timestamps: Iterable[str | None]) -> str | None:
    """The newest of RFC 3339 timestamps (they sort as text within one format).

    Examples:
        >>> newest(["2024-01-02T00:00:00Z", None, "2024-03-01T00:00:00Z"])
        '2024-03-01T00:00:00Z'
    """
    present = [t for t in timestamps if t]
    return max(present) if present else None


def text_age(obj_view: Any) -> float | None:
    """The AGE in seconds a pasted table stated for the object (None otherwise)."""
    facts = getattr(obj_view, "text", None)
    return None if facts is None else facts.age_seconds
