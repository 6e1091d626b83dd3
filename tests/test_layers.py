"""The parts of `analyzer` import one way: the import-linter contracts of pyproject.toml hold, a
back-import breaks them with a message naming it, and no import cycle joins the top-level parts.

Fixtures: the package itself, and in one test a copy of it with one import added that runs
back up (a bottom part, kube, importing the Cluster facade).
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

from conftest import ROOT

PACKAGE = ROOT / "analyzer"
# import-linter's command, from the environment running the tests (the test extras install it)
LINT_IMPORTS = (shutil.which("lint-imports", path=str(Path(sys.executable).parent))
                or shutil.which("lint-imports") or "lint-imports")


def _lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    # Run in `root`, which holds pyproject.toml and the package (lint-imports reads both from
    # its working directory); no cache, so nothing is written into the checkout.
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run([LINT_IMPORTS, "--no-cache"], cwd=root, env=env,
                          capture_output=True, text=True, timeout=300)


def test_import_contracts_hold() -> None:
    result = _lint_imports(ROOT)
    # the report without lint-imports' banner: the contracts, and each broken one's imports
    report = result.stdout[result.stdout.find("Contracts"):] + result.stderr
    assert result.returncode == 0, f"an import breaks the layering (docs/architecture.md):\n{report}"
    assert "0 broken" in result.stdout


def test_a_back_import_breaks_the_contract_and_is_named(tmp_path: Path) -> None:
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    shutil.copytree(PACKAGE, tmp_path / "analyzer",
                    ignore=shutil.ignore_patterns("__pycache__", "*.yaml", "*.j2", "*.css", "*.js"))
    keys = tmp_path / "analyzer" / "kube" / "keys.py"
    keys.write_text(keys.read_text(encoding="utf-8") + "\nfrom analyzer.cluster import Cluster  # noqa\n",
                    encoding="utf-8")
    result = _lint_imports(tmp_path)
    assert result.returncode != 0, result.stdout
    assert "BROKEN" in result.stdout
    assert "analyzer.kube.keys -> analyzer.cluster" in result.stdout, result.stdout


def _part(module: str) -> str | None:
    """The top-level part of `analyzer` a module name belongs to (None: outside the package)."""
    parts = module.split(".")
    if parts[0] != "analyzer":
        return None
    return parts[1] if len(parts) > 1 else "__init__"


def _module_name(path: Path, package: Path) -> list[str]:
    parts = list(path.relative_to(package.parent).with_suffix("").parts)
    return parts[:-1] if parts[-1] == "__init__" else parts


def part_imports(package: Path = PACKAGE) -> dict[str, set[str]]:
    """Top-level part -> the parts it imports, counting every import statement (those inside
    functions and under TYPE_CHECKING included)."""
    parts = {p.name.removesuffix(".py") for p in package.iterdir()
             if p.suffix == ".py" or (p / "__init__.py").exists()}
    edges: dict[str, set[str]] = defaultdict(set)
    for path in package.rglob("*.py"):
        module = _module_name(path, package)
        source = module[1] if len(module) > 1 else "__init__"
        home = module if path.name == "__init__.py" else module[:-1]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = home[:len(home) - node.level + 1] if node.level else []
                name = ".".join([*base, node.module] if node.module else base)
                # `from analyzer import x`: x is a part, or a name of analyzer/__init__
                targets = ([f"analyzer.{a.name}" for a in node.names] if name == "analyzer"
                           else [name])
            else:
                continue
            for target in targets:
                part = _part(target)
                if part is not None and part not in parts:
                    part = "__init__"
                if part is not None and part != source:
                    edges[source].add(part)
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one part (Tarjan).

    >>> cycles({"a": {"b"}, "b": {"a"}, "c": {"a"}})
    [['a', 'b']]
    """
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(set(edges) | {w for ws in edges.values() for w in ws}):
        if v not in index:
            visit(v)
    return found


def test_no_import_cycle_between_top_level_parts() -> None:
    edges = part_imports()
    assert {"ingest", "kube"} <= edges["cluster"], "the count misses the Cluster's imports"
    found = cycles(edges)
    assert found == [], f"parts importing each other: {found}\n" + "\n".join(
        f"{a} -> {' '.join(sorted(b))}" for a, b in sorted(edges.items()))


def test_a_lazy_back_import_inside_a_function_is_a_cycle(tmp_path: Path) -> None:
    # The cycle check is only as good as the count: an import inside a function counts.
    copy = tmp_path / "analyzer"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "*.yaml", "*.j2"))
    keys = copy / "kube" / "keys.py"
    keys.write_text(keys.read_text(encoding="utf-8")
                    + "\n\ndef _facade():\n    from analyzer.cluster import Cluster\n\n    return Cluster\n",
                    encoding="utf-8")
    found = cycles(part_imports(copy))
    assert len(found) == 1 and {"cluster", "kube"} <= set(found[0]), found
