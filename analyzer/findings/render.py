"""Findings into words and files: message templates, text, JSON, Markdown and SARIF 2.1.0."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

import pandas as pd

from analyzer.findings.managed import HYGIENE_CATEGORIES
from analyzer.findings.types import SEVERITIES, Evidence, Finding, Rule, RuleMeta
from analyzer.model.frame import cast_column

COLUMNS = ("rule", "severity", "status", "category", "kind", "namespace", "name", "message",
           "evidence", "remediation", "source", "incident", "managed", "resolved", "alike", "said_by")
# Incidents shown in full (with their findings) at the top of a text or Markdown listing.
TOP_INCIDENTS = 3


class _Facts(dict):
    """Template values: a fact the template names but the finding lacks shows as '?'."""

    def __missing__(self, key: str) -> str:
        return "?"


def object_ref(kind: str, namespace: str, name: str) -> str:
    """ "Pod shop/web-1", "Node n1", or "" for a finding on the whole dump."""
    if not kind:
        return ""
    return f"{kind} {namespace}/{name}" if namespace else f"{kind} {name}"


def message(finding: Finding, meta: RuleMeta) -> str:
    """The finding's sentence, from its rule's template and its facts."""
    if finding.status == "not_applicable":
        return f"Not applicable: {finding.facts.get('reason', 'the dump lacks what this rule needs')}"
    values = _Facts(finding.facts)
    values.update(kind=finding.kind, namespace=finding.namespace or "-", name=finding.name,
                  object=object_ref(finding.kind, finding.namespace, finding.name))
    # (str.format_map reads the template as string.Formatter does, missing facts through
    # _Facts.__missing__, in C: a report formats tens of thousands of these)
    text = meta.message.format_map(values)
    if not finding.namespace and finding.name:
        # an object whose namespace the dump does not give (rows pasted without their command)
        # is named bare, as object_ref names it, not "-/name"
        text = text.replace(f" -/{finding.name}", f" {finding.name}")
    if finding.alike:
        more = len(finding.alike)
        text += (f" (as {'does 1 more pod' if more == 1 else f'do {more} more pods'} of "
                 f"{finding.facts.get('controller', 'its controller')})")
    if finding.resolved:
        text += f" [resolved: {finding.resolved}]"
    if finding.managed and finding.category in HYGIENE_CATEGORIES:
        text += f" [managed by the provider ({finding.managed}): raise it with them]"
    elif finding.managed:
        text += f" [provider-managed: {finding.managed}]"
    return text


def _incident_index(incidents: Iterable[Any]) -> dict[int, Any]:
    return {id(f): inc for inc in incidents for f in inc.members}


def to_records(findings: Iterable[Finding], metas: dict[str, RuleMeta],
               incidents: Sequence[Any] = ()) -> list[dict[str, Any]]:
    """Findings as JSON-safe dicts (the `kda findings --format json` contract).

    Members of incidents come first, by incident rank; `incident` says which one (or null).
    """
    of = _incident_index(incidents)
    out = []
    findings = list(findings)
    order = sorted(range(len(findings)), key=lambda i: (
        of[id(findings[i])].rank if id(findings[i]) in of else float("inf"), i))
    for f in (findings[i] for i in order):
        out.append({
            "rule": f.rule, "title": metas[f.rule].title, "severity": f.severity,
            "status": f.status, "category": f.category,
            "object": {"kind": f.kind, "namespace": f.namespace, "name": f.name},
            "message": message(f, metas[f.rule]),
            "evidence": [e.to_dict() for e in f.evidence],
            "facts": {k: _plain(v) for k, v in sorted(f.facts.items())},
            "remediation": f.remediation, "source": f.source,
            "incident": of[id(f)].summary() if id(f) in of else None,
            "managed": f.managed, "resolved": f.resolved, "alike": list(f.alike),
            "said_by": _said_by(f),
        })
    return out


def _said_by(f: Finding) -> dict[str, Any] | None:
    """The finding that already says this one (`analyzer.findings.said`), or None."""
    if not f.said_by:
        return None
    rule, kind, namespace, name = f.said_by
    return {"rule": rule, "object": {"kind": kind, "namespace": namespace, "name": name}}


def _record_key(r: dict[str, Any]) -> tuple[str, str, str, str]:
    o = r["object"]
    return (r["rule"], o["kind"], o["namespace"], o["name"])


def said_under(records: list[dict[str, Any]]) -> dict[tuple[str, str, str, str], list[dict[str, Any]]]:
    """The records another listed record says (their `said_by`), by that record's rule and
    object: a listing prints them under it. A record whose sayer the listing does not hold (a
    severity or rule filter left it out) is not among them: it is listed in its own place."""
    listed = {_record_key(r) for r in records if r["status"] == "fail"}
    under: dict[tuple[str, str, str, str], list[dict[str, Any]]] = {}
    for r in records:
        by = r.get("said_by")
        if r["status"] == "fail" and by:
            key = (by["rule"], by["object"]["kind"], by["object"]["namespace"], by["object"]["name"])
            if key in listed:
                under.setdefault(key, []).append(r)
    return under


def _said_text(rs: list[dict[str, Any]]) -> str:
    """How many records of a listing are printed under another's, for its counts."""
    return f"; {len(rs)} of them listed under the finding that says the same" if rs else ""


