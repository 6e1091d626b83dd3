"""A diff as text, JSON, Markdown or one self-contained HTML page (every dump value escaped)."""

from __future__ import annotations

import html
import json
import re
from functools import cache
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

FORMATS = ("text", "json", "markdown", "html")
FIELDS_SHOWN = 25  # field changes printed per object in text and Markdown (JSON has them all)
ROWS_SHOWN = 500  # objects printed per list in text, Markdown and HTML (JSON has them all)


def label(item: dict[str, Any]) -> str:
    """`Kind namespace/name` (or `Kind name` when cluster-scoped)."""
    where = f"{item['namespace']}/{item['name']}" if item.get("namespace") else item["name"]
    return f"{item['kind']} {where}"


def value_text(value: Any) -> str:
    """A field value on one line: strings as they are, anything else as JSON; absent as '-'."""
    if value is None:
        return "(none)"
    text = value if isinstance(value, str) else json.dumps(value, sort_keys=True)
    text = " ".join(text.split())
    return text if len(text) <= 200 else text[:199] + "…"


def replacing(finding: dict[str, Any]) -> str:
    """What an open finding on a replacement pod was before: its controller's pod it replaced."""
    if not finding.get("replaces"):
        return ""
    several = ", " in finding["replaces"]
    return f" (as its {finding['owner']}'s pod{'s' if several else ''} {finding['replaces']} {'were' if several else 'was'})"


def replaced_count(d: dict[str, Any]) -> str:
    """`2 -> 3`: the pods gone and the pods come of the controllers that made theirs again."""
    gone = sum(len(r["old"]) for r in d["replaced"])
    came = sum(len(r["new"]) for r in d["replaced"])
    return str(gone) if gone == came else f"{gone} -> {came}"


def replaced_line(r: dict[str, Any]) -> str:
    """One controller's pods made again: `Deployment shop/web: a, b -> c, d`."""
    return f"{r['controller']}: {', '.join(r['old'])} -> {', '.join(r['new'])}"


def summary_lines(d: dict[str, Any]) -> list[str]:
    """The headline numbers of a diff, one line each."""
    f, i = d["findings"], d["incidents"]
    return [
        f"objects: {len(d['added'])} added, {len(d['removed'])} removed, "
        + (f"{replaced_count(d)} pods made again by their controllers, " if d.get("replaced") else "")
        + f"{len(d['changed'])} changed, "
        f"{d['unchanged']} unchanged"
        + (f", {d['compared_by_identity_only']} pasted, alike as far as the paste shows"
           if d["compared_by_identity_only"] else ""),
        f"findings: {len(f['new'])} new, {len(f['resolved'])} resolved, {len(f['open'])} still open",
        f"incidents: {len(i['new'])} new, {len(i['resolved'])} resolved, {len(i['open'])} still open",
        f"restarts gained: {sum(r['gained'] for r in d['restarts'])} in {len(d['restarts'])} pods",
    ]


def _nodes(count: int | None) -> str:
    return "not collected" if count is None else str(count)


def as_json(d: dict[str, Any]) -> str:
    return json.dumps(d, indent=2, sort_keys=True, ensure_ascii=False, default=str)


