"""Read `kubectl get` tables: find where one starts and ends, split its rows, and build objects.

A table's kind comes from the `kind/` prefix of its names (`kubectl get all`, `kubectl lineage`),
else from its header (kinds.yaml), else the table is kept as a GenericTable. The namespace comes
from the NAMESPACE column, else from the command's `-n`; never assumed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from analyzer.ingest.records import Rejection
from analyzer.text.catalog import Catalog, HeaderMatch, KindInfo
from analyzer.text.columns import (
    TREE_GLYPHS,
    Layout,
    read_header,
    split_aligned,
    split_by_runs,
    split_by_shape,
    split_tabs,
)
from analyzer.text.commands import Command, command_in, label_column_header
from analyzer.text.custom_columns import column_paths, secret_value_columns, set_json_path
from analyzer.text.lines import Line, is_comment, tool_call
from analyzer.text.rows import READERS, RowContext
from analyzer.text.rows.common import NAME, apply_fields, common_facts, new_body, split_name
from analyzer.text.types import TEXT_FACTS_KEY, GenericTable, TextObject
from analyzer.text.values import cell, labels

TABLE_ORIGIN = "text table"
# Owner kinds whose children `kubectl lineage` draws under them are owned by them.
_OWNER_KINDS = frozenset({"Deployment", "ReplicaSet", "StatefulSet", "DaemonSet", "Job", "CronJob",
                          "ReplicationController"})
_WRAPPER_MARKERS = frozenset({"stdout:", "stderr:"})
_PRINTABLE = re.compile(r"^[\x21-\x7e]+$")


@dataclass(slots=True)
class RawRow:
    """One row as read: its line, header -> cell text (None when blank), columns it lacks."""

    line: int
    cells: dict[str, str | None]
    missing: tuple[str, ...] = ()
    depth: int = 0  # where the name starts past tree glyphs (`kubectl lineage` nesting)


@dataclass(slots=True)
class TableBlock:
    """A table found in the text: header, rows, the command that printed it, where it ends."""

    layout: Layout
    line: int
    rows: list[RawRow]
    end: int  # index of the first line after the table
    command: Command | None
    match: HeaderMatch | None = None
    label_columns: dict[str, str] = field(default_factory=dict)  # `-L` column -> label key


@dataclass(slots=True)
class TableResult:
    """What one table became."""

    objects: list[TextObject] = field(default_factory=list)
    table: GenericTable | None = None
    rejections: list[Rejection] = field(default_factory=list)


def table_at(lines: list[Line], start: int, catalog: Catalog,
             command: Command | None) -> TableBlock | None:
    """The table whose header is at lines[start], or None when no table starts there."""
    layout = read_header(lines[start].text, catalog)
    if layout is None:
        return None
    match, label_columns = _match_with_label_columns(layout, catalog, command)
    if match is None and layout.columns[0] not in ("NAME", "NAMESPACE") and command is None:
        return None  # an all-capitals line in prose, not a header
    generic = match is None
    rows: list[RawRow] = []
    index = start + 1
    while index < len(lines):
        text = lines[index].text
        if not text.strip():
            after = _next_filled(lines, index)
            # A table may go on after a blank line (someone split it); only a row aligned
            # exactly as the header says continues it.
            if after is None or _stops_table(lines[after].text, catalog):
                break
            row = _row(lines[after], layout, catalog, generic)
            if row is None:
                break
            rows.append(row)
            index = after + 1
            continue
        if is_comment(text) and command_in(text) is None:
            index += 1  # someone's note between rows
            continue
        if _stops_table(text, catalog):
            break
        row = _row(lines[index], layout, catalog, generic)
        if row is None:
            break
        rows.append(row)
        index += 1
    if not rows:
        return None
    return TableBlock(layout, lines[start].no, rows, index, command, match, label_columns)


def _match_with_label_columns(layout: Layout, catalog: Catalog, command: Command | None,
                              ) -> tuple[HeaderMatch | None, dict[str, str]]:
    """A known header, allowing the label columns `-L key` adds after it: (match, header -> key)."""
    columns = list(layout.columns)
    match = catalog.match_header(columns)
    if match is not None or command is None or not command.label_columns:
        return match, {}
    added = {label_column_header(key): key for key in command.label_columns}
    trailing = [c for c in columns if c == catalog.labels_column]
    core = [c for c in columns if c != catalog.labels_column]
    count = len(added)
    if len(core) <= count or tuple(core[-count:]) != tuple(added):
        return None, {}
    return catalog.match_header(core[:-count] + trailing), added


def headerless_at(lines: list[Line], start: int, catalog: Catalog,
                  command: Command) -> TableBlock | None:
    """Rows a `| grep` (or `--no-headers`) left without their header, laid out as the command's."""
    info = single_kind(command, catalog)
    if info is None:
        return None
    columns = catalog.header_for(info, command.wide, command.all_namespaces, command.show_labels)
    layout = Layout(tuple(columns), None, "collapsed")
    rows: list[RawRow] = []
    index = start
    while index < len(lines) and lines[index].text.strip():
        if _stops_table(lines[index].text, catalog):
            break
        row = _headerless_row(lines[index], layout, catalog)
        if row is None:
            break
        rows.append(row)
        index += 1
    if not rows:
        return None
    return TableBlock(layout, lines[start].no, rows, index, command,
                      catalog.match_header(columns))


