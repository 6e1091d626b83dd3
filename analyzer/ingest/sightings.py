"""What one transcript's commands say about the objects seen before them.

A session is read in order, so what a later command prints changes what is still there:
- a later full listing (`kubectl get pods -n web`, same kind and namespace or `-A`, no names,
  no field selector, not `--watch`) no longer shows an object an earlier table showed: it is
  gone. A listing with a label selector, or piped through one `grep`, speaks only for the rows
  an earlier listing with the same selector and grep showed. Only table rows are dropped by tables; objects read whole (YAML/JSON,
  describe) stay.
- `kubectl delete` prints what it deleted (`deployment.apps "nginx" deleted`): that object, and
  the ReplicaSets and pods its controller owned (by ownerReferences, or by the names the
  controller gives them), are gone.
- a table row that states no namespace is the one object of that kind and name the transcript
  shows in a known namespace, when there is exactly one.

The Ingestor keeps the objects; this module only decides, from the indexes it keeps here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from analyzer.ingest.text.lines import ELISION

if TYPE_CHECKING:
    from analyzer.ingest.records import KubeObject
    from analyzer.ingest.text.commands import Command

TABLE_ORIGINS = frozenset({"text table"})
# Flags that make a `get` print other than the whole scope now: a stream of changes, a subset.
_NOT_FULL_FLAGS = frozenset({"--watch", "-w", "--watch-only", "--field-selector", "--chunk-size"})
_DELETED = re.compile(r'^\s*(?P<resource>[a-z][\w.-]*) "(?P<name>[^"]+)" (?:force )?deleted'
                      r'(?: from (?P<ns>[\w.-]+) namespace)?\s*$')
_CHANGED = re.compile(r"^\s*(?P<resource>[a-z][\w.-]*)/(?P<name>[\w.-]+) (?:edited|scaled|configured|patched|"
                      r"image updated|resource requirements updated|env updated|serviceaccount updated)\s*$")
_CORDONED = re.compile(r"^\s*node/(?P<name>[\w.-]+) (?:already )?(?P<state>cordoned|uncordoned)\s*$")
# `grep [-flags] PATTERN` and nothing after it (a quoted pattern may hold a `|`)
_GREP = re.compile(r"""^\s*(?:grep|egrep)(?:\s+-[A-Za-z]+)*\s+(?:'[^']*'|"[^"]*"|[^\s|'"]+)\s*$""")
# Commands that change which namespace a `get` without -n lists (`oc login` sets the project too).
_SWITCHES_NAMESPACE = re.compile(r"^(?:kubens|kubectx)\b|\b(?:set-context|use-context)\b|^(?:kubectl|oc|k)\s+(?:ns|project|new-project)\b|^oc\s+login\b")
# What such a command prints when it names the namespace it switched to: `oc project x` / `oc
# new-project x` ("Now using project "x" on server ..."), `oc project` alone ("Using project "x"
# on server ..."), kubens ("Active namespace is "x"."), `kubectl ns x` (the same).
_SWITCHED_TO = re.compile(r'^\s*(?:(?:Now using|Using|Already on) project|Active namespace is)\s+"(?P<ns>[a-z0-9][a-z0-9.-]*)"')
# The namespace a switching command names itself: `oc project x`, `kubens x`, `kubectl ns x`,
# `kubectl config set-context --current --namespace=x` (kubectl prints only `Context "..." modified.`).
_SWITCH_ARG = re.compile(r"^(?:kubens|(?:kubectl|oc|k)\s+(?:ns|project|new-project))\s+(?P<ns>[a-z0-9][a-z0-9.-]*)\s*$")
_SET_CONTEXT_NS = re.compile(r"\bset-context\b.*\s--current\b.*\s--namespace[= ](?P<ns>[a-z0-9][a-z0-9.-]*)\b"
                             r"|\bset-context\b.*\s--namespace[= ](?P<ns2>[a-z0-9][a-z0-9.-]*)\b.*\s--current\b")
# Names a controller gives what it creates (when no ownerReferences say so): a Deployment's
# ReplicaSets `<name>-<pod-template-hash>` and their pods `<rs>-<5 chars>`, a StatefulSet's
# pods `<name>-<ordinal>`, a DaemonSet's and a Job's pods `<name>-<5 chars>`.
_OWNED_NAMES: dict[str, tuple[tuple[str, str], ...]] = {
    "Deployment": (("ReplicaSet", r"-[a-z0-9]{6,10}"), ("Pod", r"-[a-z0-9]{6,10}-[a-z0-9]{5}")),
    "ReplicaSet": (("Pod", r"-[a-z0-9]{5}"),),
    "StatefulSet": (("Pod", r"-\d+"),),
    "DaemonSet": (("Pod", r"-[a-z0-9]{5}"),),
    "Job": (("Pod", r"-[a-z0-9]{5}"),),
}


