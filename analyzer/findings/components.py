"""The system components the distribution stage classified, as the cluster rules need them."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

import pandas as pd

from analyzer.findings.versions import DATA
from analyzer.safeyaml import load_yaml

if TYPE_CHECKING:
    from analyzer.findings.dump import AnalyzedDump


class ComponentsUnavailable(Exception):
    """The distribution stage could not classify components for this dump (reason in args)."""


def components(cluster: AnalyzedDump) -> pd.DataFrame:
    """The `components` table (one row per system workload with role, critical, healthy)."""
    try:
        from analyzer.distributions import build_components_table
    except ImportError as exc:
        raise ComponentsUnavailable(f"component classification is unavailable ({exc})") from None
    try:
        return cluster.tables["components"]
    except KeyError:
        return build_components_table(cluster)


def distribution_name(cluster: AnalyzedDump) -> str | None:
    """The detected distribution's name (None when detection is unavailable)."""
    try:
        return getattr(cluster.distribution, "name", None)
    except ImportError:
        return None


@cache
def expected_roles() -> dict[str, tuple[str, ...]]:
    """Distribution -> roles it cannot work without, from data/expected_components.yaml."""
    raw = load_yaml((DATA / "expected_components.yaml").read_text(encoding="utf-8"))
    return {str(k): tuple(v) for k, v in raw.items()}
