"""Find where a `kubectl describe` starts and ends in pasted text, and restore lost indentation."""

from __future__ import annotations

import re
from dataclasses import dataclass

from analyzer.ingest.text.commands import command_in
from analyzer.ingest.text.describe.layout import DescribeLayout, describe_layout
from analyzer.ingest.text.describe.tree import KEY_LINE
from analyzer.ingest.text.lines import DESCRIBE_EVENT_ROW, ELISION, Line, tool_call

_DESCRIBE_KEY = re.compile(r"^[A-Z][\w .\-/()]*$")
# Fields that follow `Name:` in every describe layout, so `Name:` + one of these starts one.
_SECOND_FIELDS = ("Namespace:", "Labels:", "Roles:", "Priority:", "Annotations:", "Selector:")
_MARKERS = frozenset({"stdout:", "stderr:"})
_DATA_HEADINGS = frozenset({"Data", "BinaryData"})
_EVENT_TYPES = frozenset({"Normal", "Warning"})
# Fields kubectl once printed after a describe's Events: a claim's `Mounted By:` (kubectl 1.13, a
# rook-ceph claim described 'Terminating (lasts <invalid>)', code index id 470948755).
AFTER_EVENTS = frozenset({"Mounted By"})
_EVENT_ROW_START = re.compile(r"^\s*(?:Normal|Warning)\s")
_COMMENT = re.compile(r"\s+#\s.*$")
# Lines a Namespace describe prints without a colon.
_NOTES = frozenset({"No resource quota.", "No LimitRange resource.", "Resource Quotas",
                    "Resource Limits"})


@dataclass(slots=True)
class DescribeBlock:
    """The lines of one describe, as written, and how it was cut from the text."""

    lines: list[Line]
    end: int  # index of the first line after the block
    collapsed: bool  # every line at column 0 (indentation lost in a web page)
    headless: bool  # the text begins inside a describe, without its `Name:` line
    cut_line: Line | None = None  # a last, partial line the text ends on (`CreationTimest`)


# A describe prints an exec probe's command and an event's message raw: their own newlines put
# the rest of a script (an OpenShift etcd pod's Readiness) or of a probe's output (a Warning
# Unhealthy event) at column 0, where a describe's own lines never are.
_EXEC_PROBE_OPEN = re.compile(r"^\s+(?:Liveness|Readiness|Startup):\s+exec \[")
_EXEC_PROBE_CLOSE = re.compile(r"\] delay=\d")
_TABLE_HEADER = re.compile(r"^[A-Z][A-Z-]+(?:\s{2,}[A-Z][A-Z() -]*){2,}$")
_MAX_CONTINUED = 400  # lines one value may run over before it is taken for something else