def single_kind(command: Command, catalog: Catalog) -> KindInfo | None:
    """The one kind a command lists, when it lists exactly one that the catalog knows."""
    if len(command.resources) != 1:
        return None
    return catalog.for_resource(command.resources[0])


def _next_filled(lines: list[Line], index: int) -> int | None:
    for after in range(index, min(index + 3, len(lines))):
        if lines[after].text.strip():
            return after
    return None


def _stops_table(text: str, catalog: Catalog) -> bool:
    """Lines that end a table: prompts, tool metadata, wrapper markers, a new header."""
    if text.strip() in _WRAPPER_MARKERS or command_in(text) or tool_call(text):
        return True
    layout = read_header(text, catalog)
    return layout is not None and (
        catalog.match_header(list(layout.columns)) is not None
        or layout.columns[0] in ("NAME", "NAMESPACE")
    )


def _row(line: Line, layout: Layout, catalog: Catalog, generic: bool) -> RawRow | None:
    """A row under this header, or None when the line is not one (prose, misaligned text)."""
    text = line.text
    stripped = text.lstrip(" ")
    if text[:1].isspace() and not (stripped and stripped[0] in TREE_GLYPHS):
        return None  # indented text that is not a lineage tree row
    if layout.mode == "aligned":
        assert layout.starts is not None
        cells, aligned = split_aligned(text, layout.starts)
        if not aligned:
            return None  # kubectl never lets a cell stray from its column
    elif layout.mode == "tabs":
        cells = split_tabs(text, len(layout.columns))
    else:
        cells = split_by_shape(text, layout.columns, catalog)
        if cells is None and generic:
            words = text.split()
            if len(words) < min(2, len(layout.columns)):
                return None
            width = len(layout.columns)
            cells = [*words[: width - 1], " ".join(words[width - 1 :])] if len(words) >= width \
                else [*words, *[None] * (width - len(words))]
        if cells is None:
            return None
    row = _checked_row(line.no, layout.columns, cells, catalog, generic)
    if row is not None:
        row.depth = len(text) - len(text.lstrip(TREE_GLYPHS))
    return row


def _headerless_row(line: Line, layout: Layout, catalog: Catalog) -> RawRow | None:
    if line.text[:1].isspace():
        return None
    runs = split_by_runs(line.text, len(layout.columns))
    cells: list[str | None] | None = list(runs) if runs is not None else None
    if cells is None:
        cells = split_by_shape(line.text, layout.columns, catalog)
    if cells is None:
        return None
    return _checked_row(line.no, layout.columns, cells, catalog, generic=False)


