"""The verdict corpus: for every real dump, the warning/critical findings a reviewer who read the
dump agrees with, and those that must not be raised, each with a line quoting the dump.

One file per dump of ../shared/realdata in tests/findings/verdicts/<dir>__<case>.yaml:

    dump: kubeadm/cka-3c97-cluster-info-dump
    about: what the dump is, in a line
    must_show:                  # exactly these warning/critical findings (times: n for repeats)
      - {rule: node-not-ready, object: Node/cka-worker1, severity: critical, why: "<quote>"}
    must_not_show:              # never warning/critical (they may be info, or absent)
      - {rule: node-kubelet-versions-mixed, object: Node/cka-worker1, why: "<quote>"}

Any warning/critical finding not listed is unexpected; any listed one not raised is missing.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import REALDATA

import analyzer
from analyzer.findings import collect_findings

VERDICTS = Path(__file__).parent / "verdicts"
LOUD = ("warning", "critical")


def _files() -> list[Path]:
    return sorted(VERDICTS.glob("*.yaml"))


def _doc(path: Path) -> dict[str, Any]:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def object_id(f: Any, name: str | None = None) -> str:
    return "/".join(x for x in (f.kind, f.namespace, name or f.name) if x)


@cache
def _loud(dump: str) -> Counter:
    """(rule, object, severity) of each warning and critical finding; a hygiene finding that
    stands for its controller's other pods (`alike`) counts for each of them too."""
    findings = collect_findings(analyzer.load(str(REALDATA / dump)))
    return Counter((f.rule, object_id(f, name), f.severity) for f in findings
                   if f.status == "fail" and f.severity in LOUD for name in (f.name, *f.alike))


def verdict_counts(doc: dict[str, Any]) -> tuple[Counter, Counter]:
    """(what the dump must show, what it shows) as Counters of (rule, object, severity)."""
    want = Counter()
    for e in doc.get("must_show") or ():
        want[(e["rule"], e["object"], e["severity"])] += int(e.get("times", 1))
    return want, _loud(doc["dump"])


needs_realdata = pytest.mark.skipif(not REALDATA.exists(), reason="no realdata beside the checkout")


@needs_realdata
def test_every_real_dump_has_a_verdict_file() -> None:
    dumps = {str(p.relative_to(REALDATA)) for p in REALDATA.glob("*/*") if p.is_dir()}
    files = {_doc(p)["dump"] for p in _files()}
    assert files == dumps, f"without verdicts: {sorted(dumps - files)}; unknown: {sorted(files - dumps)}"
    for path in _files():
        assert path.stem == _doc(path)["dump"].replace("/", "__")


def test_every_verdict_is_justified() -> None:
    for path in _files():
        doc = _doc(path)
        assert doc.get("about"), path.name
        for key in ("must_show", "must_not_show"):
            for e in doc.get(key) or ():
                assert e.get("why") and len(e["why"]) > 20, (path.name, e)
                assert e["rule"] and e["object"], (path.name, e)
                if key == "must_show":
                    assert e["severity"] in LOUD, (path.name, e)
        shown = {(e["rule"], e["object"]) for e in doc.get("must_show") or ()}
        hidden = {(e["rule"], e["object"]) for e in doc.get("must_not_show") or ()}
        assert not shown & hidden, (path.name, shown & hidden)


@needs_realdata
@pytest.mark.parametrize("path", _files(), ids=lambda p: p.stem)
def test_findings_are_the_reviewed_verdicts(path: Path) -> None:
    doc = _doc(path)
    want, got = verdict_counts(doc)
    unexpected, missing = got - want, want - got
    assert not unexpected and not missing, (
        f"{doc['dump']}: unexpected {sorted(unexpected.elements())}; missing {sorted(missing.elements())}")
    loud = {(rule, obj) for rule, obj, _sev in got}
    for e in doc.get("must_not_show") or ():
        assert (e["rule"], e["object"]) not in loud, (doc["dump"], e)
