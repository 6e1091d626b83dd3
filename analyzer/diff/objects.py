"""Objects of two dumps matched by identity: added, removed, changed (field by field), and kinds
that only one dump collected ("not comparable", never "removed")."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from analyzer.ingest.text.values import changed_cells
from analyzer.memo import once_per
from analyzer.safeyaml import load_yaml
from analyzer.sensitive.masking import mask_annotation, mask_argv, mask_named_value

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
    # the paths as a tree of steps ("*" for any step); a leaf (None) ends a volatile path
    trie: dict[str, Any] = field(default_factory=dict)

    def covers(self, steps: Steps) -> bool:
        """Whether a field path is one of the volatile fields (or below one).

        Examples:
            >>> v = volatile()
            >>> v.covers(("status", "conditions", "[Ready]", "lastHeartbeatTime"))
            True
            >>> v.covers(("status", "conditions", "[Ready]", "status")), v.covers(("metadata",))
            (False, False)
        """
        return _volatile_below([self.trie], steps)

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
    trie: dict[str, Any] = {}
    for steps in paths:
        node = trie
        for step in steps[:-1]:
            node = node.setdefault(step, {})
            if node is None:
                break
        else:
            node[steps[-1]] = None
    return Volatile(tuple(paths), tuple(reasons), frozenset(data.get("history_kinds") or ()), trie)


def _descend(nodes: list[dict[str, Any]], step: str) -> list[dict[str, Any]] | None:
    """The trie nodes one step further; None when a volatile path ends at this step."""
    out = []
    for node in nodes:
        for key in (step, "*"):
            if key in node:
                child = node[key]
                if child is None:
                    return None
                out.append(child)
    return out


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


def _leaves(value: Any, steps: Steps, out: list[tuple[Steps, Any]]) -> None:
    """Every leaf under a value that one side does not have at all."""
    if isinstance(value, dict) and value:
        for k, v in value.items():
            _leaves(v, (*steps, str(k)), out)
    elif isinstance(value, list) and value:
        for label, item in _items(value):
            _leaves(item, (*steps, label), out)
    else:
        out.append((steps, value))


def _items(items: list[Any]) -> list[tuple[str, Any]]:
    """A list's items with their step: `[name]` (or `[type]`) where each has a distinct one,
    so a reordering is no change and an item keeps its identity; else `[index]`."""
    key = _item_key(items)
    return [(f"[{item[key]}]" if key else f"[{i}]", item) for i, item in enumerate(items)]


def _compare(a: Any, b: Any, steps: Steps, nodes: list[dict[str, Any]],
             out: list[tuple[Steps, Any, Any]]) -> None:
    """Differences between two values at `steps`, volatile subtrees (per `nodes`) left out."""
    if _same(a, b):
        return
    if isinstance(a, dict) and isinstance(b, dict) and a and b:
        for k in sorted(a.keys() | b.keys(), key=str):
            _child(a.get(k, _MISSING), b.get(k, _MISSING), (*steps, str(k)), nodes, out)
    elif isinstance(a, list) and isinstance(b, list) and a and b:
        left, right = dict(_items(a)), dict(_items(b))
        for label in [*left, *(x for x in right if x not in left)]:
            _child(left.get(label, _MISSING), right.get(label, _MISSING), (*steps, label), nodes, out)
    else:
        out.append((steps, a, b))


def _child(a: Any, b: Any, steps: Steps, nodes: list[dict[str, Any]],
           out: list[tuple[Steps, Any, Any]]) -> None:
    below = _descend(nodes, steps[-1]) if nodes else []
    if below is None:
        return  # a volatile field
    if a is _MISSING or b is _MISSING:
        present = b if a is _MISSING else a
        leaves: list[tuple[Steps, Any]] = []
        _leaves(present, steps, leaves)
        for path, value in leaves:
            if below and _volatile_below(below, path[len(steps):]):
                continue
            out.append((path, _MISSING, value) if a is _MISSING else (path, value, _MISSING))
        return
    _compare(a, b, steps, below, out)


def _volatile_below(nodes: list[dict[str, Any]], rest: Steps) -> bool:
    for step in rest:
        nodes = _descend(nodes, step)
        if nodes is None:
            return True
        if not nodes:
            return False
    return False


def _same(a: Any, b: Any) -> bool:
    """Equal as the API means it: 1 and 1.0 are one number, True is not 1, a YAML date is its
    RFC 3339 text."""
    if a is b:
        return True
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, datetime) or isinstance(b, datetime):
        return _plain(a) == _plain(b)
    return a == b


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
    from analyzer.kube.kinds import group_of_kind, is_builtin_group

    group = obj.key.group
    if is_builtin_group(obj.kind, group):
        group = group_of_kind(obj.kind)
    return Identity(obj.kind, obj.namespace, obj.name, group)


@dataclass(slots=True)
class ObjectChanges:
    """What differs between the objects of two dumps."""

    added: list[dict[str, Any]] = field(default_factory=list)
    removed: list[dict[str, Any]] = field(default_factory=list)
    # pods gone and pods come of one controller (see `replaced_pods`)
    replaced: list[dict[str, Any]] = field(default_factory=list)
    changed: list[dict[str, Any]] = field(default_factory=list)
    unchanged: int = 0
    not_comparable: list[dict[str, Any]] = field(default_factory=list)
    history: list[dict[str, Any]] = field(default_factory=list)
    # objects whose bodies one side does not have (pasted text) and whose rows show no change:
    # compared by identity only, or by the few cells two pasted rows both show
    shallow: int = 0
    # side -> kinds it holds only as pasted text
    pasted: dict[str, list[str]] = field(default_factory=dict)


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


def _same_bytes(x: KubeObject, y: KubeObject) -> bool:
    if x.view.text is not None or y.view.text is not None:
        return False
    a, b = x.raw, y.raw
    if isinstance(a, dict) or isinstance(b, dict) or a is None or b is None:
        return False
    a = a.resolve() if hasattr(a, "resolve") else a
    b = b.resolve() if hasattr(b, "resolve") else b
    return a == b


def _plain(value: Any) -> Any:
    """A leaf value as JSON data (a YAML date as RFC 3339, another odd scalar as its text)."""
    if value is None or isinstance(value, bool | int | float | str | list | dict):
        return value
    if isinstance(value, datetime):
        return value.isoformat().replace("+00:00", "Z")
    return str(value)


def field_changes(old: dict[str, Any], new: dict[str, Any], skip: Volatile,
                  show_sensitive: bool = False) -> list[dict[str, Any]]:
    """Every leaf that differs between two bodies: [{path, old, new}], in path order.

    Examples:
        >>> v = volatile()
        >>> field_changes({"metadata": {"resourceVersion": "1"}, "spec": {"replicas": 2}},
        ...               {"metadata": {"resourceVersion": "9"}, "spec": {"replicas": 3}}, v)
        [{'path': 'spec.replicas', 'old': 2, 'new': 3}]
        >>> field_changes({"spec": {"ports": [{"name": "a", "port": 1}, {"name": "b", "port": 2}]}},
        ...               {"spec": {"ports": [{"name": "b", "port": 2}, {"name": "a", "port": 1}]}}, v)
        []
    """
    found: list[tuple[Steps, Any, Any]] = []
    _compare(old, new, (), [skip.trie], found)
    found.sort(key=lambda x: x[0])
    changes = []
    for steps, before, after in found:
        shown_old = None if before is _MISSING else _shown(before, steps, show_sensitive, _argv_before(old, steps))
        shown_new = None if after is _MISSING else _shown(after, steps, show_sensitive, _argv_before(new, steps))
        if shown_old == shown_new and isinstance(shown_new, str):
            shown_new += " (another value, masked)"  # (a password changed: both sides masked alike)
        changes.append({"path": display_path(steps), "old": shown_old, "new": shown_new})
    return changes


_MISSING = object()


def _argv_before(body: dict[str, Any], steps: Steps) -> str | None:
    """The element before a changed element of a container's command or args (`command/[2]`),
    which may be the flag that says what it is (`--db-password`)."""
    if len(steps) < 2 or steps[-2] not in ("args", "command") or not steps[-1][1:-1].isdigit():
        return None
    node: Any = body
    for step in steps[:-1]:
        node = node.get(step) if isinstance(node, dict) else dict(_items(node)).get(step) if isinstance(node, list) else None
    index = int(steps[-1][1:-1])
    if isinstance(node, list) and 0 < index <= len(node) and isinstance(node[index - 1], str):
        return node[index - 1]
    return None


def _shown(value: Any, steps: Steps, show_sensitive: bool, argv_before: str | None = None) -> Any:
    """A changed leaf as shown: credential-looking values masked unless asked for, read with
    the name that says what they are (an env var's, a ConfigMap key's, an annotation's key, the
    flag before an argv element), as `kda get` reads them: `env[DB_PASSWORD].value` is masked whole.

    Examples:
        >>> _shown("hunter2", ("spec", "containers", "[web]", "env", "[DB_PASSWORD]", "value"), False)
        '<redacted>'
        >>> _shown("debug", ("data", "LOG_LEVEL"), False), _shown("hunter2", ("data", "api_token"), True)
        ('debug', 'hunter2')
        >>> _shown("hunter2", ("spec", "containers", "[web]", "args", "[1]"), False, "--db-password")
        '<redacted>'
    """
    value = _plain(value)
    if not isinstance(value, str) or show_sensitive:
        return value
    if argv_before is not None:
        return mask_argv([argv_before, value])[1]
    if len(steps) >= 2 and steps[-2] == "annotations":  # (the object's, or its pod template's)
        return mask_annotation(steps[-1], value)
    name = steps[-1] if steps else ""
    if name == "value" and len(steps) >= 2 and steps[-2].startswith("["):
        name = steps[-2]  # an env var (or another named item's value): its name
    return mask_named_value(name.strip("[]"), value)


def pasted_cell_changes(old: KubeObject, new: KubeObject, show_sensitive: bool = False) -> list[dict[str, Any]]:
    """The cells of one object's rows in two pasted tables that differ; empty unless both
    objects were read from table rows (a describe, a body: nothing to set cell against cell)."""
    a, b = old.view.text, new.view.text
    if a is None or b is None or not a.columns or not b.columns:
        return []
    return cell_changes(a.columns, b.columns, show_sensitive)


def cell_changes(old: dict[str, Any], new: dict[str, Any], show_sensitive: bool = False) -> list[dict[str, Any]]:
    """The cells two rows of one object show differently (`changed_cells`: ages left out) as
    fields [{path: "column STATUS", old, new}], credentials masked by their column's name.

    Examples:
        >>> cell_changes({"NAME": "pod/web", "STATUS": "Pending", "AGE": "3s"}, {"NAME": "web", "STATUS": "Running", "AGE": "8s"})
        [{'path': 'column STATUS', 'old': 'Pending', 'new': 'Running'}]
        >>> cell_changes({"NAME": "db", "PASSWORD": "old"}, {"NAME": "db", "PASSWORD": "new"})
        [{'path': 'column PASSWORD', 'old': '<redacted>', 'new': '<redacted> (another value, masked)'}]
    """
    changes = []
    for header, (before, after) in changed_cells(old, new).items():
        if not show_sensitive and isinstance(before, str) and isinstance(after, str):
            before, after = mask_named_value(header, before), mask_named_value(header, after)
            if before == after:
                after += " (another value, masked)"
        changes.append({"path": f"column {header}", "old": before, "new": after})
    return changes


def pasted_kinds(objects: dict[Identity, KubeObject]) -> set[str]:
    """Kinds all of whose objects come from pasted text: a paste may hold only some rows, so an
    object missing from it is not known to be gone."""
    full = {i.kind for i, o in objects.items() if o.view.text is None}
    return {i.kind for i in objects} - full


def compare_objects(old: Cluster, new: Cluster, show_sensitive: bool = False) -> ObjectChanges:
    """Added, removed and changed objects; kinds only one dump collected are not comparable,
    and neither are the objects a pasted table or describe of the other dump does not show."""
    skip = volatile()
    a, history_a = _index(old, skip)
    b, history_b = _index(new, skip)
    out = ObjectChanges(pasted={"old": sorted(pasted_kinds(a)), "new": sorted(pasted_kinds(b))})
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
    unseen: Counter[tuple[str, str]] = Counter()  # (kind, side it is missing from) -> objects
    for ident in sorted(a.keys() | b.keys()):
        if ident.kind in uncomparable:
            continue
        x, y = a.get(ident), b.get(ident)
        if x is None:
            if ident.kind in out.pasted["old"]:
                unseen[(ident.kind, "old")] += 1
            else:
                out.added.append(ident.to_dict())
        elif y is None:
            if ident.kind in out.pasted["new"]:
                unseen[(ident.kind, "new")] += 1
            else:
                out.removed.append(ident.to_dict())
        else:
            if _same_bytes(x, y):
                out.unchanged += 1  # printed the same way, byte for byte: nothing to walk
                continue
            bx, by = _body(x), _body(y)
            if bx is None or by is None:
                # pasted text: only the cells two table rows both show can be set side by side
                cells = pasted_cell_changes(x, y, show_sensitive)
                if cells:
                    out.changed.append({**ident.to_dict(), "recreated": False, "fields": cells})
                else:
                    out.shallow += 1
                continue
            changes = field_changes(bx, by, skip, show_sensitive)
            if changes:
                # the same name, a new uid: deleted and created again, not edited
                recreated = bool(x.uid and y.uid and x.uid != y.uid)
                out.changed.append({**ident.to_dict(), "recreated": recreated, "fields": changes})
            else:
                out.unchanged += 1
    for (kind, side), count in sorted(unseen.items()):
        other = "new" if side == "old" else "old"
        out.not_comparable.append({
            "kind": kind, "collected_in": other, "objects": count,
            "reason": f"the {side} dump has {kind} only as pasted text, which may show some rows: "
                      f"{count} of the {other} dump's are not in it, neither "
                      f"{'added' if side == 'old' else 'removed'} nor known to be"})
    out.replaced = replaced_pods(out, a, b, old, new)
    for kind in sorted(history_a.keys() | history_b.keys()):
        out.history.append({"kind": kind, "old": history_a.get(kind, 0), "new": history_b.get(kind, 0)})
    return out


# Controllers that keep a number of pods and make a new one, under a new name, for each that
# goes (a rollout, an eviction, a drained node). A Job's (or CronJob's) pods are runs of their
# own: a new run does not replace the last one.
REPLACING_CONTROLLERS = frozenset({"Deployment", "ReplicaSet", "DaemonSet", "StatefulSet",
                                   "ReplicationController", "DeploymentConfig"})


@once_per
def pod_controllers(cluster: Cluster) -> dict[tuple[str, str], str]:
    """Each pod's controller as `Deployment ns/name`, where it has one: a ReplicaSet's
    Deployment (a rollout makes a new ReplicaSet, whose pods replace the old one's, as
    `replaced_pods` pairs them), else its owner. Found once per dump: the findings, the incidents
    and the replaced pods each ask."""
    pods = cluster.tables.pods
    if pods.empty:
        return {}
    return {(ns, name): f"{kind} {ns}/{owner}"
            for ns, name, kind, owner in zip(pods["namespace"], pods["name"], pods["workload_kind"],
                                             pods["workload_name"], strict=True)
            if isinstance(kind, str) and kind and isinstance(owner, str) and owner}


def _controllers(cluster: Cluster, pods: set[tuple[str, str]]) -> dict[tuple[str, str], str]:
    """The controller of each of these pods that has one that replaces its pods."""
    owners = pod_controllers(cluster)
    return {pod: owner for pod in pods
            if (owner := owners.get(pod)) is not None and owner.split(" ", 1)[0] in REPLACING_CONTROLLERS}


def _container_resources(container: Any) -> str:
    """`web: requests cpu=100m, memory=500Mi; limits memory=500Mi` (`none` where unset)."""
    said = []
    for what in ("requests", "limits"):
        values = getattr(container.resources, what, None) if container.resources else None
        said.append(f"{what} " + (", ".join(f"{k}={v}" for k, v in sorted(values.items())) if values else "none"))
    return f"{container.name}: {'; '.join(said)}"


def _pod_facts(pods: list[KubeObject]) -> dict[str, list[str]]:
    """What a support engineer asks of a controller's pods made again, each value once, sorted:
    the images and resources of their app containers (what a rollout changes), their nodes."""
    containers = [c for p in pods for c in p.view.spec.containers or ()]
    return {"images": sorted({c.image for c in containers if c.image}),
            "resources": sorted({_container_resources(c) for c in containers if c.name}),
            "nodes": sorted({p.view.spec.nodeName for p in pods if p.view.spec.nodeName})}


def replaced_pods(out: ObjectChanges, a: dict[Identity, KubeObject], b: dict[Identity, KubeObject],
                  old: Cluster, new: Cluster) -> list[dict[str, Any]]:
    """Pods only the old dump holds and pods only the new one holds, of one controller: the
    controller made its pods again (a rollout's new ReplicaSet, an evicted pod's successor),
    which is what happened to them, not so many pods removed and others added. Taken out of
    `out.removed` and `out.added`; each group says its controller, its pods' names before and
    after, and the images, resources and nodes of its pods where those differ.

    A pod of a kind held only as pasted text is in neither list, so never in a group."""
    gone = {(i["namespace"], i["name"]) for i in out.removed if i["kind"] == "Pod"}
    came = {(i["namespace"], i["name"]) for i in out.added if i["kind"] == "Pod"}
    if not gone or not came:
        return []
    before, after = _controllers(old, gone), _controllers(new, came)
    groups: dict[tuple[str, str], tuple[list[str], list[str]]] = {}
    for pods, side in ((before, 0), (after, 1)):
        for (ns, name), controller in sorted(pods.items()):
            groups.setdefault((ns, controller), ([], []))[side].append(name)
    replaced, taken = [], set()
    for (ns, controller), (old_names, new_names) in sorted(groups.items()):
        if not old_names or not new_names:
            continue  # only gone (scaled down) or only come (scaled up): removed or added
        taken |= {(ns, n) for n in (*old_names, *new_names)}
        was = _pod_facts([a[Identity("Pod", ns, n, "")] for n in old_names])
        now = _pod_facts([b[Identity("Pod", ns, n, "")] for n in new_names])
        fields = [{"path": what, "old": was[what], "new": now[what]} for what in was if was[what] != now[what]]
        replaced.append({"kind": "Pod", "namespace": ns, "controller": controller,
                         "old": old_names, "new": new_names, "fields": fields})
    out.removed[:] = [i for i in out.removed if i["kind"] != "Pod" or (i["namespace"], i["name"]) not in taken]
    out.added[:] = [i for i in out.added if i["kind"] != "Pod" or (i["namespace"], i["name"]) not in taken]
    return replaced
