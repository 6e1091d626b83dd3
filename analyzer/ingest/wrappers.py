"""Wrappers people and tools put around kubectl output, removed so the output itself can be read.

Two kinds are known: tool-call records (HolmesGPT fixtures: JSON metadata lines, `stdout:`,
the kubectl output, `stderr:`), and terminal frames (k9s and `kubectl lineage` draw `│` at both
ends of every line). Line numbers are kept: removed lines become blank lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import orjson

# Keys that mark a JSON line as tool-call metadata rather than a Kubernetes document.
_TOOL_KEYS = ("toolset_name", "tool_name", "schema_version", "invocation")
_FRAME = "│"
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
    for i, line in enumerate(lines[:5]):
        meta = _json_line(line)
        if meta is None or not any(k in meta for k in _TOOL_KEYS):
            break
        header = i + 1
        invocation = meta.get("invocation")
        if isinstance(invocation, str) and invocation.startswith(("kubectl ", "oc ")):
            command = invocation
    if not header:
        return None
    if header < len(lines) and lines[header].strip() == "stdout:":
        header += 1
    trailer_at = next((i for i in range(header, len(lines)) if lines[i].rstrip() == "stderr:"), None)
    trailer = ""
    if trailer_at is not None:
        trailer = "\n".join(lines[trailer_at + 1:]).strip()
        lines[trailer_at:] = [""] * (len(lines) - trailer_at)
    lines[:header] = [""] * header
    return Unwrapped("\n".join(lines), command, header, trailer)


def looks_framed(text: str) -> bool:
    """Whether most lines of a paste carry a terminal frame (`│` at the start or the end)."""
    sample = [ln for ln in text[:20000].split("\n")[:50] if ln.strip()]
    if not sample:
        return False
    framed = sum(1 for ln in sample if ln.lstrip().startswith(_FRAME) or ln.rstrip().endswith(_FRAME))
    return framed >= max(2, 0.6 * len(sample))


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