@dataclass(frozen=True, slots=True)
class Listing:
    """The scope a `kubectl get` printed whole: kinds, namespace (None: all), label selector."""

    kinds: tuple[str, ...]
    namespace: str | None
    selector: str


@dataclass(frozen=True, slots=True)
class Deleted:
    """One line of `kubectl delete` output: kind, name, namespace (None when not stated)."""

    kind: str
    name: str
    namespace: str | None
    line: int


def elided(lines: list[tuple[int, str]]) -> bool:
    """Whether a writer cut rows out of the output (a line of `...`, `[...]`, `<snip>`): then it
    is no full listing.

    >>> elided([(1, "NAME   READY"), (2, "...")]), elided([(1, "NAME   READY")])
    (True, False)
    """
    return any(ELISION.match(text) for _, text in lines)


def full_listing(command: Command) -> Listing | None:
    """The scope a `kubectl get` command lists whole, or None (names, a field selector, a watch,
    a pipe, a resource that is no kind).

    >>> from analyzer.ingest.text.commands import parse_command
    >>> full_listing(parse_command("kubectl get po -n kube-system"))
    Listing(kinds=('Pod',), namespace='kube-system', selector='')
    >>> full_listing(parse_command("kubectl get nodes -o wide")).namespace is None
    True
    >>> full_listing(parse_command("kubectl get pods -A | grep web"))
    Listing(kinds=('Pod',), namespace=None, selector=' | grep web')
    >>> full_listing(parse_command("kubectl get pods -A | grep web | wc -l")) is None
    True
    """
    from analyzer.ingest.text import catalog as text_catalog

    if command.verb != "get" or command.names or not command.resources or command.redirected:
        return None
    grep = _grep_filter(command.piped)
    if command.piped and grep is None:
        return None
    if any(flag in command.flags for flag in _NOT_FULL_FLAGS):
        return None
    output = (command.output or "").split("=", 1)[0]
    if output not in ("", "wide", "name", "custom-columns"):
        return None
    kinds = text_catalog.catalog()
    infos = [kinds.for_resource(resource) for resource in command.resources]
    if not infos or any(info is None for info in infos):
        return None
    namespaced = any(info.namespaced for info in infos)
    namespace = None if command.all_namespaces or not namespaced else (command.namespace or "")
    selector = command.flags.get("--selector", "")
    return Listing(tuple(info.kind for info in infos), namespace, f"{selector} | {grep}" if grep else selector)


def _grep_filter(piped: str | None) -> str | None:
    """The one `grep` a listing is piped through (`| grep aws-node`), normalised, else None: the
    same command with the same filter prints the same rows, so a later one speaks, as a label
    selector does, for the rows an earlier one showed (a pipe on to `head`, `awk`, ... does not).

    >>> _grep_filter("grep  -i aws-node"), _grep_filter("grep web | head"), _grep_filter("awk '{print $1}'")
    ('grep -i aws-node', None, None)
    """
    match = _GREP.match(piped or "")
    return " ".join(match.group(0).split()) if match else None


def switches_namespace(command_text: str) -> bool:
    """Whether a command may change the session's namespace (`kubectl config set-context
    --current --namespace x`, `kubens x`, `oc project x`).

    >>> switches_namespace("kubens kube-system"), switches_namespace("kubectl delete ns scratch")
    (True, False)
    """
    return _SWITCHES_NAMESPACE.search(command_text.strip()) is not None


def namespace_switched_to(command_text: str, lines: list[tuple[int, str]]) -> str | None:
    """The namespace a namespace-switching command says the session lists from now on (its
    output's `Now using project "x"`, else the namespace the command itself names), or None
    (`kubectx other-cluster`, `kubectl config use-context`: a context whose namespace is not shown).

    >>> namespace_switched_to("oc project openshift-marketplace",
    ...                       [(5, 'Now using project "openshift-marketplace" on server "https://api.x:6443".')])
    'openshift-marketplace'
    >>> namespace_switched_to("kubectl config set-context --current --namespace=shop", [(2, 'Context "k" modified.')])
    'shop'
    >>> namespace_switched_to("kubectl config use-context prod", [(2, 'Switched to context "prod".')]) is None
    True
    >>> namespace_switched_to("oc project shop", [(2, 'error: A project named "shop" does not exist on server')]) is None
    True
    """
    for _, text in lines:
        if (m := _SWITCHED_TO.match(text)) is not None:
            return m.group("ns")
    if any(text.lstrip().lower().startswith(("error", "fatal")) for _, text in lines):
        return None  # `error: A project named "x" does not exist`: the session stays where it was
    command = " ".join(command_text.split())
    if (m := _SWITCH_ARG.match(command)) is not None:
        return m.group("ns")
    if (m := _SET_CONTEXT_NS.search(command)) is not None:
        return m.group("ns") or m.group("ns2")
    return None


