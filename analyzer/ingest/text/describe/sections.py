"""Readers for the parts many describes share: metadata, tables, events, tolerations, taints."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from analyzer.ingest.text.catalog import Catalog
from analyzer.ingest.text.columns import read_header, split_aligned, split_by_shape
from analyzer.ingest.text.describe.tree import Entry
from analyzer.ingest.text.lines import DESCRIBE_EVENT_ROW, Line, is_rule_line
from analyzer.ingest.text.rows.events import GENERATED_NAME, event_name, source_of
from analyzer.ingest.text.types import TEXT_FACTS_KEY, TextObject
from analyzer.ingest.text.values import age_seconds, cell, describe_time, labels, terminating

DESCRIBE_ORIGIN = "describe"
_TOLERATION = re.compile(
    r"^(?:(?!op=)(?P<key>[^=:\s]*)(?:=(?P<value>[^:\s]*))?(?::(?P<effect>\w+))?)?"
    r"\s*(?:op=(?P<op>\w+))?(?: for (?P<seconds>\d+)s)?$"
)
_TAINT = re.compile(r"^(?P<key>[^=:\s]+)(?:=(?P<value>[^:\s]*))?:(?P<effect>\w+)$")
# kubectl before about 1.10 printed annotations as it prints labels, `key=value` (kubernetes/
# kubernetes#57710: `cloud.google.com/load-balancer-type=Internal`); a key holds no `:` or `=`
_OLD_ANNOTATION = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._/-]*=")
_EVENT_AGE = re.compile(r"^(?P<last>\S+)(?: \(x(?P<count>\d+) over (?P<first>\S+)\))?$")
_TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")


@dataclass(slots=True)
class TableRows:
    """A table inside a describe section: its columns and rows, and a row cut short if any."""

    columns: tuple[str, ...] = ()
    rows: list[tuple[int, dict[str, str | None]]] = field(default_factory=list)
    cut: int | None = None  # line of the last row when it lacks its last column
    # rows whose cells do not begin at the header's column starts, by line, with their text
    realigned: dict[int, str] = field(default_factory=dict)


def key_values(values: list[str], separator: str, deeper: list[bool] | None = None) -> dict[str, str]:
    """Lines of `key=value` (labels) or `key: value` (annotations) as a dict; `<none>` is empty.

    A line without the separator continues the previous value (a multi-line annotation), and so
    does a line `deeper` says was indented past the keys: kubectl prints a long annotation as
    `key:` with its value two columns in below it, whatever the value holds.

    >>> key_values(["nodeid:", '{"pd.csi.storage.gke.io":"projects/p"}', "ttl: 0"], ":", [False, True, False])
    {'nodeid': '{"pd.csi.storage.gke.io":"projects/p"}', 'ttl': '0'}

    >>> key_values(["a=b", "node-role.kubernetes.io/agent="], "=")
    {'a': 'b', 'node-role.kubernetes.io/agent': ''}
    >>> key_values(["ttl: 0", "attach: true"], ":")
    {'ttl': '0', 'attach': 'true'}

    kubectl before 1.6 printed a node's labels on one line, joined by commas (a label value
    never holds one):

    >>> key_values(["zone=eu-west-1a,kubernetes.io/hostname=ip-1"], "=")
    {'zone': 'eu-west-1a', 'kubernetes.io/hostname': 'ip-1'}
    """
    result: dict[str, str] = {}
    last: str | None = None
    for i, value in enumerate(values):
        if cell(value) is None:
            continue
        if deeper is not None and i < len(deeper) and deeper[i] and last is not None:
            result[last] = f"{result[last]}\n{value}" if result[last] else value
            continue
        if separator == "=" and "," in value and (joined := labels(value.strip())):
            result.update(joined)
            last = None
            continue
        key, sep, rest = value.partition(separator)
        if sep and key and " " not in key.strip():
            last = key.strip()
            result[last] = rest.strip()
        elif last is not None:
            result[last] = f"{result[last]}\n{value}"
    return result


def annotation_separator(values: list[str]) -> str:
    """`=` when a describe's annotations are written as older kubectl wrote them, `key=value`,
    else `:` (`key: value`), judged by the first.

    >>> annotation_separator(["cloud.google.com/load-balancer-type=Internal"])
    '='
    >>> annotation_separator(["deployment.kubernetes.io/revision: 2"]), annotation_separator(["a: b=c"])
    (':', ':')
    """
    first = next((value.strip() for value in values if cell(value) is not None), "")
    return "=" if _OLD_ANNOTATION.match(first) else ":"


def metadata(root: Entry) -> dict[str, Any]:
    """The metadata a describe states: name, namespace, labels, annotations, creation time."""
    meta: dict[str, Any] = {}
    if name := cell(root.child_value("Name")):
        meta["name"] = name
    if namespace := cell(root.child_value("Namespace")):
        meta["namespace"] = namespace
    if (entry := root.child("Labels")) and (found := key_values(entry.values, "=")):
        meta["labels"] = found
    if (entry := root.child("Annotations")) and (found := key_values(
            [v for v, _ in entry.indented_values], annotation_separator(entry.values),
            [d for _, d in entry.indented_values]) or _nested_annotations(entry)):
        meta["annotations"] = found
    if created := describe_time(root.child_value("CreationTimestamp")):
        meta["creationTimestamp"] = created
    # `Finalizers:  [kubernetes.io/pvc-protection]` (Go's print of a list: spaces between)
    finalizers = (cell(root.child_value("Finalizers")) or "").strip("[]").split()
    if finalizers:
        meta["finalizers"] = finalizers
    return meta


def _nested_annotations(entry: Entry) -> dict[str, str]:
    """Annotations written below an empty `Annotations:` title, each `  key:  value` a line of
    its own, as kubectl's Ingress describer of about 1.14 wrote them (kubernetes/ingress-gce#762:
    a GKE Ingress's `ingress.kubernetes.io/backends` was lost); {} when the title has a value."""
    if entry.values:
        return {}
    return {child.key: "\n".join(child.values) for child in entry.children if child.key}


