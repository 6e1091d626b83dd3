"""`kda report` (per-dump reports and a comparison, in batch) and `kda diagram` (one picture)."""

from __future__ import annotations

import gc
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from analyzer.cli.common import SHOW_SENSITIVE_HELP, FailOn, err_console, fail, load_cluster


class ReportFormat(StrEnum):
    html = "html"
    json = "json"


class Chart(StrEnum):
    dependencies = "dependencies"
    nodes = "nodes"
    findings = "findings"


def report(
    inputs: Annotated[list[str], typer.Argument(help="Dumps: folders, archives, dump files or globs.")],
    output: Annotated[Path, typer.Option("--output", "-o", help="Folder to write the reports into.")],
    format: Annotated[ReportFormat, typer.Option("--format", "-f", help="html (HTML + Markdown) or json")] = ReportFormat.html,
    fail_on: Annotated[FailOn | None, typer.Option("--fail-on", help="Exit 1 if a check fails at this severity or above.")] = None,
    progress: Annotated[bool, typer.Option(help="Show a progress bar on stderr.")] = True,
    show_sensitive: Annotated[bool, typer.Option("--show-sensitive", help=SHOW_SENSITIVE_HELP)] = False,
) -> None:
    """Write DIR/<dump-id>/report.html + report.md (or report.json) per dump; with two or more
    dumps also DIR/index.html, DIR/comparison.md and DIR/comparison.json.

    A dump is a folder, an archive (.tar, .tar.gz, .tgz, .tar.xz, .zip, .gz, .xz, .bz2) or a dump
    file (.json, .yaml, .yml, .txt, .log). Other files matched by a glob (README.md, scripts) are
    passed over with a line saying so (names starting with "." or "_" quietly), so
    `kda report sample_dumps/* -o report/` works. A dump that cannot be read is reported and skipped; the others are still written.

    Exit codes: 0 all written; 2 a dump could not be read at all; 3 an internal error on a dump;
    1 with --fail-on when a check failed at that severity or above.
    """
    from analyzer.cli import process_ends_with_command
    from analyzer.report.batch import run_batch, summary_lines

    if process_ends_with_command():
        # `kda` leaves once the batch is written (exit_now): the collector stays off till then,
        # so that it never walks the dumps' objects only to free them at the exit (0.2-0.35 s
        # after the report of a 20,000-pod dump); run_batch collects between two dumps.
        gc.disable()
    try:
        result = run_batch(inputs, output, fail_on=fail_on.value if fail_on else None,
                           progress=progress, formats=(format.value,), show_sensitive=show_sensitive)
    except OSError as exc:  # the output folder cannot be made or written
        fail(f"{exc.filename or output}: {exc.strerror or exc}", 2)
    for line in summary_lines(result):
        err_console.print(line, markup=False)
    if not result.reports and not result.failures:
        fail("no dumps among the inputs: " + ", ".join(inputs), 2)
    if result.reports:
        first = result.comparison[0] if result.comparison else (result.reports[0].html or result.reports[0].json)
        err_console.print(f"open {first}", markup=False)
    raise typer.Exit(result.exit_code)


def diagram(
    inputs: Annotated[list[str], typer.Argument(help="One dump (files, folder or archive).")],
    output: Annotated[Path, typer.Option("--output", "-o", help="FILE.svg or FILE.png")],
    namespace: Annotated[str | None, typer.Option("--namespace", "-n", help="Namespace of the dependency diagram (default: kube-system, else the namespace of the CNI or DNS, else the openshift-* or system namespace with the most components).")] = None,
    chart: Annotated[Chart, typer.Option("--chart", help="dependencies, nodes or findings")] = Chart.dependencies,
) -> None:
    """Draw one diagram of a dump: the layered dependencies of a namespace (default), pods per
    node, or findings by severity. Large namespaces are drawn with pods folded into controllers.
    When the namespace has nothing to draw, nothing is written and the exit code is 2."""
    from analyzer.report import diagrams

    suffix = output.suffix.lower()
    if suffix not in (".svg", ".png"):
        fail(f"{output}: the output must end in .svg or .png", 2)
    cluster = load_cluster(inputs)
    if chart is Chart.dependencies:
        if namespace is None:
            choice = diagrams.system_namespace(cluster)
            if choice.namespace is None:
                fail(f"nothing to draw: {choice.why}; name one with --namespace", 2)
            namespace = choice.namespace
            err_console.print(f"namespace {namespace}: {choice.why}", markup=False)
        try:
            fig = diagrams.dependency_diagram(cluster, namespace)
        except diagrams.NothingToDraw as exc:
            fail(f"nothing to draw: {exc}; nothing written", 2)
    elif chart is Chart.nodes:
        fig = diagrams.node_distribution(cluster)
    else:
        fig = diagrams.findings_by_severity(cluster)
    output.parent.mkdir(parents=True, exist_ok=True)
    if suffix == ".svg":
        output.write_text(diagrams.figure_svg(fig), encoding="utf-8")
    else:
        output.write_bytes(diagrams.figure_png(fig))
    err_console.print(f"wrote {output}", markup=False)


def register(app: typer.Typer) -> None:
    app.command("report")(report)
    app.command("diagram")(diagram)
