"""Load fingerprints.yaml: the rows of (distribution, signal, pattern, weight, note) detection scores."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from analyzer.distributions.profiles import load_profiles
from analyzer.distributions.signals import SIGNALS, Matcher
from analyzer.safeyaml import load_yaml

FINGERPRINTS_FILE = Path(__file__).with_name("fingerprints.yaml")


@dataclass(frozen=True, slots=True)
class Fingerprint:
    """One row: a pattern of one signal type that speaks, with a weight, for one distribution."""

    index: int
    distribution: str
    signal: str
    pattern: str
    weight: float
    note: str
    matches: Matcher
    # speaks only beside the marks of the distribution this one is built on (profiles.yaml
    # based_on): alone, what it matches is seen on other clusters too
    with_base: bool = False

    @property
    def channel(self) -> str:
        return SIGNALS[self.signal].channel


def _rows(data: Any) -> list[Any]:
    # The file is a list of rows, or a mapping holding that list (under `fingerprints`/`signals`).
    if isinstance(data, dict):
        for key in ("fingerprints", "signals", "rows"):
            if isinstance(data.get(key), list):
                return data[key]
        return []
    return data if isinstance(data, list) else []


@cache
def load_fingerprints(path: Path = FINGERPRINTS_FILE) -> tuple[Fingerprint, ...]:
    """Read and check every fingerprint row (unknown signals, bad regexes and weights fail here)."""
    if not path.exists():
        return ()
    known = load_profiles().distributions
    rows = _rows(load_yaml(path.read_text(encoding="utf-8")))
    out: list[Fingerprint] = []
    for i, row in enumerate(rows):
        where = f"{path.name}: row {i + 1}"
        if not isinstance(row, dict):
            raise ValueError(f"{where}: not a mapping")
        dist, signal, pattern = row.get("distribution"), row.get("signal"), row.get("pattern")
        if dist not in known:
            raise ValueError(f"{where}: unknown distribution {dist!r} (profiles.yaml lists {sorted(known)})")
        if signal not in SIGNALS:
            raise ValueError(f"{where}: unknown signal {signal!r} (signals.py registers {sorted(SIGNALS)})")
        if not isinstance(pattern, str) or not pattern:
            raise ValueError(f"{where}: pattern must be a non-empty string")
        weight = row.get("weight")
        # a negative weight: something that distribution never shows (it counts against it)
        if not isinstance(weight, int | float) or isinstance(weight, bool) or weight == 0:
            raise ValueError(f"{where}: weight must be a non-zero number, not {weight!r}")
        try:
            matcher = SIGNALS[signal].compile(pattern)
        except Exception as exc:  # a bad regex in the data file
            raise ValueError(f"{where}: pattern {pattern!r}: {exc}") from exc
        with_base = bool(row.get("with_base"))
        if with_base and not known[dist].based_on:
            raise ValueError(f"{where}: with_base, but {dist} is based on no other distribution")
        out.append(Fingerprint(i, dist, signal, pattern, float(weight), str(row.get("note") or ""), matcher,
                               with_base))
    return tuple(out)