def being_deleted(status: str, facts: dict[str, Any]) -> bool:
    """Read a describe's `Status: Terminating (lasts 5m)`, printed in place of the phase of an
    object whose deletion was asked for: STATUS `Terminating`, as `kubectl get` prints it, and
    how long past its deletion time (when kubectl could tell). False for any other status."""
    deleting, seconds = terminating(status)
    if not deleting:
        return False
    facts["status"] = "Terminating"
    facts["columns"] = {**(facts.get("columns") or {}), "STATUS": "Terminating"}
    if seconds is not None:
        facts["deletion_ago_seconds"] = seconds
    return True


def label_selector(text: str | None) -> dict[str, Any] | None:
    """A label selector as kubectl formats it: `<none>` (every pod: {}), `a=b,c=d`; None for
    one with set expressions (`app in (a,b)`) or nothing at all."""
    value = (text or "").strip()
    if not value:
        return None
    if value.startswith("<none>"):
        return {}
    pairs = [part.strip().partition("=") for part in value.split(",")]
    if all(sep and key and "!" not in key and " " not in key for key, sep, _ in pairs):
        return {"matchLabels": {key: val for key, _, val in pairs}}
    return None


_CONDITION_COLUMNS = {
    "Type": "type", "Status": "status", "LastHeartbeatTime": "lastHeartbeatTime",
    "LastTransitionTime": "lastTransitionTime", "Reason": "reason", "Message": "message",
}


def condition_rows(entry: Entry, catalog: Catalog) -> list[dict[str, str]]:
    """A describe's Conditions table with times (a node's `Type  Status  LastHeartbeatTime
    LastTransitionTime  Reason  Message`, a namespace's without the heartbeat) as API
    conditions, times in RFC 3339; [] when no row reads."""
    found = []
    for _, row in table_rows(entry, catalog).rows:
        condition: dict[str, str] = {}
        for column, target in _CONDITION_COLUMNS.items():
            value = cell(row.get(column))
            if value is None:
                continue
            condition[target] = (describe_time(value) or value) if column.startswith("Last") else value
        if "type" in condition and "status" in condition:
            found.append(condition)
    return found


def table_rows(entry: Entry, catalog: Catalog) -> TableRows:
    """The table a describe section holds (Conditions, Events, Non-terminated Pods, ...)."""
    lines = [line for line in entry.raw if line.text.strip()]
    result = TableRows()
    header_at = next(
        (i for i, line in enumerate(lines)
         if i + 1 < len(lines) and is_rule_line(lines[i + 1].text)),
        None,
    )
    wrapped: list[str] = []
    if header_at is not None and (joined := _wrapped_header(lines, header_at + 1)):
        header_at, wrapped = joined
        lines = [line for i, line in enumerate(lines) if i not in (header_at + 1, header_at + 3)]
    if header_at is None:
        header_at = next((i for i, line in enumerate(lines)
                          if read_header(line.text.strip(), catalog, mixed_case=True)), None)
    if header_at is None:
        return result
    indent = len(lines[header_at].text) - len(lines[header_at].text.lstrip(" "))
    layout = read_header(lines[header_at].text[indent:], catalog, mixed_case=True)
    if layout is None:
        return result
    result.columns = (*layout.columns, *wrapped)
    for line in lines[header_at + 1 :]:
        text = line.text[indent:] if line.text[:indent].strip() == "" else line.text.strip()
        if is_rule_line(text):
            continue
        if layout.starts is not None:
            cells, aligned = split_aligned(text, layout.starts)
            cells = _overflowed(cells)
            if not aligned:
                result.realigned[line.no] = text
        else:
            cells = split_by_shape(text, layout.columns, catalog)
            if cells is None:
                continue
        if wrapped:
            cells = [*cells[:-1], *_split_wrapped(cells[-1], len(wrapped) + 1)]
        row = dict(zip(result.columns, cells, strict=True))
        result.rows.append((line.no, row))
    if result.rows and result.rows[-1][1][result.columns[-1]] is None:
        result.cut = result.rows[-1][0]  # the last row lacks its last column
    return result


