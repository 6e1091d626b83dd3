"""Write JSON-like objects exactly as `kubectl get -o yaml` prints them.

kubectl turns its JSON into YAML with sigs.k8s.io/yaml, i.e. the go-yaml v2 encoder on top of
a port of the libyaml emitter: block style, 2-space indent, sequences not indented under their
key, keys in go-yaml's "natural" order, lines folded at 80 columns, strings quoted only when a
YAML 1.1 reader would otherwise read them as something else (then with double quotes), strings
with a newline as literal blocks. This module re-implements that path for dicts, lists, str,
int, float, bool and None; tests compare it byte for byte with real kubectl output and with
libyaml's emitter.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from datetime import date
from decimal import Decimal
from functools import cmp_to_key
from typing import IO, Any

BEST_WIDTH = 80  # go-yaml's default line width
BEST_INDENT = 2
_BREAKS = frozenset("\r\n\x85\u2028\u2029")
_SIMPLE_KEY_LIMIT = 128  # libyaml writes longer keys as complex "? key" entries

# -- go-yaml's resolver: would this string, written plain, read back as something else? --

_RESOLVE_MAP = frozenset(
    [
        "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON",
        "n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF",
        "", "~", "null", "Null", "NULL", ".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF",
        "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF",
    ]
)
_HINT_MAP = frozenset("yYnNtTfFoO~")  # first characters go-yaml looks up in the map above
_HINT_NUMBER = frozenset("+-0123456789")
_GO_FLOAT_AFTER_DOT = re.compile(r"\.[0-9](?:_?[0-9])*(?:[eE][+-]?[0-9](?:_?[0-9])*)?\Z")
_YAML_STYLE_FLOAT = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?\Z")
_GO_INT_BASE0 = re.compile(r"([+-]?)(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)\Z")
_BASE60_FLOAT = re.compile(r"[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?\Z")
_TIMESTAMP = re.compile(
    r"([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})"
    r"(?:(?:[Tt]([0-9]{1,2}):([0-9]{1,2}):([0-9]{1,2})(?:[.,][0-9]+)?(?:Z|[+-][0-9]{2}:[0-9]{2}))"
    r"|(?: ([0-9]{1,2}):([0-9]{1,2}):([0-9]{1,2})(?:[.,][0-9]+)?))?\Z"
)
_INT64_MIN, _INT64_MAX, _UINT64_MAX = -(2**63), 2**63 - 1, 2**64 - 1


def _is_go_timestamp(text: str) -> bool:
    """go-yaml's parseTimestamp: `YYYY-M-D`, optionally with a time (time.Parse layouts)."""
    match = _TIMESTAMP.match(text)
    if match is None:
        return False
    year, month, day = int(match[1]), int(match[2]), int(match[3])
    try:
        date(year, month, day)
    except ValueError:
        return False
    clock = [g for g in match.groups()[3:] if g is not None]
    return not clock or (int(clock[0]) < 24 and int(clock[1]) < 60 and int(clock[2]) < 60)


def _parses_as_go_int(text: str) -> bool:
    """strconv.ParseInt(text, 0, 64) or ParseUint(text, 0, 64) succeeds (underscores removed)."""
    match = _GO_INT_BASE0.match(text)
    if match is None:
        return False
    sign, digits = match.groups()
    if digits[:2] in ("0x", "0X", "0o", "0O", "0b", "0B"):
        value = int(digits[2:], {"x": 16, "o": 8, "b": 2}[digits[1].lower()])
    elif len(digits) > 1 and digits[0] == "0":
        value = int(digits, 8)
    else:
        value = int(digits)
    if sign == "-":
        return -value >= _INT64_MIN
    return value <= (_UINT64_MAX if not sign else _INT64_MAX)


def _finite_float(text: str) -> bool:
    try:
        return math.isfinite(float(text))
    except ValueError:
        return False


