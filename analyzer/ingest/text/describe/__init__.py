"""Read one `kubectl describe` block into API-shaped objects (the object, its events, and more).

The kind comes from the command that printed the describe, else from fields only that kind prints
(layout.yaml). Each kind with more than metadata to read has a reader module; every describe
gives its Events. A describe that stops before its kind's last section is kept with a rejection
saying where it stopped.
"""

from __future__ import annotations

import re
from typing import Any

from analyzer.ingest.records import Rejection, Truncated
from analyzer.ingest.text.catalog import Catalog, KindInfo
from analyzer.ingest.text.commands import Command
from analyzer.ingest.text.describe import (
    autoscaling,
    config,
    custom,
    jobs,
    networking,
    node,
    pod,
    policy,
    service,
    storage,
    workloads,
)
from analyzer.ingest.text.describe.blocks import (
    AFTER_EVENTS,
    LIMITS_HEADER,
    QUOTA_HEADER,
    DescribeBlock,
    reindent,
)
from analyzer.ingest.text.describe.context import DescribeContext
from analyzer.ingest.text.describe.layout import describe_layout
from analyzer.ingest.text.describe.sections import (
    DESCRIBE_ORIGIN,
    events,
    metadata,
    table_rows,
)
from analyzer.ingest.text.describe.tree import KEY_LINE, Entry, parse_tree
from analyzer.ingest.text.fragments import condition_rows_said, pods_said
from analyzer.ingest.text.lines import ELISION, Line, is_rule_line
from analyzer.ingest.text.rows.common import NAME
from analyzer.ingest.text.tables import single_kind
from analyzer.ingest.text.types import TEXT_FACTS_KEY, TextObject
from analyzer.ingest.text.values import cell
from analyzer.kube.event_reasons import current_reason
from analyzer.kube.kinds import BUILTIN_KINDS, KIND_GROUPS

_READERS = {**pod.READERS, **node.READERS, **service.READERS, **workloads.READERS,
            **config.READERS, **jobs.READERS, **storage.READERS, **autoscaling.READERS,
            **networking.READERS, **policy.READERS}
_DATA_HEADINGS = ("Data", "BinaryData")


_NO_EVENTS = "No events."