# json.dumps(..., sort_keys=True, default=str) with one encoder, not a new one per finding.
_EVIDENCE_JSON = json.JSONEncoder(sort_keys=True, default=str).encode
_QUOTED = json.encoder.encode_basestring_ascii  # what that encoder writes of a str


def evidence_json(evidence: Sequence[Evidence]) -> str:
    """`_EVIDENCE_JSON([e.to_dict() for e in evidence])`, the same text, written straight: each
    item has the same five keys, and most values are text, a line number or None (a finding
    has one or two items, and a dump tens of thousands of findings)."""
    return "[" + ", ".join(
        f'{{"expected": {_value_json(e.expected)}, "field": {_value_json(e.field)}, '
        f'"line": {_value_json(e.line)}, "seen": {_value_json(e.seen)}, "source": {_value_json(e.source)}}}'
        for e in evidence) + "]"


def _value_json(value: Any) -> str:
    kind = type(value)
    if kind is str:
        return _QUOTED(value)
    if value is None:
        return "null"
    if kind is bool:
        return "true" if value else "false"
    if kind is int:
        return int.__repr__(value)
    return _EVIDENCE_JSON(value)  # floats, lists, maps, anything else: as the encoder writes them


def to_frame(findings: Sequence[Finding], metas: dict[str, RuleMeta],
             incidents: Sequence[Any] = ()) -> pd.DataFrame:
    """Findings as the `cluster.findings` DataFrame (evidence as a JSON string)."""
    of = _incident_index(incidents)
    findings = list(findings)
    # column by column: tens of thousands of findings, each a dict of 14 keys, cost more to
    # build and to read back than the columns themselves
    columns: dict[str, list[Any]] = {
        "rule": [f.rule for f in findings], "severity": [f.severity for f in findings],
        "status": [f.status for f in findings], "category": [f.category for f in findings],
        "kind": [f.kind for f in findings], "namespace": [f.namespace for f in findings],
        "name": [f.name for f in findings],
        "message": [message(f, metas[f.rule]) for f in findings],
        "evidence": [evidence_json(f.evidence) for f in findings],
        "remediation": [f.remediation for f in findings], "source": [f.source for f in findings],
        "incident": [of[id(f)].id if id(f) in of else None for f in findings],
        "managed": [f.managed for f in findings], "resolved": [f.resolved for f in findings],
        "alike": [", ".join(f.alike) if f.alike else None for f in findings],
        # the finding that already says it: "pod-pending Pod kube-system/coredns-74ff55c5b-9rptk"
        "said_by": [f"{f.said_by[0]} {object_ref(*f.said_by[1:])}" if f.said_by else None for f in findings],
    }
    # (text columns as the tables make them: Arrow strings straight from the lists)
    frame = pd.DataFrame({c: cast_column(columns[c], "str") for c in COLUMNS}, columns=list(COLUMNS))
    frame["severity"] = frame["severity"].astype(pd.CategoricalDtype(list(SEVERITIES), ordered=True))
    return frame


