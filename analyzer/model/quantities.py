"""Kubernetes resource quantities ("500m", "1.5Gi", "1e3") as plain numbers.

CPU comes out in cores and memory/storage in bytes: both are the quantity's value in its base
unit, so one parser serves every resource.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from typing import Any

# Sub-unit suffixes divide (0.1 is not exact in binary, so 100 * 1e-6 would drift).
_SUFFIX_DIVISORS: dict[str, float] = {"n": 1e9, "u": 1e6, "m": 1e3}
_SUFFIX_FACTORS: dict[str, float] = {
    "": 1.0,
    "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15, "E": 1e18,
    "Ki": 2.0**10, "Mi": 2.0**20, "Gi": 2.0**30, "Ti": 2.0**40, "Pi": 2.0**50, "Ei": 2.0**60,
}

# The API's grammar: a signed decimal number, then a binary or decimal SI suffix or an exponent.
_QUANTITY_RX = re.compile(
    r"([+-]?(?:\d+\.?\d*|\.\d+))(?:(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E)|[eE]([+-]?\d+))?"
)


def parse_quantity(value: Any) -> float:
    """A quantity's value in its base unit (cores, bytes, count); NaN when it cannot be read.

    Examples:
        >>> parse_quantity("500m"), parse_quantity("2"), parse_quantity(2), parse_quantity("100u")
        (0.5, 2.0, 2.0, 0.0001)
        >>> parse_quantity("1n")
        1e-09
        >>> parse_quantity("256Mi"), parse_quantity("1.5Gi"), parse_quantity("1Ei")
        (268435456.0, 1610612736.0, 1.152921504606847e+18)
        >>> parse_quantity("1e3"), parse_quantity("1k"), parse_quantity("1M"), parse_quantity("1.5")
        (1000.0, 1000.0, 1000000.0, 1.5)
        >>> parse_quantity("12Kb"), parse_quantity(None), parse_quantity(True)
        (nan, nan, nan)
    """
    if isinstance(value, bool) or value is None:
        return math.nan
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str):
        return _parse_text(value)
    return math.nan


@lru_cache(maxsize=4096)
def _parse_text(text: str) -> float:
    # Cached: a dump repeats the same few dozen quantities thousands of times.
    m = _QUANTITY_RX.fullmatch(text.strip())
    if m is None:
        return math.nan
    number, suffix, exponent = m.groups()
    if exponent is not None:
        power = int(exponent)
        return float(number) * 10.0**power if power >= 0 else float(number) / 10.0**-power
    if suffix in _SUFFIX_DIVISORS:
        return float(number) / _SUFFIX_DIVISORS[suffix]
    return float(number) * _SUFFIX_FACTORS[suffix or ""]


def quantities(resources: dict[str, Any] | None, names: tuple[str, ...],
               prefix: str, unreadable: list[str]) -> list[float]:
    """The named quantities of a requests/limits map as numbers (NaN when absent or unreadable).

    Each value that is present but cannot be read is added to `unreadable` as `prefix.name=raw`,
    so it stays visible instead of silently becoming NaN.

    Examples:
        >>> bad = []
        >>> quantities({"cpu": "250m", "memory": "64Mx"}, ("cpu", "memory", "gpu"), "limits", bad)
        [0.25, nan, nan]
        >>> bad
        ['limits.memory=64Mx']
    """
    if not resources:
        return [math.nan] * len(names)
    out = []
    for name in names:
        raw = resources.get(name)
        value = parse_quantity(raw)
        if raw is not None and math.isnan(value):
            unreadable.append(f"{prefix}.{name}={raw}")
        out.append(value)
    return out
