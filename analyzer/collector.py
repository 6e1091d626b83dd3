"""Python's cyclic garbage collector, paused while a stage builds what holds no cycles.

Each stage makes hundreds of thousands to millions of small objects (parsed documents, views,
table rows, graph dicts, findings) and few or no reference cycles, while the dump's objects are
alive: a collection in the middle walks them all again and costs more than the work itself.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused(freeze: bool = False) -> Iterator[None]:
    """The collector off for the block, and on again after it if it was on before. `freeze`:
    what was built lives as long as the dump, so it is moved out of the collector's generations
    on the way out (else the first collection after re-enabling walks every object once more).

    >>> with collector_paused():
    ...     gc.isenabled()
    False
    >>> gc.isenabled()
    True
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            if freeze:
                gc.freeze()
            gc.enable()
