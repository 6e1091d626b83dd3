"""Planted secrets appear in no output of any command (each command is one row of COMMANDS)."""

from __future__ import annotations

from pathlib import Path

import msgspec
import orjson
import pytest
from typer.testing import CliRunner

from analyzer.cli import app
from analyzer.ingest import ingest
from analyzer.report.tables import page_rows

from .planted import PLANTED, leaks, write_planted_dump

# (id, argv) — {dump} is the planted dump, {out} a fresh folder whose files are read too.
# Every command is checked; adding one is adding a row.
COMMANDS = [
    ("inspect-json", ["inspect", "{dump}", "--format", "json"]),
    ("inspect-text", ["inspect", "{dump}"]),
    ("tables-csv", ["tables", "{dump}", "--table", "all", "--format", "csv", "--output", "{out}"]),
    ("tables-json", ["tables", "{dump}", "--table", "all", "--format", "json", "--output", "{out}"]),
    ("tables-markdown", ["tables", "{dump}", "--table", "all", "--format", "markdown", "--output", "{out}"]),
    ("graph-json", ["graph", "{dump}", "--format", "json"]),
    ("graph-graphml", ["graph", "{dump}", "--format", "graphml"]),
    ("graph-gexf", ["graph", "{dump}", "--format", "gexf"]),
    ("findings-json", ["findings", "{dump}", "--format", "json"]),
    ("findings-sarif", ["findings", "{dump}", "--format", "sarif"]),
    ("findings-text", ["findings", "{dump}"]),
    ("report-html", ["report", "{dump}", "--output", "{out}"]),  # HTML and Markdown
    ("report-json", ["report", "{dump}", "--format", "json", "--output", "{out}"]),
    ("redact", ["redact", "{dump}", "--output", "{out}/copy"]),
    # kubectl-shaped looks, a timeline, a diff and logs print the objects' own fields and lines
    ("get-yaml", ["get", "pods,deployments,configmaps,secrets,events", "{dump}", "-A", "-o", "yaml"]),
    ("get-json", ["get", "pods,deployments,configmaps,secrets,events", "{dump}", "-A", "-o", "json"]),
    ("describe", ["describe", "pods", "{dump}", "-n", "shop"]),
    ("describe-secret", ["describe", "secrets", "{dump}", "-n", "shop"]),
    ("timeline", ["timeline", "{dump}", "--format", "json"]),
    ("diff", ["diff", "{dump}", "{dump}", "--format", "json", "--output", "{out}"]),
    ("logs", ["logs", "{dump}", "--all", "--grep", "."]),
]


@pytest.mark.parametrize(("argv", "plant"), [
    (["tables", "{dump}", "--table", "events", "--format", "json"], "event-bearer"),
    (["tables", "{dump}", "--table", "annotations", "--format", "json"], "annotation-connection-string"),
    (["findings", "{dump}", "--format", "json"], "event-bearer"),
])
def test_show_sensitive_opts_out_of_masking_but_never_shows_secret_data(
    planted: Path, argv: list[str], plant: str
) -> None:
    args = [a.replace("{dump}", str(planted)) for a in argv]
    masked = CliRunner().invoke(app, args)
    shown = CliRunner().invoke(app, [*args, "--show-sensitive"])
    assert masked.exit_code in (0, 1, 3) and shown.exit_code in (0, 1, 3), shown.output[-300:]
    assert plant not in leaks(masked.stdout)
    assert plant in leaks(shown.stdout)  # the credential-looking value, asked for
    assert not {"secret-data", "secret-string-data", "secret-last-applied"} & set(leaks(shown.stdout))



def _registered() -> set[str]:
    names = set()
    for command in app.registered_commands:
        names.add(command.name or (command.callback.__name__ if command.callback else ""))
    return names


@pytest.fixture(scope="module")
def planted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_planted_dump(tmp_path_factory.mktemp("planted"))


def _everything_written(out: Path) -> str:
    texts = []
    for path in sorted(out.rglob("*")):
        if path.is_file() and path.suffix != ".parquet":
            text = path.read_bytes().decode("utf-8", "replace")
            texts.append(path.name + "\n" + text)
            if path.suffix == ".html":  # a report's long tables are compressed blocks: read them too
                texts += page_rows(text)
    return "\n".join(texts)


@pytest.mark.parametrize(("name", "argv"), COMMANDS, ids=[c[0] for c in COMMANDS])
def test_no_planted_secret_in_output(name: str, argv: list[str], planted: Path, tmp_path: Path) -> None:
    assert argv[0] in _registered(), f"`kda {argv[0]}` is not a command"
    out = tmp_path / "out"
    out.mkdir()
    args = [a.replace("{dump}", str(planted)).replace("{out}", str(out)) for a in argv]
    result = CliRunner().invoke(app, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert result.exit_code in (0, 1, 3), f"kda {' '.join(argv)} failed ({result.exit_code}): {result.output[-500:]}"
    written = result.stdout + "\n" + result.stderr + "\n" + _everything_written(out)
    assert written.strip(), "the command wrote nothing to check"
    found = sorted(leaks(written))
    assert not found, f"kda {' '.join(argv)} shows planted secrets: {found}"


def test_the_planted_dump_really_holds_every_secret(planted: Path) -> None:
    # Guard against a test that cannot fail: the raw dump leaks all of them.
    raw = "\n".join(p.read_text(encoding="utf-8") for p in sorted(planted.rglob("*")) if p.is_file())
    assert sorted(leaks(raw)) == sorted(PLANTED)


def test_ingestion_keeps_no_secret_value(planted: Path) -> None:
    # Secret data, stringData and the copy in last-applied, and a Helm release a ConfigMap holds,
    # are gone from every body and view: nothing downstream can show what ingestion never kept.
    secret_plants = {"secret-data", "secret-string-data", "secret-last-applied", "helm-release-configmap"}
    result = ingest(str(planted))
    secret = next(o for o in result.objects if o.kind == "Secret" and o.name == "db-credentials")
    assert sorted(secret.body()["data"]) == ["password"]  # key names are kept
    found = set()
    for obj in result.objects:
        text = orjson.dumps(obj.body(), default=str).decode() + msgspec.json.encode(obj.view).decode()
        found |= set(leaks(text)) & (secret_plants | {"describe-last-applied"})
    assert not found, sorted(found)


def test_parquet_export_has_no_secret(planted: Path, tmp_path: Path) -> None:
    import pandas as pd

    import analyzer

    analyzer.load(str(planted)).to_parquet(tmp_path / "parquet")
    files = sorted((tmp_path / "parquet").rglob("*.parquet"))
    assert files
    text = "\n".join(pd.read_parquet(f).to_csv() for f in files)
    assert not leaks(text)
