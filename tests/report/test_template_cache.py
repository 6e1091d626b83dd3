"""The compiled-template cache: code read back only for the same source and options, in the
user's cache folder, and nothing failing where that folder cannot be written."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from jinja2 import DictLoader, Environment

from analyzer.report import render
from analyzer.report.template_cache import TemplateCache, cache_for, user_cache_dir

# A template of this test's own, not one of the report's.
SOURCE = "{% for x in items %}<{{ x }}>{% endfor %}"


def _environment(cache: TemplateCache, source: str = SOURCE) -> tuple[Environment, list[str]]:
    """An environment reading `source` as "page.j2" through `cache`; the list records compiles."""
    compiled: list[str] = []
    env = Environment(loader=DictLoader({"page.j2": source}), autoescape=True, bytecode_cache=cache)
    compile_ = env.compile

    def counting(source, name=None, filename=None, raw=False, defer_init=False):
        compiled.append(name)
        return compile_(source, name, filename, raw, defer_init)

    env.compile = counting  # type: ignore[method-assign]
    return env, compiled


def test_a_second_environment_reads_the_compiled_code_instead_of_compiling(tmp_path: Path) -> None:
    first, compiled = _environment(cache_for("test", root=tmp_path))
    assert first.get_template("page.j2").render(items=["a", "<b>"]) == "<a><&lt;b&gt;>"
    assert compiled == ["page.j2"]
    assert len(list((tmp_path / "templates").glob("*/*.code"))) == 1

    second, compiled_again = _environment(cache_for("test", root=tmp_path))
    assert second.get_template("page.j2").render(items=["a", "<b>"]) == "<a><&lt;b&gt;>"
    assert compiled_again == []


def test_a_changed_template_is_compiled_again(tmp_path: Path) -> None:
    _environment(cache_for("test", root=tmp_path))[0].get_template("page.j2")
    env, compiled = _environment(cache_for("test", root=tmp_path), "[{{ items | length }}]")
    assert env.get_template("page.j2").render(items=[1, 2]) == "[2]"
    assert compiled == ["page.j2"]


def test_other_options_or_another_python_use_another_folder(tmp_path: Path, monkeypatch) -> None:
    html, md = cache_for("html", root=tmp_path), cache_for("md", root=tmp_path)
    assert html.directory != md.directory
    monkeypatch.setattr(sys.implementation, "cache_tag", "cpython-0")
    assert cache_for("html", root=tmp_path).directory != html.directory


def test_a_damaged_cache_file_is_compiled_again(tmp_path: Path) -> None:
    _environment(cache_for("test", root=tmp_path))[0].get_template("page.j2")
    (code,) = (tmp_path / "templates").glob("*/*.code")
    header = code.read_bytes().split(b"\n", 1)[0]
    code.write_bytes(header + b"\n\x00\x01")  # the right checksum, then garbage
    env, compiled = _environment(cache_for("test", root=tmp_path))
    assert env.get_template("page.j2").render(items=[1]) == "<1>"
    assert compiled == ["page.j2"]


@pytest.mark.skipif(not hasattr(os, "getuid") or os.getuid() == 0,
                    reason="needs POSIX permissions that bind (not root)")
def test_an_unwritable_cache_folder_renders_as_before(tmp_path: Path) -> None:
    tmp_path.chmod(0o500)
    try:
        env, compiled = _environment(cache_for("test", root=tmp_path))
        assert env.get_template("page.j2").render(items=[1]) == "<1>"
        assert compiled == ["page.j2"]
        assert not (tmp_path / "templates").exists()
    finally:
        tmp_path.chmod(0o700)


def test_a_cache_file_that_cannot_be_written_renders_as_before(tmp_path: Path) -> None:
    # A plain file where the cache's folder should be: no folder can be made (as root too).
    (tmp_path / "templates").write_text("not a folder")
    env, compiled = _environment(cache_for("test", root=tmp_path))
    assert env.get_template("page.j2").render(items=[1]) == "<1>"
    assert compiled == ["page.j2"]


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX permissions")
def test_code_in_a_folder_others_can_write_is_not_read(tmp_path: Path) -> None:
    cache = cache_for("test", root=tmp_path)
    _environment(cache)[0].get_template("page.j2")
    cache.directory.chmod(0o777)  # anyone could have put code there
    env, compiled = _environment(cache_for("test", root=tmp_path))
    assert env.get_template("page.j2").render(items=[1]) == "<1>"
    assert compiled == ["page.j2"]


def test_the_report_caches_in_the_users_cache_folder(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.delenv("KDA_CACHE_DIR", raising=False)  # (the test run sets it: see conftest)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    if sys.platform.startswith("linux"):
        assert user_cache_dir() == tmp_path / "cache" / "kube-dump-analyzer"
    monkeypatch.setenv("KDA_CACHE_DIR", str(tmp_path / "elsewhere"))
    assert user_cache_dir() == tmp_path / "elsewhere"
    cache = render.environment("html").bytecode_cache
    assert isinstance(cache, TemplateCache)
    assert cache.directory.parent.name == "templates"
    # html and Markdown compile the same syntax differently (escaping, finalizer): two folders.
    assert render.environment("md").bytecode_cache.directory != cache.directory