def as_text(d: dict[str, Any]) -> str:
    s = d["same_cluster"]
    out = [f"old: {d['old']['name']} ({', '.join(d['old']['inputs'])}), captured {d['old']['capture_time'] or 'at an unknown time'}",
           f"new: {d['new']['name']} ({', '.join(d['new']['inputs'])}), captured {d['new']['capture_time'] or 'at an unknown time'}",
           f"same cluster: {s['verdict']} (confidence {s['confidence']:.2f}){' [compared anyway: --force]' if d['forced'] else ''}"]
    out += [f"  {e['signal']}: {e['says']} ({e['detail']})" for e in s["evidence"]]
    out += summary_lines(d)
    for item in d["not_comparable"]:
        out.append(f"not comparable: {item['kind']} ({item['objects']} objects): {item['reason']}")
    for title, items in (("added", d["added"]), ("removed", d["removed"])):
        if items:
            out.append(f"\n{title.capitalize()} ({len(items)}):")
            out += [f"  {label(i)}" for i in items[:ROWS_SHOWN]]
            if len(items) > ROWS_SHOWN:
                out.append(f"  ... {len(items) - ROWS_SHOWN} more (see --format json)")
    if d["replaced"]:
        out.append(f"\nPods made again by their controllers ({replaced_count(d)} pods):")
        for r in d["replaced"][:ROWS_SHOWN]:
            out.append(f"  {replaced_line(r)}")
            out += [f"    {c['path']}: {value_text(c['old'])} -> {value_text(c['new'])}" for c in r["fields"]]
    if d["changed"]:
        out.append(f"\nChanged ({len(d['changed'])}):")
        for item in d["changed"][:ROWS_SHOWN]:
            out.append(f"  {label(item)}{' (recreated: a new uid)' if item.get('recreated') else ''}")
            for c in item["fields"][:FIELDS_SHOWN]:
                out.append(f"    {c['path']}: {value_text(c['old'])} -> {value_text(c['new'])}")
            if len(item["fields"]) > FIELDS_SHOWN:
                out.append(f"    ... {len(item['fields']) - FIELDS_SHOWN} more fields")
    changed_versions = [v for v in d["versions"] if v["changed"]]
    out.append("\nVersions:" if changed_versions else "\nVersions: unchanged (where both dumps say)")
    for v in changed_versions:
        out.append(f"  {v['what']}: {v['old'] or '(none)'} -> {v['new'] or '(none)'}")
    cap = d["capacity"]
    out.append(f"\nNodes: {_nodes(cap['nodes_old'])} -> {_nodes(cap['nodes_new'])}")
    for t in cap["totals"]:
        if t["changed"]:
            out.append(f"  total {t['what']}: {value_text(t['old'])} -> {value_text(t['new'])}")
    for n in cap["changed_nodes"][:ROWS_SHOWN]:
        out.append(f"  node {n['node']} {n['what']}: {value_text(n['old'])} -> {value_text(n['new'])}")
    if d["restarts"]:
        out.append("\nRestarts gained between the captures:")
        out += [f"  {r['namespace']}/{r['name']}: +{r['gained']} ({r['old']} -> {r['new']})"
                for r in d["restarts"][:ROWS_SHOWN]]
    for title in ("new", "resolved", "open"):
        items = d["incidents"][title]
        if items:
            out.append(f"\nIncidents {title} ({len(items)}):")
            out += [f"  [{x['severity']}] {x['headline']}" for x in items[:ROWS_SHOWN]]
    for title in ("new", "resolved", "open", "not_comparable"):
        items = d["findings"][title]
        if items:
            out.append(f"\nFindings {title.replace('_', ' ')} ({len(items)}):")
            out += [f"  [{f['severity']}] {f['rule']}: {f['message']}{replacing(f)}" for f in items[:ROWS_SHOWN]]
    out.append("\nLeft out of the comparison (volatile): "
               + ", ".join(v["path"] for v in d["volatile_fields"]))
    if d["history"]:
        out.append("Compared by count only: " + ", ".join(
            f"{h['kind']} {h['old']} -> {h['new']}" for h in d["history"]))
    return "\n".join(out)


_MD_SPECIAL = re.compile(r"([\\`*\[\]|_])")


def md(value: Any) -> str:
    """A value as inert Markdown text (HTML and Markdown syntax escaped, one line)."""
    text = value_text(value) if not isinstance(value, str) else " ".join(value.split())
    return _MD_SPECIAL.sub(r"\\\1", html.escape(text, quote=False))