def read_describe(block: DescribeBlock, command: Command | None, catalog: Catalog,
                  source: str, first_output: bool = False) -> tuple[list[TextObject], list[Rejection]]:
    """The objects one describe block states, and rejections for what it lacks. An excerpt
    without its Name that is the command's first output (`first_output`) is the object the
    command names."""
    layout = describe_layout()
    # the writer's marks of lines left out (`. . .`) are none of the describe's (parse says them);
    # kubectl before 1.5 ended a describe of no events with `No events.`: its Events, empty
    lines = [Line(line.no, "Events:  <none>") if line.text.rstrip() == _NO_EVENTS else line
             for line in block.lines if not ELISION.match(line.text)]
    lines = _split_joined(lines, layout.all_top | _GENERIC_HEADER)
    kind = _kind(lines, command, catalog)
    if block.collapsed:
        lines = reindent(lines, kind or "", layout)
    skipped = _leading_tail(lines) if block.headless else []
    tree_lines = _without_data(lines[len(skipped):])
    data_apart = len(tree_lines) < len(lines) - len(skipped)
    # a Namespace's quotas and limits are read apart: their `Name:` is a quota's
    policies = policy.namespace_policies(tree_lines) if kind == "Namespace" else []
    if policies:
        tree_lines = [line for line in tree_lines if line not in policies]
    root = parse_tree(tree_lines)
    if data_apart:
        _add_data_section(root, lines)
    first_line = lines[0].no
    last_line = (block.cut_line or block.lines[-1]).no
    rejections: list[Rejection] = []
    notes: list[str] = []
    meta = metadata(root)
    name = meta.get("name")
    if name is None and kind == "Node" and (lease := root.child("Lease")):
        name = cell(lease.child_value("HolderIdentity"))  # a node's lease is held in its name
        if name:
            meta = {"name": name, **meta}
            notes.append("describe of Node begins mid-text without its Name; named from its Lease holder")
    info = catalog.kinds.get(kind or "") or _listed_kind(kind, command, catalog)
    if info is None:
        info = _declared_kind(root)  # custom resources print their `API Version` and `Kind`
    if not name and [entry.key for entry in root.children] == ["Events"]:
        return _events_alone(root, command, catalog, source, first_line, last_line)
    if name is None and block.headless and first_output \
            and (named := named_by_command(command, catalog)) is not None:
        name = named  # `kubectl describe node/N` above an excerpt that begins after its Name
        meta = {"name": name, **meta}
        if command is not None and command.namespace and "namespace" not in meta:
            meta["namespace"] = command.namespace
        notes.append(f"describe of {kind} begins mid-text without its Name; named from the command line")
    if name is None and block.headless and info is not None and info.kind == "Pod" \
            and (assigned := _assigned_pod(events(root.child("Events"), {}, None, catalog)[0])) is not None:
        # a pod's describe pasted from its middle (a report script's `Containers:` or `Volumes:`
        # on): the scheduler's `Successfully assigned NS/NAME to NODE` in its Events names it
        meta = {"name": assigned[1], **meta}
        if assigned[0]:
            meta.setdefault("namespace", assigned[0])
        name = assigned[1]
        notes.append("describe of Pod begins mid-text without its Name; named by its Scheduled event")
    if info is None or not name:
        what = f"describe of '{name}'" if name else "describe without a Name"
        why = "its kind could not be told" if info is None else "it has no name"
        # what it shows is named, not lost with it (kubernetes/kubernetes#107899: a node's
        # Non-terminated Pods and Allocated resources quoted without its Name)
        texts = [line.text for line in lines]
        said = [*condition_rows_said(texts), *filter(None, [pods_said(texts)])] if not name else []
        return [], [Rejection(source, f"line {first_line}", f"{what}: {why}; nothing read"
                              + (f"; it says {', '.join(said)}" if said else ""))]
    if not info.namespaced:
        meta.pop("namespace", None)
    elif "namespace" not in meta and command is not None and command.verb == "describe" and command.namespace \
            and not command.all_namespaces:
        # kubectl's DaemonSet describer (and older ones of other kinds) prints no Namespace line:
        # the object is in the namespace its command named
        meta["namespace"] = command.namespace
    body: dict[str, Any] = {"apiVersion": info.api_version, "kind": info.kind, "metadata": meta}
    facts: dict[str, Any] = {}
    name_line = next((line.no for line in lines if line.text.startswith("Name:")), first_line)
    ctx = DescribeContext(catalog, name_line, tuple(lines))
    reader = _READERS.get(info.kind, _read_fields if catalog.kinds.get(info.kind) else _read_custom_resource)
    extra = reader(root, body, facts, ctx)
    if policies:
        extra = [*extra, *policy.namespace_quotas(policies, name, ctx)]
    involved = {"apiVersion": info.api_version, "kind": info.kind, "name": name}
    if namespace := meta.get("namespace"):
        involved["namespace"] = namespace
    found_events, events_cut = events(root.child("Events"), involved, meta.get("namespace"), catalog)
    if (said := root.child("Events")) is not None and (said.value or "").strip() == "<none>":
        facts["events_none"] = True  # kubectl found none for it: said, not unknown
    # every described object says so: what its describe does not print (a Deployment's ready
    # count) is unknown, not the zero an API object's omitted counter means
    facts["described"] = True
    if block.headless and root.children and not (lines[0].text.startswith("Name:")):
        # an excerpt from its middle on (a report script's `--- Description for POD ---` over
        # the describe's tail): what comes before its first section is unknown, not absent
        facts["begins_at"] = root.children[0].key
    body[TEXT_FACTS_KEY] = facts
    objects = [TextObject(body=body, line=name_line, origin=DESCRIBE_ORIGIN, notes=notes), *extra, *found_events]
    # `--show-events=false`: kubectl prints no Events; the describe ends with the section before
    events_shown = command is None or command.flags.get("--show-events") != "false"
    stop = _stopped_in(root, info, block, catalog, events_shown)
    # a describe whose last line is the writer's mark of lines left out (`...`) ends where the
    # writer chose: the rest was left out, nothing was cut (deis/charts#29)
    elided_end = ELISION.match(block.lines[-1].text) is not None and block.cut_line is None
    if stop is not None and elided_end:
        stop = None
    if stop is None and root.children and info.describe_ends and events_shown \
            and (last := root.children[-1]).key not in info.describe_ends:
        said = (f"the writer left the rest out (line {block.lines[-1].no})" if elided_end
                else "the sections after it were not in the text")
        notes.append(f"describe ends after its whole {last.key} section (line {last_line}): "
                     f"what it shows is kept; {said}")
        # what those sections would have said is unknown, as after a cut (ingest.collect)
        body.setdefault(TEXT_FACTS_KEY, {})["ends_after"] = last.key
    unread = [*ctx.unread, *_unread_tables(root, catalog, {section for _, section, _ in ctx.unread})]
    for line_no, section, why in unread:
        if section != stop:  # a section cut short says so below
            rejections.append(Rejection(source, f"line {line_no}", f"describe of {info.kind} '{name}': {why}"))
    if stop:
        # what the paste would have said after the cut is unknown, not absent: an earlier sighting
        # of the object (a table row above it) keeps its say there (ingest.collect)
        body.setdefault(TEXT_FACTS_KEY, {})["cut_in"] = stop
        cut = f" (its last line, '{block.cut_line.text}', is cut)" if block.cut_line else ""
        rejections.append(Truncated(source, f"line {last_line}",
            f"describe of {info.kind} '{name}' ends mid-section '{stop}'{cut}"))
    elif events_cut is not None and events_cut == last_line:
        # what its events said is partly unknown: a rule must not say "no event recorded"
        body.setdefault(TEXT_FACTS_KEY, {})["events_cut"] = True
        rejections.append(Truncated(source, f"line {last_line}",
            f"describe of {info.kind} '{name}' ends mid-section 'Events'"))
    return objects, rejections