def _checked_row(no: int, columns: tuple[str, ...], cells: list[str | None],
                 catalog: Catalog, generic: bool) -> RawRow | None:
    """A row whose name (or first cell) looks like one, with the trailing columns it lacks."""
    by_column = dict(zip(columns, cells, strict=True))
    if len(columns) > 1 and sum(1 for value in cells if value) < 2:
        return None  # every kubectl row has a name and at least an age: one word is prose
    if generic and not _PRINTABLE.match((cells[0] or "").lstrip(TREE_GLYPHS)):
        return None  # kubectl's first cells are plain ASCII words; this is prose
    if "NAME" in by_column:
        name_cell = by_column["NAME"]
        if not name_cell or not NAME.match(split_name(name_cell)[1]):
            return None
        if "NAMESPACE" in by_column and not NAME.match(by_column["NAMESPACE"] or ""):
            return None
    else:
        first = cells[0]
        if not first or not catalog.shape(columns[0]).pattern.fullmatch(first) and first not in (
            "<unknown>", "<invalid>"
        ):
            return None
    missing: list[str] = []
    for column, value in reversed(list(zip(columns, cells, strict=True))):
        if value is not None:
            break
        if not catalog.shape(column).empty:
            missing.append(column)
    return RawRow(no, by_column, tuple(reversed(missing)))


def build_table(block: TableBlock, catalog: Catalog, source: str) -> TableResult:
    """Objects from a table's rows when their kind is known, else one GenericTable."""
    result = TableResult()
    if hidden := secret_value_columns(block.command):
        _drop_columns(block, hidden)  # Secret values are never kept, not even as raw cells
    kinds = [_prefix_kind(row, catalog) for row in block.rows]
    if all(kinds):
        per_row: list[tuple[KindInfo, str | None]] = kinds  # type: ignore[assignment]
    elif block.match is not None:
        per_row = [(block.match.info, None)] * len(block.rows)
    elif (custom := _custom_column_objects(block, catalog)) is not None:
        result.objects = custom
        return result
    elif (info := _kind_from_command(block, catalog)) is not None:
        per_row = [(info, None)] * len(block.rows)
    else:
        result.table = GenericTable(
            header=list(block.layout.columns),
            rows=[{col: cell(value) for col, value in row.cells.items()} for row in block.rows],
            line=block.line,
            command=block.command.text if block.command else None,
        )
        return result
    lineage: list[tuple[int, dict[str, Any]]] = []
    for row, (info, group) in zip(block.rows, per_row, strict=True):
        obj = _row_object(row, info, group, block.command, catalog, block.label_columns)
        if block.command is not None and block.command.verb == "lineage":
            _link_to_parent(obj.body, row, lineage, catalog)
        result.objects.append(obj)
        if row.missing:
            result.rejections.append(Rejection(
                source, f"line {row.line}",
                f"row of {info.kind} '{obj.name}' is cut short: no {', '.join(row.missing)}",
            ))
    return result


def _kind_from_command(block: TableBlock, catalog: Catalog) -> KindInfo | None:
    """The kind `kubectl get <kind>` lists, for a header of another kubectl version than ours."""
    command = block.command
    if command is None or command.verb != "get" or (command.output or "").startswith("custom"):
        return None
    if "NAME" not in block.layout.columns:
        return None
    return single_kind(command, catalog)


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
        if info.namespaced and command.namespace and not command.all_namespaces:
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
    if namespace is None and command is not None and not command.all_namespaces:
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
    apply_fields(body, info, cells)
    reader = READERS.get(info.kind)
    if reader is not None:
        reader(body, cells, facts, RowContext(catalog, namespace, row.line))
    body[TEXT_FACTS_KEY] = facts
    return TextObject(body=body, line=row.line, origin=TABLE_ORIGIN)


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
