"""What is found once per dump (or per graph) and shared by the stages and rules that ask: kept
beside the object it was found from, and gone with it."""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable
from typing import TypeVar

Owner = TypeVar("Owner")
Found = TypeVar("Found")


def once_per(find: Callable[[Owner], Found]) -> Callable[[Owner], Found]:
    """`find(owner)` found once per owner while the owner lives (a dozen rules ask the same of a
    dump); an owner that cannot be referred to weakly gets it found anew at each call.

    >>> class Dump: ...
    >>> calls = []
    >>> @once_per
    ... def pods(dump):
    ...     calls.append(dump)
    ...     return ["web-1"]
    >>> dump = Dump()
    >>> pods(dump) is pods(dump), len(calls)
    (True, 1)
    """
    found: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    @functools.wraps(find)
    def once(owner: Owner) -> Found:
        try:
            return found[owner]
        except KeyError:
            value = found[owner] = find(owner)
            return value
        except TypeError:  # not weakly referable
            return find(owner)

    return once