def joined_continuations(lines: list[Line]) -> list[Line]:
    """The column-0 lines of a describe's multi-line value (an exec probe's script, an event's
    message, a container's last termination message) joined onto the line they continue (with
    " ", at its line number), so that the describe reads whole.

    >>> from analyzer.ingest.text.lines import split_lines
    >>> probe = split_lines("    Readiness:  exec [/bin/bash -c set -xe\\n\\n# etcd health\\n"
    ...                     "unset ETCDCTL_ENDPOINTS\\n] delay=3s timeout=5s period=5s\\n    Environment:  <none>")
    >>> [ln.text for ln in joined_continuations(probe)]
    ['    Readiness:  exec [/bin/bash -c set -xe # etcd health unset ETCDCTL_ENDPOINTS ] delay=3s timeout=5s period=5s', '    Environment:  <none>']
    >>> event = split_lines("  Warning  Unhealthy  5m  kubelet  Readiness probe failed: + unset X\\n"
    ...                     "+ grep health\\nError: unhealthy cluster\\n  Normal   Pulled     5m  kubelet  ok")
    >>> [ln.text for ln in joined_continuations(event)]
    ['  Warning  Unhealthy  5m  kubelet  Readiness probe failed: + unset X + grep health Error: unhealthy cluster', '  Normal   Pulled     5m  kubelet  ok']
    >>> wrapped = split_lines("Warning  FailedScheduling  54s   default-scheduler  0/1 nodes are available.\\n"
    ...                       "  preemption: 0/1 nodes are available")
    >>> [ln.text for ln in joined_continuations(wrapped)]
    ['Warning  FailedScheduling  54s   default-scheduler  0/1 nodes are available. preemption: 0/1 nodes are available']
    """
    out: list[Line] = []
    index = 0
    data = False  # a ConfigMap's or Secret's Data: free text at column 0, to its Events
    while index < len(lines):
        line = lines[index]
        if _heading_at(lines, index) or (data and not line.text.startswith(("Events:", "Name:"))):
            data = True
            out.append(line)
            index += 1
            continue
        data = False
        if _EXEC_PROBE_OPEN.match(line.text) and not _EXEC_PROBE_CLOSE.search(line.text):
            end = next((k for k in range(index + 1, min(len(lines), index + _MAX_CONTINUED))
                        if _EXEC_PROBE_CLOSE.search(lines[k].text)), None)
            if end is not None and not any(_ends_value(ln.text) for ln in lines[index + 1:end]):
                out.append(_joined(line, lines[index + 1:end + 1]))
                index = end + 1
                continue
        elif DESCRIBE_EVENT_ROW.match(line.text) and (wrapped := _hard_wrapped(lines, index)) > index + 1:
            # a terminal's hard wrap: the row and its message's pieces, each as wide as the
            # terminal but the last, are one line again, character for character
            out.append(Line(line.no, "".join(ln.text for ln in lines[index:wrapped])))
            index = wrapped
            continue
        elif (m := DESCRIBE_EVENT_ROW.match(line.text)) and m.group("indent"):
            end = index + 1
            while end < len(lines) and end - index < _MAX_CONTINUED and lines[end].text.strip() \
                    and (not lines[end].text[:1].isspace() or _message_line_in_table(lines[end].text, m))\
                    and not _ends_value(lines[end].text):
                end += 1
            if end > index + 1:
                out.append(_joined(line, lines[index + 1:end]))
                index = end
                continue
        elif (m := DESCRIBE_EVENT_ROW.match(line.text)) and not m.group("indent"):
            # a row pasted at column 0 whose message the paste wrapped onto indented lines
            # (kind#3226: `...node affinity/selector.` then `  preemption: 0/1 nodes are
            # available`): a describe prints nothing indented under its Events rows
            end = index + 1
            while end < len(lines) and end - index < _MAX_CONTINUED and lines[end].text[:1] == " " \
                    and lines[end].text.strip() and not DESCRIBE_EVENT_ROW.match(lines[end].text):
                end += 1
            if end == index + 1:
                # or onto lines at column 0 as the row itself, as the kubelet's mount errors
                # print (kubo-release#260: `Mounting command: systemd-run`, `Output: ...`, then
                # mount's own indented lines)
                while end < len(lines) and end - index < _MAX_CONTINUED and lines[end].text.strip() \
                        and (end > index + 1 or not lines[end].text[:1].isspace()) \
                        and not DESCRIBE_EVENT_ROW.match(lines[end].text) \
                        and not _ends_value(lines[end].text) and not _top_level(lines[end].text) \
                        and lines[end].text.rstrip() != "Events:":
                    end += 1
            if end > index + 1:
                out.append(_joined(line, lines[index + 1:end]))
                index = end
                continue
        elif (wrapped := _wrapped_table_row(lines, index)) > index + 1:
            # a table row (a condition's message) the terminal cut at its width onto lines less
            # indented than it: one line again, character for character
            out.append(Line(line.no, "".join(ln.text for ln in lines[index:wrapped])))
            index = wrapped
            continue
        elif _continues_value(lines, index, out):
            end = index + 1
            while end < len(lines) and end - index < _MAX_CONTINUED and not lines[end].text[:1].isspace() \
                    and (not lines[end].text.strip() or _continues_value(lines, end, out)):
                end += 1
            out[-1] = _joined(out[-1], lines[index:end])
            index = end
            continue
        out.append(line)
        index += 1
    return out