def resolves_to_string(text: str) -> bool:
    """True when go-yaml would read `text`, written as a plain scalar, back as the same string."""
    if not text:
        return False
    first = text[0]
    if first in _HINT_MAP:
        return text not in _RESOLVE_MAP
    if first == ".":
        if text in _RESOLVE_MAP:
            return False
        return not (_GO_FLOAT_AFTER_DOT.match(text) and _finite_float(text.replace("_", "")))
    if first not in _HINT_NUMBER:
        return True
    if text in _RESOLVE_MAP or _is_go_timestamp(text):
        return False
    plain = text.replace("_", "")
    if _parses_as_go_int(plain):
        return False
    if _YAML_STYLE_FLOAT.match(plain) and _finite_float(plain):
        return False
    if plain.startswith("-0b") and plain[3:] and set(plain[3:]) <= {"0", "1"}:
        return int(plain[3:], 2) > -_INT64_MIN
    return True


def _is_base60_float(text: str) -> bool:
    return bool(text) and (text[0] in _HINT_NUMBER) and ":" in text and bool(_BASE60_FLOAT.match(text))


# -- libyaml's scalar analysis and writers (go-yaml's emitterc.go is a line-by-line port) --


def _is_printable(ch: str) -> bool:
    code = ord(ch)
    return (
        code == 0x0A
        or 0x20 <= code <= 0x7E
        or 0xA0 <= code <= 0xD7FF
        or (0xE000 <= code <= 0xFFFD and code != 0xFEFF)
    )


class _Analysis:
    """Which styles libyaml allows for a scalar (yaml_emitter_analyze_scalar)."""

    __slots__ = ("multiline", "block_plain", "single_quoted", "block")

    def __init__(self, value: str) -> None:
        if not value:
            self.multiline, self.block_plain, self.single_quoted, self.block = False, True, True, False
            return
        block_indicators = flow_indicators = line_breaks = special = False
        leading_space = leading_break = trailing_space = trailing_break = False
        break_space = space_break = previous_space = previous_break = False
        if value.startswith(("---", "...")):
            block_indicators = flow_indicators = True
        preceded_by_whitespace = True
        last = len(value) - 1
        for i, ch in enumerate(value):
            followed_by_whitespace = i == last or value[i + 1] in " \t\r\n\x85\u2028\u2029"
            if i == 0:
                if ch in "#,[]{}&*!|>'\"%@`":
                    flow_indicators = block_indicators = True
                elif ch in "?:":
                    flow_indicators = True
                    block_indicators = block_indicators or followed_by_whitespace
                elif ch == "-" and followed_by_whitespace:
                    flow_indicators = block_indicators = True
            else:
                if ch in ",?[]{}":
                    flow_indicators = True
                elif ch == ":":
                    flow_indicators = True
                    block_indicators = block_indicators or followed_by_whitespace
                elif ch == "#" and preceded_by_whitespace:
                    flow_indicators = block_indicators = True
            if not _is_printable(ch):
                special = True
            if ch in _BREAKS:
                line_breaks = True
            if ch == " ":
                leading_space = leading_space or i == 0
                trailing_space = trailing_space or i == last
                break_space = break_space or previous_break
                previous_space, previous_break = True, False
            elif ch in _BREAKS:
                leading_break = leading_break or i == 0
                trailing_break = trailing_break or i == last
                space_break = space_break or previous_space
                previous_space, previous_break = False, True
            else:
                previous_space = previous_break = False
            preceded_by_whitespace = ch in " \t\r\n\x85\u2028\u2029"
        block_plain = single_quoted = block = True
        if leading_space or leading_break or trailing_space or trailing_break:
            block_plain = False
        if trailing_space:
            block = False
        if break_space:
            block_plain = single_quoted = False
        if space_break or special:
            block_plain = single_quoted = block = False
        if line_breaks or block_indicators:
            block_plain = False
        del flow_indicators  # only flow context (never used by kubectl) looks at it
        self.multiline = line_breaks
        self.block_plain = block_plain
        self.single_quoted = single_quoted
        self.block = block


_ESCAPES = {
    0x00: "\\0", 0x07: "\\a", 0x08: "\\b", 0x09: "\\t", 0x0A: "\\n", 0x0B: "\\v", 0x0C: "\\f",
    0x0D: "\\r", 0x1B: "\\e", 0x22: '\\"', 0x5C: "\\\\", 0x85: "\\N", 0xA0: "\\_",
    0x2028: "\\L", 0x2029: "\\P",
}


