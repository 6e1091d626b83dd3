"""Turn a table's rows into API-shaped objects, or keep the table when its kind is unknown.

A table's kind comes from the `kind/` prefix of its names (`kubectl get all`, `kubectl lineage`),
else from its header (kinds.yaml), else from the `kubectl get <kind>` that printed it, else the
table is kept as a GenericTable. The namespace comes from the NAMESPACE column, else from the
command's `-n`; never assumed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from analyzer.ingest.records import Rejection
from analyzer.ingest.text.catalog import Catalog, KindInfo
from analyzer.ingest.text.columns import Layout
from analyzer.ingest.text.commands import Command
from analyzer.ingest.text.custom_columns import column_paths, secret_value_columns, set_json_path
from analyzer.ingest.text.rows import READERS, RowContext
from analyzer.ingest.text.rows.common import apply_fields, common_facts, new_body, split_name
from analyzer.ingest.text.tables import RawRow, TableBlock, single_kind
from analyzer.ingest.text.types import TEXT_FACTS_KEY, GenericTable, TextObject
from analyzer.ingest.text.values import cell, labels, set_path

TABLE_ORIGIN = "text table"
# Owner kinds whose children `kubectl lineage` draws under them are owned by them.
_OWNER_KINDS = frozenset({"Deployment", "ReplicaSet", "StatefulSet", "DaemonSet", "Job", "CronJob",
                          "ReplicationController"})

# What a rejection of a row the paste cut off says (a transcript tells a cut listing by it).
CUT_ROW = "is cut short"


@dataclass(slots=True)
class TableResult:
    """What one table became."""

    objects: list[TextObject] = field(default_factory=list)
    table: GenericTable | None = None
    rejections: list[Rejection] = field(default_factory=list)


def build_table(block: TableBlock, catalog: Catalog, source: str) -> TableResult:
    """Objects from a table's rows when their kind is known, else one GenericTable."""
    result = TableResult()
    if hidden := secret_value_columns(block.command):
        _drop_columns(block, hidden)  # Secret values are never kept, not even as raw cells
    prefixed = [_prefix_kind(row, catalog) for row in block.rows]
    per_row: list[tuple[KindInfo, str | None]] = []
    if all(prefixed):
        per_row = [kind for kind in prefixed if kind is not None]
    elif (custom := _custom_column_objects(block, catalog)) is not None:
        result.objects = custom
        return result
    elif (info := _table_kind(block, catalog)) is not None:
        per_row = [(info, None)] * len(block.rows)
    else:
        result.table = GenericTable(
            header=list(block.layout.columns),
            rows=[{col: cell(value) for col, value in row.cells.items()} for row in block.rows],
            line=block.line,
            command=block.command.text if block.command else None,
            kind=_listed_kind(block, catalog),
        )
        return result
    lineage: list[tuple[int, dict[str, Any]]] = []
    for row, (info, group) in zip(block.rows, per_row, strict=True):
        if (name := _cut_name(row, block.layout.columns, info)) is not None:
            result.rejections.append(Rejection(
                source, f"line {row.line}",
                f"the table's last row {CUT_ROW} right after its name '{name}', which may be cut too "
                "(no controller's pod suffix ends it): not kept"))
            continue
        obj = _row_object(row, info, group, block.command, catalog, block.label_columns)
        if block.command is not None and block.command.verb == "lineage":
            _link_to_parent(obj.body, row, lineage, catalog)
        result.objects.append(obj)
        if row.missing:
            # kept with what the row has: said once, on the object (not also as a rejection)
            obj.notes.append(f"its table row {CUT_ROW}: no {', '.join(row.missing)}; kept without them")
    return result


# The random tail a controller gives its pods' names (k8s.io/apimachinery's rand.String alphabet:
# no vowels, no 0, 1 or 3), so a name ending so is whole.
_POD_SUFFIX = re.compile(r"-[bcdfghjklmnpqrstvwxz2456789]{5}$")


def _cut_name(row: RawRow, columns: tuple[str, ...], info: KindInfo) -> str | None:
    """The name of a pod row the paste cut right after its NAME (`kube-system   k`, rancher/rke2#585;
    `calico-typ`), when nothing says the name is whole: such a name may be cut too, and would
    make up a pod that does not exist. A name with a controller's pod suffix is whole."""
    if info.kind != "Pod" or not row.missing or "NAME" not in columns:
        return None
    after = columns[columns.index("NAME") + 1:]
    if not after or row.missing[0] != after[0]:
        return None
    name = split_name(row.cells.get("NAME") or "")[1]
    return None if _POD_SUFFIX.search(name) else name


