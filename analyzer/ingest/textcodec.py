"""Bytes of a dump file to text: byte-order marks, UTF-16 from PowerShell, CRLF, binary junk."""

from __future__ import annotations

import codecs

from analyzer.errors import InputError


def decode_text(data: bytes, display: str, lines_end_at_newline: bool = False) -> str:
    """Decode a dump file to str with "\\n" line ends, or raise InputError for binary data.
    `lines_end_at_newline`: a lone "\\r" is text within its line, as in a container runtime's
    log file (a progress bar's), not an old Mac's line end.

    >>> decode_text(codecs.BOM_UTF16_LE + "kind: Pod\\r\\n".encode("utf-16-le"), "f")
    'kind: Pod\\n'
    >>> decode_text(codecs.BOM_UTF8 + b"{}", "f")
    '{}'
    >>> decode_text(b"10%\\r100%\\r\\n", "f"), decode_text(b"10%\\r100%\\r\\n", "f", lines_end_at_newline=True)
    ('10%\\n100%\\n', '10%\\r100%\\n')
    """
    if data.startswith(codecs.BOM_UTF8):
        text = data[3:].decode("utf-8", errors="replace")
    elif data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        text = data.decode("utf-16", errors="replace")
    elif _looks_utf16_without_bom(data):
        enc = "utf-16-le" if data[1:2] == b"\x00" else "utf-16-be"
        text = data.decode(enc, errors="replace")
    else:
        if b"\x00" in data[:65536]:
            raise InputError(display, "binary data (NUL bytes), not a text dump")
        text = data.decode("utf-8", errors="replace")
    if "\r" in text:
        text = text.replace("\r\n", "\n")
        text = text if lines_end_at_newline else text.replace("\r", "\n")
    if _mostly_binary(text):
        raise InputError(display, "binary data (mostly non-printable), not a text dump")
    return text


def _looks_utf16_without_bom(data: bytes) -> bool:
    head = data[:200]
    if len(head) < 8:
        return False
    even_zeros = head[0::2].count(0)
    odd_zeros = head[1::2].count(0)
    half = len(head) // 2
    return odd_zeros > 0.8 * half or even_zeros > 0.8 * half


def _mostly_binary(text: str) -> bool:
    sample = text[:8192]
    if not sample:
        return False
    bad = sum(1 for ch in sample if (ord(ch) < 32 and ch not in "\n\r\t\f\v\x1b") or ch == "\ufffd")
    return bad > 0.1 * len(sample)