def _escape(ch: str) -> str:
    code = ord(ch)
    known = _ESCAPES.get(code)
    if known is not None:
        return known
    if code <= 0xFF:
        return f"\\x{code:02X}"
    if code <= 0xFFFF:
        return f"\\u{code:04X}"
    return f"\\U{code:08X}"


def _write_plain(value: str, column: int, indent: int, allow_breaks: bool) -> str:
    """` value`, folded at spaces once past the width (yaml_emitter_write_plain_scalar)."""
    start = column + 1
    last_space = value.rfind(" ")
    if not allow_breaks or last_space < 0 or start + last_space <= BEST_WIDTH:
        return " " + value
    out = [" "]
    col = start
    spaces = False
    for i, ch in enumerate(value):
        if ch == " ":
            if not spaces and col > BEST_WIDTH and value[i + 1 : i + 2] != " ":
                out.append("\n" + " " * indent)
                col = indent
            else:
                out.append(" ")
                col += 1
            spaces = True
        else:
            out.append(ch)
            col += 1
            spaces = False
    return "".join(out)


def _write_single_quoted(value: str, column: int, indent: int, allow_breaks: bool) -> str:
    """` 'value'` with quotes doubled, folded like plain text (yaml_emitter_write_single_quoted)."""
    out = [" '"]
    col = column + 2
    spaces = breaks = False
    last = len(value) - 1
    for i, ch in enumerate(value):
        if ch == " ":
            if (
                allow_breaks and not spaces and col > BEST_WIDTH and 0 < i < last
                and value[i + 1] != " "
            ):
                out.append("\n" + " " * indent)
                col = indent
            else:
                out.append(" ")
                col += 1
            spaces = True
        elif ch in _BREAKS:
            if not breaks and ch == "\n":
                out.append("\n")
            out.append(ch)
            col = 0
            breaks = True
        else:
            if breaks:
                out.append(" " * (indent - col))
                col = indent
            if ch == "'":
                out.append("'")
                col += 1
            out.append(ch)
            col += 1
            spaces = breaks = False
    if breaks:
        out.append(" " * (indent - col))
    out.append("'")
    return "".join(out)


def _write_double_quoted(value: str, column: int, indent: int, allow_breaks: bool) -> str:
    """` "value"` with libyaml's escapes, folded with `\\` continuations past the width."""
    out = [' "']
    col = column + 2
    spaces = False
    last = len(value) - 1
    for i, ch in enumerate(value):
        if ch in '"\\' or ch in _BREAKS or not _is_printable(ch):
            escaped = _escape(ch)
            out.append(escaped)
            col += len(escaped)
            spaces = False
        elif ch == " ":
            if allow_breaks and not spaces and col > BEST_WIDTH and 0 < i < last:
                out.append("\n" + " " * indent)
                col = indent
                if value[i + 1] == " ":
                    out.append("\\")
                    col += 1
            else:
                out.append(" ")
                col += 1
            spaces = True
        else:
            out.append(ch)
            col += 1
            spaces = False
    out.append('"')
    return "".join(out)


def _write_literal(value: str, indent: int) -> tuple[str, bool]:
    """` |` block with chomping/indent hints; also says whether it ended at column 0."""
    header = " |"
    if value[0] == " " or value[0] in _BREAKS:
        header += str(BEST_INDENT)
    if value[-1] not in _BREAKS:
        header += "-"
    elif len(value) == 1 or value[-2] in _BREAKS:
        header += "+"
    out = [header, "\n"]
    pad = " " * indent
    breaks = True
    for ch in value:
        if ch in _BREAKS:
            out.append(ch)
            breaks = True
        else:
            if breaks:
                out.append(pad)
            out.append(ch)
            breaks = False
    return "".join(out), breaks


# -- go-yaml's encoder: style per value, key order --


def _go_format_float(value: float) -> str:
    """strconv.FormatFloat(value, 'g', -1, 64) with go-yaml's names for infinities and NaN."""
    if math.isnan(value):
        return ".nan"
    if math.isinf(value):
        return ".inf" if value > 0 else "-.inf"
    sign = "-" if math.copysign(1.0, value) < 0 else ""
    if value == 0:
        return sign + "0"
    parts = Decimal(repr(abs(value))).as_tuple()
    digits = "".join(map(str, parts.digits))
    point = len(digits) + int(parts.exponent)  # digits before the decimal point
    digits = digits.rstrip("0")
    exponent = point - 1
    if exponent < -4 or exponent >= 6:  # Go uses %e outside this range for the shortest form
        mantissa = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
        return f"{sign}{mantissa}e{'-' if exponent < 0 else '+'}{abs(exponent):02d}"
    if point <= 0:
        return f"{sign}0.{'0' * -point}{digits}"
    whole = digits[:point].ljust(point, "0")
    fraction = digits[point:]
    return sign + whole + ("." + fraction if fraction else "")