def _message_line_in_table(text: str, row: re.Match) -> bool:
    """Whether an indented line under an event row is the next line of that row's message, which
    kubectl's tabwriter aligned as a cell of the table: an AWS SDK error's `\\n\\tstatus code: 403,
    request id: ...` lands in the Reason column (DrFaust92/terraform-kubernetes-ebs-csi-driver#21).
    Nothing else a describe prints is indented under its Events rows."""
    return text.startswith(row.group("indent")) and text[len(row.group("indent")):][:1].isspace() \
        and not _EVENT_ROW_START.match(text)


def _continues_value(lines: list[Line], index: int, out: list[Line]) -> bool:
    """Whether lines[index], at column 0, goes on the value of the indented line before it: a
    describe prints only its top-level fields there, and the describe goes on, indented, after
    the run of such lines (a container's Last State Message of many lines, `#### attempt 3`)."""
    text = lines[index].text
    if not text.strip() or text[:1].isspace() or not out or not out[-1].text[:1].isspace() \
            or _ends_value(text) or _top_level(text):
        return False
    for line in lines[index + 1:index + _MAX_CONTINUED]:
        if not line.text.strip():
            continue  # (a message that ends in a newline leaves a blank line before the rest)
        if _ends_value(line.text) or _top_level(line.text):
            return False
        if line.text[:1].isspace():
            return True
    return False


def _ends_value(text: str) -> bool:
    """A line no value runs on into: another describe, a table, a command, the writer's mark of
    lines cut (thoth-station/core#82: `</snip>` under an event row was read as its message's end),
    kubectl's error, a script's heading between outputs (a report's `--- Logs for POD ---`).

    >>> _ends_value("--- Logs for web-0 (Current) ---"), _ends_value("Mounting command: mount")
    (True, False)
    """
    return text.startswith("Name:") or _TABLE_HEADER.match(text) is not None \
        or text.startswith(("$ ", "# kubectl", "kubectl ", "Error from server")) or tool_call(text) is not None \
        or ELISION.match(text) is not None or _SCRIPT_HEADING.match(text) is not None


# A heading a script prints between the outputs it collects (ka0s's deployment reports: `>>> Pods
# Status:`, `--- Description for POD ---`, `--> Checking Endpoints ...`, `=== Verification ... ===`).
_SCRIPT_HEADING = re.compile(r"^(?:-{3,} |={3,} |-{1,3}> |>{3} )\S")


_WRAP_MIN = 60  # narrower "widths" are short lines, not a terminal's
_WRAP_NEAR = 30  # lines either side of a row that show the terminal's width


def _hard_wrapped(lines: list[Line], index: int) -> int:
    """The index after the pieces of an event row a terminal wrapped at its width (Azure/AKS
    #3681: `...default-scheduler        Successfu` then `lly assigned prd/foo-db-1 to ...`, every
    piece but the last 90 characters wide): the row's own index + 1 when it is not wrapped so.
    The width is the row's length when no line near it is longer and three have that length."""
    width = len(lines[index].text)
    following = lines[index + 1].text if index + 1 < len(lines) else ""
    if width < _WRAP_MIN or not following.strip() or DESCRIBE_EVENT_ROW.match(following):
        return index + 1
    near = [len(ln.text) for ln in lines[max(0, index - _WRAP_NEAR):index + _WRAP_NEAR]]
    if max(near) != width or near.count(width) < 3:
        return index + 1
    end = index + 1
    while end < len(lines) and len(lines[end - 1].text) == width and lines[end].text.strip() \
            and not DESCRIBE_EVENT_ROW.match(lines[end].text) and end - index < _MAX_CONTINUED:
        end += 1
    return end