def _listed_kind(block: TableBlock, catalog: Catalog) -> str | None:
    """The kind a `kubectl get` of one resource names, when its listings are kept as tables only
    (`kubectl get netpol -A`), and the header is of no other kind."""
    command = block.command
    if command is None or command.verb != "get" or len(command.resources) != 1 or block.match is not None:
        return None
    return catalog.listed_only(command.resources[0])


def _table_kind(block: TableBlock, catalog: Catalog) -> KindInfo | None:
    """The kind of a table's rows: its header's, or the one `kubectl get <kind>` named.

    A command that names one kind decides when the header is one of that kind's (ReplicaSet and
    ReplicationController print the same) or matches no kind (another kubectl version's columns).
    A header of another known kind wins over a command that may belong to earlier output; a
    command naming a kind the catalog does not know (a custom resource) keeps the table as is.
    """
    command = block.command
    header_kind = block.match.info if block.match else None
    if command is not None and (command.output or "").startswith("custom-columns"):
        return None  # columns of the user's choosing; only their JSON paths give them meaning
    if command is None or command.verb != "get" or len(command.resources) != 1 \
            or command.resources[0] == "all":
        return header_kind
    named = single_kind(command, catalog)
    if named is None:
        return None
    if header_kind is None:
        return named if "NAME" in block.layout.columns else None
    stripped = tuple(c for c in block.layout.columns
                     if c not in (catalog.namespace_column, catalog.labels_column))
    return named if stripped in named.headers else header_kind


def _drop_columns(block: TableBlock, hidden: frozenset[str]) -> None:
    block.layout = Layout(tuple(c for c in block.layout.columns if c not in hidden), None,
                          block.layout.mode)
    for row in block.rows:
        row.cells = {k: v for k, v in row.cells.items() if k not in hidden}


def _custom_column_objects(block: TableBlock, catalog: Catalog) -> list[TextObject] | None:
    """Objects from a `-o custom-columns=...` table, when each column names a settable field."""
    command = block.command
    paths = column_paths(command)
    info = single_kind(command, catalog) if command else None
    if paths:
        paths = {header: path for header, path in paths.items() if header in block.layout.columns}
    if not paths or info is None or tuple(paths) != block.layout.columns:
        return None
    objects = []
    for row in block.rows:
        body = new_body(info.api_version, info.kind, None)
        for header, path in paths.items():
            if (value := cell(row.cells.get(header))) is not None:
                set_json_path(body, path, value)
        if not body["metadata"].get("name"):
            return None  # without names these rows cannot be objects; keep the table
        if info.namespaced and command.namespace and not command.all_namespaces and prints_listing(command):
            body["metadata"].setdefault("namespace", command.namespace)
        elif not info.namespaced:
            body["metadata"].pop("namespace", None)
        body[TEXT_FACTS_KEY] = {"columns": {k: v for k, v in row.cells.items() if v is not None},
                                "custom_columns": True}
        objects.append(TextObject(body=body, line=row.line, origin=TABLE_ORIGIN))
    return objects


def _prefix_kind(row: RawRow, catalog: Catalog) -> tuple[KindInfo, str | None] | None:
    raw = row.cells.get("NAME")
    prefix = split_name(raw)[0] if raw else None
    if not prefix:
        return None
    info = catalog.for_resource(prefix)
    if info is None:
        return None
    group = prefix.split(".", 1)[1] if "." in prefix else None
    return info, group