def _natural_cmp(a: str, b: str) -> int:
    """go-yaml's keyList.Less: other characters before letters, digit runs compared as numbers."""
    for i in range(min(len(a), len(b))):
        ca, cb = a[i], b[i]
        if ca == cb:
            continue
        a_letter, b_letter = ca.isalpha(), cb.isalpha()
        if a_letter and b_letter:
            return -1 if ca < cb else 1
        if a_letter or b_letter:
            return -1 if b_letter else 1
        a_number = b_number = 0
        if ca == "0" or cb == "0":
            j = i - 1
            while j >= 0 and a[j].isdigit():
                if a[j] != "0":
                    a_number = b_number = 1
                    break
                j -= 1
        a_end = i
        while a_end < len(a) and a[a_end] in "0123456789":
            a_number = a_number * 10 + ord(a[a_end]) - 48
            a_end += 1
        b_end = i
        while b_end < len(b) and b[b_end] in "0123456789":
            b_number = b_number * 10 + ord(b[b_end]) - 48
            b_end += 1
        if a_number != b_number:
            return -1 if a_number < b_number else 1
        if a_end != b_end:
            return -1 if a_end < b_end else 1
        return -1 if ca < cb else 1
    if len(a) == len(b):
        return 0
    return -1 if len(a) < len(b) else 1


_natural_key = cmp_to_key(_natural_cmp)

# A string with none of these is "simple": printable, one line; then plain-or-quoted is decided
# with a few C-level string checks instead of libyaml's character loop.
_NOT_SIMPLE = re.compile("[^\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd]")
_NOT_SIMPLE_BLOCK = re.compile("[^\n\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd]")
_PLAIN_FORBIDDEN_FIRST = frozenset("#,[]{}&*!|>'\"%@` ")


def _simple_plain_allowed(value: str) -> bool:
    """libyaml's block_plain_allowed for a non-empty simple string."""
    first = value[0]
    if first in _PLAIN_FORBIDDEN_FIRST or value[-1] == " ":
        return False
    if first in "-?:" and (len(value) == 1 or value[1] == " "):
        return False
    if value.startswith(("---", "...")):
        return False
    return not (": " in value or value[-1] == ":" or " #" in value)


def _style(value: str) -> str:
    """The style go-yaml ends up with for a string: plain, single, double or literal."""
    if "\n" in value:
        if not _NOT_SIMPLE_BLOCK.search(value):
            block = value[-1] != " " and " \n" not in value
        else:
            block = _Analysis(value).block
        return "literal" if block else "double"
    wants_plain = resolves_to_string(value) and not _is_base60_float(value)
    if not wants_plain:
        return "double"
    if not _NOT_SIMPLE.search(value):
        return "plain" if _simple_plain_allowed(value) else "single"
    analysis = _Analysis(value)
    if analysis.block_plain:
        return "plain"
    return "single" if analysis.single_quoted else "double"


def _fast_literal(value: str, indent: int) -> tuple[str, bool]:
    """_write_literal for text whose only line break is \\n."""
    header = " |"
    if value[0] == " " or value[0] == "\n":
        header += str(BEST_INDENT)
    if value[-1] != "\n":
        header += "-"
    elif len(value) == 1 or value[-2] == "\n":
        header += "+"
    pad = " " * indent
    body = "\n".join(pad + line if line else "" for line in value.split("\n"))
    return header + "\n" + body, value[-1] == "\n"


_OTHER_BREAKS = re.compile("[\r\x85\u2028\u2029]")


