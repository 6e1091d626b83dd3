"""Walk pasted text line by line: follow the commands, read tables and describes, skip prose."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from analyzer.ingest.records import Rejection
from analyzer.ingest.text.catalog import CLUSTER_SCOPED_KINDS, Catalog, catalog
from analyzer.ingest.text.commands import Command, command_in
from analyzer.ingest.text.describe import named_excerpt_starts, read_describe
from analyzer.ingest.text.describe.blocks import (
    block_at,
    describe_starts,
    events_section_starts,
    fragment_starts,
    joined_continuations,
)
from analyzer.ingest.text.describe.layout import describe_layout
from analyzer.ingest.text.lines import (
    ELISION,
    Line,
    has_box_drawing,
    modernised_event_tables,
    restored_event_headers,
    split_lines,
    tool_call,
    undented,
    unmarked,
    unpiped,
    unquoted,
    unticked,
)
from analyzer.ingest.text.table_objects import CUT_ROW, build_table, prints_listing
from analyzer.ingest.text.tables import TableBlock, bare_rows_at, headerless_at, table_at
from analyzer.ingest.text.types import TextObject, TextParse

_STRUCTURED_OUTPUTS = ("yaml", "json", "jsonpath", "go-template", "name")
# Helm's release head (`helm install`, `helm upgrade`, `helm status`, v2 and v3) states the
# release's namespace on the line after LAST DEPLOYED; the RESOURCES tables under it have no
# NAMESPACE column (kubernetes/kubernetes#67063, OKE: objects read with none, the head said
# `NAMESPACE: oketest`).
_HELM_LAST_DEPLOYED = re.compile(r"^\s*LAST DEPLOYED:\s+\S")
_HELM_KIND_HEADING = re.compile(r"^\s*==> [\w.-]+(?:/[\w.-]+)?/\w+(?:\(related\))?\s*$")
# What ends the tables under a release's RESOURCES: Helm's NOTES, or a sentence (words one space
# apart; a table's cells are two or more apart).
_PROSE_AFTER_RELEASE = re.compile(r"^\s*(?:NOTES:|\S+(?: \S+){3,}\s*$)")
_HELM_NAMESPACE = re.compile(r"^\s*NAMESPACE:\s+([a-z0-9]([-a-z0-9]*[a-z0-9])?)\s*$")


@dataclass(slots=True)
class _State:
    """Where the walk is: the command whose output this is, and what to skip."""

    command: Command | None = None
    skipping: bool = False  # inside stderr, or output that is YAML/JSON rather than text
    consumed: int = 0  # index of the first line no block has taken yet
    output_start: int = -1  # index of the line just after the last command line
    result: TextParse = field(default_factory=TextParse)
    unread: list[int] = field(default_factory=list)  # indexes of lines with text nothing took
    # the namespace a Helm release head stated, and its line, until the next command or head
    release_namespace: tuple[str, int] | None = None


def parse_kubectl_text(text: str, source: str) -> TextParse:
    """Objects, unknown tables and rejections from pasted kubectl text (tables, describes).

    >>> parsed = parse_kubectl_text(
    ...     "$ kubectl get pods -n web\\n"
    ...     "NAME    READY   STATUS    RESTARTS      AGE\\n"
    ...     "web-1   1/1     Running   3 (12h ago)   7d2h\\n", "paste.txt")
    >>> pod = parsed.objects[0].body
    >>> pod["metadata"], pod["status"], pod["x-kda-text"]["restarts"], pod["x-kda-text"]["age_seconds"]
    ({'name': 'web-1', 'namespace': 'web'}, {'phase': 'Running'}, 3, 612000.0)
    """
    lines = restored_event_headers(joined_continuations(modernised_event_tables(unpiped(unticked(unmarked(undented(unquoted(split_lines(text, skip_leading_blank_lines=True)))))))))
    kinds = catalog()
    state = _State()
    index = 0
    while index < len(lines):
        index = _step(lines, index, state, kinds, source)
    state.result.unread = _runs(lines, state.unread)
    return state.result


def _runs(lines: list[Line], indexes: list[int]) -> list[tuple[int, int]]:
    """The unread lines as runs of line numbers (first, last), a run going on over blank lines.

    >>> _runs([Line(1, "a"), Line(2, ""), Line(3, "b"), Line(4, "NAME"), Line(5, "c")], [0, 2, 4])
    [(1, 3), (5, 5)]
    """
    runs: list[tuple[int, int]] = []
    previous = -1
    for i in indexes:
        if runs and all(not ln.text.strip() for ln in lines[previous + 1:i]):
            runs[-1] = (runs[-1][0], lines[i].no)
        else:
            runs.append((lines[i].no, lines[i].no))
        previous = i
    return runs


def _step(lines: list[Line], index: int, state: _State, kinds: Catalog, source: str) -> int:
    """Read what starts at lines[index]; return the index of the next line to look at."""
    line = lines[index]
    text = line.text
    if (call := tool_call(text)) is not None:
        # A tool call writes two metadata lines; one rejection covers its YAML/JSON output.
        if call.structured and call.command is not None and not state.skipping:
            _reject_structured(state, line, call.command, source)
        state.command = call.command
        state.skipping = call.structured
        return index + 1
    if text.strip() == "stdout:":
        return index + 1
    if text.strip() == "stderr:":
        state.skipping = True
        return index + 1
    if (command := command_in(text)) is not None:
        state.command = command
        state.release_namespace = None
        state.skipping = _structured(command)
        if state.skipping:
            _reject_structured(state, line, command, source)
        state.consumed = index + 1
        state.output_start = index + 1
        return index + 1
    if not text.strip() and index == state.output_start:
        state.output_start = index + 1  # a blank line a paste put between a command and its rows
    if state.skipping or not text.strip():
        return index + 1
    if (release := _HELM_NAMESPACE.match(text)) is not None:
        before = next((ln.text for ln in reversed(lines[state.consumed:index]) if ln.text.strip()), "")
        if _HELM_LAST_DEPLOYED.match(before):
            state.release_namespace = (release.group(1), line.no)
        elif state.release_namespace is not None:
            state.release_namespace = None  # another tool's NAMESPACE: line ends the release's tables
    if state.release_namespace is not None and _HELM_KIND_HEADING.match(text):
        return index + 1  # `==> v1/Pod(related)`: the kind of the table below, which its header tells too
    # An excerpt that begins inside a describe is only trusted where no other command's
    # output (a rollout history's pod template) could be mistaken for it; an `Events:` heading
    # over the events' own header is no other output's (after a `get`'s table, a describe's
    # Events pasted without its command: oracle/cloudtestdrive#128).
    describing = state.command is None or state.command.verb == "describe"
    if describe_starts(lines, index) or (
        not text[:1].isspace() and (events_section_starts(lines, index)
                                    or describing and (fragment_starts(lines, index, describe_layout())
                                                       or named_excerpt_starts(lines, index, state.command,
                                                                               state.output_start, kinds)))
    ):
        return _describe(lines, index, state, kinds, source)
    if (block := table_at(lines, index, kinds, state.command)) is not None:
        _cut_last_row(lines, block, state, source)
        return _table(block, state, kinds, source)
    command = state.command
    # Rows without a header: a pipe or --no-headers took it, or the paste begins below it
    # (right after the command line, where kubectl prints the header).
    if (
        command is not None and command.prints_table
        and (command.piped or command.no_headers or index == state.output_start)
        and (block := headerless_at(lines, index, kinds, command)) is not None
    ):
        return _table(block, state, kinds, source)
    # Rows with no header and no command above them at all: read only when their values are
    # unmistakably a kind's rows (AKS-Construction#727: `-o wide` pod rows cut from a table).
    if command is None and not text[:1].isspace() and (block := bare_rows_at(lines, index, kinds)) is not None:
        return _table(block, state, kinds, source)
    if has_box_drawing(text):
        return _reject_drawing(lines, index, state, source)
    if KUBECTL_ERROR.match(text):
        state.result.errors.append((line.no, text.strip()))
        return index + 1
    if state.release_namespace is not None and _PROSE_AFTER_RELEASE.match(text):
        state.release_namespace = None  # its NOTES, or the writer's words: the release's tables are over
    state.unread.append(index)
    return index + 1


# How kubectl prints an error on stderr (a server's refusal, a client's complaint).
KUBECTL_ERROR = re.compile(r"^(?:Error from server(?: \([A-Za-z]+\))?: |error: )\S")


def _describe(lines: list[Line], index: int, state: _State, kinds: Catalog, source: str) -> int:
    headless = not lines[index].text.startswith("Name:")
    start = index
    if headless:  # an excerpt may begin with the indented tail of a section
        while start > state.consumed and lines[start - 1].text[:1].isspace():
            start -= 1
    block = block_at(lines, start, headless=headless)
    first_output = 0 <= state.output_start <= start and state.consumed <= state.output_start \
        and not any(line.text.strip() and not ELISION.match(line.text) for line in lines[state.output_start:start])
    objects, rejections = read_describe(block, state.command, kinds, source, first_output)
    state.result.elided.extend(line.no for line in block.lines if ELISION.match(line.text))
    state.result.objects.extend(objects)
    state.result.rejections.extend(rejections)
    state.consumed = block.end
    return block.end


# The start of an object's name (lower case, digits, `.`, `-`), alone on the line after a table.
_NAME_START = re.compile(r"[a-z0-9][a-z0-9.-]*")


def _cut_last_row(lines: list[Line], block: TableBlock, state: _State, source: str) -> None:
    """A paste that ends inside a table's next row (`kube-apise`, one word and nothing after):
    too little of the row to read, said so rather than dropped without a word."""
    rest = [line for line in lines[block.end:] if line.text.strip()]
    if len(rest) != 1 or not block.rows or not _NAME_START.fullmatch(rest[0].text.rstrip()):
        return
    state.result.rejections.append(Rejection(
        source, f"line {rest[0].no}", f"the table's last row {CUT_ROW} at '{rest[0].text.strip()}': too little of it to read"))


def _table(block: TableBlock, state: _State, kinds: Catalog, source: str) -> int:
    built = build_table(block, kinds, source)
    if state.release_namespace is not None:
        _in_release_namespace(built.objects, *state.release_namespace)
    if block.command is None or block.command is not state.command or not prints_listing(block.command):
        # the command the rows' layout implied (rows pasted bare), not one the paste shows, or
        # one that prints no listing (a `kubectl apply` above prose and a pasted table:
        # kubernetes/dns#288): no `kubectl get` without -n told their namespace; still one
        # listing of one namespace (its table's line), which the platform's own pods among
        # them may name
        for obj in built.objects:
            obj.facts.pop("listed_without_namespace", None)
            obj.facts.pop("every_pod_listed", None)
            obj.facts.pop("listed_whole", None)
            if not (obj.body.get("metadata") or {}).get("namespace"):
                obj.facts["bare_listing"] = block.line
    state.result.objects.extend(built.objects)
    state.result.rejections.extend(built.rejections)
    for line in block.unread:
        if ELISION.match(line.text):
            state.result.elided.append(line.no)  # the writer's mark of rows left out, no row
            continue
        state.result.rejections.append(Rejection(
            source, f"line {line.no}",
            f"a row of the table at line {block.line} fits none of its columns "
            f"({'  '.join(block.layout.columns)}): not read: '{line.text.strip()[:80]}'"))
    if built.table is not None:
        state.result.tables.append(built.table)
    state.consumed = block.end
    return block.end


def _in_release_namespace(objects: list[TextObject], namespace: str, line: int) -> None:
    """Rows with no namespace of their own under a Helm release head are in the namespace it
    states (the release's: Helm installs every namespaced object of its chart there unless the
    chart names another, which a RESOURCES table cannot show)."""
    for obj in objects:
        meta = obj.body.get("metadata")
        if isinstance(meta, dict) and not meta.get("namespace") and obj.kind not in CLUSTER_SCOPED_KINDS:
            meta["namespace"] = namespace
            obj.notes.append(f"namespace {namespace} from the Helm release head's 'NAMESPACE: {namespace}' "
                             f"(line {line}) above its table")


def _structured(command: Command) -> bool:
    output = (command.output or "").split("=", 1)[0]
    return output in _STRUCTURED_OUTPUTS and not command.redirected


def _reject_structured(state: _State, line: Line, command: Command, source: str) -> None:
    kind = (command.output or "").split("=", 1)[0].upper()
    state.result.rejections.append(Rejection(
        source, f"line {line.no}",
        f"output of '{command.text}' is {kind}, not table or describe text; not read here",
    ))


def _reject_drawing(lines: list[Line], index: int, state: _State, source: str) -> int:
    """One rejection for a run of lines drawn with box characters (a k9s or TUI view)."""
    end = index
    while end < len(lines) and lines[end].text.strip() and (
        has_box_drawing(lines[end].text) or end == index
    ):
        end += 1
    span = f"lines {lines[index].no}-{lines[end - 1].no}" if end - index > 1 else "this line"
    state.result.rejections.append(Rejection(
        source, f"line {lines[index].no}",
        f"{span} are drawn with box-drawing characters (a k9s or terminal UI view), "
        "not kubectl table or describe text",
    ))
    state.consumed = end
    return end