def _plain(value: Any) -> Any:
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return str(value)


def as_json(records: list[dict[str, Any]]) -> str:
    return json.dumps(records, indent=2, sort_keys=True, default=str)


def _hygiene_groups(records: list[dict[str, Any]]) -> list[tuple[str, str, list[dict[str, Any]]]]:
    """(rule, title, records) of the failing hygiene findings, most frequent rule first."""
    from analyzer.findings.incidents import is_hygiene_rule

    groups: dict[str, list[dict[str, Any]]] = {}
    for r in records:
        if r["status"] == "fail" and r.get("incident") is None and is_hygiene_rule(r["rule"], r["category"]):
            groups.setdefault(r["rule"], []).append(r)
    return sorted(((rule, rs[0]["title"], rs) for rule, rs in groups.items()),
                  key=lambda t: (SEVERITIES.index(t[2][0]["severity"]), -len(t[2]), t[0]))


def _objects(rs: list[dict[str, Any]], limit: int = 4) -> str:
    names = [object_ref(r["object"]["kind"], r["object"]["namespace"], r["object"]["name"]) or "(dump)" for r in rs]
    unique = list(dict.fromkeys(names))
    more = len(_every_object(rs)) - min(len(unique), limit)
    return ", ".join(unique[:limit]) + (f", +{more} more" if more > 0 else "")


def _every_object(rs: list[dict[str, Any]]) -> set[tuple[str, str, str]]:
    """The objects a rule's findings are about, each pod a finding speaks for (`alike`: the
    replicas of one controller said once) counted as one."""
    objects = set()
    for r in rs:
        o = r["object"]
        objects.add((o["kind"], o["namespace"], o["name"]))
        objects.update((o["kind"], o["namespace"], other) for other in r.get("alike") or ())
    return objects


def _hygiene_count(rs: list[dict[str, Any]]) -> str:
    """How many objects fail a hygiene rule, and in how many findings when replicas were said
    once (multi-k8s: 10 pods without an image tag in 6 findings; '6' alone read as 6 pods)."""
    objects = len(_every_object(rs))
    if objects <= len(rs):  # (one object can fail a rule twice: the findings are counted)
        return str(len(rs))
    return f"{objects} objects, in {len(rs)} finding{'s' if len(rs) != 1 else ''}"


def _incident_lines(incidents: Sequence[dict[str, Any]], records: list[dict[str, Any]]) -> list[str]:
    by_incident: dict[str, list[dict[str, Any]]] = {}
    for r in records:
        if r.get("incident"):
            by_incident.setdefault(r["incident"]["id"], []).append(r)
    lines = [f"WHAT IS WRONG ({len(incidents)} incident{'s' if len(incidents) != 1 else ''})"]
    if not incidents:
        lines.append("  nothing: no warning or critical finding about something broken now")
    for inc in incidents[:TOP_INCIDENTS]:
        lines.append(f"  {inc['rank']}. [{inc['severity']}] {inc['headline']}")
        lines.append(f"     cause: {inc['cause']}; affects {inc['affects']}; "
                     f"{len(inc['findings'])} finding(s)")
        for r in by_incident.get(inc["id"], [])[:8]:
            lines.append(f"       - [{r['rule']}] {r['message']}")
    rest = incidents[TOP_INCIDENTS:]
    if rest:
        lines.append("  also:")
        lines += [f"  {inc['rank']}. [{inc['severity']}] {inc['headline']}" for inc in rest]
    lines.append("")
    return lines