def as_markdown(d: dict[str, Any]) -> str:
    s = d["same_cluster"]
    out = [f"# Diff: {md(d['old']['name'])} -> {md(d['new']['name'])}", "",
           f"- old: {md(', '.join(d['old']['inputs']))}, captured {md(d['old']['capture_time'] or 'at an unknown time')}",
           f"- new: {md(', '.join(d['new']['inputs']))}, captured {md(d['new']['capture_time'] or 'at an unknown time')}",
           f"- same cluster: **{s['verdict']}** (confidence {s['confidence']:.2f})"
           + (" — compared anyway (--force)" if d["forced"] else "")]
    out += [f"  - {md(e['signal'])}: {e['says']} ({md(e['detail'])})" for e in s["evidence"]]
    out += [f"- {md(line)}" for line in summary_lines(d)]
    for item in d["not_comparable"]:
        out.append(f"- not comparable: {md(item['kind'])} ({item['objects']} objects): {md(item['reason'])}")
    for title, items in (("Added", d["added"]), ("Removed", d["removed"])):
        if items:
            out += ["", f"## {title} ({len(items)})", ""]
            out += [f"- {md(label(i))}" for i in items[:ROWS_SHOWN]]
    if d["replaced"]:
        out += ["", f"## Pods made again by their controllers ({replaced_count(d)} pods)", ""]
        for r in d["replaced"][:ROWS_SHOWN]:
            out.append(f"- {md(replaced_line(r))}")
            out += [f"  - {md(c['path'])}: {md(value_text(c['old']))} -> {md(value_text(c['new']))}"
                    for c in r["fields"]]
    if d["changed"]:
        out += ["", f"## Changed ({len(d['changed'])})", "", "| object | field | old | new |", "|---|---|---|---|"]
        for item in d["changed"][:ROWS_SHOWN]:
            name = md(label(item)) + (" (recreated: a new uid)" if item.get("recreated") else "")
            for c in item["fields"][:FIELDS_SHOWN]:
                out.append(f"| {name} | {md(c['path'])} | {md(value_text(c['old']))} | {md(value_text(c['new']))} |")
            if len(item["fields"]) > FIELDS_SHOWN:
                out.append(f"| {md(label(item))} | ... {len(item['fields']) - FIELDS_SHOWN} more fields | | |")
    out += ["", "## Versions", "", "| what | old | new |", "|---|---|---|"]
    out += [f"| {md(v['what'])}{' (changed)' if v['changed'] else ''} | {md(value_text(v['old']))} | {md(value_text(v['new']))} |"
            for v in d["versions"]]
    cap = d["capacity"]
    out += ["", f"## Capacity ({_nodes(cap['nodes_old'])} -> {_nodes(cap['nodes_new'])} nodes)", "",
            "| what | old | new |", "|---|---|---|"]
    out += [f"| total {md(t['what'])} | {md(value_text(t['old']))} | {md(value_text(t['new']))} |" for t in cap["totals"]]
    out += [f"| node {md(n['node'])} {md(n['what'])} | {md(value_text(n['old']))} | {md(value_text(n['new']))} |"
            for n in cap["changed_nodes"][:ROWS_SHOWN]]
    if d["restarts"]:
        out += ["", "## Restarts gained", "", "| pod | before | after | gained |", "|---|---|---|---|"]
        out += [f"| {md(r['namespace'] + '/' + r['name'])} | {r['old']} | {r['new']} | {r['gained']} |"
                for r in d["restarts"][:ROWS_SHOWN]]
    out += ["", "## Incidents"]
    for title in ("new", "resolved", "open"):
        items = d["incidents"][title]
        out += ["", f"### {title.capitalize()} ({len(items)})", ""]
        out += [f"- {x['severity']}: {md(x['headline'])}" for x in items[:ROWS_SHOWN]]
    out += ["", "## Findings"]
    for title in ("new", "resolved", "open", "not_comparable"):
        items = d["findings"][title]
        out += ["", f"### {title.replace('_', ' ').capitalize()} ({len(items)})", ""]
        out += [f"- {f['severity']} **{md(f['rule'])}**: {md(f['message'] + replacing(f))}" for f in items[:ROWS_SHOWN]]
    out += ["", "## Left out of the comparison", ""]
    out += [f"- `{v['path']}`: {md(v['why'])}" for v in d["volatile_fields"]]
    out += [f"- {md(h['kind'])} objects compared by count only: {h['old']} -> {h['new']}" for h in d["history"]]
    return "\n".join(out) + "\n"


@cache
def _environment() -> Environment:
    env = Environment(loader=PackageLoader("analyzer.diff", "templates"),
                      autoescape=select_autoescape(default=True, default_for_string=True),
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.filters["label"] = label
    env.filters["replacing"] = replacing
    env.filters["replaced_line"] = replaced_line
    env.filters["replaced_count"] = replaced_count
    env.filters["value_text"] = value_text
    return env


def as_html(d: dict[str, Any]) -> str:
    """One self-contained page: inline CSS, no script, no external reference."""
    from analyzer.version import __version__

    return _environment().get_template("diff.html.j2").render(
        d=d, summary=summary_lines(d), rows_shown=ROWS_SHOWN, version=__version__)


def render(d: dict[str, Any], fmt: str) -> str:
    """The diff (as `DumpDiff.to_dict()`) in one of FORMATS."""
    return {"text": as_text, "json": as_json, "markdown": as_markdown, "html": as_html}[fmt](d)
