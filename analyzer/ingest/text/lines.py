"""Pasted text as numbered lines, with the wrappers around kubectl output recognised.

HolmesGPT tool fixtures start each call with JSON metadata lines (the tool, its parameters and the
kubectl invocation), then `stdout:`, the output, and `stderr:`; the metadata tells which command
produced the output that follows.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime

import orjson

from analyzer.ingest.text.commands import Command, command_in, parse_command
from analyzer.ingest.text.transcript import BLOCKQUOTE, BLOCKQUOTED_TEXT

_BOX = re.compile(r"[\u2500-\u257f]")
# A line by which a writer says rows or lines were cut out of an output (`...`, `. . .`, `[...]`,
# `<snip>`, the `</snip>` that closes it).
ELISION = re.compile(r"^\s*(?:[.…](?: ?[.…])+|[\[(<]\s*/?\s*(?:\.{3}|…|snip\w*|truncated|omitted)[^\])>]*[\])>]|# ?\.\.\..*)\s*$", re.I)


@dataclass(frozen=True, slots=True)
class Line:
    """One line of the input: 1-based number and text (line ending and trailing blanks gone)."""

    no: int
    text: str

    @property
    def indent(self) -> int:
        return len(self.text) - len(self.text.lstrip(" "))


def split_lines(text: str, skip_leading_blank_lines: bool = False) -> list[Line]:
    """Number the lines of a paste, whatever its line endings; drop a BOM and trailing blanks.
    With `skip_leading_blank_lines`, the empty lines before the first one with text are left
    out (numbers stay the file's): a transcript's block is laid at its own line numbers.

    >>> split_lines("\\ufeffa \\r\\nb\\rc\\n")
    [Line(no=1, text='a'), Line(no=2, text='b'), Line(no=3, text='c')]
    >>> split_lines("\\n\\n\\nNAME\\n", skip_leading_blank_lines=True)
    [Line(no=4, text='NAME')]
    """
    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    first = 1
    if skip_leading_blank_lines:
        body = text.lstrip("\n")
        first += len(text) - len(body)
        text = body
    raw_lines = text.split("\n")
    if raw_lines and raw_lines[-1] == "":
        raw_lines.pop()  # the newline ending the last line starts no line of its own
    return [Line(no, raw.rstrip()) for no, raw in enumerate(raw_lines, start=first)]


# The first line of a table (`NAME  READY ...`, `NAMESPACE  NAME ...`, `LAST SEEN  TYPE ...`) or
# of a describe (`Name:  web-1`): what an indented paragraph must open with to be kubectl's.
_OUTPUT_HEAD = re.compile(r"^(?:(?:NAME|NAMESPACE|LAST SEEN)\s{2,}[A-Z]|Name:\s+\S)")


def undented(lines: list[Line]) -> list[Line]:
    """Lines of a paragraph indented as a whole, the indent taken off, when the paragraph opens
    with a table's header or a describe's Name: kubectl output pasted into a markdown list item
    or a ticket's quote (ingress-nginx#9248's `get all -A -o wide` four spaces in). A paragraph
    is a run of lines between blank ones; other lines are not touched.

    >>> [ln.text for ln in undented(split_lines("    NAME   READY\\n    web-1  1/1\\n\\n  prose\\n"))]
    ['NAME   READY', 'web-1  1/1', '', '  prose']

    The indent may hold tabs, measured as a terminal shows them, and the table may close a
    paragraph whose first lines are at the margin: a CI log's kubectl output as Ginkgo reports
    it, under its `cmd:` and `Stdout:` lines, the header behind a space, a tab and a space and
    each row behind a tab and a space (cilium/cilium#17307's GKE `get pods -o wide -A`).

    >>> [ln.text for ln in undented(split_lines("Stdout:\\n \\t NAME   READY\\n\\t web-1  1/1\\n"))]
    ['Stdout:', 'NAME   READY', 'web-1  1/1']
    """
    if not any(ln.text[:1] in (" ", "\t") for ln in lines):
        return lines
    out: list[Line] = []
    start = 0
    while start < len(lines):
        if not lines[start].text:
            out.append(lines[start])
            start += 1
            continue
        end = start
        while end < len(lines) and lines[end].text:
            end += 1
        paragraph = lines[start:end]
        head = _indented_tail(paragraph)
        pad = min(_indent_width(ln.text) for ln in paragraph[head:])
        if pad and _OUTPUT_HEAD.match(_dedented(paragraph[head].text, pad)) \
                and (head == 0 or not paragraph[head].text.lstrip(" \t").startswith("Name:")
                     or command_in(paragraph[head - 1].text) is not None):
            out.extend(paragraph[:head])
            out.extend(Line(ln.no, _dedented(ln.text, pad)) for ln in paragraph[head:])
        else:
            out.extend(paragraph)
        start = end
    return out


def _indented_tail(paragraph: list[Line]) -> int:
    """Where the paragraph's closing run of indented lines starts, below lines at the margin
    (the command that printed them, a CI log's `Stdout:`); 0 if none is at the margin. A
    describe's `Name:` opens such a run only right under its command (kubernetes/website's
    debug-application-introspection: `$ kubectl describe pod X`, the describe two spaces in)."""
    at = len(paragraph)
    while at > 0 and _indent_width(paragraph[at - 1].text):
        at -= 1
    return at if 0 < at < len(paragraph) else 0


def _leading_blanks(text: str) -> str:
    return text[:len(text) - len(text.lstrip(" \t"))]


def _indent_width(text: str) -> int:
    """The columns a line's leading blanks take on a terminal (a tab to the next multiple of 8)."""
    return len(_leading_blanks(text).expandtabs(8))


def _dedented(text: str, pad: int) -> str:
    """The line `pad` columns further left, what is left of its indent as spaces."""
    lead = _leading_blanks(text)
    return " " * (len(lead.expandtabs(8)) - pad) + text[len(lead):]


def is_comment(text: str) -> bool:
    """A `# note` line someone typed between rows (not a `# kubectl ...` root prompt).

    >>> is_comment("# daemonSet なので 3 つある"), is_comment("#"), is_comment("#1 thing")
    (True, True, False)
    """
    return text == "#" or text.startswith("# ")


def has_box_drawing(text: str) -> bool:
    """Whether a line holds box-drawing characters at all."""
    return bool(_BOX.search(text))


@dataclass(frozen=True, slots=True)
class ToolCall:
    """A HolmesGPT metadata line: the command it ran (when it tells) and its output format."""

    command: Command | None
    structured: bool  # the invocation printed YAML or JSON, not kubectl text


def tool_call(text: str) -> ToolCall | None:
    """Read a HolmesGPT metadata line; None when the line is not one.

    >>> tool_call('{"toolset_name": "kubernetes/core", "tool_name": "kubectl_describe", '
    ...           '"match_params": {"kind": "node", "name": "n1"}}').command.text
    'kubectl describe node n1'
    """
    if not (text.startswith("{") and text.endswith("}")):
        return None
    try:
        data = orjson.loads(text)
    except orjson.JSONDecodeError:
        return None
    if not isinstance(data, dict) or not ({"toolset_name", "schema_version"} & data.keys()):
        return None
    invocation = data.get("invocation")
    if isinstance(invocation, str) and invocation.startswith(("kubectl ", "oc ")):
        command = parse_command(invocation)
    else:
        command = _command_from_params(str(data.get("tool_name", "")),
                                       data.get("match_params") or data.get("params") or {})
    structured = bool(command and (command.output or "").split("=")[0] in ("yaml", "json"))
    return ToolCall(command, structured)


def _command_from_params(tool: str, params: dict) -> Command | None:
    """The command a tool call ran, rebuilt from its name and parameters when not recorded."""
    if not isinstance(params, dict) or not params.get("kind"):
        return None
    if "describe" in tool:
        verb = "describe"
    elif "lineage" in tool:
        verb = "lineage"
    elif "get" in tool or "find" in tool:
        verb = "get"
    else:
        return None
    parts = ["kubectl", verb, str(params["kind"])]
    if params.get("name"):
        parts.append(str(params["name"]))
    if params.get("namespace"):
        parts += ["-n", str(params["namespace"])]
    elif "in_cluster" in tool or "all_namespaces" in tool:
        parts.append("-A")
    if "yaml" in tool:
        parts += ["-o", "yaml"]
    return parse_command(" ".join(parts))


_PIPE_ROW = re.compile(r"^\s*\|(.*)\|\s*$")
_PIPE_RULE = re.compile(r"^\s*\|(\s*:?-{2,}:?\s*\|)+\s*$")


def unpiped(lines: list[Line]) -> list[Line]:
    """Markdown pipe tables (`| NAME | READY |`, a `|--|--|` rule, then rows), as people paste a
    kubectl table into an issue, laid out again as the aligned columns kubectl printed. The header
    moves onto the rule's line and its own line becomes blank; every row keeps its number.

    >>> [ln.text for ln in unpiped(split_lines("| NAME | READY |\\n|--|--|\\n|web-1  |  1/1 |\\n"))]
    ['', 'NAME    READY', 'web-1   1/1']
    """
    if not any(_PIPE_RULE.match(line.text) for line in lines):
        return lines
    out = list(lines)
    index = 0
    while index < len(out):
        if index + 1 < len(out) and _PIPE_ROW.match(out[index].text) and _PIPE_RULE.match(out[index + 1].text):
            end = index + 2
            while end < len(out) and _PIPE_ROW.match(out[end].text) and not _PIPE_RULE.match(out[end].text):
                end += 1
            rows = [[cell.strip() for cell in _PIPE_ROW.match(out[i].text).group(1).split("|")]
                    for i in [index, *range(index + 2, end)]]
            width = max(len(row) for row in rows)
            widths = [max(len(row[c]) if c < len(row) else 0 for row in rows) for c in range(width)]
            laid = ["   ".join(cell.ljust(widths[c]) for c, cell in enumerate(row)).rstrip() for row in rows]
            # the header takes the rule's line, so that the rows follow it with no blank between
            out[index] = Line(out[index].no, "")
            for i, text in zip(range(index + 1, end), laid, strict=True):
                out[i] = Line(out[i].no, text)
            index = end
        else:
            index += 1
    return out


def unticked(lines: list[Line]) -> list[Line]:
    """Lines pasted in a one-backtick code span over several lines (as in an issue: a tick typed
    before the first copied line and after the last), without the ticks: the span opens with a
    line that begins with a lone backtick and closes at the first line ending with one, before
    a blank line (markdown ends a span there) or at the end of the paste (an excerpt cut inside
    the span). Nothing else is touched.

    >>> [ln.text for ln in unticked(split_lines("`NAME    READY\\nweb-1   1/1`\\n\\nthanks"))]
    ['NAME    READY', 'web-1   1/1', '', 'thanks']
    >>> [ln.text for ln in unticked(split_lines("`kubectl` says\\nno`\\n"))]
    ['`kubectl` says', 'no`']
    """
    out = list(lines)
    index = 0
    while index < len(out):
        text = out[index].text
        if not (text.startswith("`") and text.count("`") == 1):
            index += 1
            continue
        end = index + 1
        while end < len(out) and out[end].text.strip() and "`" not in out[end].text:
            end += 1
        closing = end < len(out) and out[end].text.endswith("`") and out[end].text.count("`") == 1
        if closing or (end == len(out) and end > index + 1):
            out[index] = Line(out[index].no, text[1:])
            if closing:
                out[end] = Line(out[end].no, out[end].text[:-1].rstrip())
            index = end + 1
        else:
            index += 1
    return out


def unquoted(lines: list[Line]) -> list[Line]:
    """Lines of a markdown blockquote without its marks, as a ticket quotes the customer's paste
    (`> Events:`, `> Warning  FailedMount ...`): the marks pushed every row off its columns and
    hid a describe's headings. The indent after the mark is kubectl's own and stays.

    >>> [ln.text for ln in unquoted(split_lines("> Events:\\n>\\n>   Warning  FailedMount  2m  kubelet  x\\nthanks"))]
    ['Events:', '', '  Warning  FailedMount  2m  kubelet  x', 'thanks']
    >>> [ln.text for ln in unquoted(split_lines("cat <<EOF\\n>\\nEOF"))]
    ['cat <<EOF', '>', 'EOF']
    """
    # (a file whose only `>` lines are lone ones, a shell's continuation prompt, is not quoting)
    if not any(BLOCKQUOTED_TEXT.match(line.text) for line in lines):
        return lines
    return [Line(ln.no, BLOCKQUOTE.sub("", ln.text, count=1)) if BLOCKQUOTE.match(ln.text) else ln
            for ln in lines]


# A marker a writer put before a line of output to point at it (`👉Conditions:`, `➡️ web-1  0/1`):
# kubectl never starts a line with a pictograph; box drawing (k9s, `│` log prefixes) is no marker.
_MARKER = re.compile(r"^(?:(?![\u2500-\u259f])[\u2190-\u21ff\u2600-\u27bf\u2b00-\u2bff\U0001f000-\U0001faff]"
                     r"[\ufe0f\u200d]*)+ ?")


def unmarked(lines: list[Line]) -> list[Line]:
    """Lines without the pictograph a writer put at their start to point at them (a runbook's
    `👉vantiq-0   0/1   Init:0/3`): the marker pushed the row one place off its columns, and a
    describe's `👉Conditions:` is no section kubectl prints. A zsh theme's prompt (`➜  ~ kubectl
    get pods -n shop`) is no marker: its command is read with the folder before it. Nothing else is
    touched.

    >>> [ln.text for ln in unmarked(split_lines("NAME      READY\\n👉web-1    0/1\\n│ a log line\\n"))]
    ['NAME      READY', 'web-1    0/1', '│ a log line']
    >>> [ln.text for ln in unmarked(split_lines("➜  ~ kubectl get po -n shop\\n👉web-1    0/1\\n"))]
    ['➜  ~ kubectl get po -n shop', 'web-1    0/1']
    """
    if not any(_MARKER.match(line.text) for line in lines):
        return lines
    return [Line(ln.no, _MARKER.sub("", ln.text, count=1)) if _MARKER.match(ln.text) and command_in(ln.text) is None
            else ln for ln in lines]


# An events table's rows (`kubectl get events`, with NAMESPACE under -A) and a describe's Events
# rule: people paste them without the header line above them (copied from the first row, or the
# header fell off an excerpt). Their shape is kubectl's own; the header is put back above them.
# `kubectl events` (1.26+) prints the same columns with a repeated event's count in its age,
# `3m40s (x132 over 31m)`, and the object's kind as written, `Pod/web-1`.
_EVENT_AGE = r"(?:\d+[smhdy])+|<unknown>|<invalid>"
_EVENT_ROW = re.compile(
    rf"^(?:(?P<ns>[a-z0-9][a-z0-9-]*)\s+)?(?P<age>(?:{_EVENT_AGE})(?: \(x\d+ over (?:{_EVENT_AGE})\))?)\s+"
    r"(?P<type>Normal|Warning)\s+(?P<reason>[A-Z][A-Za-z]+)\s+(?P<object>[A-Za-z][A-Za-z.]*/[A-Za-z0-9][\w.:-]*)\s+\S"
)
_EVENTS_RULE = re.compile(r"^(\s+)-{4}(\s+)-{6}(\s+)-{4}(\s+)-{4}(\s+)-{7}\s*$")
# A describe's Events row (`  Warning  Failed  6m4s (x2 over 6m17s)  kubelet, ip-...  Error: ...`)
# pasted without its Events heading, header and rule; a paste in a one-backtick code span opens
# with a backtick where the row's indent begins (aws-ebs-csi-driver#477).
DESCRIBE_EVENT_ROW = re.compile(
    rf"^(?P<tick>`?)(?P<indent>\s*)(?P<type>Normal|Warning)\s{{2,}}(?P<reason>[A-Z][A-Za-z]+)\s{{2,}}"
    rf"(?P<age>(?:{_EVENT_AGE})(?: \(x\d+ over (?:{_EVENT_AGE})\))?)\s{{2,}}"
    r"(?P<source>\S(?:\S| (?! ))*)\s{2,}(?P<message>\S)"
)


# The start of a describe's Events row, its message empty or not (kube-proxy's `Starting`
# events on a node carry none).
_DESCRIBE_EVENT_ROW_START = re.compile(
    rf"^`?\s*(?:Normal|Warning)\s{{2,}}[A-Z][A-Za-z]+\s{{2,}}(?:{_EVENT_AGE})(?: \(x\d+ over (?:{_EVENT_AGE})\))?\s{{2,}}\S"
)


def restored_event_headers(lines: list[Line]) -> list[Line]:
    """Event rows and a describe's Events rule pasted without their header, given it again
    (at the first row's or the rule's line number, so that every row keeps its own).

    >>> rows = split_lines("2m57s   Warning   FailedScheduling   pod/keeper-5   0/1 nodes are available")
    >>> [ln.text for ln in restored_event_headers(rows)]
    ['LAST SEEN TYPE      REASON             OBJECT         MESSAGE', '2m57s   Warning   FailedScheduling   pod/keeper-5   0/1 nodes are available']
    >>> rule = split_lines("  ----   ------   ----   ----   -------\\n  Normal   Pulled   3m   kubelet   ok")
    >>> [ln.text for ln in restored_event_headers(rule)][:3]
    ['Events:', '  Type   Reason   Age    From   Message', '  ----   ------   ----   ----   -------']
    >>> flush = split_lines("Warning  FailedMount  2m2s (x15 over 33m)  kubelet, aks-1  Unable to mount\\n"
    ...                     "Warning  FailedAttachVolume  <invalid> (x18 over 34m)  attachdetach-controller  failed")
    >>> [ln.text for ln in restored_event_headers(flush)][1:3]
    ['  Type     Reason       Age                  From           Message', '  ----     ------       ----                 ----           -------']

    One row alone is a describe's when its From is a component's name, not prose in columns:
    >>> lone = split_lines("Warning  FailedMount  15s  kubelet, 9aeadd37  MountVolume.SetUp failed")
    >>> [ln.text for ln in restored_event_headers(lone)][0]
    'Events:'
    >>> len(restored_event_headers(split_lines("Warning  Reminder  3m  The Team  rotate the keys")))
    1

    A row with no message (kube-proxy's `Starting` on a node) is a row of the table it is in:
    >>> node = split_lines("Events:\\n  Type    Reason    Age  From        Message\\n  ----    ------    ---  ----        -------\\n"
    ...                    "  Normal  Starting  4m   kube-proxy\\n  Normal  Starting  4m   kubelet     Starting kubelet.\\n"
    ...                    "  Normal  Started   3m   kubelet     Node is ready")
    >>> len(restored_event_headers(node)) == len(node)
    True
    """
    lines = _indented_event_rows(lines)
    out: list[Line] = []
    for index, line in enumerate(lines):
        before = next((ln.text for ln in reversed(out) if ln.text.strip()), "")
        if (m := _EVENT_ROW.match(line.text)) and not _EVENT_ROW.match(before) and "REASON" not in before:
            starts = [m.start(g) for g in ("ns", "age", "type", "reason", "object") if m.start(g) >= 0]
            starts.append(m.end("object") + len(line.text[m.end("object"):]) - len(line.text[m.end("object"):].lstrip()))
            names = ["NAMESPACE"] * bool(m.group("ns")) + ["LAST SEEN", "TYPE", "REASON", "OBJECT", "MESSAGE"]
            out.append(Line(line.no, _laid(names, starts)))
        elif (m := DESCRIBE_EVENT_ROW.match(line.text)) and not _DESCRIBE_EVENT_ROW_START.match(before) \
                and "Reason" not in before and not is_rule_line(before) \
                and (index + 1 < len(lines) and DESCRIBE_EVENT_ROW.match(lines[index + 1].text)
                     or before.strip() == "Events:" or _describe_command(_before_cut(out))
                     or _quoted_event_row(m)):
            # two rows at least: one such line alone may be prose laid out in columns, unless it
            # is under the Events heading or all a describe printed, maybe past a mark of what was
            # cut (jonashackt/tekton-argocd-eks#118: `k describe pvc X` quoted by its one
            # ExternalProvisioning row; kubernetes/kubernetes#82453: `oc describe pod X`, ` .`,
            # then its one FailedMount row), or its From is a component's name (mdn/infra#178:
            # one SystemOOM row of `kubelet, <host>`; kubo-release#260: one FailedMount row)
            starts = [m.start(g) for g in ("type", "reason", "age", "source", "message")]
            if before.strip() != "Events:":
                out.append(Line(line.no, "Events:"))
            out.append(Line(line.no, _laid(["Type", "Reason", "Age", "From", "Message"], starts)))
            out.append(Line(line.no, _laid(["----", "------", "----", "----", "-------"], starts)))
            if m.group("tick"):
                line = Line(line.no, " " + line.text[1:])
        elif (m := _EVENTS_RULE.match(line.text)) and "Reason" not in before:
            if before.strip() != "Events:":
                out.append(Line(line.no, "Events:"))
            starts = [m.start(1) + len(m.group(1))]
            for group in range(2, 6):
                starts.append(m.end(group))
            out.append(Line(line.no, _laid(["Type", "Reason", "Age", "From", "Message"], starts)))
        out.append(line)
    return out


# A Kubernetes component's name as an event's From gives it (k8s.io/kubernetes: `kubelet`,
# `default-scheduler`, `attachdetach-controller`, `horizontal-pod-autoscaler`; a CSI sidecar's
# `external-provisioner`), and kubectl's older `kubelet, <host>`.
_COMPONENT_SOURCE = re.compile(
    r"(?:kubelet|kube-proxy|karpenter|[a-z][a-z0-9.-]*-(?:scheduler|controller|controller-manager|provisioner"
    r"|autoscaler|attacher|resizer|operator))(?:, [\w.-]+)?")


def _quoted_event_row(row: re.Match) -> bool:
    """Whether a describe's Events row quoted alone is kubectl's, not prose laid out in columns:
    its From is a component's name (a ticket's one FailedMount row: jhunt/k8s-boshrelease#17,
    cloudfoundry-incubator/kubo-release#260, tenortim/k8s_isi_provisioner#9)."""
    return _COMPONENT_SOURCE.fullmatch(row.group("source")) is not None


def _before_cut(out: list[Line]) -> str:
    """The last line with text before a writer's marks of what was cut (`...`, a lone `.`)."""
    return next((ln.text for ln in reversed(out)
                 if ln.text.strip() and not ELISION.match(ln.text) and ln.text.strip() not in (".", "…")), "")


def _describe_command(text: str) -> bool:
    command = command_in(text)
    return command is not None and command.verb == "describe"


# A describe's Events table as kubectl printed it before 1.10 (tab-aligned): `FirstSeen  LastSeen
# Count  From  SubObjectPath  Type  Reason  Message` (`SubobjectPath` before 1.5).
_OLD_EVENTS_HEADER = re.compile(r"^(?P<indent>\s*)FirstSeen\s+LastSeen\s+Count\s+From\s+(?:Sub[Oo]bjectPath\s+)?Type\s+Reason\s+Message\s*$")
_OLD_EVENT_ROW = re.compile(
    rf"^\s*(?P<first>{_EVENT_AGE})\s+(?P<last>{_EVENT_AGE})\s+(?P<count>\d+)\s+(?P<source>\S.*?)\s+"
    r"(?:(?P<path>spec\.\S+|\S+\{\S+\})\s+)?(?P<type>Normal|Warning)\s+(?P<reason>[A-Z][A-Za-z]+)(?:\s+(?P<message>\S.*))?$"
)


# The same table as kubectl 1.0 printed it: no Type column (events had none before 1.2), the times
# as dates (RFC 1123 with a numeric zone), the reasons in lower case (kubernetes docs/user-guide/
# introspection-and-debugging.md of 1.0, kubernetes#11453): `FirstSeen  LastSeen  Count  From
# SubobjectPath  Reason  Message`. A row's cells are tab-separated as kubectl wrote them, or apart
# by runs of blanks where a paste turned the tabs to spaces (kubernetes#9207: `... -0700 6   {scheduler }`).
_V1_0_EVENTS_HEADER = re.compile(r"^(?P<indent>\s*)FirstSeen\s+LastSeen\s+Count\s+From\s+Sub[Oo]bjectPath\s+Reason\s+Message\s*$")
_RFC1123Z = r"[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} [+-]\d{4}"
_V1_0_EVENT_ROW = re.compile(
    rf"^\s*(?P<first>{_RFC1123Z})\s+(?P<last>{_RFC1123Z})\s+(?P<count>\d+)\s+(?P<source>\{{[^}}]*\}}|\S+)(?P<rest>\s.*)$"
)
_V1_0_REASON = re.compile(r"[a-zA-Z]+")


def _v1_0_event_cells(text: str) -> list[str] | None:
    """A kubectl 1.0 describe's Events row as the cells of today's layout (Type, Reason, Age, From,
    Message), the age its times in RFC 3339 (`2015-07-10T07:01:30Z (x21 over 2015-07-10T06:56:21Z)`);
    None where the row does not have that shape.

    >>> _v1_0_event_cells("  Thu, 09 Jul 2015 23:56:21 -0700\\tFri, 10 Jul 2015 00:01:30 -0700\\t21\\t{scheduler }"
    ...                   "\\t\\t\\tfailedScheduling\\tFailed for reason PodFitsResources and possibly others")
    ['', 'failedScheduling', '2015-07-10T07:01:30Z (x21 over 2015-07-10T06:56:21Z)', '{scheduler }', 'Failed for reason PodFitsResources and possibly others']
    """
    row = _V1_0_EVENT_ROW.match(text)
    if row is None:
        return None
    # after the source: the subobject's path (`spec.containers{nginx}`, `implicitly required
    # container POD`: never one bare word) or none, the reason, the message, apart by tabs or
    # runs of blanks
    cell, _, rest = _split_cell(row.group("rest"))
    if not _V1_0_REASON.fullmatch(cell):
        cell, _, rest = _split_cell(rest)
    if not _V1_0_REASON.fullmatch(cell):
        return None
    try:
        first, last = (_rfc3339(row.group(g)) for g in ("first", "last"))
    except ValueError:  # no such day (`Mon, 31 Feb ...`): not kubectl's
        return None
    count = int(row.group("count"))
    age = last + (f" (x{count} over {first})" if count > 1 else "")
    return ["", cell, age, row.group("source"), rest.strip()]


def _split_cell(text: str) -> tuple[str, str, str]:
    """A row's next cell, the blanks after it, and the rest (cells apart by tabs or 2+ blanks)."""
    parts = re.split(r"(\t+|\s{2,})", text.strip(), maxsplit=1)
    return (parts[0], parts[1], parts[2]) if len(parts) == 3 else (parts[0], "", "")


def _rfc3339(text: str) -> str:
    """An RFC 1123 time with a numeric zone (Go's RFC1123Z) in RFC 3339, in UTC."""
    return datetime.strptime(text, "%a, %d %b %Y %H:%M:%S %z").astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def modernised_event_tables(lines: list[Line]) -> list[Line]:
    """A describe's Events table in the layout of kubectl before 1.10 (oracle/terraform-kubernetes-
    installer#154, 2018: `FirstSeen  LastSeen  Count  From  SubObjectPath  Type  Reason  Message`,
    tab-aligned) laid out as kubectl prints it now (`Type  Reason  Age  From  Message`, the age
    `LastSeen (xCount over FirstSeen)`), each row at its own line; a row that does not fit ends it.

    >>> old = split_lines("Events:\\n  FirstSeen\\tLastSeen\\tCount\\tFrom\\t\\tSubObjectPath\\tType\\t\\tReason\\t\\tMessage\\n"
    ...                   "  ---------\\t--------\\t-----\\t----\\t\\t-------------\\t--------\\t------\\t\\t-------\\n"
    ...                   "  10m\\t\\t1m\\t\\t5\\tkubelet, node-1\\t\\t\\tWarning\\t\\tFailedMount\\tUnable to mount")
    >>> [ln.text for ln in modernised_event_tables(old)][1:]
    ['  Type     Reason       Age              From            Message', '  ----     ------       ----             ----            -------', '  Warning  FailedMount  1m (x5 over 10m)  kubelet, node-1  Unable to mount']
    """
    starts = [i for i, ln in enumerate(lines) if "FirstSeen" in ln.text and (
        _OLD_EVENTS_HEADER.match(ln.text.expandtabs(8)) or _V1_0_EVENTS_HEADER.match(ln.text.expandtabs(8)))]
    if not starts:
        return lines
    out = list(lines)
    for start in reversed(starts):
        header = _OLD_EVENTS_HEADER.match(lines[start].text.expandtabs(8))
        v1_0 = header is None
        indent = (header or _V1_0_EVENTS_HEADER.match(lines[start].text.expandtabs(8))).group("indent")
        # a table pasted without the `Events:` above it (kubernetes#35288: a GKE node's events
        # under "Here is even log for one of the nodes") is given it back, at kubectl's indent
        headless = next((ln.text.strip() for ln in reversed(lines[:start]) if ln.text.strip()), "") != "Events:"
        if headless:
            indent = "  "
        rule = start + 1 if start + 1 < len(lines) and is_rule_line(lines[start + 1].text.expandtabs(8)) else None
        rows: list[tuple[int, list[str]]] = []
        index = (rule if rule is not None else start) + 1
        while index < len(lines):
            if v1_0:
                if (cells := _v1_0_event_cells(lines[index].text)) is None:
                    break
                rows.append((index, cells))
            elif m := _OLD_EVENT_ROW.match(lines[index].text.expandtabs(8)):
                count = int(m.group("count"))
                age = m.group("last") + (f" (x{count} over {m.group('first')})" if count > 1 else "")
                rows.append((index, [m.group("type"), m.group("reason"), age, m.group("source").strip(), m.group("message") or ""]))
            else:
                break
            index += 1
        if not rows:
            continue
        names = ["Type", "Reason", "Age", "From", "Message"]
        widths = [max(len(names[c]), *(len(cells[c]) for _, cells in rows)) for c in range(4)]
        column = [len(indent)]
        for width in widths:
            column.append(column[-1] + width + 2)
        laid = [(at, _laid(cells, column) if cells[4] else _laid(cells[:4], column[:4])) for at, cells in rows]
        out[start] = Line(lines[start].no, _laid(names, column))
        if rule is not None:
            out[rule] = Line(lines[rule].no, _laid(["----", "------", "----", "----", "-------"], column))
        for at, text in laid:
            out[at] = Line(lines[at].no, text)
        if headless:
            out.insert(start, Line(lines[start].no, "Events:"))
    return out


def _indented_event_rows(lines: list[Line]) -> list[Line]:
    """A describe's Events rows pasted flush left (an issue body outside a code block loses the
    indent: Azure/AKS#1567), two at least in a row, one right under its `Events:` heading (a
    ticket's quote of one FailedMount row) or one of the kubelet's warnings on its own node,
    given the indent kubectl prints them with.

    >>> [ln.text for ln in _indented_event_rows(split_lines("Events:\\nWarning  FailedMount  2m1s  kubelet  x"))]
    ['Events:', '  Warning  FailedMount  2m1s  kubelet  x']
    """
    flush = {i: m for i, ln in enumerate(lines)
             if ln.text[:1] in ("N", "W") and (m := DESCRIBE_EVENT_ROW.match(ln.text)) and not m.group("indent")}
    runs = {i for i, m in flush.items() if i - 1 in flush or i + 1 in flush or (i and lines[i - 1].text == "Events:")
            or _quoted_event_row(m)}
    if not runs:
        return lines
    return [Line(ln.no, "  " + ln.text) if i in runs else ln for i, ln in enumerate(lines)]


def is_rule_line(text: str) -> bool:
    """A table header's underline (`----   ------`)."""
    return "-" in text and set(text.strip()) <= {"-", " "}


def _laid(names: list[str], starts: list[int]) -> str:
    """Column names written at the given starts (at least one blank between two)."""
    text = ""
    for name, start in zip(names, starts, strict=True):
        text += " " * max(start - len(text), 1 if text else start) + name
    return text
