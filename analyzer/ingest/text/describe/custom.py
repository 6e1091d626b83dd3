"""A custom resource's describe back into its fields: kubectl prints an object it has no
describer for as its own fields, keys split into words (`lastTransitionTime` -> `Last Transition
Time`) and the maps of a list one after another with nothing between them. Its Metadata, Spec and
Status are read back, so a NodeClaim's or a Certificate's conditions are there to judge."""

from __future__ import annotations

from typing import Any

from analyzer.ingest.text.describe.tree import Entry, parse_tree
from analyzer.ingest.text.lines import Line
from analyzer.ingest.text.values import cell

# Sections of the object itself (the describe's other top-level lines are its header).
_SECTIONS = {"Metadata": "metadata", "Spec": "spec", "Status": "status"}
# Metadata the describe's header already gave (name, labels, annotations), kept from there.
_HEADER_METADATA = frozenset({"name", "namespace", "labels", "annotations"})


def field_name(words: str) -> str:
    """The field a describe's key was made from: its words joined, the first lower-cased.

    >>> field_name("Last Transition Time"), field_name("Provider ID"), field_name("API Version")
    ('lastTransitionTime', 'providerID', 'apiVersion')
    """
    parts = words.split()
    if not parts:
        return words
    first = parts[0].lower() if parts[0].isupper() else parts[0][:1].lower() + parts[0][1:]
    return first + "".join(parts[1:])


def read_sections(root: Entry, body: dict[str, Any]) -> None:
    """Metadata, Spec and Status of a custom resource's describe into its body."""
    for key, field in _SECTIONS.items():
        entry = root.child(key)
        value = _value(entry) if entry is not None else None
        if not isinstance(value, dict) or not value:
            continue
        if field == "metadata":
            meta = body.setdefault("metadata", {})
            for k, v in value.items():
                if k not in _HEADER_METADATA:
                    meta.setdefault(k, v)
        else:
            body[field] = value


def _value(entry: Entry) -> Any:
    """What an entry holds: a mapping of its children (a list of mappings where a key comes
    again, as kubectl prints a list's maps), a list of its lines, or its value."""
    children = entry.children
    if entry.raw:  # (Conditions and the like are kept raw by the tree: read them as entries here)
        indent = min((len(ln.text) - len(ln.text.lstrip(" ")) for ln in entry.raw if ln.text.strip()), default=0)
        children = parse_tree([Line(ln.no, ln.text[indent:]) for ln in entry.raw]).children
    if children:
        items: list[dict[str, Any]] = [{}]
        for child in children:
            name = field_name(child.key)
            if name in items[-1]:
                items.append({})  # the next map of a list
            if (value := _value(child)) is not None:
                items[-1][name] = value
            else:
                items[-1].setdefault(name, None)  # (an empty field still ends the map before it)
        items = [{k: v for k, v in item.items() if v is not None} for item in items]
        return items if len(items) > 1 or _is_list(entry) else items[0]
    values = [v for v in (cell(x) for x in entry.values) if v is not None]
    if len(values) > 1:
        return values
    return values[0] if values else None


def _is_list(entry: Entry) -> bool:
    """A section kubectl prints as a list even with one map in it."""
    return entry.key in ("Conditions", "Owner References", "Managed Fields")