def _render_string(value: str, column: int, indent: int, allow_breaks: bool = True) -> tuple[str, bool]:
    """A string written after a `key:` or `-` ending at `column`; True if it ends at a line start."""
    style = _style(value)
    if style == "plain":
        return _write_plain(value, column, indent, allow_breaks), False
    if style == "single":
        fits = " " not in value or column + 3 + len(value) + value.count("'") <= BEST_WIDTH
        if fits and not _OTHER_BREAKS.search(value):
            return " '" + value.replace("'", "''") + "'", False
        return _write_single_quoted(value, column, indent, allow_breaks), False
    if style == "literal":
        if not _OTHER_BREAKS.search(value):
            return _fast_literal(value, indent)
        return _write_literal(value, indent)
    if not _NOT_SIMPLE.search(value) and (" " not in value or column + 3 + 2 * len(value) <= BEST_WIDTH):
        return ' "' + value.replace("\\", "\\\\").replace('"', '\\"') + '"', False
    return _write_double_quoted(value, column, indent, allow_breaks), False


def _needs_complex_key(key: str) -> bool:
    """libyaml's check_simple_key fails: over 128 bytes of UTF-8, or more than one line."""
    if len(key) * 4 > _SIMPLE_KEY_LIMIT and len(key.encode()) > _SIMPLE_KEY_LIMIT:
        return True
    return "\n" in key or bool(_OTHER_BREAKS.search(key))


