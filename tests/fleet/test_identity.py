"""Content hashes and dump ids: the fleet's cache keys must follow content, not location."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import SAMPLE_DUMPS

from analyzer.fleet.identity import content_hash, dump_files, dump_id, dump_name


@pytest.fixture
def dump(tmp_path: Path) -> Path:
    # Hand-written two-file dump in a nested folder, like a small support bundle.
    root = tmp_path / "bundle"
    (root / "cluster-resources").mkdir(parents=True)
    (root / "cluster-resources" / "pods.yaml").write_text("kind: Pod\nmetadata: {name: a}\n")
    (root / "version.yaml").write_text("gitVersion: v1.29.3\n")
    return root


def test_hash_follows_content_not_location(dump: Path, tmp_path: Path) -> None:
    copy = shutil.copytree(dump, tmp_path / "elsewhere" / "renamed")
    assert content_hash(copy) == content_hash(dump)


def test_hash_changes_with_a_byte_a_name_or_a_new_file(dump: Path) -> None:
    seen = {content_hash(dump)}
    (dump / "version.yaml").write_text("gitVersion: v1.29.4\n")
    seen.add(content_hash(dump))
    (dump / "version.yaml").rename(dump / "version2.yaml")
    seen.add(content_hash(dump))
    (dump / "empty.txt").write_text("")
    seen.add(content_hash(dump))
    assert len(seen) == 4


def test_hash_does_not_shift_bytes_between_files(tmp_path: Path) -> None:
    # "ab" + "c" and "a" + "bc" are the same bytes in the same order: lengths must tell apart.
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir(), two.mkdir()
    (one / "a").write_text("ab"), (one / "b").write_text("c")
    (two / "a").write_text("a"), (two / "b").write_text("bc")
    assert content_hash(one) != content_hash(two)


def test_single_file_hash_ignores_its_name(tmp_path: Path) -> None:
    a, b = tmp_path / "ticket-1.json", tmp_path / "ticket-2.json"
    a.write_text('{"kind": "List", "items": []}')
    b.write_text('{"kind": "List", "items": []}')
    assert dump_files(a) == [("", a)]
    assert content_hash(a) == content_hash(b)


def test_files_are_sorted_by_relative_path() -> None:
    relative = [r for r, _ in dump_files(SAMPLE_DUMPS / "kubeadm")]
    assert relative == sorted(relative) and "nodes.json" in relative


def test_missing_path_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="no-such-dump"):
        content_hash(tmp_path / "no-such-dump")


@pytest.mark.parametrize(("path", "name"), [
    ("/x/acme-prod.tar.gz", "acme-prod"),
    ("/x/acme/must-gather", "acme"),
    ("/x/acme/dump.tgz", "acme"),
    ("/x/pods.yaml", "pods"),
])
def test_dump_name(path: str, name: str) -> None:
    assert dump_name(path) == name


def test_dump_id_is_a_safe_partition_value() -> None:
    digest = "9" * 64  # all digits: must still read as a string, never an int partition
    ident = dump_id("ACME=prod/eu", digest)
    assert ident == "acme-prod-eu-999999999999"
    assert "=" not in ident and "/" not in ident


def test_a_dump_given_as_the_current_folder_is_named_by_that_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "ticket-1234" / "cluster-info-dump").mkdir(parents=True)
    monkeypatch.chdir(tmp_path / "ticket-1234" / "cluster-info-dump")
    assert (dump_name("."), dump_name("..")) == ("ticket-1234", "ticket-1234")
