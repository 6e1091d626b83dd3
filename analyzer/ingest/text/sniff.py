"""Tell pasted kubectl text (tables, describes) from JSON, YAML, logs and prose by its content."""

from __future__ import annotations

import orjson

from analyzer.ingest.text.catalog import catalog
from analyzer.ingest.text.commands import command_in
from analyzer.ingest.text.describe import named_excerpt_starts
from analyzer.ingest.text.describe.blocks import (
    describe_starts,
    events_section_starts,
    fragment_starts,
)
from analyzer.ingest.text.describe.layout import describe_layout
from analyzer.ingest.text.lines import (
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
from analyzer.ingest.text.tables import bare_rows_at, headerless_at, table_at

# Enough lines to meet the first table or describe of any paste without reading a huge file.
_SNIFF_LINES = 5000


def looks_like_kubectl_text(text: str) -> bool:
    """Whether the text holds a kubectl table or describe (JSON and YAML documents do not).

    >>> looks_like_kubectl_text("NAME      STATUS   AGE\\ndefault   Active   11d\\n")
    True
    >>> looks_like_kubectl_text('{"kind": "Pod"}'), looks_like_kubectl_text("apiVersion: v1\\nkind: Pod\\n")
    (False, False)
    >>> looks_like_kubectl_text("The pods were fine. NAME is a word.")
    False
    """
    head = text.lstrip("\ufeff \t\r\n")
    if not head:
        return False
    if head[0] in "{[" and _is_json(head):
        return False
    # (a transcript's block is laid at its own line numbers, after as many blank lines)
    lines = restored_event_headers(modernised_event_tables(unpiped(unticked(unmarked(undented(unquoted(split_lines(text, skip_leading_blank_lines=True)[:_SNIFF_LINES])))))))
    kinds = catalog()
    layout = describe_layout()
    command, output_start = None, -1
    for index, line in enumerate(lines):
        if (call := tool_call(line.text)) is not None:
            command = call.command
            continue
        if (typed := command_in(line.text)) is not None:
            command, output_start = typed, index + 1
            continue
        if not line.text.strip() and index == output_start:
            output_start = index + 1  # a blank line a paste put between a command and its rows
        if not line.text.strip() or line.text[:1].isspace():
            continue
        if describe_starts(lines, index) or table_at(lines, index, kinds, None) is not None:
            return True
        if command is None and fragment_starts(lines, index, layout):
            return True  # an excerpt of a describe that begins after its Name
        if (command is None or command.verb == "describe") and events_section_starts(lines, index):
            return True  # a describe's Events pasted alone
        if named_excerpt_starts(lines, index, command, output_start, kinds):
            return True  # `describe node/N` shown from its Labels on
        if command is not None and command.prints_table \
                and (command.piped or command.no_headers or index == output_start) \
                and headerless_at(lines, index, kinds, command) is not None:
            return True
        if command is None and bare_rows_at(lines, index, kinds) is not None:
            return True  # rows cut from the middle of a table, unmistakable by their values
    return False


def opens_with_kubectl_output(text: str) -> bool:
    """Whether the text's first line is the header of a table of a known kind, with rows, or
    the `Name:` line of a describe: what another command's output must open with to be read as
    kubectl's (an alias such as `kno` or `kgp`, a wrapper script).

    >>> opens_with_kubectl_output("NAME     STATUS     ROLES    AGE   VERSION\\nnode-1   NotReady   <none>   23m   v1.31.10\\n")
    True
    >>> opens_with_kubectl_output("NAME   NAMESPACE   REVISION   STATUS     CHART\\nweb    shop        3          deployed   web-1.2.0\\n")
    False
    """
    lines = split_lines(text, skip_leading_blank_lines=True)[:_SNIFF_LINES]
    if not lines:
        return False
    if describe_starts(lines, 0):
        return True
    table = table_at(lines, 0, catalog(), None)
    return table is not None and table.match is not None and bool(table.rows)


def _is_json(text: str) -> bool:
    try:
        orjson.loads(text)
    except orjson.JSONDecodeError:
        return False
    return True
