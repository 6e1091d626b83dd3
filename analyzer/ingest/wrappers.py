"""Wrappers people and tools put around kubectl output, removed so the output itself can be read.

Two kinds are known: tool-call records (HolmesGPT fixtures: JSON metadata lines, `stdout:`,
the kubectl output, `stderr:`), and terminal frames (k9s and `kubectl lineage` draw `│` at both
ends of every line). Line numbers are kept: removed lines become blank lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

import orjson

from analyzer.safeyaml import load_yaml

# Keys that mark a JSON line as tool-call metadata rather than a Kubernetes document.
_TOOL_KEYS = ("toolset_name", "tool_name", "schema_version", "invocation")
_FRAME = "│"
# A template's `{param}` and its optional `[...]` parts (tool_commands.yaml).
_PLACEHOLDER = re.compile(r"\{(\w+)\}")
_OPTIONAL = re.compile(r"\[([^\]]*)\]")
# The quoted output of newer records: `stdout:` then ` "NAME ...` ... `..."` (a JSON string
# written out with its line breaks); logs as `"data": "...`.
_QUOTE_OPEN = re.compile(r'^\s*(?:"data":\s*)?"')
_QUOTE_CLOSE = re.compile(r'(?<!\\)"\s*,?\s*$')
_ESCAPE = re.compile(r'\\(["t\\])')
_UNESCAPED = {'"': '"', "t": "\t", "\\": "\\"}
_BORDER = re.compile(r"^[\s┌┐└┘├┤┬┴┼─═╭╮╯╰│]*$")


@dataclass(frozen=True, slots=True)
class Unwrapped:
    """The kubectl output inside a tool-call record, on its original lines."""

    body: str  # header and trailer lines blanked, so line numbers match the file
    command: str | None  # the kubectl command the tool ran, when the header says it
    header_lines: int
    trailer: str  # what followed `stderr:` (empty when the command wrote nothing there)

    def body_with_prompt(self) -> str:
        """The body with the command as a `$ kubectl ...` prompt on the last header line.

        Text parsers take a table's kind and namespace from the command before it.
        """
        if not self.command or not self.header_lines:
            return self.body
        lines = self.body.split("\n")
        lines[self.header_lines - 1] = f"$ {self.command}"
        return "\n".join(lines)


def _json_line(line: str) -> dict | None:
    s = line.strip()
    if not (s.startswith("{") and s.endswith("}")):
        return None
    try:
        value = orjson.loads(s)
    except orjson.JSONDecodeError:
        return None
    return value if isinstance(value, dict) else None


@cache
def _tool_commands() -> dict[str, str]:
    data = load_yaml(resources.files("analyzer.ingest").joinpath("tool_commands.yaml").read_text("utf-8"))
    return dict(data["tools"])


def command_from_params(tool: object, params: object) -> str | None:
    """The kubectl command a tool ran, from its name and params (tool_commands.yaml); None when
    the tool is not known or a param the command needs is missing.

    >>> command_from_params("kubectl_describe", {"kind": "Deployment", "name": "crashpod", "namespace": "default"})
    'kubectl describe Deployment crashpod -n default'
    >>> command_from_params("kubectl_describe", {"kind": "node", "name": "n1"})
    'kubectl describe node n1'
    >>> command_from_params("kubectl_get_by_kind_in_namespace", {"kind": "pod"}) is None
    True
    """
    template = _tool_commands().get(tool) if isinstance(tool, str) else None
    if template is None or not isinstance(params, dict):
        return None

    def value(name: str) -> str | None:
        v = params.get(name)
        return str(v) if isinstance(v, (str, int)) and str(v).strip() and " " not in str(v).strip() else None

    def optional(m: re.Match[str]) -> str:
        names = _PLACEHOLDER.findall(m.group(1))
        return m.group(1) if all(value(n) for n in names) else ""

    text = _OPTIONAL.sub(optional, template)
    if any(value(n) is None for n in _PLACEHOLDER.findall(text)):
        return None
    return _PLACEHOLDER.sub(lambda m: value(m.group(1)) or "", text)


def _unquote(lines: list[str], start: int, end: int) -> None:
    """Take off the quotes newer records put around the output (lines[start:end]), in place: the
    opening `"` (or `"data": "`) on its first line, the closing `"` on its last, and the
    escapes of the quoted string (\\" \\t \\\\), line breaks kept so lines keep their numbers."""
    first = next((i for i in range(start, end) if lines[i].strip()), None)
    last = next((i for i in range(end - 1, start - 1, -1) if lines[i].strip()), None)
    if first is None or last is None:
        return
    opening = _QUOTE_OPEN.match(lines[first])
    closing = _QUOTE_CLOSE.search(lines[last])
    # `"data": "` says it is a quoted log (its closing quote may be cut); a bare `"` needs its pair.
    if opening is None or (closing is None and "data" not in opening.group()) or first == last:
        return
    lines[first] = lines[first][opening.end():]
    if closing is not None:
        lines[last] = lines[last][:closing.start()]
    for i in range(first, last + 1):
        if "\\" in lines[i]:
            lines[i] = _ESCAPE.sub(lambda m: _UNESCAPED[m.group(1)], lines[i])


def looks_like_tool_output(head: bytes) -> bool:
    """Whether a file starts with a tool-call metadata line (cheap check on the first bytes)."""
    first = head.lstrip()[:400]
    return first.startswith(b"{") and any(f'"{k}"'.encode() in first for k in _TOOL_KEYS[:2])


def unwrap_tool_output(text: str) -> Unwrapped | None:
    """The kubectl output of a tool-call record, or None if the text is not one.

    >>> u = unwrap_tool_output('{"tool_name": "kubectl_get"}\\n{"invocation": "kubectl get pods"}\\n'
    ...                        'stdout:\\nNAME  READY\\nstderr:\\n')
    >>> u.body.split("\\n"), u.command, u.header_lines
    (['', '', '', 'NAME  READY', '', ''], 'kubectl get pods', 3)
    """
    lines = text.split("\n")
    header = 0
    command = None
    from_params = None
    for i, line in enumerate(lines[:5]):
        meta = _json_line(line)
        if meta is None or not any(k in meta for k in _TOOL_KEYS):
            break
        header = i + 1
        invocation = meta.get("invocation")
        if isinstance(invocation, str) and invocation.startswith(("kubectl ", "oc ")):
            command = invocation
        # Records that name only the tool ("kubectl_describe command"): the command from its params.
        from_params = from_params or command_from_params(meta.get("tool_name"), meta.get("match_params")) \
            or command_from_params(meta.get("tool_name"), meta.get("params"))
    if not header:
        return None
    command = command or from_params
    if header < len(lines) and lines[header].strip() == "stdout:":
        header += 1
    trailer_at = next((i for i in range(header, len(lines)) if lines[i].rstrip() == "stderr:"), None)
    trailer = ""
    if trailer_at is not None:
        trailer = "\n".join(lines[trailer_at + 1:]).strip()
        lines[trailer_at:] = [""] * (len(lines) - trailer_at)
    _unquote(lines, header, trailer_at if trailer_at is not None else len(lines))
    lines[:header] = [""] * header
    return Unwrapped("\n".join(lines), command, header, trailer)


def looks_framed(text: str) -> bool:
    """Whether most lines of a paste carry a terminal frame (`│` at the start or the end)."""
    sample = [ln for ln in text[:20000].split("\n")[:50] if ln.strip()]
    if not sample:
        return False
    framed = sum(1 for ln in sample if ln.lstrip().startswith(_FRAME) or ln.rstrip().endswith(_FRAME))
    return framed >= max(2, 0.6 * len(sample))


def framed_runs(text: str) -> list[tuple[int, int]]:
    """The 1-based line ranges of a paste where two or more lines in a row open with a terminal
    frame (`│` first on the line) although most of the paste does not: a k9s pane copied into an
    issue between prose and other code blocks (MicrosoftDocs/azure-docs#95667: a pod's events).
    No kubectl output opens a line with `│`, so these lines are a frame's."""
    runs: list[tuple[int, int]] = []
    start = None
    lines = text.split("\n")
    for i, line in enumerate([*lines, ""]):
        if line.lstrip().startswith(_FRAME):
            if start is None:
                start = i
            continue
        if start is not None and i - start >= 2:
            runs.append((start + 1, i))
        start = None
    return runs


def strip_framed_runs(text: str, runs: list[tuple[int, int]]) -> str:
    """The paste with the frame of the given line ranges removed (other lines as they are)."""
    lines = text.split("\n")
    for first, last in runs:
        lines[first - 1:last] = strip_frame("\n".join(lines[first - 1:last])).split("\n")
    return "\n".join(lines)


def strip_frame(text: str) -> str:
    """The paste without its frame: `│ ` at line starts, padding and `│` at line ends, borders.

    >>> strip_frame("kind: Node      │\\n│ metadata:      │\\n│   name: n1     │\\n└──────┘")
    'kind: Node\\nmetadata:\\n  name: n1\\n'
    """
    out = []
    for line in text.split("\n"):
        if _BORDER.match(line) and line.strip():
            out.append("")
            continue
        s = line.rstrip()
        if s.endswith(_FRAME):
            s = s[:-1].rstrip()
        stripped = s.lstrip()
        if stripped.startswith(_FRAME):
            s = stripped[1:]
            s = s[1:] if s.startswith(" ") else s
        out.append(s)
    return "\n".join(out)