def switch_message(text: str) -> bool:
    """Whether an output line is what a namespace switch prints (nothing to read as objects).

    >>> switch_message('Now using project "web" on server "https://api.x:6443".'), switch_message('NAME  READY')
    (True, False)
    """
    return _SWITCHED_TO.match(text) is not None or re.match(r'^\s*Context "[^"]*" modified\.\s*$', text) is not None


def changed_objects(command: Command, lines: list[tuple[int, str]]) -> list[Deleted]:
    """What `kubectl edit/scale/patch/apply/set` says it changed (`statefulset.apps/redis edited`).

    >>> from analyzer.ingest.text.commands import parse_command
    >>> changed_objects(parse_command("kubectl edit sts redis"), [(9, 'statefulset.apps/redis edited')])
    [Deleted(kind='StatefulSet', name='redis', namespace=None, line=9)]
    """
    from analyzer.ingest.text import catalog as text_catalog

    kinds = text_catalog.catalog()
    out = []
    for no, text in lines:
        m = _CHANGED.match(text)
        info = kinds.for_resource(m.group("resource")) if m else None
        if info is None:
            continue
        out.append(Deleted(info.kind, m.group("name"), command.namespace if info.namespaced else "", no))
    return out


def cordoned_nodes(lines: list[tuple[int, str]]) -> list[tuple[Deleted, bool]]:
    """The nodes `kubectl cordon/uncordon/drain` says it left cordoned (True) or uncordoned
    (False), as kubectl prints them (`node/n1 cordoned`, `node/n1 already uncordoned`).

    >>> cordoned_nodes([(7, "node/10.200.220.157 uncordoned"), (8, "node/n2 already cordoned")])
    [(Deleted(kind='Node', name='10.200.220.157', namespace='', line=7), False), (Deleted(kind='Node', name='n2', namespace='', line=8), True)]
    """
    out = []
    for no, text in lines:
        m = _CORDONED.match(text)
        if m is not None:
            out.append((Deleted("Node", m.group("name"), "", no), m.group("state") == "cordoned"))
    return out


@dataclass(frozen=True, slots=True)
class QuotedCordon:
    """What kubectl said it left a node, as a paste quotes it: cordoned or not, where."""

    node: str
    cordoned: bool
    source: str
    line: int


# the same words as _CORDONED, found in a whole text, line by line; kubectl before 1.10 quoted the
# name (`node "e2e-test-minion-group-iinp" already cordoned`: kubernetes/kubernetes#37592)
_CORDONED_LINE = re.compile(r'^[ \t]*node(?:/(?P<name>[\w.-]+)|\s+"(?P<quoted>[\w.-]+)") (?:already )?'
                            r"(?P<state>cordoned|uncordoned)[ \t]*$", re.MULTILINE)


# eksctl's log of its drain cordoning a nodegroup's nodes (`[ℹ]  cordon node "N"`, and `uncordon
# node "N"` when it undoes it), its level mark after an optional time
_EKSCTL_CORDON_LINE = re.compile(r'^[^\n]*?\[(?:ℹ|i)\]\s+(?P<state>cordon|uncordon) node "(?P<name>[\w.-]+)"[ \t]*$',
                                 re.MULTILINE)


def quoted_cordons(text: str, source: str) -> list[QuotedCordon]:
    """Every `node/X (already) cordoned|uncordoned` (or eksctl's `cordon node "X"`) a text
    quotes, in file order: a drain run on a node the paste shows nothing else of still says the
    node is left cordoned.

    >>> [(c.node, c.cordoned, c.line) for c in quoted_cordons("$ kubectl drain node2\\nnode/node2 already cordoned\\n", "t")]
    [('node2', True, 2)]
    >>> [(c.node, c.cordoned) for c in quoted_cordons('[ℹ]  cordon node "ip-10-0-1-5.ec2.internal"', "t")]
    [('ip-10-0-1-5.ec2.internal', True)]
    """
    if "cordon" not in text:
        return []
    found = [QuotedCordon(m.group("name") or m.group("quoted"), m.group("state") == "cordoned", source,
                          text.count("\n", 0, m.start()) + 1)
             for m in _CORDONED_LINE.finditer(text)]
    if "cordon node" in text:
        found.extend(QuotedCordon(m.group("name"), m.group("state") == "cordon", source, text.count("\n", 0, m.start()) + 1)
                     for m in _EKSCTL_CORDON_LINE.finditer(text))
    return sorted(found, key=lambda c: c.line)


