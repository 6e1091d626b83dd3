"""`kda findings` (run the rules over a dump) and `kda rules` (list the rules)."""

from __future__ import annotations

import json
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from analyzer.cli.common import SHOW_SENSITIVE_HELP, FailOn, fail, load_cluster, write_output


class FindingsFormat(StrEnum):
    text = "text"
    json = "json"
    sarif = "sarif"
    markdown = "markdown"


class RulesFormat(StrEnum):
    text = "text"
    json = "json"


class Severity(StrEnum):
    critical = "critical"
    warning = "warning"
    info = "info"


# Exit code when --fail-on is met, distinct from "nothing could be read" (2).
EXIT_FINDINGS = 3
_RANK = {"critical": 0, "warning": 1, "info": 2}


def findings(
    inputs: Annotated[list[str], typer.Argument(help="Dump files, folders, archives, or - for stdin.")],
    format: Annotated[FindingsFormat, typer.Option("--format", "-f", help="text, json, sarif or markdown")] = FindingsFormat.text,
    severity: Annotated[list[Severity] | None, typer.Option("--severity", "-s", help="Only these severities (repeatable).")] = None,
    rule: Annotated[list[str] | None, typer.Option("--rule", "-r", help="Only these rule ids (repeatable).")] = None,
    fail_on: Annotated[FailOn | None, typer.Option("--fail-on", help=f"Exit {EXIT_FINDINGS} if a failing finding is at least this severe.")] = None,
    show_not_applicable: Annotated[bool, typer.Option("--not-applicable/--no-not-applicable", help="List the rules that could not apply.")] = True,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write to this file instead of stdout.")] = None,
    show_sensitive: Annotated[bool, typer.Option("--show-sensitive", help=SHOW_SENSITIVE_HELP)] = False,
) -> None:
    """Run the checks over a dump: what is wrong, where, and the evidence for it."""
    from analyzer.findings import collect_findings, group_incidents
    from analyzer.findings.registry import load_rules, select_rules
    from analyzer.findings.render import as_json, as_markdown, as_sarif, as_text, to_records
    from analyzer.version import __version__

    try:
        rules = select_rules(rule)
    except KeyError as exc:
        fail(f"{exc.args[0]}; see `kda rules`")
    cluster = load_cluster(inputs, show_sensitive=show_sensitive, json_output=format is FindingsFormat.json)
    found = collect_findings(cluster, [r.meta.id for r in rules], show_sensitive=show_sensitive)
    wanted = {s.value for s in severity} if severity else None
    kept = [f for f in found if (wanted is None or f.severity in wanted)
            and (show_not_applicable or f.status == "fail")]
    # Incidents come from every finding the rules gave, whatever the filters keep in view.
    metas = {r.meta.id: r.meta for r in load_rules()}
    incidents = group_incidents(found, cluster)
    records = to_records(kept, metas, incidents)
    summaries = [inc.to_dict() for inc in incidents]
    if format is FindingsFormat.json:
        text = as_json(records)
    elif format is FindingsFormat.sarif:
        text = as_sarif(records, rules, __version__, summaries)
    elif format is FindingsFormat.markdown:
        text = as_markdown(records, summaries)
    else:
        text = as_text(records, summaries)
    write_output(text, output)
    if fail_on is not None and any(f.status == "fail" and _RANK[f.severity] <= _RANK[fail_on.value]
                                   for f in kept):
        raise typer.Exit(EXIT_FINDINGS)


def rules(
    format: Annotated[RulesFormat, typer.Option("--format", "-f", help="text or json")] = RulesFormat.text,
) -> None:
    """List every rule: id, severity, category, title, and the kinds it needs."""
    from analyzer.findings import list_rules

    table = list_rules()
    if format is RulesFormat.json:
        write_output(json.dumps(table.to_dict(orient="records"), indent=2, sort_keys=True), None)
        return
    lines = [f"{'ID':<32} {'SEVERITY':<9} {'CATEGORY':<14} TITLE"]
    for row in table.itertuples(index=False):
        needs = f"  [needs {row.requires}]" if row.requires else ""
        lines.append(f"{row.id:<32} {row.severity:<9} {row.category:<14} {row.title}{needs}")
    lines.append(f"{len(table)} rules")
    write_output("\n".join(lines), None)


def register(app: typer.Typer) -> None:
    app.command("findings")(findings)
    app.command("rules")(rules)
