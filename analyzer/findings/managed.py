"""Findings about provider-managed objects: marked with the signal; hygiene ones become info."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from analyzer.findings.facts import objects_named
from analyzer.findings.types import Finding
from analyzer.model.managed import managed_of

if TYPE_CHECKING:
    from analyzer.findings.dump import AnalyzedDump

# Categories of advice about how an object is written (probes, limits, tags, old APIs): for a
# provider-managed object the provider writes it, so the finding is theirs to act on.
HYGIENE_CATEGORIES = frozenset({"configuration", "deprecations"})


def mark_managed(cluster: AnalyzedDump, findings: Iterable[Finding]) -> list[Finding]:
    """Each finding with its object's managed signal; hygiene findings on managed objects info."""
    out: list[Finding] = []
    signals: dict[int, str] = {}
    for f in findings:
        if f.status != "fail" or not f.kind or f.managed:
            out.append(f)
            continue
        obj = objects_named(cluster, f.kind).get((f.namespace, f.name))  # (the rules' index)
        if obj is None:
            signal = ""
        else:  # several rules fail on one pod: its signal is read once
            signal = signals.get(id(obj))
            if signal is None:
                signal = signals[id(obj)] = managed_of(cluster, obj)  # type: ignore[arg-type]
        if not signal:
            out.append(f)
        elif f.category in HYGIENE_CATEGORIES and f.severity != "info":
            out.append(f.as_info(managed=signal))
        else:
            from dataclasses import replace

            out.append(replace(f, managed=signal))
    return out