class KubectlYamlWriter:
    """Renders values as kubectl does; caches key orders and column-independent renderings."""

    _CACHE_LIMIT = 300_000  # unique names and uids make these caches grow; start over when full

    def __init__(self) -> None:
        self._key_orders: dict[tuple[str, ...], tuple[str, ...]] = {}
        self._keys: dict[str, str] = {}
        self._words: dict[str, str] = {}

    def sorted_keys(self, mapping: dict[str, Any]) -> tuple[str, ...]:
        """The keys of `mapping` in the order go-yaml writes them."""
        keys = tuple(mapping)
        order = self._key_orders.get(keys)
        if order is None:
            for key in keys:
                if not isinstance(key, str):
                    raise TypeError(f"kubectl YAML keys are strings, not {type(key).__name__}")
            order = tuple(sorted(keys, key=_natural_key))
            if len(self._key_orders) >= self._CACHE_LIMIT:
                self._key_orders.clear()
            self._key_orders[keys] = order
        return order

    def render_key(self, key: str) -> str:
        """A simple mapping key as written before its `:`."""
        rendered = self._keys.get(key)
        if rendered is None:
            rendered = _render_string(key, -1, 0, allow_breaks=False)[0][1:]
            if len(self._keys) >= self._CACHE_LIMIT:
                self._keys.clear()
            self._keys[key] = rendered
        return rendered

    def render_scalar(self, value: Any, column: int, indent: int) -> tuple[str, bool]:
        """Text after a `key:` or `-` that ends at `column`; True if it ends at a line start."""
        if isinstance(value, str):
            if " " in value or _OTHER_BREAKS.search(value) or "\n" in value:
                return _render_string(value, column, indent)
            # Without spaces or line breaks nothing folds: the rendering is the same everywhere.
            rendered = self._words.get(value)
            if rendered is None:
                rendered = _render_string(value, column, indent)[0]
                if len(self._words) >= self._CACHE_LIMIT:
                    self._words.clear()
                self._words[value] = rendered
            return rendered, False
        if value is None:
            return " null", False
        if value is True:
            return " true", False
        if value is False:
            return " false", False
        if isinstance(value, int):
            return f" {value}", False
        if isinstance(value, float):
            return " " + _go_format_float(value), False
        raise TypeError(f"cannot write {type(value).__name__} as kubectl YAML")

    def dumps(self, document: Any) -> str:
        """One document as kubectl prints it."""
        parts: list[str] = []
        if isinstance(document, dict) and document:
            self._mapping(document, 0, parts, inline_first=True)
        elif isinstance(document, list) and document:
            self._sequence(document, 0, parts, inline_first=True)
        elif isinstance(document, dict | list):
            parts.append("{}" if isinstance(document, dict) else "[]")
        else:
            text, at_line_start = self.render_scalar(document, -1, BEST_INDENT)
            parts.append(text[1:])
            if at_line_start:
                parts.append("")
        return self._finish(parts)

    def dumps_list_item(self, item: Any) -> str:
        """`item` as an entry of a top-level `items:` list (`- ` at column 0)."""
        parts: list[str] = []
        self._sequence([item], 0, parts, inline_first=True)
        return self._finish(parts)

    @staticmethod
    def _finish(parts: list[str]) -> str:
        if parts and parts[-1] == "":  # already at a line start
            return "".join(parts)
        parts.append("\n")
        return "".join(parts)

    @staticmethod
    def _line_start(parts: list[str], indent: int) -> str:
        """Text that starts a new line at `indent`, unless a literal block left us at one."""
        if parts and parts[-1] == "":
            parts.pop()
            return " " * indent
        return "\n" + " " * indent

    def _mapping(self, mapping: dict[str, Any], indent: int, parts: list[str], inline_first: bool) -> None:
        first = inline_first
        for key in self.sorted_keys(mapping):
            value = mapping[key]
            if first:
                prefix = ""
                first = False
            else:
                prefix = self._line_start(parts, indent)
            if _needs_complex_key(key):
                self._complex_entry(key, value, indent, parts, prefix)
                continue
            rendered_key = self.render_key(key)
            parts.append(prefix + rendered_key + ":")
            self._value(value, indent, indent + len(rendered_key) + 1, parts, in_mapping=True)

    def _complex_entry(self, key: str, value: Any, indent: int, parts: list[str], prefix: str) -> None:
        # libyaml writes a key that cannot be a simple key as "? key", then ": value".
        parts.append(prefix + "?")
        text, at_line_start = self.render_scalar(key, indent + 1, indent + BEST_INDENT)
        parts.append(text)
        if at_line_start:
            parts.append("")
        parts.append(self._line_start(parts, indent) + ":")
        self._after_indicator(value, indent, parts, in_mapping=True)

    def _sequence(self, items: list[Any], indent: int, parts: list[str], inline_first: bool) -> None:
        first = inline_first
        for item in items:
            if first:
                parts.append("-")
                first = False
            else:
                parts.append(self._line_start(parts, indent) + "-")
            self._after_indicator(item, indent, parts, in_mapping=False)

    def _after_indicator(self, value: Any, indent: int, parts: list[str], in_mapping: bool) -> None:
        """What follows a "-" or a complex key's ":": a non-empty collection starts on the same
        line (libyaml's compact form), anything else is written as a value."""
        if isinstance(value, dict) and value:
            parts.append(" ")
            self._mapping(value, indent + BEST_INDENT, parts, inline_first=True)
        elif isinstance(value, list) and value:
            parts.append(" ")
            self._sequence(value, indent + BEST_INDENT, parts, inline_first=True)
        else:
            self._value(value, indent, indent + 1, parts, in_mapping=in_mapping)

    def _value(self, value: Any, indent: int, column: int, parts: list[str], in_mapping: bool) -> None:
        """A value after `key:` or `-`; `indent` is that of the key or the dash."""
        if isinstance(value, dict):
            if value:
                self._mapping(value, indent + BEST_INDENT, parts, inline_first=False)
            else:
                parts.append(" {}")
        elif isinstance(value, list):
            if value:
                # go-yaml does not indent a sequence under a mapping key.
                self._sequence(value, indent, parts, inline_first=False)
            else:
                parts.append(" []")
        else:
            text, at_line_start = self.render_scalar(value, column, indent + BEST_INDENT)
            parts.append(text)
            if at_line_start:
                parts.append("")  # marker: the next line needs no line break of its own

    def write_list(self, items: Iterable[dict[str, Any]], stream: IO[str], batch: int = 64) -> int:
        """Write `kind: List` of `items` as `kubectl get -o yaml` does; returns characters written."""
        written = stream.write("apiVersion: v1\n")
        pending: list[str] = []
        count = 0
        for item in items:
            if count == 0:
                written += stream.write("items:\n")
            pending.append(self.dumps_list_item(item))
            count += 1
            if len(pending) >= batch:
                written += stream.write("".join(pending))
                pending.clear()
        if pending:
            written += stream.write("".join(pending))
        if count == 0:
            written += stream.write("items: []\n")
        written += stream.write('kind: List\nmetadata:\n  resourceVersion: ""\n')
        return written


def dumps(document: Any) -> str:
    """`document` as `kubectl get -o yaml` would print it."""
    return KubectlYamlWriter().dumps(document)