# `Annotations:  Spec:`: kubectl's Ingress and NetworkPolicy describers of about 1.18 wrote no
# line end after an Annotations title whose every annotation they skip (last-applied-configuration)
_JOINED = re.compile(r"^(?P<title>Annotations):\s+(?P<rest>(?P<key>[A-Z][A-Za-z -]*):(?:\s.*)?)$")


def _split_joined(lines: list[Line], top: frozenset[str]) -> list[Line]:
    """The describe's lines with a field joined to an empty Annotations line put back on its own
    (kubernetes/ingress-nginx#6064: `Annotations:  Events:  <none>` ended the describe
    'mid-section Annotations'; dumlutimuralp/antrea-packet-walks: a policy's Spec was lost; a
    custom resource's generic describe: `Annotations:  API Version:  networking.gke.io/v1beta1`,
    kubeflow/community-distribution#1161, its kind then not told)."""
    if not any(line.text.startswith("Annotations:") for line in lines):
        return lines
    split: list[Line] = []
    for line in lines:
        m = _JOINED.match(line.text.rstrip())
        if m is None or m.group("key") not in top:
            split.append(line)
            continue
        split += [Line(line.no, f"{m.group('title')}:  <none>"), Line(line.no, m.group("rest"))]
    return split


def _events_alone(root: Entry, command: Command | None, catalog: Catalog, source: str,
                  first_line: int, last_line: int) -> tuple[list[TextObject], list[Rejection]]:
    """A describe's Events section pasted without the describe: its events, about the object
    the describe command names when one is typed above it (else about an object not named)."""
    info = single_kind(command, catalog) if command is not None and command.verb == "describe" else None
    involved: dict[str, str] = {}
    namespace = command.namespace if command is not None else None
    if info is not None and command is not None and len(command.names) == 1:
        involved = {"apiVersion": info.api_version, "kind": info.kind, "name": command.names[0]}
        if namespace and info.namespaced:
            involved["namespace"] = namespace
    found, cut = events(root.child("Events"), involved, namespace if involved else None, catalog)
    if (involved and "namespace" not in involved and info is not None and info.kind == "Pod"
            and (assigned := _assigned_pod(found)) is not None and assigned[0] and assigned[1] == involved["name"]):
        # `kubectl describe pod P` typed without -n: the scheduler's `Successfully assigned NS/P`
        # states the namespace the context listed it in (istio/istio#23283: istio-system)
        namespace = involved["namespace"] = assigned[0]
        found, cut = events(root.child("Events"), involved, namespace, catalog)
    elif not involved and (assigned := _assigned_pod(found)) is not None:
        # the scheduler's `Successfully assigned NS/NAME to NODE` names the pod they are about
        namespace, name = assigned
        involved = {"apiVersion": "v1", "kind": "Pod", "name": name, **({"namespace": namespace} if namespace else {})}
        found, cut = events(root.child("Events"), involved, namespace, catalog)
    elif not involved and (controller := _controller_of(found, catalog)) is not None:
        # a workload controller's `Created pod: NAME-x7k2p` names the workload they are about
        involved = controller
        found, cut = events(root.child("Events"), involved, None, catalog)
    rejections: list[Rejection] = []
    if not found:
        rejections.append(Rejection(source, f"line {first_line}", "an Events section without its describe: "
                                    "no event row could be read"))
    elif cut is not None and cut == last_line:
        rejections.append(Rejection(source, f"line {last_line}", "an Events section without its describe "
                                    "ends mid-row"))
    note = ("a describe's Events pasted alone" + ("" if involved else ": the object they are about is not named"))
    for event in found:
        event.notes.append(note)
    return found, rejections