def as_text(records: list[dict[str, Any]], incidents: Sequence[dict[str, Any]] | None = None) -> str:
    """What is wrong (incidents, top three in full), hygiene by rule, then every finding by
    severity with its evidence, and a count."""
    lines: list[str] = []
    if incidents is not None:
        lines += _incident_lines(incidents, records)
        hygiene = _hygiene_groups(records)
        if hygiene:
            lines.append(f"HYGIENE ({sum(len(rs) for _, _, rs in hygiene)} findings, by rule)")
            lines += [f"  [{rule}] {title}: {_hygiene_count(rs)} ({_objects(rs)})" for rule, title, rs in hygiene]
            lines.append("")
        lines.append("ALL FINDINGS")
    fails = [r for r in records if r["status"] == "fail"]
    under = said_under(records)
    nested = {id(r) for rs in under.values() for r in rs}
    for sev in SEVERITIES:
        group = [r for r in fails if r["severity"] == sev]
        if not group:
            continue
        lines.append(f"{sev.upper()} ({len(group)}{_said_text([r for r in group if id(r) in nested])})")
        for r in group:
            if id(r) in nested:
                continue
            lines.append(f"  [{r['rule']}] {r['message']}")
            for e in r["evidence"]:
                where = f"  ({e['source']}:{e['line']})" if e["source"] and e["line"] else (
                    f"  ({e['source']})" if e["source"] else "")
                expected = f", expected {e['expected']}" if e["expected"] not in (None, "") else ""
                lines.append(f"      {e['field']} = {e['seen']}{expected}{where}")
            lines += [f"      also in [{s['rule']}] ({s['severity']}): {s['message']}"
                      for s in under.get(_record_key(r), ())]
        lines.append("")
    na = sorted({(r["rule"], r["message"]) for r in records if r["status"] == "not_applicable"})
    if na:
        lines.append(f"NOT APPLICABLE ({len(na)} rules)")
        lines += [f"  [{rule}] {msg.removeprefix('Not applicable: ')}" for rule, msg in na]
        lines.append("")
    counts = Counter(r["severity"] for r in fails)
    lines.append("findings: " + ", ".join(f"{counts.get(s, 0)} {s}" for s in SEVERITIES)
                 + f"; {len(na)} rules not applicable")
    return "\n".join(lines)


