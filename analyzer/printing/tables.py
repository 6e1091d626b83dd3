"""A resource's objects as a server-side Table (columnDefinitions + rows), and as kubectl's text.

Built-in kinds use their printer (columns.py); custom resources use their CRD's
additionalPrinterColumns (the apiextensions server's rules: a `date` column is an age, an
`integer` an int, a missing value an empty cell), else Name and Age.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources as package_files
from typing import Any

from analyzer.printing.columns import (
    AGE,
    DEFAULT_PRINTER,
    NAME,
    PRINTERS,
    Column,
    Printer,
    cell_text,
)
from analyzer.printing.pasted import containers_unknown
from analyzer.printing.resources import Resource
from analyzer.printing.tabwriter import align
from analyzer.printing.timefmt import Clock


@dataclass(slots=True)
class Table:
    columns: tuple[Column, ...]
    rows: list[list[Any]]
    bodies: list[dict[str, Any]]  # the object of each row


def printer_for(res: Resource) -> Printer:
    """The printer of a resource: built-in, from its CRD's printer columns, or the default."""
    if res.builtin:
        return PRINTERS.get((res.group, res.kind), DEFAULT_PRINTER)
    return crd_printer(res)


def crd_printer(res: Resource) -> Printer:
    specs = crd_columns(res.crd, res.version) if res.crd else []
    if not specs:
        return Printer((NAME, AGE), lambda o, clock: [_name(o), clock.since(_meta(o).get("creationTimestamp"))])
    columns = (NAME, *(Column(str(s.get("name", "")), _column_type(s.get("type")), int(s.get("priority") or 0),
                              str(s.get("format") or ""), str(s.get("description") or "")) for s in specs))
    # kda's known_resources.yaml may give a column alternatives (`jsonPaths`): the first that
    # reaches a value gives the cell
    paths = [[parse_jsonpath(str(p)) for p in s.get("jsonPaths") or [s.get("jsonPath") or s.get("JSONPath") or ""]]
             for s in specs]
    types = [str(s.get("type") or "string") for s in specs]

    def row(o: dict[str, Any], clock: Clock) -> list[Any]:
        cells: list[Any] = [_name(o)]
        for alternatives, typ in zip(paths, types, strict=True):
            values = next((v for v in (evaluate(path, o) for path in alternatives) if v), [])
            cells.append(_crd_cell(values[0], typ, clock) if values else None)
        return cells

    return Printer(columns, row)


def crd_columns(crd: dict[str, Any], version: str) -> list[dict[str, Any]]:
    spec = crd.get("spec") or {}
    for v in spec.get("versions") or []:
        if isinstance(v, dict) and v.get("name") == version and v.get("additionalPrinterColumns"):
            return [c for c in v["additionalPrinterColumns"] if isinstance(c, dict)]
    return [c for c in spec.get("additionalPrinterColumns") or [] if isinstance(c, dict)]


def _column_type(typ: Any) -> str:
    return str(typ) if typ in ("integer", "number", "boolean", "date", "string") else "string"


def _crd_cell(value: Any, typ: str, clock: Clock) -> Any:
    if typ == "string":
        return value if isinstance(value, str) else json.dumps(value, separators=(",", ":"))
    if typ == "date":
        return clock.since(value) if isinstance(value, str) else None
    if typ == "integer":
        return int(value) if isinstance(value, int | float) and not isinstance(value, bool) else None
    if typ == "number":
        return value if isinstance(value, int | float) and not isinstance(value, bool) else None
    if typ == "boolean":
        return value if isinstance(value, bool) else None
    return None


def _meta(o: dict[str, Any]) -> dict[str, Any]:
    meta = o.get("metadata")
    return meta if isinstance(meta, dict) else {}


def _name(o: dict[str, Any]) -> str:
    return str(_meta(o).get("name", ""))


def build_table(res: Resource, bodies: Sequence[dict[str, Any]], clock: Clock) -> Table:
    """The Table an API server returns for these objects of one resource."""
    p = printer_for(res)
    return Table(p.columns, [row_cells(p, b, clock) for b in bodies], list(bodies))