def deleted_objects(command: Command, lines: list[tuple[int, str]]) -> list[Deleted]:
    """What `kubectl delete` says it deleted, one per `<resource> "<name>" deleted` line.

    >>> from analyzer.ingest.text.commands import parse_command
    >>> deleted_objects(parse_command("kubectl delete -f web.yml"), [(5, 'deployment.apps "nginx" deleted')])
    [Deleted(kind='Deployment', name='nginx', namespace=None, line=5)]
    >>> deleted_objects(parse_command("kubectl delete po x --force"), [(2, 'pod "x" force deleted from web namespace')])
    [Deleted(kind='Pod', name='x', namespace='web', line=2)]
    """
    from analyzer.ingest.text import catalog as text_catalog

    kinds = text_catalog.catalog()
    out = []
    for no, text in lines:
        m = _DELETED.match(text)
        info = kinds.for_resource(m.group("resource")) if m else None
        if info is None:
            continue
        namespace = (m.group("ns") or command.namespace) if info.namespaced else ""
        out.append(Deleted(info.kind, m.group("name"), namespace, no))
    return out


@dataclass(slots=True)
class TranscriptSightings:
    """Indexes over the objects one transcript showed, by slot of the Ingestor's object list."""

    by_kind: dict[str, set[int]] = field(default_factory=dict)
    selector_of: dict[int, str] = field(default_factory=dict)  # the listing that last showed a table row
    namespaces: dict[tuple[str, str], set[str]] = field(default_factory=dict)  # (kind, name) -> namespaces
    # (kind, name) of an owner -> the namespaces of what it owns (an owner is in its objects' own)
    owner_namespaces: dict[tuple[str, str], set[str]] = field(default_factory=dict)
    # The session's own namespace (what a `get` without -n lists), once a table without -n
    # showed rows the transcript knows in one namespace, or a switch named it (`oc project x`);
    # None while unknown or after a switch that does not say to where.
    context_namespace: str | None = None
    context_why: str = ""
    # (namespace, label selector) -> the pods the last full listing with that selector showed,
    # and its line: whose log a later `kubectl logs -l SELECTOR` is when it showed one
    selected_pods: dict[tuple[str | None, str], tuple[set[int], int]] = field(default_factory=dict)

    def seen(self, slot: int, obj: KubeObject, selector: str | None) -> None:
        """Record that slot now holds obj (shown by a listing with selector, None if none)."""
        self.by_kind.setdefault(obj.kind, set()).add(slot)
        if obj.namespace:
            self.namespaces.setdefault((obj.kind, obj.name), set()).add(obj.namespace)
            for owner in obj.view.metadata.ownerReferences or ():
                if owner.kind and owner.name:
                    self.owner_namespaces.setdefault((owner.kind, owner.name), set()).add(obj.namespace)
        if selector is None:
            self.selector_of.pop(slot, None)
        else:
            self.selector_of[slot] = selector

    def listed_by_selector(self, listing: Listing, shown: set[int], objects: list[KubeObject | None],
                           line: int) -> None:
        """Record the pods a full listing with a label selector (and no grep) showed."""
        if "Pod" in listing.kinds and listing.selector and " | " not in listing.selector:
            pods = {s for s in shown if (o := objects[s]) is not None and o.kind == "Pod"}
            self.selected_pods[(listing.namespace, listing.selector)] = (pods, line)

    def selected_pod(self, namespace: str, selector: str, objects: list[KubeObject | None]) -> KubeObject | None:
        """The one pod the last full listing with this selector showed in the namespace; None when
        it showed none or several, or none was printed. A listing of all namespaces speaks for
        this one by the pods it showed in it."""
        last: tuple[int, list[int]] | None = None
        for (listed_in, listed_by), (pods, line) in self.selected_pods.items():
            if listed_by != selector or listed_in not in (None, namespace):
                continue
            in_scope = [s for s in pods if listed_in == namespace or objects[s] is None
                        or objects[s].namespace == namespace]
            if last is None or line > last[0]:
                last = (line, in_scope)
        return objects[last[1][0]] if last is not None and len(last[1]) == 1 else None

    def forget_selections(self) -> None:
        """A command that may change which pods a selector selects (a rollout, a delete, an
        apply, a label) leaves earlier listings no say on a later `logs -l`."""
        self.selected_pods.clear()

    def forget(self, slot: int, obj: KubeObject) -> None:
        # (the namespace it was shown in stays known: a pod deleted and made again keeps it)
        self.by_kind.get(obj.kind, set()).discard(slot)
        self.selector_of.pop(slot, None)

    def known_namespace(self, kind: str, name: str) -> str | None:
        """The one namespace the transcript shows an object of this kind and name in, if one."""
        found = self.namespaces.get((kind, name), set())
        return next(iter(found)) if len(found) == 1 else None

    def owner_namespace(self, kind: str, name: str) -> str | None:
        """The one namespace of the objects the transcript shows an owner of this kind and name
        owning ("Controlled By: DaemonSet/x" in a pod's describe), if one."""
        found = self.owner_namespaces.get((kind, name), set())
        return next(iter(found)) if len(found) == 1 else None

    def changed(self, what: Deleted, objects: list[KubeObject | None]) -> list[int]:
        """Table rows of an object a later `kubectl edit/scale/patch/apply` changed."""
        return [s for s in self.by_kind.get(what.kind, ()) if (o := objects[s]) is not None and o.name == what.name
                and o.provenance.format in TABLE_ORIGINS and (what.namespace is None or o.namespace == what.namespace)]

    def not_shown(self, listing: Listing, shown: set[int], objects: list[KubeObject | None]) -> list[int]:
        """Slots of earlier table rows in the listing's scope that it no longer shows."""
        gone = []
        for kind in listing.kinds:
            for slot in sorted(self.by_kind.get(kind, ())):
                obj = objects[slot]
                if slot in shown or obj is None or obj.provenance.format not in TABLE_ORIGINS:
                    continue
                if listing.namespace is not None and obj.namespace != listing.namespace:
                    continue
                if listing.selector and self.selector_of.get(slot) != listing.selector:
                    continue
                gone.append(slot)
        return gone

    def deleted(self, what: Deleted, objects: list[KubeObject | None]) -> tuple[list[int], str | None]:
        """Slots a delete line removes (the object, then what its controller owned), or the
        reason none is removed. A controller the transcript never showed still takes the pods
        it owned (a write-up lists pods, then deletes their Deployment)."""
        named = [s for s in self.by_kind.get(what.kind, ()) if (o := objects[s]) is not None and o.name == what.name]
        if what.namespace is not None:
            named = [s for s in named if objects[s].namespace == what.namespace]
        namespaces = {objects[s].namespace for s in named}
        if len(namespaces) > 1:
            return [], "seen in more than one namespace, and the command states none"
        namespace = next(iter(namespaces), what.namespace)
        if what.kind == "Namespace":
            # a namespace takes everything in it along
            owned = sorted(s for slots in self.by_kind.values() for s in slots
                           if (o := objects[s]) is not None and o.namespace == what.name)
        else:
            owned = self._owned(what.kind, what.name, namespace, objects)
        if namespace is None and len({objects[s].namespace for s in owned}) > 1:
            return [], "what it owned is seen in more than one namespace, and the command states none"
        if not named and not owned:
            return [], "not seen before it"
        return named + [s for s in owned if s not in named], None

    def _owned(self, kind: str, name: str, namespace: str | None, objects: list[KubeObject | None]) -> list[int]:
        """What a controller owned: by ownerReferences, else by the names it gives (namespace
        None: any)."""
        out: list[int] = []
        for owned_kind, suffix in _OWNED_NAMES.get(kind, ()):
            pattern = re.compile(re.escape(name) + suffix + "$")
            for slot in sorted(self.by_kind.get(owned_kind, ())):
                obj = objects[slot]
                if obj is None or (namespace is not None and obj.namespace != namespace):
                    continue
                refs = obj.view.metadata.ownerReferences if obj.view.metadata else None
                if refs:
                    owned = any(r.kind == kind and r.name == name for r in refs)
                else:
                    owned = pattern.match(obj.name) is not None
                if owned and slot not in out:
                    out.append(slot)
                    # a ReplicaSet's pods
                    out += [s for s in self._owned(obj.kind, obj.name, obj.namespace, objects) if s not in out]
        return out