# (the scheduler before 1.11 named the pod alone: `Successfully assigned NAME to NODE`, Azure/AKS#122)
_ASSIGNED = re.compile(r"Successfully assigned (?:(?P<namespace>[a-z0-9][a-z0-9.-]*)/)?(?P<name>[a-z0-9][a-z0-9.-]*) to \S+")
# The kubelet's volume messages name the pod they wait for: `Unable to mount volumes for pod
# "NAME_NS(UID)"` and `... for pod "NS"/"NAME"` (kubelets before 1.18; oracle/terraform-kubernetes-
# installer#154, aws-ebs-csi-driver#292, Azure/AKS#1567).
_MOUNT_POD = re.compile(r'\bfor pod "(?:(?P<name>[a-z0-9][a-z0-9.-]*)_(?P<namespace>[a-z0-9][a-z0-9-]*)'
                        r'\([0-9a-f-]{36}\)|(?P<ns2>[a-z0-9][a-z0-9-]*)"/"(?P<name2>[a-z0-9][a-z0-9.-]*))"')
# Its sandbox messages too, through the network plugin: `NetworkPlugin cni failed to set up pod
# "NAME_NS" network` (dockershim's words, kubelets before 1.24; aws/amazon-vpc-cni-k8s#668,
# Azure/AKS#673).
_SANDBOX_POD = re.compile(r'\bset up pod "(?P<name>[a-z0-9][a-z0-9.-]*)_(?P<namespace>[a-z0-9][a-z0-9-]*)" network\b')
# The kubelet's messages that name the pod they are about, by the event's reason.
_KUBELET_NAMES_POD = {"FailedMount": _MOUNT_POD, "FailedCreatePodSandBox": _SANDBOX_POD}


