"""`kubectl describe pdb`: how many pods may be disrupted, of how many, and which pods; `describe
quota`: what a namespace may use and uses; `describe limitrange`: each container's, pod's or claim's
bounds and defaults."""

from __future__ import annotations

import re
from typing import Any

from analyzer.ingest.text.describe.blocks import LIMITS_HEADER, QUOTA_HEADER
from analyzer.ingest.text.describe.context import DescribeContext
from analyzer.ingest.text.describe.sections import label_selector
from analyzer.ingest.text.describe.tree import Entry
from analyzer.ingest.text.lines import Line
from analyzer.ingest.text.types import TextObject
from analyzer.ingest.text.values import cell, int_or_string, integer, set_path

# The Status lines of k8s.io/kubectl describe.go's describePodDisruptionBudget, by their fields.
_STATUS = {"Allowed disruptions": "disruptionsAllowed", "Current": "currentHealthy",
           "Desired": "desiredHealthy", "Total": "expectedPods"}


def read_disruption_budget(root: Entry, body: dict[str, Any], facts: dict[str, Any],
                           ctx: DescribeContext) -> list[TextObject]:
    """Fill a PodDisruptionBudget from its describe: `Min available` or `Max unavailable` (a
    number or a percentage), its selector, and its Status counts."""
    for key, path in (("Min available", "spec.minAvailable"), ("Max unavailable", "spec.maxUnavailable")):
        if value := cell(root.child_value(key)):
            set_path(body, path, int_or_string(value))
    selector = root.child_value("Selector")
    if cell(selector) != "<unset>" and (found := label_selector(selector)) is not None:
        set_path(body, "spec.selector", found)
    if (status := root.child("Status")) is not None:
        for key, field in _STATUS.items():
            if (number := integer(status.child_value(key))) is not None:
                set_path(body, f"status.{field}", number)
    return []


def _table_rows(ctx: DescribeContext, header: re.Pattern[str], row: re.Pattern[str], key: str,
                shape: str) -> list[re.Match[str]]:
    """The rows of a describe's unindented table under its header line (its `----` rule skipped)
    to the first blank line; a row not of the table's shape is kept unread with a reason, and ends it."""
    lines = [line for line in ctx.lines if line.no >= ctx.line]
    start = next((i for i, line in enumerate(lines) if header.match(line.text.strip())), None)
    rows: list[re.Match[str]] = []
    for line in lines[start + 1:] if start is not None else ():
        text = line.text.strip()
        if not text or set(text) <= {"-", " "}:
            if rows:
                break
            continue
        if (match := row.match(text)) is None:
            ctx.unread.append((line.no, key, f"its row '{text}' is no `{shape}`"))
            break
        rows.append(match)
    return rows


# kubectl's describeQuota table: `Resource  Used  Hard`, its rule, then one resource a row
_QUOTA_ROW = re.compile(r"^(?P<name>[a-z][\w./-]*)\s+(?P<used>\S+)\s+(?P<hard>\S+)\s*$")


def read_resource_quota(root: Entry, body: dict[str, Any], facts: dict[str, Any],
                        ctx: DescribeContext) -> list[TextObject]:
    """Fill a ResourceQuota from its describe: its scopes and, per resource, the hard limit (the
    spec's and the status's, as the quota controller copies it) and what is used."""
    if scopes := cell(root.child_value("Scopes")):
        set_path(body, "spec.scopes", [s.strip() for s in scopes.split(",") if s.strip()])
    hard: dict[str, str] = {}
    used: dict[str, str] = {}
    for row in _table_rows(ctx, QUOTA_HEADER, _QUOTA_ROW, "Resource", "resource  used  hard"):
        hard[row.group("name")], used[row.group("name")] = row.group("hard"), row.group("used")
    if hard:
        set_path(body, "spec.hard", dict(hard))
        set_path(body, "status.hard", hard)
        set_path(body, "status.used", used)
    return []


# kubectl's describeLimitRange row: a type, a resource, then five cells in the order of the fields
# they come from, `-` for none (an older kubectl left the ratio blank).
_LIMIT_ROW = re.compile(r"^(?P<type>[A-Za-z]\w*)\s+(?P<resource>[a-z][\w./-]*)"
                        r"(?P<cells>(?:\s+\S+){4,5})\s*$")
_LIMIT_FIELDS = ("min", "max", "defaultRequest", "default", "maxLimitRequestRatio")