def _overflowed(cells: list[str | None]) -> list[str | None]:
    """A row whose last cell ran into the one before it, its columns no longer under the header
    (a value shortened by hand, as `kubelet, <internal_ip>` for a node name): kubectl writes two
    blanks or more between cells, so the first such gap in that cell is where the last begins.

    >>> _overflowed(["Warning", "kubelet, <ip>.compute.internal  rpc error: code", None])
    ['Warning', 'kubelet, <ip>.compute.internal', 'rpc error: code']
    """
    if len(cells) < 2 or cells[-1] is not None or not cells[-2] or "  " not in cells[-2].strip():
        return cells
    head, _, tail = cells[-2].strip().partition("  ")
    return [*cells[:-2], head.rstrip(), tail.strip()]


def _wrapped_header(lines: list[Line], rule_at: int) -> tuple[int, list[str]] | None:
    """A header the terminal wrapped: its last column names on a line of their own, deeper
    indented, above the rule whose own tail is wrapped the same way::

          Type    Status  ...  Reason
                  Message
          ----    ------  ...  ------
                  -------

    Gives the header's index and the wrapped column names.
    """
    header_at = rule_at - 1
    if header_at < 1 or rule_at + 1 >= len(lines) or not is_rule_line(lines[rule_at + 1].text):
        return None
    header, tail = lines[header_at - 1].text, lines[header_at].text
    indent = len(header) - len(header.lstrip(" "))
    if len(tail) - len(tail.lstrip(" ")) <= indent:
        return None
    names = re.split(r"\s{2,}", tail.strip())
    if not all(re.fullmatch(r"[A-Z][A-Za-z]*", name) for name in names):
        return None
    return header_at - 1, names


def _split_wrapped(text: str | None, width: int) -> list[str | None]:
    """The last header column's cell and the wrapped columns after it: runs of 2+ spaces apart
    (the wrapped columns have no start of their own to split at)."""
    parts: list[str | None] = list(re.split(r"\s{2,}", text.strip(), maxsplit=width - 1)) if text else []
    return parts + [None] * (width - len(parts))


def events(entry: Entry | None, involved: dict[str, str], namespace: str | None,
           catalog: Catalog) -> tuple[list[TextObject], int | None]:
    """Event objects from a describe's Events table, about the described object."""
    if entry is None or cell(entry.value):
        return [], None
    table = table_rows(entry, catalog)
    cut = table.cut
    if cut in table.realigned and DESCRIBE_EVENT_ROW.match(table.realigned[cut]):
        cut = None  # whole, only not under the header's columns
    found: list[TextObject] = []
    for line, row in table.rows:
        if line == cut and not cell(row.get("Age")):
            # a paste cut inside its last row (`Warning  ProvisioningFai`): no age, no message,
            # a reason cut short; the describe says it ends mid-section instead
            continue
        if line in table.realigned and (shape := DESCRIBE_EVENT_ROW.match(table.realigned[line])):
            row = _event_cells(table.realigned[line], shape)
        body: dict[str, Any] = {"apiVersion": "v1", "kind": "Event",
                                "metadata": {"name": event_name(involved.get("name"), line)}}
        if namespace:
            body["metadata"]["namespace"] = namespace
        body["involvedObject"] = involved
        for column, target in (("Type", "type"), ("Reason", "reason"), ("Message", "message")):
            if value := cell(row.get(column)):
                body[target] = value
        facts: dict[str, Any] = {GENERATED_NAME: True}
        age = _EVENT_AGE.match(cell(row.get("Age")) or "")
        if age and _TIMESTAMP.match(age.group("last")):
            # kubectl 1.0 printed the times themselves (lines.modernised_event_tables)
            body["lastTimestamp"] = age.group("last")
            body["firstTimestamp"] = age.group("first") or age.group("last")
            body["count"] = int(age.group("count") or 1)
        elif age:
            if (last := age_seconds(age.group("last"))) is not None:
                facts["last_seen_ago_seconds"] = last
            if age.group("count"):
                body["count"] = int(age.group("count"))
                if (first := age_seconds(age.group("first"))) is not None:
                    facts["first_seen_ago_seconds"] = first
        if source := source_of(row.get("From")):
            body["source"] = source
        facts["columns"] = {k: v for k, v in row.items() if v is not None}
        body[TEXT_FACTS_KEY] = facts
        found.append(TextObject(body=body, line=line, origin=DESCRIBE_ORIGIN))
    return found, cut