def _assigned_pod(found: list[TextObject]) -> tuple[str | None, str] | None:
    """(namespace, name) of the pod a Scheduled event among `found` says it assigned (the
    namespace None where an old scheduler's message does not say it), else the one pod the
    kubelet's volume or sandbox messages among them name (a describe's events are about one object)."""
    scheduled = next(((m.group("namespace"), m.group("name")) for event in found
                      if current_reason(str(event.body.get("reason", ""))) == "Scheduled"
                      and (m := _ASSIGNED.match(event.body.get("message", "")))), None)
    if scheduled is not None and scheduled[0]:
        return scheduled
    named = {(m.group("namespace") or m.groupdict().get("ns2"), m.group("name") or m.groupdict().get("name2"))
             for event in found
             if (said := _KUBELET_NAMES_POD.get(current_reason(str(event.body.get("reason", ""))))) is not None
             for m in said.finditer(str(event.body.get("message", "")))}
    mounted = named.pop() if len(named) == 1 else None
    if scheduled is not None and (mounted is None or mounted[1] != scheduled[1]):
        return scheduled  # (the kubelet's message, where it names the same pod, gives its namespace)
    return mounted


def named_by_command(command: Command | None, catalog: Catalog) -> str | None:
    """The one object a describe command names (`describe node/N`, `describe pod P`), when its
    kind is known and its name is a name (not a placeholder such as `<pod-name>`)."""
    if command is None or command.verb != "describe" or len(command.names) != 1:
        return None
    if single_kind(command, catalog) is None or not NAME.match(command.names[0]):
        return None
    return command.names[0]


def named_excerpt_starts(lines: list[Line], index: int, command: Command | None, output_start: int,
                         catalog: Catalog) -> bool:
    """Whether lines[index], the first output under `kubectl describe node/N`, opens one of a
    describe's sections (`Labels:` and its indented lines): an excerpt the command names, maybe
    under the writer's mark of what was cut above it (Deepomatic/dmake#475: `...`, then
    `Conditions:`)."""
    if output_start < 0 or index < output_start or named_by_command(command, catalog) is None:
        return False
    if any(line.text.strip() and not ELISION.match(line.text) for line in lines[output_start:index]):
        return False
    match = KEY_LINE.match(lines[index].text)
    return match is not None and match.group("key") in describe_layout().all_top


# The controllers that create and delete a workload's pods, by the From column of their events,
# and the kind each runs (k8s.io/kubernetes pkg/controller: the components' event sources).
_POD_CONTROLLERS = {"replicaset-controller": "ReplicaSet", "job-controller": "Job",
                    "daemonset-controller": "DaemonSet", "replication-controller": "ReplicationController",
                    "statefulset-controller": "StatefulSet"}
# `Created pod: web-7c67c65579-hr4wn` (its owner's name, then the generated suffix), and the
# StatefulSet controller's `create Pod web-0 in StatefulSet web successful`.
_CREATED_POD = re.compile(r"^(?:Created|Deleted) pod: (?P<owner>[a-z0-9][a-z0-9.-]*)-[a-z0-9]{5}$")
_STATEFUL_POD = re.compile(r"^(?:create|delete) Pod \S+ in StatefulSet (?P<owner>[a-z0-9][a-z0-9.-]*) (?:successful|failed)")


def _controller_of(found: list[TextObject], catalog: Catalog) -> dict[str, str] | None:
    """The workload that events pasted without their describe are about, when its controller's
    pod creations name it (one workload only)."""
    owners = set()
    for event in found:
        kind = _POD_CONTROLLERS.get((event.body.get("source") or {}).get("component") or "")
        if kind is None:
            continue
        message = event.body.get("message", "")
        m = (_STATEFUL_POD if kind == "StatefulSet" else _CREATED_POD).match(message)
        if m is not None:
            owners.add((kind, m.group("owner")))
    if len(owners) != 1:
        return None
    kind, name = owners.pop()
    info = catalog.kinds.get(kind)
    return {"apiVersion": info.api_version if info else "apps/v1", "kind": kind, "name": name}


