"""The few protobuf bodies a client posts to a read-only server, read as the JSON it stands for.

kubectl 1.32 and later post access reviews (`kubectl auth can-i`) as Kubernetes protobuf: the
envelope `k8s\\0` + `runtime.Unknown{typeMeta, raw}`, `raw` the review's own message. Only the
fields a review is answered from are read (its kind and its spec); the answer goes back as JSON,
which the client accepts beside protobuf.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

MAGIC = b"k8s\x00"

# field numbers of k8s.io/api/authorization/v1/generated.proto
_RESOURCE_ATTRIBUTES = {1: "namespace", 2: "verb", 3: "group", 4: "version", 5: "resource", 6: "subresource", 7: "name"}
_NON_RESOURCE_ATTRIBUTES = {1: "path", 2: "verb"}


class ProtobufError(ValueError):
    """The body is not a Kubernetes protobuf message this server reads."""


def _varint(data: bytes, i: int) -> tuple[int, int]:
    value, shift = 0, 0
    while True:
        if i >= len(data) or shift > 63:
            raise ProtobufError("truncated varint")
        byte = data[i]
        i += 1
        value |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return value, i
        shift += 7


def _fields(data: bytes) -> Iterator[tuple[int, int | bytes]]:
    """(field number, value) of one message; length-delimited values as bytes."""
    i = 0
    while i < len(data):
        key, i = _varint(data, i)
        number, wire = key >> 3, key & 7
        value: int | bytes
        if wire == 0:
            value, i = _varint(data, i)
        elif wire == 2:
            size, i = _varint(data, i)
            if i + size > len(data):
                raise ProtobufError("truncated field")
            value, i = data[i:i + size], i + size
        elif wire in (1, 5):
            size = 8 if wire == 1 else 4
            value, i = data[i:i + size], i + size
        else:
            raise ProtobufError(f"unsupported wire type {wire}")
        yield number, value


def _strings(data: bytes, names: dict[int, str]) -> dict[str, str]:
    return {names[n]: v.decode() for n, v in _fields(data) if n in names and isinstance(v, bytes)}


def _message(data: bytes, number: int) -> bytes | None:
    found = None
    for n, v in _fields(data):
        if n == number and isinstance(v, bytes):
            found = v
    return found


def access_review(body: bytes) -> dict[str, Any]:
    """A SelfSubjectAccessReview or SelfSubjectRulesReview posted as protobuf, as its JSON.

    >>> body = bytes.fromhex(  # what kubectl 1.32 posts for `auth can-i delete pods -n x`
    ...     "6b3873000a320a17617574686f72697a6174696f6e2e6b38732e696f2f763112"
    ...     "1753656c665375626a65637441636365737352657669657712390a100a001200"
    ...     "1a0022002a00320038004200121b0a190a0178120664656c6574651a0022002a"
    ...     "04706f647332003a001a08080012001a0020001a002200")
    >>> access_review(body)["spec"]
    {'resourceAttributes': {'namespace': 'x', 'verb': 'delete', 'group': '', 'version': '', 'resource': 'pods', 'subresource': '', 'name': ''}}
    """
    if not body.startswith(MAGIC):
        raise ProtobufError("not a Kubernetes protobuf message")
    try:
        unknown = body[len(MAGIC):]
        type_meta = _strings(_message(unknown, 1) or b"", {1: "apiVersion", 2: "kind"})
        raw = _message(unknown, 2) or b""
        spec_bytes = _message(raw, 2) or b""
        spec: dict[str, Any] = {}
        if type_meta.get("kind") == "SelfSubjectRulesReview":
            spec = _strings(spec_bytes, {1: "namespace"})
        else:
            if (attrs := _message(spec_bytes, 1)) is not None:
                spec["resourceAttributes"] = _strings(attrs, _RESOURCE_ATTRIBUTES)
            if (attrs := _message(spec_bytes, 2)) is not None:
                spec["nonResourceAttributes"] = _strings(attrs, _NON_RESOURCE_ATTRIBUTES)
    except UnicodeDecodeError as exc:
        raise ProtobufError("a string field is not UTF-8") from exc
    return {**type_meta, "metadata": {}, "spec": spec}