def _event_cells(text: str, shape: re.Match) -> dict[str, str | None]:
    """An event row's cells by their shape, for a row not under the header's columns: kubectl's
    tabwriter aligns the rows after a message's own line break on their own widths (an AWS SDK
    error's `status code: 403` line; DrFaust92/terraform-kubernetes-ebs-csi-driver#21).

    >>> row = "Warning  ProvisioningFailed  15s  ebs.csi.aws.com_ebs-csi-controller-5954f  failed to provision"
    >>> _event_cells(row, DESCRIBE_EVENT_ROW.match(row))["From"], _event_cells(row, DESCRIBE_EVENT_ROW.match(row))["Message"]
    ('ebs.csi.aws.com_ebs-csi-controller-5954f', 'failed to provision')
    """
    return {"Type": shape.group("type"), "Reason": shape.group("reason"), "Age": shape.group("age"),
            "From": shape.group("source"), "Message": text[shape.start("message"):].strip()}


def tolerations(values: list[str]) -> list[dict[str, Any]]:
    """Describe's toleration lines (`key=value:Effect op=Exists for 300s`) in API form.

    >>> tolerations(["node.kubernetes.io/not-ready:NoExecute op=Exists for 300s", "op=Exists"])
    [{'key': 'node.kubernetes.io/not-ready', 'operator': 'Exists', 'effect': 'NoExecute', 'tolerationSeconds': 300}, {'operator': 'Exists'}]
    """
    found: list[dict[str, Any]] = []
    for value in values:
        match = _TOLERATION.match(value.strip()) if cell(value) else None
        if not match:
            continue
        item: dict[str, Any] = {}
        if match.group("key"):
            item["key"] = match.group("key")
        if match.group("op"):
            item["operator"] = match.group("op")
        elif match.group("value") is not None:
            item["operator"] = "Equal"
        if match.group("value"):
            item["value"] = match.group("value")
        if match.group("effect"):
            item["effect"] = match.group("effect")
        if match.group("seconds"):
            item["tolerationSeconds"] = int(match.group("seconds"))
        found.append(item)
    return found


def taints(values: list[str]) -> list[dict[str, str]]:
    """Node taint lines (`key=value:Effect`, `key:Effect`) in API form.

    >>> taints(["node-role.kubernetes.io/master:NoSchedule", "<none>"])
    [{'key': 'node-role.kubernetes.io/master', 'effect': 'NoSchedule'}]
    """
    found: list[dict[str, str]] = []
    for value in values:
        match = _TAINT.match(value.strip())
        if match:
            taint = {"key": match.group("key")}
            if match.group("value"):
                taint["value"] = match.group("value")
            taint["effect"] = match.group("effect")
            found.append(taint)
    return found


def owner_reference(text: str | None, catalog: Catalog) -> dict[str, Any] | None:
    """`Controlled By:  ReplicaSet/web-7d9` as the controller's ownerReference."""
    kind, slash, name = (cell(text) or "").partition("/")
    if not slash or not name:
        return None
    info = catalog.for_resource(kind)
    return {
        "apiVersion": info.api_version if info else "",
        "kind": info.kind if info else kind,
        "name": name,
        "controller": True,
    }


def child_map(entry: Entry | None) -> dict[str, str]:
    """A section of `key: value` children (Capacity, Addresses) as a dict, markers dropped."""
    if entry is None:
        return {}
    return {child.key: child.value for child in entry.children if cell(child.value) is not None}


def raw_lines(entry: Entry | None) -> list[str]:
    """The text lines of a raw section (Command, Args, Mounts), trailing blank lines dropped."""
    if entry is None:
        return []
    lines = [line.text.strip() for line in entry.raw]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def dedent(lines: list[Line]) -> list[Line]:
    """Lines with their common indentation removed."""
    indents = [len(line.text) - len(line.text.lstrip(" ")) for line in lines if line.text.strip()]
    cut = min(indents, default=0)
    return [Line(line.no, line.text[cut:]) for line in lines]