def _kind(lines: list[Line], command: Command | None, catalog: Catalog) -> str | None:
    """The described kind: named by the describe command, else told by its fields."""
    if command is not None and command.verb == "describe":
        info: KindInfo | None = single_kind(command, catalog)
        if info is not None:
            return info.kind
    keys = {m.group("key") for line in lines
            if not line.text[:1].isspace() and (m := KEY_LINE.match(line.text))}
    if any(line.text in _DATA_HEADINGS for line in lines):
        # A Secret shows only sizes (`password:  16 bytes`); never read one as a ConfigMap.
        data = config.data_section(lines, "Data")
        sizes_only = bool(data) and all(re.fullmatch(r"\d+ bytes", v.strip()) for v in data.values())
        return "Secret" if "Type" in keys or sizes_only else "ConfigMap"
    if any(QUOTA_HEADER.match(line.text) for line in lines):
        return "ResourceQuota"  # its unindented `Resource  Used  Hard` (a Namespace's is indented)
    if any(LIMITS_HEADER.match(line.text) for line in lines):
        return "LimitRange"  # its unindented `Type  Resource  Min  Max ...` (a Namespace's is indented)
    return describe_layout().kind_of(keys)


def _listed_kind(kind: str | None, command: Command | None, catalog: Catalog) -> KindInfo | None:
    """A kind whose `get` rows are kept as a table only (kinds.yaml listed_only) but whose
    describe a reader reads (a NetworkPolicy's selector and rules), told by its fields or named
    by the describe command."""
    named = command.resources[0] if command is not None and command.verb == "describe" \
        and len(command.resources) == 1 else None
    listed = catalog.listed_only(kind or named or "")
    if listed is None or listed not in _READERS or listed not in BUILTIN_KINDS:
        return None
    group = KIND_GROUPS.get(listed, "")  # none: a core kind (a ResourceQuota)
    return KindInfo(kind=listed, api_version=f"{group}/v1" if group else "v1", names=(), headers=(),
                    fields={}, describe_ends=())


def _declared_kind(root: Entry) -> KindInfo | None:
    """The kind a describe states itself (`API Version:` and `Kind:` of custom resources and of
    built-in kinds without a describer of their own); a built-in kind's `Kind:` alone, where the
    writer left its `API Version:` out, is served from its group's v1."""
    kind, version = cell(root.child_value("Kind")), cell(root.child_value("API Version"))
    if kind and not version and kind in BUILTIN_KINDS:
        group = KIND_GROUPS.get(kind, "")
        version = f"{group}/v1" if group else "v1"
    if not kind or not version:
        return None
    return KindInfo(kind=kind, api_version=version, names=(), headers=(), fields={},
                    describe_ends=("Events",))


def _leading_tail(lines: list[Line]) -> list[Line]:
    """The indented lines an excerpt starts with: the end of a section whose name was cut off."""
    tail = []
    for line in lines:
        if line.text[:1].isspace():
            tail.append(line)
        else:
            break
    return tail


def _without_data(lines: list[Line]) -> list[Line]:
    """The lines outside `Data` / `BinaryData` sections (free text read on its own)."""
    kept: list[Line] = []
    inside = False
    for index, line in enumerate(lines):
        starts = line.text in _DATA_HEADINGS and index + 1 < len(lines) and \
            lines[index + 1].text.startswith("====")
        if starts:
            inside = True
        elif inside and line.text.startswith("Events:"):
            inside = False
        if not inside:
            kept.append(line)
    return kept


def _add_data_section(root: Entry, lines: list[Line]) -> None:
    """Put the `Data` section (read apart as free text) back among the top-level sections."""
    heading = next(line for line in lines if line.text in _DATA_HEADINGS)
    entry = Entry("Data", "", heading.no, 0, None)
    events_at = next((i for i, e in enumerate(root.children) if e.key == "Events"), None)
    root.children.insert(len(root.children) if events_at is None else events_at, entry)