def _wrapped_table_row(lines: list[Line], index: int) -> int:
    """The index after the pieces of an indented table row (a Conditions row) a terminal wrapped
    at its width onto lines starting at most one blank in, none of them a describe's own field, a
    table or a command (MicrosoftDocs/azure-docs#9121: an HPA's ScalingActive message cut after 'unable to
    get metrics', its rest on ' for resource cpu: ...' and 'k8s.io)', the row and its first piece
    120 characters wide): index + 1 when it is not wrapped so. The width is the row's length when
    no line near it is longer and two have that length (the row and its piece), not most of them
    (an event row's own wrap, `_hard_wrapped`, goes first).

    >>> from analyzer.ingest.text.lines import split_lines
    >>> cut = split_lines("  ScalingActive  False   FailedGetResourceMetric  unable to get metrics\\n"
    ...                   " for resource cpu: the server could not find a thing (get pods.metrics.\\nk8s.io)\\nEvents:  <none>")
    >>> [len(ln.text) for ln in cut[:2]], _wrapped_table_row(cut, 0)
    ([71, 71], 3)
    """
    text = lines[index].text
    indent = len(text) - len(text.lstrip(" "))
    width = len(text)
    if not indent or width < _WRAP_MIN or index + 1 >= len(lines):
        return index + 1
    near = [len(ln.text) for ln in lines[max(0, index - _WRAP_NEAR):index + _WRAP_NEAR]]
    if max(near) != width or not 2 <= near.count(width) <= len(near) // 2 or "  " not in text.strip():
        return index + 1  # (most lines as wide: padded text, a terminal UI's frame, not a wrap)
    end = index + 1
    while end < len(lines) and len(lines[end - 1].text) == width and end - index < _MAX_CONTINUED:
        piece = lines[end].text
        # a wrap leaves at most the one blank between two words at a piece's start
        if not piece.strip() or len(piece) - len(piece.lstrip(" ")) > 1 or _top_level(piece) \
                or _ends_value(piece) or _stops(piece) or KEY_LINE.match(piece):
            break
        end += 1
    return end


def _joined(line: Line, rest: list[Line]) -> Line:
    return Line(line.no, " ".join([line.text.rstrip(), *(ln.text.strip() for ln in rest if ln.text.strip())]))


def _top_level(text: str) -> bool:
    """A describe's own top-level field (`Conditions:`, `QoS Class:  Burstable`)."""
    key = KEY_LINE.match(text)
    return key is not None and (key.group("key") in describe_layout().all_top
                                or (key.group("key") in _GENERIC_SECTIONS and not key.group("value")))


# The headings the generic describer (custom resources) puts the object's fields under.
_GENERIC_SECTIONS = frozenset({"Metadata", "Spec", "Status"})


def describe_starts(lines: list[Line], index: int) -> bool:
    """Whether lines[index] is the `Name:` line of a describe."""
    text = lines[index].text
    if not text.startswith("Name:"):
        return False
    seen = 0
    for line in lines[index + 1 :]:
        if not line.text.strip():
            continue
        if line.text.startswith(_SECOND_FIELDS):
            return True
        seen += 1
        if seen >= 3:
            break
    return False


def events_section_starts(lines: list[Line], index: int) -> bool:
    """Whether lines[index] is a describe's `Events:` heading pasted alone: the heading, then
    the events table's `Type  Reason  Age  From  Message` header (the part people paste most)."""
    if lines[index].text.rstrip() != "Events:":
        return False
    after = next((line for line in lines[index + 1 : index + 3] if line.text.strip()), None)
    words = after.text.split() if after is not None and after.text[:1].isspace() else []
    return words[:2] == ["Type", "Reason"] and "Message" in words


def fragment_starts(lines: list[Line], index: int, layout: DescribeLayout) -> bool:
    """Whether lines[index] begins a describe whose `Name:` is not in the text (a cut excerpt)."""
    known = layout.all_top - {"Name", "Namespace", "Status", "Type", "IP", "Port", "Node"}
    hits = 0
    for line in lines[index : index + 6]:
        match = KEY_LINE.match(line.text) if not line.text[:1].isspace() else None
        if match and match.group("key") in known:
            hits += 1
    first = KEY_LINE.match(lines[index].text)
    # a shouted word is a script's or a log's (`WARNING: The following pods are not ready (yet):`
    # over a ka0s report's excerpt), never a field kubectl prints, unless it is one (`IP:`)
    return hits >= 2 and first is not None and not (first.group("key").isupper() and first.group("key") not in layout.all_top)


def _stops(text: str) -> bool:
    return text.strip() in _MARKERS or command_in(text) is not None or tool_call(text) is not None