def _row_object(row: RawRow, info: KindInfo, group: str | None, command: Command | None,
                catalog: Catalog, label_columns: dict[str, str]) -> TextObject:
    cells = row.cells
    _, name, is_default = split_name(cells["NAME"]) if cells.get("NAME") else (None, None, False)
    namespace = cell(cells.get("NAMESPACE"))
    if namespace is None and command is not None and not command.all_namespaces and prints_listing(command):
        namespace = command.namespace
    if not info.namespaced:
        namespace = None
    body = new_body(catalog.api_version(info, group), info.kind, name)
    if namespace:
        body["metadata"]["namespace"] = namespace
    row_labels = labels(cells.get("LABELS")) or {}
    for header, key in label_columns.items():
        if (value := cell(cells.get(header))) is not None:
            row_labels[key] = value
    if row_labels:
        body["metadata"]["labels"] = dict(sorted(row_labels.items()))
    facts = common_facts(cells)
    if is_default:
        facts["default"] = True
    if namespace is None and info.namespaced and command is not None and command.verb == "get" \
            and not command.all_namespaces and command.text.split(None, 1)[0] != "oc":
        # listed by a `kubectl get` shown without -n: the context's namespace, which the paste
        # may state elsewhere (else kubectl's default; collect decides). `oc` lists the current
        # project, which has no default.
        facts["listed_without_namespace"] = True
    if command is not None and _lists_whole(command):
        # every object of its kind in its namespace(s): one it lacks is not there, where a
        # `| grep` or a selector shows only some (the provisioner a claim waits on)
        facts["listed_whole"] = True
        if info.kind == "Pod" and command.all_namespaces:
            # a pod table that shows every pod of the cluster: what it lacks, the cluster lacks
            # (the component rules read a missing CNI from it)
            facts["every_pod_listed"] = True
    apply_fields(body, info, cells)
    reader = READERS.get(info.kind)
    if reader is not None:
        reader(body, cells, facts, RowContext(catalog, namespace, row.line))
    if command is not None:
        _apply_field_selector(body, info, command)
    body[TEXT_FACTS_KEY] = facts
    return TextObject(body=body, line=row.line, origin=TABLE_ORIGIN)


# Flags after which a `kubectl get pods -A` no longer prints every pod.
_FILTERING_FLAGS = frozenset({"--selector", "--field-selector", "--watch", "-w", "--watch-only", "--chunk-size"})


def _lists_whole(command: Command) -> bool:
    """Whether a `kubectl get` command prints every object of its kinds in its namespace (or in
    all): no names, no selector, nothing piped after it, a table."""
    return (command.verb == "get" and not command.names and not command.piped
            and not command.redirected and command.output in (None, "wide")
            and not any(flag in command.flags for flag in _FILTERING_FLAGS))


def _apply_field_selector(body: dict[str, Any], info: KindInfo, command: Command) -> None:
    """Fields an equality `--field-selector` fixed for every row (`spec.nodeName=N`), where the
    row itself does not say them."""
    for term in (command.flags.get("--field-selector") or "").split(","):
        if "!=" in term:
            continue
        path, sep, value = term.replace("==", "=").partition("=")
        path, value = path.strip(), value.strip().strip("'\"")
        if not sep or not value or path not in info.field_selectors:
            continue
        *parents, last = path.split(".")
        holder: Any = body
        for part in parents:
            holder = holder.get(part) if isinstance(holder, dict) else None
        if not isinstance(holder, dict) or holder.get(last) is None:
            set_path(body, path, value)


def _link_to_parent(body: dict[str, Any], row: RawRow, stack: list[tuple[int, dict[str, Any]]],
                    catalog: Catalog) -> None:
    """Tie a `kubectl lineage` row to the row it is drawn under (its owner, or what an event is about)."""
    depth = row.depth
    while stack and stack[-1][0] >= depth:
        stack.pop()
    if stack:
        parent = stack[-1][1]
        ref = {"apiVersion": parent["apiVersion"], "kind": parent["kind"],
               "name": parent["metadata"].get("name", "")}
        if body["kind"] == "Event":
            if namespace := parent["metadata"].get("namespace"):
                ref["namespace"] = namespace
            body["involvedObject"] = dict(sorted(ref.items()))
        elif parent["kind"] in _OWNER_KINDS:
            body["metadata"]["ownerReferences"] = [ref]
    stack.append((depth, body))


def prints_listing(command: Command) -> bool:
    """Whether the command prints the listing a table is: its -n is then the rows' namespace. A
    `kubectl describe ... -n kube-system` or a `port-forward -n x` prints none, so a table pasted
    after its output (event rows cut from a `get events -n prometheus`, header and command left
    out) is of a namespace it does not tell (FedericoGGM/mundoes' EKS notes: prometheus's claim
    events put in kube-system)."""
    return command.prints_table or command.verb == "events"