# Where the text reader keeps the cells of a pasted `kubectl get` row.
PASTED = "x-kda-text"


def row_cells(p: Printer, body: dict[str, Any], clock: Clock) -> list[Any]:
    """One object's cells; an object read from a pasted `kubectl get` table keeps the cells
    kubectl printed then (its age, status and restarts as of the paste, not recomputed from the
    few fields a table row holds); one read from a `kubectl describe` prints `<unknown>` where
    the describe did not state what a cell is made from."""
    cells = p.row(body, clock)
    pasted = body.get(PASTED)
    if not isinstance(pasted, dict):
        if _asked_for(body):
            _unstated_by_manifest(p, body, cells)
        return cells
    columns = pasted.get("columns")
    if isinstance(columns, dict):
        # a describe's tables head their columns as words ("Age" of a node's Non-terminated Pods)
        columns = {str(header).upper(): value for header, value in columns.items()}
    # a pod read from a row of a node's describe (`row_of`) is a describe's reading too
    if pasted.get("described") or pasted.get("row_of"):
        _unstated_by_describe(p, body, cells)  # a cell a pasted row of it showed wins below
    if isinstance(columns, dict):
        unread: list[Any] | None = None
        blank = pasted.get("blank") or ()
        # a row in an older layout (a Job's DESIRED SUCCESSFUL) shows under other headers what
        # the printer's columns read: which of them it did not show cannot be told by name
        names = {c.name.upper() for c in p.columns}
        older_layout = any(h not in names and h not in _NOT_PRINTER_COLUMNS for h in columns)
        for i, column in enumerate(p.columns):
            if column.name.upper() == "NAME" or i >= len(cells):
                continue  # a `get all` row's NAME carries `kind.group/`; kubectl prints its own
            value = columns.get(column.name.upper())
            if isinstance(value, str) and value:
                cells[i] = value
                continue
            # a column the row did not show, which nothing else read of the object states
            # either (no describe of it; the printer makes the same of a bare name): kubectl's
            # `<unknown>`, not a made-up `Running`, `0` or `<none>`
            if pasted.get("described"):
                continue
            if older_layout:
                # its cells stand under other headers; a column made of fields no cell of it gave
                # is unknown (an old Deployment row, DESIRED CURRENT UP-TO-DATE AVAILABLE, gives
                # no ready count: not READY 0/1 beside AVAILABLE 1)
                if _unstated_fields(p, body, column.name):
                    cells[i] = UNKNOWN
                continue
            if unread is None:
                unread = p.row(_bare(body), clock)
            if cells[i] == unread[i]:
                # a cell the row printed empty is empty; one it did not print, unknown
                cells[i] = "" if column.name.upper() in blank else UNKNOWN
    return cells


UNKNOWN = "<unknown>"


def _unstated_by_describe(p: Printer, body: dict[str, Any], cells: list[Any]) -> None:
    """`<unknown>` in the cells of a described object whose fields its describe did not print
    (described_columns.yaml): a StatefulSet's `3 desired | 3 total` says nothing of how many are
    ready, so not `0/3` (kubernetes/kubernetes#64500)."""
    kind = str(body.get("kind", ""))
    needs = described_columns().get(kind)
    if not needs or not any(p is printer for (_, k), printer in PRINTERS.items() if k == kind):
        return  # a custom resource of the same kind name prints its CRD's columns
    # a table row of it read beside the describe printed what the describe does not state
    row = (body.get(PASTED) or {}).get("row_columns") or {}
    for i, column in enumerate(p.columns):
        fields = needs.get(column.name)
        if fields and i < len(cells) and not all(_states(body, path) for path in fields):
            printed = row.get(column.name.upper())
            cells[i] = printed if isinstance(printed, str) and printed else UNKNOWN


