"""Kubernetes resource quantities as kubectl describe prints them (apimachinery's canonical form)."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction

_RX = re.compile(r"^([+-]?[0-9.]+)([eE][+-]?[0-9]+|[KMGTPE]i|[numkMGTPE])?$")
_DECIMAL = {"n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}
_BINARY = {"Ki": 1, "Mi": 2, "Gi": 3, "Ti": 4, "Pi": 5, "Ei": 6}


@dataclass(frozen=True, slots=True)
class Quantity:
    """An exact amount with the format it was written in (DecimalSI, BinarySI, DecimalExponent)."""

    value: Fraction
    format: str = "DecimalSI"

    @classmethod
    def parse(cls, text: object) -> Quantity:
        """A quantity from its API text; an unreadable one counts as zero.

        >>> str(Quantity.parse("1024Mi")), str(Quantity.parse("2000m")), str(Quantity.parse("1500m"))
        ('1Gi', '2', '1500m')
        """
        if isinstance(text, int | float) and not isinstance(text, bool):
            return cls(Fraction(str(text)))
        m = _RX.match(str(text).strip()) if text is not None else None
        if not m:
            return cls(Fraction(0))
        try:
            number = Fraction(m.group(1))
        except (ValueError, ZeroDivisionError):
            return cls(Fraction(0))
        suffix = m.group(2) or ""
        if suffix in _BINARY:
            value, fmt = number * 1024 ** _BINARY[suffix], "BinarySI"
        elif suffix[:1] in ("e", "E") and len(suffix) > 1:
            value, fmt = number * Fraction(10) ** int(suffix[1:]), "DecimalExponent"
        else:
            value, fmt = number * Fraction(10) ** _DECIMAL[suffix], "DecimalSI"
        # the API keeps nano precision, rounding up
        value = Fraction(math.ceil(value * 10**9), 10**9)
        return cls(value, fmt)

    def __add__(self, other: Quantity) -> Quantity:
        return Quantity(self.value + other.value, self.format)

    def milli(self) -> int:
        return math.ceil(self.value * 1000)

    def whole(self) -> int:
        return math.ceil(self.value)

    def __str__(self) -> str:
        """The canonical text (`Quantity.String()` in Go).

        >>> [str(Quantity.parse(t)) for t in ("0", "16393956Ki", "128974848", "0.5", "1e3", "100m", "512Ki")]
        ['0', '16393956Ki', '128974848', '500m', '1e3', '100m', '512Ki']
        """
        if self.value == 0:
            return "0"
        fmt = self.format
        if fmt == "BinarySI" and (abs(self.value) < 1024 or self.value.denominator != 1):
            fmt = "DecimalSI"
        if fmt == "BinarySI":
            number, exp = int(self.value), 0
            while number % 1024 == 0 and exp < 6:
                number //= 1024
                exp += 1
            suffix = {v: k for k, v in _BINARY.items()}.get(exp, "")
            return f"{number}{suffix}"
        # base 10: mantissa and exponent, trailing zeros removed, exponent down to a multiple of 3
        exp = -9
        number = int(self.value * 10**9)
        while number != 0 and number % 10 == 0:
            number //= 10
            exp += 1
        shift = exp % 3
        number *= 10**shift
        exp -= shift
        if fmt == "DecimalExponent":
            return f"{number}e{exp}" if exp else str(number)
        if exp > 18:
            number *= 10 ** (exp - 18)
            exp = 18
        return f"{number}{ {v: k for k, v in _DECIMAL.items()}[exp] }"


ZERO = Quantity(Fraction(0))