def _is_collapsed(lines: list[Line], start: int) -> bool:
    """True when no line is indented yet some line is no `Key: value` (a lost continuation).

    kubectl indents nested fields and continuation lines; a describe of only top-level fields
    reads the same either way.
    """
    unindented_value = False
    for line in lines[start + 1 : start + 80]:
        if not line.text.strip() or _stops(line.text):
            break
        if line.text[:1].isspace():
            return False
        if KEY_LINE.match(line.text) is None:
            unindented_value = True
    return unindented_value


def block_at(lines: list[Line], start: int, headless: bool = False) -> DescribeBlock:
    """The describe beginning at lines[start] (its `Name:` line, or the first line of an excerpt)."""
    if _is_collapsed(lines, start):
        return _collapsed_block(lines, start, headless)
    index = start + 1
    data = events_done = False
    events_seen = _starts_at_events(lines[start])
    while index < len(lines):
        text = lines[index].text
        if _stops(text):
            break
        if data:  # free text (a ConfigMap's values) runs to Events or the next heading
            if not (text.startswith("Events:") or _heading_at(lines, index)):
                index += 1
                continue
            data = False
        if not text.strip():
            after = next((k for k in range(index + 1, len(lines)) if lines[k].text.strip()), None)
            if after is None or events_done or not _goes_on_after_blank(lines, after):
                break
            index = after
            continue
        if ELISION.match(text) and not events_done and index + 1 < len(lines) and lines[index + 1].text.strip():
            index += 1  # the writer's mark of lines left out (`. . .`), the describe going on after it
            continue
        if text[:1].isspace():
            if events_done:
                break
            index += 1
            continue
        if _heading_at(lines, index):
            data = True
            index += 2
            continue
        if text in _NOTES:
            index += 1
            continue
        if (QUOTA_HEADER.match(text) or LIMITS_HEADER.match(text)) and not events_seen:
            # a quota's `Resource  Used  Hard` or a LimitRange's `Type  Resource  Min ...`
            # table, unindented, to its last row
            index += 1
            while index < len(lines) and lines[index].text.strip() and not _stops(lines[index].text):
                index += 1
            continue
        if text.rstrip() == "No events.":  # kubectl before 1.5: the describe's empty Events, its end
            index += 1
            break
        match = KEY_LINE.match(text)
        if events_seen and match is not None and match.group("key") in AFTER_EVENTS:
            events_seen = events_done = False  # (its pod names go on, indented, under it)
            index += 1
            continue
        if events_seen or match is None or not _DESCRIBE_KEY.match(match.group("key")):
            break
        if match.group("key") == "Name" and describe_starts(lines, index):
            break
        if match.group("key") == "Events":
            events_seen = True
            events_done = bool(match.group("value"))
        index += 1
    block = DescribeBlock(lines[start:index], index, False, headless)
    _take_cut_line(lines, block)
    return block


# The header of the table `kubectl describe quota` prints unindented under its Name and Scopes.
QUOTA_HEADER = re.compile(r"^Resource\s+Used\s+Hard\s*$")
# kubectl's describeLimitRange table header (a Namespace's describe indents it under Resource Limits)
LIMITS_HEADER = re.compile(r"^Type\s+Resource\s+Min\s+Max\s+Default Request\s+Default Limit"
                           r"\s+Max Limit/Request Ratio\s*$")


def _heading_at(lines: list[Line], index: int) -> bool:
    """A `Data` / `BinaryData` heading with its `====` rule under it."""
    return lines[index].text in _DATA_HEADINGS and index + 1 < len(lines) and \
        lines[index + 1].text.startswith("====")


def _goes_on_after_blank(lines: list[Line], index: int) -> bool:
    """Whether a describe goes on at lines[index] after a blank line.

    kubectl leaves blank lines inside free text (Args), before a Secret's `Type:` and `Data`, and
    before a Namespace's quota notes; a new `Name:` starts the next describe instead.
    """
    text = lines[index].text
    if text[:1].isspace() or _heading_at(lines, index) or text in _NOTES:
        return True
    match = KEY_LINE.match(text)
    key = match.group("key") if match else None
    return key is not None and key != "Name" and key in describe_layout().all_top


