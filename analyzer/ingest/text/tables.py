"""Find `kubectl get` tables in text: where one starts and ends, and the cells of its rows.

A header gives the columns; rows follow until a prompt, a new header, prose, or a blank line
after which no aligned row goes on. Rows a `| grep` left without a header are laid out as the
command would print them. analyzer.ingest.text.table_objects turns the rows into objects.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from analyzer.ingest.text.catalog import Catalog, HeaderMatch, KindInfo
from analyzer.ingest.text.columns import (
    TREE_GLYPHS,
    Layout,
    read_header,
    split_aligned,
    split_blank_cells,
    split_by_runs,
    split_by_shape,
    split_tabs,
)
from analyzer.ingest.text.commands import Command, command_in, label_column_header
from analyzer.ingest.text.custom_columns import column_paths
from analyzer.ingest.text.lines import ELISION, Line, is_comment, tool_call
from analyzer.ingest.text.rows.common import NAME, split_name

_WRAPPER_MARKERS = frozenset({"stdout:", "stderr:"})
_PRINTABLE = re.compile(r"^[\x21-\x7e]+$")
_RUN = re.compile(r"\S+(?: \S+)*")  # a cell's text: words with single spaces between them


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
    unread: list[Line] = field(default_factory=list)  # rows among its rows that fit no column layout


def table_at(lines: list[Line], start: int, catalog: Catalog,
             command: Command | None) -> TableBlock | None:
    """The table whose header is at lines[start], or None when no table starts there."""
    layout = read_header(lines[start].text, catalog)
    if layout is None:
        return None
    match, label_columns = _match_with_label_columns(layout, catalog, command)
    index = start + 1
    if match is None and (wrapped := _wrapped_header(lines, start, layout, catalog)) is not None:
        layout, index = wrapped, start + 2
        match, label_columns = _match_with_label_columns(layout, catalog, command)
    if match is None and layout.columns[0] not in ("NAME", "NAMESPACE") and command is None:
        return None  # an all-capitals line in prose, not a header
    generic = match is None
    rows: list[RawRow] = []
    unread: list[Line] = []
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
        if row is not None and (glued := _glued_rows(lines[index], layout, catalog, generic)) is not None:
            # rows whose line breaks a copy lost: each read; a passage that splits into none, set aside
            if glued:
                rows.extend(glued)
                index += 1
                continue
            row = None
        if row is None:
            # Rows no layout reads (edited by hand, cells lost in a copy) do not end a known
            # table when a row follows them: they are set aside, to be rejected by name.
            after = _next_row(lines, index + 1, layout, catalog) if match is not None else None
            if after is None:
                break
            unread.extend(lines[index:after])
            index = after
            continue
        rows.append(row)
        index += 1
    if not rows:
        return None
    match = catalog.by_values(match, [row.cells for row in rows])
    if command is not None:
        match = catalog.named_by(match, single_kind(command, catalog), list(layout.columns))
    return TableBlock(layout, lines[start].no, rows, index, command, match, label_columns, unread)


def _wrapped_header(lines: list[Line], start: int, layout: Layout, catalog: Catalog) -> Layout | None:
    """A header the terminal wrapped: its last columns on the next line, indented (the spaces
    before them cut at the terminal's width), which with them is a known kind's header.

    The wrapped columns start where the first row's last runs of text do: where they sat on
    the header line is lost with the wrap (digitalocean/DOKS#18: `AVAILABLE` / `AGE`).
    """
    if layout.mode != "aligned" or start + 2 >= len(lines):
        return None
    rest = lines[start + 1].text
    if not rest[:1].isspace() or not rest.strip():
        return None
    joined = read_header(f"{lines[start].text.rstrip()}   {rest.strip()}", catalog)
    if joined is None or catalog.match_header(list(joined.columns)) is None:
        return None
    assert layout.starts is not None
    row = next((line.text for line in lines[start + 2:start + 6]
                if line.text.strip() and not ELISION.match(line.text)), None)
    wrapped = len(joined.columns) - len(layout.columns)
    if row is None or row[:1].isspace():
        return None
    runs = [run.start() for run in _RUN.finditer(row) if run.start() > layout.starts[-1]]
    if len(runs) < wrapped:
        return None
    return Layout(joined.columns, (*layout.starts, *runs[-wrapped:]), "aligned")


# How many unreadable lines in a row may sit among a table's rows before the table is over.
_MOST_UNREAD_IN_A_ROW = 3


def _next_row(lines: list[Line], start: int, layout: Layout, catalog: Catalog) -> int | None:
    """The index of the next line that is a row, when only a few unreadable lines come first."""
    for index in range(start, min(start + _MOST_UNREAD_IN_A_ROW, len(lines))):
        text = lines[index].text
        if not text.strip() or _stops_table(text, catalog):
            return None
        if _row(lines[index], layout, catalog, False) is not None:
            return index
    return None


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
    """Rows a `| grep` (or `--no-headers`) left without their header, laid out as the command's.

    The rows are read as today's kubectl prints the command's table, else as an older kubectl
    printed it (nodes as NAME STATUS AGE before 1.6): the layout that reads the most rows wins,
    then the one that reads the most of them whole (not as rows a writer cut short).
    """
    info = single_kind(command, catalog)
    prefix = None
    if info is None:
        # `kubectl get all -A | grep csi`: each row names its kind (`pod/...`, `daemonset.apps/...`)
        # and is laid out as that kind's table is; the rows of one kind are read together
        # (remche/terraform-openstack-rke2#55)
        prefix = _row_kind(lines[start], command, catalog)
        if prefix is None:
            return None
        info = prefix
    best: TableBlock | None = None
    # `-o custom-columns=NAME:...,NODE:...`: the header the command itself spells out
    # (operate-first/apps#1352: `oc get pods -A -o=custom-columns=... | grep Evicted`)
    custom = column_paths(command)
    width = _terminal_width(lines, start)
    for columns in [list(custom)] if custom else _layouts_of(info, command, catalog):
        block = _headerless_block(lines, start, catalog, command, columns, width, prefix)
        if block is not None and (best is None or _reads(block) > _reads(best)):
            best = block
    return best


def _row_kind(line: Line, command: Command, catalog: Catalog) -> KindInfo | None:
    """The kind a headerless row of a command listing several kinds names by its NAME's
    prefix (`kube-system   pod/coredns-...` under `get all -A`), or None.

    >>> from analyzer.ingest.text.catalog import catalog
    >>> from analyzer.ingest.text.commands import parse_command
    >>> _row_kind(Line(1, "kube-system   daemonset.apps/canal   4   4   0   4   0   <none>   10m"),
    ...           parse_command("kubectl get all -A | grep canal"), catalog()).kind
    'DaemonSet'
    >>> _row_kind(Line(1, "canal-x   1/1   Running   0   10m"), parse_command("kubectl get po,svc | grep canal"), catalog())
    """
    if not (len(command.resources) > 1 or command.resources == ("all",)):
        return None
    words = line.text.split()
    at = 1 if command.all_namespaces else 0
    if len(words) <= at + 1:
        return None
    prefix, _, _ = split_name(words[at])
    return catalog.for_resource(prefix) if prefix else None


def _reads(block: TableBlock) -> tuple[int, int]:
    """How much of the text a layout reads: its rows, then those of them it reads whole."""
    return len(block.rows), sum(1 for row in block.rows if not row.missing)


def bare_rows_at(lines: list[Line], start: int, catalog: Catalog) -> TableBlock | None:
    """Rows pasted with neither their header nor a command above them (an excerpt cut from the
    middle of a table), read only where their values leave no doubt: every cell of every row
    holds what kubectl prints in that column of a kind's table (kinds.yaml `bare_rows`), in the
    layout of one of the commands listed there (or an older kubectl's it names); two rows at least, or one with every column of
    its layout (its IP and node, or its namespace). The layout reading the most rows wins, the
    first on a tie.

    The rows end at the first that does not fit, so a line that is no such row costs one test
    per layout (a long log is not read again from every line)."""
    best: TableBlock | None = None
    for info in catalog.kinds.values():
        if not info.bare_commands or not _bare_probe(info).search(lines[start].text):
            continue  # (one search per line and kind: most lines of a long paste end here)
        for text in info.bare_commands:
            command = command_in(text)
            if command is None:
                continue
            for columns in _bare_layouts(info, command, catalog):
                layout = Layout(tuple(columns), None, "collapsed")
                rows: list[RawRow] = []
                index = start
                while index < len(lines) and lines[index].text.strip() and not _stops_table(lines[index].text, catalog):
                    row = _headerless_row(lines[index], layout, catalog)
                    if row is None or not _bare_fit(row, info):
                        break
                    rows.append(row)
                    index += 1
                full = bool(rows) and all(not row.missing and all(row.cells.values()) for row in rows)
                # (one row is read whole with its node and IP, or with its namespace: `-A` rows)
                one = full and (command.wide or command.all_namespaces and _DNS_LABEL.fullmatch(rows[0].cells.get("NAMESPACE", "")))
                if (len(rows) >= 2 or one) and (best is None or len(rows) > len(best.rows)):
                    best = TableBlock(layout, lines[start].no, rows, index, command,
                                      catalog.by_values(catalog.match_header(columns), [row.cells for row in rows]))
    return best


def _bare_layouts(info: KindInfo, command: Command, catalog: Catalog) -> list[list[str]]:
    """The headers bare rows may be read in under a command: the one kubectl prints today, then
    (without -o wide) older kubectl's that kinds.yaml names (`bare_rows: older`)."""
    layouts = [catalog.header_for(info, command.wide, command.all_namespaces, False)]
    if not command.wide:
        prefix = [catalog.namespace_column] if command.all_namespaces else []
        layouts.extend([*prefix, *header] for header in info.bare_older)
    return layouts


_PROBES: dict[str, re.Pattern[str]] = {}
_DNS_LABEL = re.compile(r"[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?")  # what a namespace's name is


def _bare_probe(info: KindInfo) -> re.Pattern[str]:
    """What a bare row of the kind shows whatever its layout: the cells of the first two columns
    after NAME that `bare_rows` constrains, side by side (a pod's `1/1   Running`), in any header
    the rows may be in."""
    probe = _PROBES.get(info.kind)
    if probe is None:
        shown = []  # (today's header, then each older one bare rows may be in)
        for header in (info.headers[0], *info.bare_older):
            constrained = [c for c in header if c in info.bare_rows][:2]
            shown.append(r"\s+".join(f"(?:{info.bare_rows[c].pattern})" for c in constrained))
        probe = _PROBES[info.kind] = re.compile(r"\s(?:" + "|".join(f"(?:{s})" for s in shown) + r")(?:\s|$)")
    return probe


def _bare_fit(row: RawRow, info: KindInfo) -> bool:
    """Whether a row fills its name and each column `bare_rows` constrains as the kind does."""
    for column, value in row.cells.items():
        pattern = info.bare_rows.get(column)
        if column in ("NAME", "NAMESPACE"):
            if not value:
                return False
        elif pattern is None or not value or not pattern.fullmatch(value):
            return False
    return True


def _layouts_of(info: KindInfo, command: Command, catalog: Catalog) -> list[list[str]]:
    """The headers the command's table may have had: today's first, then older kubectl's."""
    first = catalog.header_for(info, command.wide, command.all_namespaces, command.show_labels)
    others = []
    for header in info.headers:
        columns = list(header)
        if command.all_namespaces:
            columns.insert(0, catalog.namespace_column)
        if command.show_labels:
            columns.append(catalog.labels_column)
        if columns != first and columns not in others:
            others.append(columns)
    return [first, *others]


def _headerless_block(lines: list[Line], start: int, catalog: Catalog, command: Command,
                      columns: list[str], width: int, prefix: KindInfo | None = None) -> TableBlock | None:
    """Headerless rows in these columns from lines[start]; where the rows name their kind
    (`prefix`: a listing of several kinds), up to the first that names another."""
    layout = Layout(tuple(columns), None, "collapsed")
    rows: list[RawRow] = []
    index = start
    while index < len(lines) and lines[index].text.strip():
        if _stops_table(lines[index].text, catalog):
            break
        if prefix is not None and _row_kind(lines[index], command, catalog) is not prefix:
            break
        row = _headerless_row(lines[index], layout, catalog)
        if row is None:
            break
        if row.missing and (whole := _rejoined(lines, index, layout, catalog, width)) is not None:
            row, index = whole, index + 1
        rows.append(row)
        index += 1
    if not rows:
        return None
    return TableBlock(layout, lines[start].no, rows, index, command,
                      catalog.by_values(catalog.match_header(columns), [row.cells for row in rows]))


def _terminal_width(lines: list[Line], start: int) -> int:
    """Where a terminal cut the lines from `start` to the next blank one: the length of their
    longest, when two lines at least are that long (one long line proves no width); else 0."""
    lengths: dict[int, int] = {}
    for line in lines[start:]:
        if not line.text.strip():
            break
        lengths[len(line.text)] = lengths.get(len(line.text), 0) + 1
    width = max(lengths, default=0)
    return width if lengths.get(width, 0) >= 2 else 0


def _rejoined(lines: list[Line], index: int, layout: Layout, catalog: Catalog, width: int) -> RawRow | None:
    """The row at lines[index] whole again when a terminal wrapped it: the line is cut at the
    terminal's width (`_terminal_width`), the next is no row of its own,
    and the two as one line are the whole row (the wrap cut a cell mid-word, so the two join
    as they are: `aks-nodepool1-31400841-vm` / `ss000002   <none>   <none>`)."""
    head = lines[index]
    if not width or index + 1 >= len(lines) or len(head.text) != width:
        return None
    tail = lines[index + 1]
    if not tail.text.strip() or _stops_table(tail.text, catalog) \
            or _headerless_row(tail, layout, catalog) is not None:
        return None
    row = _headerless_row(Line(head.no, head.text + tail.text), layout, catalog)
    return row if row is not None and not row.missing else None


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
    if text[:1].isspace() and not (stripped and stripped[0] in TREE_GLYPHS) \
            and not _blank_namespace(text, layout):
        return None  # indented text that is not a lineage tree row
    if layout.mode == "aligned":
        assert layout.starts is not None
        cells, aligned = split_aligned(text, layout.starts)
        # Runs on their columns' starts yet the row cut short and a cell not of its column's
        # shape (`azure-managed-disk   Pending   default   1s`: the blanks' spaces collapsed to
        # three, each run landing on the next column): read as a row whose cells moved.
        moved = aligned and cells[-1] is None and not catalog.shape(layout.columns[-1]).empty \
            and not _cells_fit(layout.columns, cells, catalog)
        if not aligned or moved:
            # kubectl never lets a cell stray from its column, but a person editing a paste
            # does (a name lengthened or cut by hand): read the row by its runs of text or by
            # the shapes of its words before calling it the end of the table.
            # Positions first: the shapes alone take a blank cell's neighbour for it (an
            # event's empty SUBOBJECT given its TYPE, every cell after it one column off).
            runs = split_by_runs(text, len(layout.columns))
            realigned = list(runs) if runs is not None else split_blank_cells(
                text, layout.columns, layout.starts, catalog)
            if realigned is None:
                realigned = split_by_shape(text, layout.columns, catalog)
            if realigned is None and not moved:
                return None
            cells = realigned or cells
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


def _glued_rows(line: Line, layout: Layout, catalog: Catalog, generic: bool) -> list[RawRow] | None:
    """The rows of a line that holds several, their line breaks lost in a copy (`... 2d19h
    cilium-rfl92   1/1   Running ...`): None where the line is one row, [] where it holds
    more (its last cell fits not its column) but does not split into rows that each fit.

    kubectl pads every cell but the last with at least three spaces, so a last cell holding
    such a gap holds the next row. The rows of one listing are padded alike, so each glued row
    is read with the header's columns from where it starts: just after the last cell's value
    (the longest that fits the column's shape), or after the one space that replaced the break.
    """
    starts = layout.starts
    if layout.mode != "aligned" or starts is None or len(starts) < 2:
        return None
    text = line.text
    tail = text[starts[-1]:].strip()
    if "   " not in tail or not split_aligned(text, starts)[1]:
        return None  # one row, or one a person moved out of line (read by its runs)
    # (a free-text last column, an event's MESSAGE, may hold such a gap: that row stays one
    # where it does not split)
    one_row = None if catalog.shape(layout.columns[-1]).pattern.fullmatch(tail) else []
    rows: list[RawRow] = []
    at = 0
    while at < len(text):
        rest = text[at:]
        if "   " not in rest[starts[-1]:].strip():
            cells, aligned = split_aligned(rest, starts)
            row = _checked_row(line.no, layout.columns, cells, catalog, generic) if aligned else None
            if row is None or not _cells_fit(layout.columns[-1:], cells[-1:], catalog):
                return one_row
            rows.append(row)
            return rows
        split = _glued_split(rest, layout, catalog, generic, line.no)
        if split is None:
            return one_row
        row, length = split
        rows.append(row)
        at += length
    return rows


def _glued_split(text: str, layout: Layout, catalog: Catalog, generic: bool, no: int) -> tuple[RawRow, int] | None:
    """The first row of a line of glued rows and where the next begins: the split is in the
    run of text at the last column (the last value, then the next row's first cell)."""
    assert layout.starts is not None
    last = layout.starts[-1]
    first_run = _RUN.search(text, last)
    if first_run is None:
        return None
    next_run = _RUN.search(text, first_run.end())
    # the longest head whose last cell fits its column, the rest starting the next row
    candidates = [p for p in range(first_run.end() - 1, first_run.start(), -1) if text[p] != " "]
    if next_run is not None:
        candidates.insert(0, next_run.start())
    shape = catalog.shape(layout.columns[-1]).pattern
    for p in candidates:
        head = text[:p].rstrip()
        cells, aligned = split_aligned(head, layout.starts)
        if not aligned or cells[-1] is None or not shape.fullmatch(cells[-1]):
            continue
        row = _checked_row(no, layout.columns, cells, catalog, generic)
        if row is None:
            continue
        following, _ = split_aligned(text[p:], layout.starts)
        if _checked_row(no, layout.columns, following, catalog, generic) is None:
            continue
        return row, p
    return None


def _cells_fit(columns: tuple[str, ...], cells: list[str | None], catalog: Catalog) -> bool:
    """Whether every cell of a row fits its column's shape (blank ones and `<none>` do)."""
    return all(value is None or value in ("<none>", "<unknown>") or catalog.shape(column).pattern.fullmatch(value)
               for column, value in zip(columns, cells, strict=True))


def _blank_namespace(text: str, layout: Layout) -> bool:
    """A row of an `-A` listing whose NAMESPACE cell is empty: a cluster-scoped object listed
    with namespaced ones (`kubectl get pvc,pv -A` prints each PersistentVolume so)."""
    starts = layout.starts
    return layout.mode == "aligned" and starts is not None and len(starts) > 1 \
        and layout.columns[0] == "NAMESPACE" and not text[:starts[1]].strip() \
        and text[starts[1]:starts[1] + 1].strip() != ""


def _headerless_row(line: Line, layout: Layout, catalog: Catalog) -> RawRow | None:
    if line.text[:1].isspace():
        return None
    runs = split_by_runs(line.text, len(layout.columns))
    cells: list[str | None] | None = list(runs) if runs is not None else None
    if cells is None:
        cells = split_by_shape(line.text, layout.columns, catalog)
    if cells is None:
        cells = _cut_after(line.text, layout.columns, catalog)
    if cells is None:
        return None
    return _checked_row(line.no, layout.columns, cells, catalog, generic=False)


# Fewest cells a headerless row cut short must keep: its name and two columns' values.
_FEWEST_CUT_CELLS = 3


def _cut_after(text: str, columns: tuple[str, ...], catalog: Catalog) -> list[str | None] | None:
    """Cells of a headerless row whose writer kept only its first columns (`NAME  1/6
    CrashLoopBackOff`, RESTARTS and AGE left out: nebari-dev/nebari#3213), each run of text in
    the column of its place and fitting that column's shape; the columns after them are empty.

    >>> from analyzer.ingest.text.catalog import catalog
    >>> _cut_after("ebs-csi-controller-xxxxx   1/6   CrashLoopBackOff", ("NAME", "READY", "STATUS", "RESTARTS", "AGE"), catalog())
    ['ebs-csi-controller-xxxxx', '1/6', 'CrashLoopBackOff', None, None]
    """
    runs = [run.group() for run in _RUN.finditer(text)]
    if not _FEWEST_CUT_CELLS <= len(runs) < len(columns):
        return None
    if not all(catalog.shape(column).pattern.fullmatch(run) for column, run in zip(columns[1:], runs[1:], strict=False)):
        return None
    return [*runs, *[None] * (len(columns) - len(runs))]


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
        # (an empty NAMESPACE: a cluster-scoped object in an `-A` listing)
        if by_column.get("NAMESPACE") is not None and not NAME.match(by_column["NAMESPACE"]):
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