def _unstated_fields(p: Printer, body: dict[str, Any], column: str) -> bool:
    """Whether a built-in kind's column is made of fields (described_columns.yaml) the object
    does not hold."""
    kind = str(body.get("kind", ""))
    fields = described_columns().get(kind, {}).get(column)
    if not fields or not any(p is printer for (_, k), printer in PRINTERS.items() if k == kind):
        return False
    return not all(_states(body, path) for path in fields)


def _asked_for(body: dict[str, Any]) -> bool:
    """Whether a body is a manifest someone wrote, not what the API server returned: nothing the
    server fills in (uid, creation time, resource version, status)."""
    meta = body.get("metadata")
    return isinstance(meta, dict) and not body.get("status") \
        and not (meta.get("uid") or meta.get("creationTimestamp") or meta.get("resourceVersion"))


def _unstated_by_manifest(p: Printer, body: dict[str, Any], cells: list[Any]) -> None:
    """`<unknown>` in the cells of a manifest made from the status it has none of
    (manifest_columns.yaml): a chart's StatefulSet of 3 replicas is not READY 0/3."""
    kind = str(body.get("kind", ""))
    unstated = manifest_columns().get(kind)
    if not unstated or not any(p is printer for (_, k), printer in PRINTERS.items() if k == kind):
        return  # a custom resource of the same kind name prints its CRD's columns
    for i, column in enumerate(p.columns):
        if column.name in unstated and i < len(cells):
            cells[i] = UNKNOWN


@cache
def manifest_columns() -> dict[str, frozenset[str]]:
    """Per kind, the printer columns made only of the status a manifest has none of."""
    from analyzer.safeyaml import load_yaml

    text = package_files.files("analyzer.printing").joinpath("manifest_columns.yaml").read_text("utf-8")
    return {str(kind): frozenset(str(c) for c in columns) for kind, columns in (load_yaml(text) or {}).items()}


@cache
def described_columns() -> dict[str, dict[str, tuple[str, ...]]]:
    """Per kind, the printer columns a describe may leave unstated and the fields they need."""
    from analyzer.safeyaml import load_yaml

    text = package_files.files("analyzer.printing").joinpath("described_columns.yaml").read_text("utf-8")
    return {str(kind): {str(column): tuple(str(f) for f in fields) for column, fields in columns.items()}
            for kind, columns in (load_yaml(text) or {}).items()}


def _states(body: dict[str, Any], path: str) -> bool:
    """Whether the object holds this field, as read (a pod's placeholder containers, which a
    node describe's Non-terminated Pods row names none of, are not read)."""
    value: Any = body
    for key in path.split("."):
        if not isinstance(value, dict) or value.get(key) is None:
            return False
        value = value[key]
    return path != "spec.containers" or not containers_unknown(body)
# headers of a pasted row that are no printer's column: `-A`'s, `--show-labels`'
_NOT_PRINTER_COLUMNS = frozenset({"NAMESPACE", "LABELS"})


def _bare(body: dict[str, Any]) -> dict[str, Any]:
    """The object with nothing but its kind and name: what a printer makes of no fields."""
    meta = _meta(body)
    return {"apiVersion": body.get("apiVersion"), "kind": body.get("kind"),
            "metadata": {k: meta[k] for k in ("name", "namespace") if k in meta}}


# -- a small JSONPath: .a.b, .a[0], .a[*].b, .a[?(@.type=="Ready")].status ----------------------

_EQUALS = r"""@\.[\w.-]+\s*==\s*["'][^"']*["']"""
_STEP = re.compile(r"""\.([^.\[]+)|\[(\d+|\*)\]|\[\?\((""" + _EQUALS + r"""(?:\s*&&\s*""" + _EQUALS
                   + r""")*)\)\]|\[['"]([^'"]+)['"]\]""")
_EQUALITY = re.compile(r"""@\.([\w.-]+)\s*==\s*["']([^"']*)["']""")


