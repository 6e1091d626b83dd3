"""What every table row gives its object: name, namespace, labels, age, the simple mapped columns."""

from __future__ import annotations

import re
from typing import Any

from analyzer.ingest.text.catalog import KindInfo
from analyzer.ingest.text.columns import TREE_GLYPHS
from analyzer.ingest.text.values import age_seconds, boolean, cell, csv, integer, labels, set_path

# A Kubernetes object name as tables print it (DNS names, plus `:` and `@` some kinds allow).
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:@\-]*$")
_DEFAULT_SUFFIX = " (default)"

_CONVERT = {"str": cell, "int": integer, "bool": boolean, "labels": labels, "csv": csv}


def split_name(text: str) -> tuple[str | None, str, bool]:
    """A NAME cell as (resource prefix, name, is-default): `deployment.apps/web` -> ('deployment.apps', 'web', False).

    Tree glyphs `kubectl lineage` draws are dropped; `standard (default)` is a default class.

    >>> split_name("└── Pod/web-1"), split_name("standard (default)")
    (('Pod', 'web-1', False), (None, 'standard', True))
    """
    text = text.lstrip(TREE_GLYPHS).strip()
    is_default = text.endswith(_DEFAULT_SUFFIX)
    if is_default:
        text = text[: -len(_DEFAULT_SUFFIX)]
    prefix, slash, name = text.rpartition("/")
    return (prefix if slash else None), name, is_default


def new_body(api_version: str, kind: str, name: str | None) -> dict[str, Any]:
    """An empty object of a kind, named when the text names it."""
    body: dict[str, Any] = {"apiVersion": api_version, "kind": kind, "metadata": {}}
    if name:
        body["metadata"]["name"] = name
    return body


def apply_fields(body: dict[str, Any], info: KindInfo, cells: dict[str, str | None]) -> None:
    """Copy the columns kinds.yaml maps straight onto one API field."""
    for header, (path, converter) in info.fields.items():
        value = _CONVERT[converter](cells.get(header))
        if value is not None and value != []:
            set_path(body, path, value)


def common_facts(cells: dict[str, str | None]) -> dict[str, Any]:
    """The text-only facts every row has: the raw columns and its age."""
    facts: dict[str, Any] = {}
    if (age := age_seconds(cells.get("AGE"))) is not None:
        facts["age_seconds"] = age
    facts["columns"] = {header: raw for header, raw in cells.items() if raw is not None}
    # A cell empty between two printed ones is one kubectl printed empty (a valid challenge's
    # REASON), not one the writer cut off as trailing cells may be: said so the printer shows
    # it empty, not <unknown>.
    headers = list(cells)
    printed = [i for i, raw in enumerate(cells.values()) if raw is not None]
    if printed and (blank := [h for h in headers[:printed[-1]] if cells[h] is None]):
        facts["blank"] = blank
    return facts


def containers_from(cells: dict[str, str | None]) -> list[dict[str, str]]:
    """CONTAINERS and IMAGES columns (`-o wide`) as the pod template's containers.

    >>> containers_from({"CONTAINERS": "app,sidecar", "IMAGES": "nginx:1.25,envoy"})
    [{'name': 'app', 'image': 'nginx:1.25'}, {'name': 'sidecar', 'image': 'envoy'}]
    """
    names, images = csv(cells.get("CONTAINERS")), csv(cells.get("IMAGES"))
    if not names:
        return []
    containers = [{"name": name} for name in names]
    if len(images) == len(names):
        for container, image in zip(containers, images, strict=True):
            container["image"] = image
    return containers


def selector_into(body: dict[str, Any], cells: dict[str, str | None], facts: dict[str, Any],
                  match_labels: bool = True) -> None:
    """A SELECTOR column: `a=b,c=d` as matchLabels (or a plain map); other forms stay a fact."""
    raw = cell(cells.get("SELECTOR"))
    if raw is None:
        return
    parsed = labels(raw)
    if parsed is None:
        facts["selector"] = raw
    elif match_labels:
        set_path(body, "spec.selector", {"matchLabels": parsed})
    else:
        set_path(body, "spec.selector", parsed)