def read_limit_range(root: Entry, body: dict[str, Any], facts: dict[str, Any],
                     ctx: DescribeContext) -> list[TextObject]:
    """Fill a LimitRange from its describe: one spec.limits item per Type (Container, Pod,
    PersistentVolumeClaim), with per resource its min, max, default request, default limit and
    max limit/request ratio."""
    limits: dict[str, dict[str, Any]] = {}
    for row in _table_rows(ctx, LIMITS_HEADER, _LIMIT_ROW, "Type",
                           "type  resource  min  max  default-request  default-limit  ratio"):
        item = limits.setdefault(row.group("type"), {"type": row.group("type")})
        for field, value in zip(_LIMIT_FIELDS, row.group("cells").split(), strict=False):
            if value != "-":
                item.setdefault(field, {})[row.group("resource")] = value
    if limits:
        set_path(body, "spec.limits", list(limits.values()))
    return []


# A Namespace's describe ends with its ResourceQuotas and LimitRanges (k8s.io/kubectl describe.go's
# DescribeResourceQuotas, DescribeLimitRanges): under `Resource Quotas`, per quota an indented
# `Name:` (and `Scopes:`) then its `Resource  Used  Hard` table; under `Resource Limits`, one
# table of every LimitRange's rows, no name.
QUOTAS_HEADING, LIMITS_HEADING = "Resource Quotas", "Resource Limits"
_QUOTA_NAME = re.compile(r"^Name:\s+(?P<name>[a-z0-9][a-z0-9.-]*)\s*$")


def namespace_policies(lines: list[Line]) -> list[Line]:
    """The lines of a Namespace describe's `Resource Quotas` and `Resource Limits` sections,
    headings included (read apart from its fields: their `Name:` is a quota's, not the namespace's).

    >>> from analyzer.ingest.text.lines import split_lines
    >>> [ln.no for ln in namespace_policies(split_lines("Status:  Active\\n\\nResource Quotas\\n  Name:  q\\n"
    ...                                                  "  pods  0  5\\n\\nNo LimitRange resource."))]
    [3, 4, 5]
    """
    found: list[Line] = []
    inside = False
    for line in lines:
        text = line.text.rstrip()
        if text in (QUOTAS_HEADING, LIMITS_HEADING):
            inside = True
        elif text and not text[:1].isspace():
            inside = False
        if inside and text:
            found.append(line)
    return found


def namespace_quotas(lines: list[Line], namespace: str, ctx: DescribeContext) -> list[TextObject]:
    """The ResourceQuotas a Namespace's describe lists (its `Resource Quotas` section), each with
    its hard limits and what is used; the `Resource Limits` rows name no LimitRange: said unread
    (a write-up's `describe ns foo-ns` was 'ends mid-section Name', its quota compute-quota-foo lost)."""
    quotas: list[TextObject] = []
    section = ""
    for line in lines:
        text = line.text.strip()
        if text in (QUOTAS_HEADING, LIMITS_HEADING):
            section = text
            if text == LIMITS_HEADING:
                ctx.unread.append((line.no, text, "its LimitRanges' rows name no LimitRange: not read as objects"))
            continue
        if section != QUOTAS_HEADING or QUOTA_HEADER.match(text) or set(text) <= {"-", " "}:
            continue
        if (named := _QUOTA_NAME.match(text)) is not None:
            body = {"apiVersion": "v1", "kind": "ResourceQuota",
                    "metadata": {"name": named.group("name"), "namespace": namespace}}
            quotas.append(TextObject(body=body, line=line.no, origin="describe",
                                     notes=[f"listed by the describe of Namespace {namespace}"]))
        elif text.startswith("Scopes:") and quotas:
            scopes = text.split(":", 1)[1]
            set_path(quotas[-1].body, "spec.scopes", [s.strip() for s in scopes.split(",") if s.strip()])
        elif (row := _QUOTA_ROW.match(text)) is not None and quotas:
            body = quotas[-1].body  # (a resource's name holds dots: `limits.cpu`)
            for part, field, value in (("spec", "hard", row.group("hard")), ("status", "hard", row.group("hard")),
                                       ("status", "used", row.group("used"))):
                body.setdefault(part, {}).setdefault(field, {})[row.group("name")] = value
        elif not text.startswith("*"):  # a scope's help text (`* Matches all pods that ...`)
            ctx.unread.append((line.no, QUOTAS_HEADING, f"its row '{text}' is no `resource  used  hard`"))
    return quotas


READERS = {"PodDisruptionBudget": read_disruption_budget, "ResourceQuota": read_resource_quota,
           "LimitRange": read_limit_range}