def parse_jsonpath(path: str) -> list[tuple[str, Any]]:
    """The steps of a CRD column's JSONPath (`{...}` braces and a leading `$` allowed).

    >>> parse_jsonpath('.status.conditions[?(@.type=="Ready")].status')
    [('key', 'status'), ('key', 'conditions'), ('filter', (('type', 'Ready'),)), ('key', 'status')]
    >>> parse_jsonpath('.c[?(@.type=="Available" && @.status=="False")]')
    [('key', 'c'), ('filter', (('type', 'Available'), ('status', 'False')))]
    """
    text = path.strip().removeprefix("{").removesuffix("}").removeprefix("$")
    steps: list[tuple[str, Any]] = []
    pos = 0
    while pos < len(text):
        m = _STEP.match(text, pos)
        if not m:
            return [("invalid", text)]
        if m.group(1) is not None:
            steps.append(("key", m.group(1)))
        elif m.group(2) is not None:
            steps.append(("all", None) if m.group(2) == "*" else ("index", int(m.group(2))))
        elif m.group(3) is not None:
            steps.append(("filter", tuple(_EQUALITY.findall(m.group(3)))))
        else:
            steps.append(("key", m.group(4)))
        pos = m.end()
    return steps


def evaluate(steps: list[tuple[str, Any]], value: Any) -> list[Any]:
    """Every value the path reaches (empty when it reaches none).

    >>> evaluate(parse_jsonpath('.status.conditions[?(@.type=="Ready")].status'),
    ...          {"status": {"conditions": [{"type": "Ready", "status": "True"}]}})
    ['True']
    """
    current = [value]
    for op, arg in steps:
        nxt: list[Any] = []
        for v in current:
            if op == "key" and isinstance(v, dict) and arg in v or op == "index" and isinstance(v, list) and -len(v) <= arg < len(v):
                nxt.append(v[arg])
            elif op == "all" and isinstance(v, list):
                nxt.extend(v)
            elif op == "filter" and isinstance(v, list):
                nxt.extend(item for item in v if all(_equals(item, field, want) for field, want in arg))
        current = nxt
        if op == "invalid":
            return []
    return [v for v in current if v is not None]


def _equals(item: Any, field: str, want: str) -> bool:
    got = evaluate([("key", k) for k in field.split(".")], item)
    return bool(got) and str(got[0]) == want


# -- text -----------------------------------------------------------------------------------

def render_table(table: Table, wide: bool = False, namespace_column: bool = False,
                 kind_prefix: str = "", show_labels: bool = False, headers: bool = True) -> str:
    """A Table as kubectl prints it: upper-case headers, columns aligned by Go's tabwriter
    (minimum width 6, padding 3), priority-1 columns only with `wide`."""
    shown = [i for i, c in enumerate(table.columns) if wide or c.priority == 0]
    lines: list[list[str]] = []
    if headers:
        head = [table.columns[i].name.upper() for i in shown]
        if namespace_column:
            head.insert(0, "NAMESPACE")
        if show_labels:
            head.append("LABELS")
        lines.append(head)
    for row, body in zip(table.rows, table.bodies, strict=True):
        cells = []
        for i in shown:
            text = cell_text(row[i] if i < len(row) else None)
            if kind_prefix and table.columns[i].format == "name" and table.columns[i].name == "Name":
                text = f"{kind_prefix}/{text}"
            cells.append(text)
        if namespace_column:
            cells.insert(0, str(_meta(body).get("namespace", "")))
        if show_labels:
            from analyzer.printing.columns import format_labels

            cells.append(format_labels(_meta(body).get("labels")))
        lines.append(cells)
    return align("".join("\t".join(_escape(c) for c in cells) + "\n" for cells in lines), 6, 3)


def _escape(text: str) -> str:
    # a tab inside a cell would split it; kubectl escapes terminal controls the same way
    return text.replace("\t", "\\t")


def render_names(res: Resource, bodies: Iterable[dict[str, Any]]) -> str:
    """`-o name`: kind.group/name per line."""
    return "".join(f"{res.kind_label}/{_name(b)}\n" for b in bodies)