def _stopped_in(root: Entry, info: KindInfo, block: DescribeBlock, catalog: Catalog,
                events_shown: bool = True) -> str | None:
    """The section a describe stops in, when it ends before its kind's last section (a describe
    told not to show events ends whole with the section before them: only a cut line or a cut
    table says it stops short)."""
    if not root.children:
        return None
    last = root.children[-1]
    if block.cut_line is not None:
        return last.key
    if not events_shown and last.key != "Events":
        if not any(is_rule_line(line.text) for line in last.raw):
            return None
        table = table_rows(last, catalog)
        return last.key if table.cut is not None or not table.rows else None
    if last.key in AFTER_EVENTS and any(c.key == "Events" for c in root.children):
        return None  # printed after the Events by an old kubectl: the describe's own end
    if info.describe_ends and last.key not in info.describe_ends:
        return None if ends_at_section_end(last, catalog) else last.key
    if last.raw and last.key != "Events":
        table = table_rows(last, catalog)
        if table.cut is not None or not table.rows:
            return last.key
    return None


# Fields kubectl prints an item per line under (the first beside the key): one line of them is
# no proof the rest was pasted.
_LISTED_FIELDS = frozenset({"Labels", "Annotations", "Tolerations", "Node-Selectors", "Taints", "IPs",
                            "Finalizers", "Selector", "Addresses"})


def ends_at_section_end(last: Entry, catalog: Catalog) -> bool:
    """Whether a describe's last section is a whole table (Conditions with every row complete) or
    a whole one-line field: the paste stopped at a section's end, not inside one; what it shows is
    kept as complete."""
    if last.key == "Events":
        return False
    if not last.raw:
        # a one-line field (`IP:  10.1.2.3`, `Pods Statuses:  0 Running / 3 Succeeded / 5 Failed`)
        # is whole on its line; one kubectl lists a line per item under may go on below the cut
        return bool(last.value) and not last.more and not last.children and last.key not in _LISTED_FIELDS
    table = table_rows(last, catalog)
    return bool(table.rows) and table.cut is None


def _unread_tables(root: Entry, catalog: Catalog, told: set[str]) -> list[tuple[int, str, str]]:
    """Sections holding a table (a header's `----` rule) that no row could be read from."""
    found = []
    for entry in root.children:
        rule = next((i for i, line in enumerate(entry.raw) if is_rule_line(line.text)), None)
        if entry.key in told or rule is None:
            continue
        if not any(line.text.strip() for line in entry.raw[rule + 1:]):
            continue  # a header and its rule alone: an empty table ("Non-terminated Pods: (0 in total)")
        if not table_rows(entry, catalog).rows:
            found.append((entry.line, entry.key, f"its {entry.key} table could not be read; nothing in it was kept"))
    return found


def _read_fields(root: Entry, body: dict[str, Any], facts: dict[str, Any],
                 ctx: DescribeContext) -> list[TextObject]:
    """A kind with no reader of its own: its fields from the generic layout kubectl prints for
    it (Metadata, Spec, Status), its other top-level fields as text facts."""
    skip = {"Name", "Namespace", "Labels", "Annotations", "CreationTimestamp", "Finalizers", "Events",
            "API Version", "Kind"}
    if {child.key for child in root.children} >= _GENERIC_HEADER:
        # a kind the catalog knows but kubectl has no describer for (APIService): the generic
        # layout, its sections read back as a custom resource's are
        custom.read_sections(root, body)
    fields = {e.key: e.value for e in root.children if e.key not in skip and cell(e.value)}
    if fields:
        facts["fields"] = fields
    return []


# What kubectl's generic describer prints at the top of an object it has no describer for.
_GENERIC_HEADER = frozenset({"API Version", "Kind"})


def _read_custom_resource(root: Entry, body: dict[str, Any], facts: dict[str, Any],
                          ctx: DescribeContext) -> list[TextObject]:
    """A kind the catalog does not know (a custom resource): its header's fields as text facts,
    and its Metadata, Spec and Status read back into the object (karpenter-provider-aws#7738: a
    NodeClaim's conditions, 'Registered=Unknown: Node not registered with cluster', were lost)."""
    extra = _read_fields(root, body, facts, ctx)
    custom.read_sections(root, body)
    return extra


__all__ = ["read_describe"]
