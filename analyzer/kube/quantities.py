"""Kubernetes resource quantities ("500m", "1.5Gi", "1e3") as plain numbers.

CPU comes out in cores and memory/storage in bytes: both are the quantity's value in its base
unit, so one parser serves every resource.
"""

from __future__ import annotations

import math
import re
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


# A dump repeats the same few dozen quantities thousands of times: each text is parsed once.
# The memo is bounded so a hostile dump of unique quantities cannot grow it without end.
_PARSED: dict[str, float] = {}
_PARSED_MAX = 65536


def _parse_text(text: str) -> float:
    value = _PARSED.get(text)
    if value is None:
        value = _parse_uncached(text)
        if len(_PARSED) >= _PARSED_MAX:
            _PARSED.clear()
        _PARSED[text] = value
    return value


def _parse_uncached(text: str) -> float:
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


# (names, request texts, limit texts) -> resource_quantities' answer: the containers of one
# workload repeat the same requests and limits, so each combination is read once.
_RESOURCES: dict[tuple[Any, ...], tuple[tuple[float, ...], tuple[float, ...], str | None]] = {}


def resource_quantities(requests: dict[str, Any] | None, limits: dict[str, Any] | None,
                        names: tuple[str, ...]
                        ) -> tuple[tuple[float, ...], tuple[float, ...], str | None]:
    """The named requests and limits as numbers, and the unreadable ones as comma-separated
    `requests.name=raw` text (None when all could be read).

    Examples:
        >>> resource_quantities({"cpu": "250m"}, {"memory": "64Mx"}, ("cpu", "memory"))
        ((0.25, nan), (nan, nan), 'limits.memory=64Mx')
        >>> resource_quantities(None, {"cpu": 2}, ("cpu",))
        ((nan,), (2.0,), None)
    """
    wanted = (tuple(requests.get(n) for n in names) if requests else None,
              tuple(limits.get(n) for n in names) if limits else None)
    # Only texts are memoised: True == 1 as a dict key, yet only 1 is a quantity.
    cacheable = all(r is None or type(r) is str for part in wanted if part for r in part)
    key = (names, *wanted)
    if cacheable:
        hit = _RESOURCES.get(key)
        if hit is not None:
            return hit
    unreadable: list[str] = []
    found = (tuple(quantities(requests, names, "requests", unreadable)),
             tuple(quantities(limits, names, "limits", unreadable)),
             ",".join(unreadable) or None)
    if cacheable:
        if len(_RESOURCES) >= _PARSED_MAX:
            _RESOURCES.clear()
        _RESOURCES[key] = found
    return found