def _md_cell(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def what_is_wrong_markdown(incidents: Sequence[dict[str, Any]], level: int = 2) -> list[str]:
    """The "What is wrong" section: incidents ranked, the top three with their findings."""
    head = "#" * level
    out = [f"{head} What is wrong", ""]
    if not incidents:
        return [*out, "Nothing: no warning or critical finding about something broken now.", ""]
    for inc in incidents:
        out.append(f"{inc['rank']}. **{inc['severity']}**: {_md_cell(inc['headline'])}")
        if inc["rank"] <= TOP_INCIDENTS:
            out.append(f"   - cause: {_md_cell(inc['cause'])}; affects {_md_cell(inc['affects'])}")
            for f in inc["findings"][:8]:
                o = f["object"]
                out.append(f"   - `{f['rule']}` on {_md_cell(object_ref(o['kind'], o['namespace'], o['name']) or 'the dump')}")
    out.append("")
    return out


def as_markdown(records: list[dict[str, Any]], incidents: Sequence[dict[str, Any]] | None = None) -> str:
    """A Markdown report: what is wrong, hygiene by rule, a table of failures, then the rules
    that could not apply."""
    fails = [r for r in records if r["status"] == "fail"]
    out = ["# Findings", ""]
    counts = Counter(r["severity"] for r in fails)
    out.append(", ".join(f"**{counts.get(s, 0)}** {s}" for s in SEVERITIES))
    out.append("")
    if incidents is not None:
        out += what_is_wrong_markdown(incidents)
        hygiene = _hygiene_groups(records)
        if hygiene:
            out += ["## Hygiene", "", "| rule | findings | objects |", "|---|---|---|"]
            out += [f"| `{rule}` {_md_cell(title)} | {len(rs)} | {_md_cell(_objects(rs))} |" for rule, title, rs in hygiene]
            out.append("")
    if fails:
        under = said_under(records)
        nested = {id(r) for rs in under.values() for r in rs}
        out += ["## All findings", ""]
        if nested:
            out += [f"{len(nested)} of them said in the evidence of the finding that says the same.", ""]
        out += ["| severity | rule | object | message | evidence |", "|---|---|---|---|---|"]
        for r in fails:
            if id(r) in nested:
                continue
            o = r["object"]
            evidence = "; ".join([*(f"`{e['field']}` = {e['seen']}" for e in r["evidence"]),
                                  *(f"also in `{s['rule']}` ({s['severity']}): {s['message']}"
                                    for s in under.get(_record_key(r), ()))])
            out.append("| " + " | ".join(_md_cell(x) for x in (
                r["severity"], r["rule"], object_ref(o["kind"], o["namespace"], o["name"]),
                r["message"], evidence)) + " |")
        out.append("")
    na = sorted({(r["rule"], r["message"]) for r in records if r["status"] == "not_applicable"})
    if na:
        out += ["## Not applicable to this dump", ""]
        out += [f"- `{rule}`: {_md_cell(msg.removeprefix('Not applicable: '))}" for rule, msg in na]
        out.append("")
    return "\n".join(out)


_SARIF_LEVEL = {"critical": "error", "warning": "warning", "info": "note"}


def as_sarif(records: list[dict[str, Any]], rules: Sequence[Rule], version: str,
             incidents: Sequence[dict[str, Any]] | None = None) -> str:
    """SARIF 2.1.0: one run, every rule as a reportingDescriptor, failures as results."""
    descriptors = [{
        "id": r.meta.id, "name": r.meta.id, "shortDescription": {"text": r.meta.title},
        "help": {"text": r.meta.remediation},
        "defaultConfiguration": {"level": _SARIF_LEVEL[r.meta.severity]},
        "properties": {"category": r.meta.category, "severity": r.meta.severity},
    } for r in rules]
    index = {r.meta.id: i for i, r in enumerate(rules)}
    results = []
    for rec in records:
        if rec["status"] != "fail":
            continue
        result: dict[str, Any] = {
            "ruleId": rec["rule"], "ruleIndex": index[rec["rule"]],
            "level": _SARIF_LEVEL[rec["severity"]], "message": {"text": rec["message"]},
            "properties": {"object": rec["object"], "evidence": rec["evidence"],
                           "incident": rec.get("incident"),
                           "managed": rec.get("managed", ""), "resolved": rec.get("resolved", ""),
                           "alike": rec.get("alike", []), "said_by": rec.get("said_by")},
        }
        located = [e for e in rec["evidence"] if e["source"]]
        if located:
            region = {"startLine": located[0]["line"]} if located[0]["line"] else None
            physical: dict[str, Any] = {"artifactLocation": {"uri": located[0]["source"]}}
            if region:
                physical["region"] = region
            result["locations"] = [{"physicalLocation": physical}]
        o = rec["object"]
        if o["kind"]:
            result.setdefault("locations", [{}])[0]["logicalLocations"] = [{
                "name": o["name"], "kind": o["kind"],
                "fullyQualifiedName": "/".join(x for x in (o["kind"], o["namespace"], o["name"]) if x),
            }]
        results.append(result)
    sarif = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json", "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "kube-dump-analyzer", "version": version,
                                "informationUri": "https://github.com/kube-dump-analyzer",
                                "rules": descriptors}},
            "results": results,
            "properties": {"incidents": list(incidents or [])},
        }],
    }
    return json.dumps(sarif, indent=2, sort_keys=True, default=str)