def _take_cut_line(lines: list[Line], block: DescribeBlock) -> None:
    """Keep the last line of the text when it is a field name cut off mid-word."""
    index = block.end
    if index == len(lines) - 1 and re.fullmatch(r"[A-Z][A-Za-z -]{0,40}", lines[index].text):
        block.cut_line = lines[index]
        block.end = index + 1


def _starts_at_events(line: Line) -> bool:
    """Whether a describe excerpt begins at its Events heading: what follows its rows is then
    no field of it (block_at and _collapsed_block agree on it)."""
    return KEY_LINE.match(line.text) is not None and line.text.startswith("Events:")


def _collapsed_block(lines: list[Line], start: int, headless: bool) -> DescribeBlock:
    index = start + 1
    data = events_done = False
    events_seen = _starts_at_events(lines[start])
    while index < len(lines):
        text = lines[index].text
        if not text.strip() or _stops(text):
            break
        words = text.split()
        if data and not text.startswith("Events:"):
            index += 1
            continue
        data = False
        if events_seen:
            if events_done or not (words[0] in _EVENT_TYPES or words[0] in ("Type", "----")):
                break
            index += 1
            continue
        if text in _DATA_HEADINGS and index + 1 < len(lines) and lines[index + 1].text.startswith("===="):
            data = True
            index += 2
            continue
        match = KEY_LINE.match(text)
        if match and match.group("key") == "Events":
            events_seen = True
            events_done = bool(match.group("value"))
        index += 1
    return DescribeBlock(lines[start:index], index, True, headless)


def reindent(lines: list[Line], kind: str, layout: DescribeLayout) -> list[Line]:
    """Restore the nesting of a describe pasted with every line at column 0, from its kind's layout.

    >>> lines = [Line(1, "Name: web"), Line(2, "Labels: a=b"), Line(3, "c=d"), Line(4, "IPs:"),
    ...          Line(5, "IP: 10.0.0.1"), Line(6, "Containers:"), Line(7, "app:"),
    ...          Line(8, "Image: nginx"), Line(9, "Limits:"), Line(10, "cpu: 1")]
    >>> [line.text for line in reindent(lines, "Pod", describe_layout())]
    ['Name:  web', 'Labels:  a=b', '         c=d', 'IPs:', '  IP:  10.0.0.1', 'Containers:', '  app:', '    Image:  nginx', '    Limits:', '      cpu: 1']
    """
    top = layout.top.get(kind, ())
    order = {key: position for position, key in enumerate(top)}
    out: list[Line] = []
    section = ""
    item = None
    field = ""
    value_col: int | None = None
    data = False
    for line in lines:
        text = _COMMENT.sub("", line.text.strip())
        if data and not text.startswith("Events:"):
            out.append(line)
            continue
        data = False
        if text in _DATA_HEADINGS or text.startswith("===="):
            data = text.startswith("====")
            out.append(Line(line.no, text))
            continue
        match = KEY_LINE.match(text)
        key = match.group("key") if match else None
        value = (match.group("value") or "").strip() if match else ""
        nested_section = section in layout.items or section in layout.fields or section in layout.tables
        if item is not None and key in item.fields:
            field = key
            out.append(_field(line.no, 4, key, value))
            value_col = 4 + len(key) + 3 if value else None
        elif key in order and (not nested_section or order[key] >= order.get(section, -1)):
            section, item, field = key, layout.items.get(key), ""
            out.append(_field(line.no, 0, key, value))
            value_col = len(key) + 3 if value else None
        elif item is not None and match is not None and not value:
            field, value_col = "", None  # a container or volume name
            out.append(Line(line.no, f"  {key}:"))
        elif item is not None and field in item.nested:
            out.append(Line(line.no, "      " + text))
        elif section in layout.fields or section in layout.tables:
            out.append(Line(line.no, "  " + text))
        elif value_col is not None:
            out.append(Line(line.no, " " * value_col + text))
        else:
            out.append(Line(line.no, "  " + text))
    return out


def _field(no: int, indent: int, key: str, value: str) -> Line:
    return Line(no, " " * indent + (f"{key}:  {value}" if value else f"{key}:"))
