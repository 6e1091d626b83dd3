"""No module reads YAML with PyYAML's pure-Python loaders (slow) or with unsafe ones."""

from __future__ import annotations

import re

import yaml
from conftest import ROOT

from analyzer.safeyaml import DumpLoader

# safe_load/load_all/full_load/unsafe_load, yaml.Loader, SafeLoader and FullLoader without the
# compiled C prefix, and yaml.load given any loader but CSafeLoader or safeyaml's DumpLoader (a
# CSafeLoader that reads a plain `=` as a string).
FORBIDDEN = re.compile(
    r"yaml\.(?:safe_load|safe_load_all|full_load|unsafe_load|load_all\([^)]*Loader=yaml\.(?!CSafeLoader))"
    r"|(?<![C\w])(?:SafeLoader|FullLoader|UnsafeLoader)\b|yaml\.Loader\b"
    r"|yaml\.load\((?![^)]*Loader=(?:yaml\.CSafeLoader|DumpLoader))"
)


def test_package_reads_yaml_with_the_compiled_safe_loader_only() -> None:
    offenders = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in sorted((ROOT / "analyzer").rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if FORBIDDEN.search(line)
    ]
    assert not offenders, "\n".join(offenders)


def test_the_pattern_sees_what_it_forbids() -> None:
    for line in ("yaml.safe_load(text)", "yaml.load(t, Loader=yaml.SafeLoader)", "yaml.load(t)",
                 "yaml.load(t, Loader=yaml.Loader)", "yaml.full_load(t)"):
        assert FORBIDDEN.search(line), line
    assert not FORBIDDEN.search("yaml.load(text, Loader=yaml.CSafeLoader)")
    assert not FORBIDDEN.search("loader = yaml.CSafeLoader(text)")


def test_the_dump_loader_is_the_compiled_safe_loader() -> None:
    assert issubclass(DumpLoader, yaml.CSafeLoader)
    assert DumpLoader.yaml_constructors is not yaml.CSafeLoader.yaml_constructors  # its own table
    assert "tag:yaml.org,2002:value" not in yaml.CSafeLoader.yaml_constructors
