"""The one registry of table builders: which module builds which tables, checked at import.

A family module (`analyzer/model/tables/<family>.py`) builds all its tables in one pass over
its objects; the result is kept per cluster, so asking for `containers` after `pods` is free.
"""

from __future__ import annotations

import difflib
import importlib
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING

import pandas as pd

from analyzer.collector import collector_paused
from analyzer.model.frame import restate_ages
from analyzer.model.schema import TABLE_SPECS

if TYPE_CHECKING:
    from analyzer.ingest.dump import Dump

# family module -> the tables it builds together.
FAMILIES: dict[str, tuple[str, ...]] = {
    "meta": ("objects", "namespaces", "labels", "annotations", "owner_refs"),
    "nodes": ("nodes",),
    "pods": ("pods", "containers", "container_env"),
    "volumes": ("volumes",),
    "workloads": ("workloads",),
    "services": ("services", "service_ports", "endpoints"),
    "ingresses": ("ingresses",),
    "config": ("configmaps", "secrets"),
    "storage": ("pvcs", "pvs", "storage_classes"),
    "rbac": ("rbac_bindings",),
    "events": ("events",),
    "images": ("images",),
    "logs": ("logs",),
    "rejections": ("rejections",),
}

FAMILY_OF: dict[str, str] = {t: fam for fam, tables in FAMILIES.items() for t in tables}


def _validate() -> None:
    declared = [t for tables in FAMILIES.values() for t in tables]
    duplicated = sorted({t for t in declared if declared.count(t) > 1})
    if duplicated:
        raise RuntimeError(f"tables built by two families: {duplicated}")
    unbuilt = sorted(set(TABLE_SPECS) - set(declared))
    undeclared = sorted(set(declared) - set(TABLE_SPECS))
    if unbuilt or undeclared:
        raise RuntimeError(f"schema tables without a builder: {unbuilt}; "
                           f"builders of undeclared tables: {undeclared}")


_validate()

_BUILT: weakref.WeakKeyDictionary[Dump, dict[str, pd.DataFrame]] = weakref.WeakKeyDictionary()


def table_names() -> list[str]:
    """Every table the model builds, in a stable order (the Cluster adds the stages' tables)."""
    return list(TABLE_SPECS)


def unknown_table(name: str, names: list[str]) -> KeyError:
    """The error for a table name no builder has: the closest names when a few are close
    (`pod` -> pods), else every name."""
    close = difflib.get_close_matches(name, names, n=3, cutoff=0.6)
    if close:
        return KeyError(f"no table {name!r}; did you mean {' or '.join(close)}?")
    return KeyError(f"no table {name!r}; tables are: {', '.join(names)}")


def family_builder(family: str) -> Callable[[Dump], dict[str, pd.DataFrame]]:
    """The `build(cluster)` function of a family module."""
    return importlib.import_module(f"analyzer.model.tables.{family}").build


def build_table(name: str, cluster: Dump) -> pd.DataFrame:
    """Table `name` of the cluster, built once per cluster together with its family."""
    family = FAMILY_OF.get(name)
    if family is None:
        raise unknown_table(name, table_names())
    built = _BUILT.setdefault(cluster, {})
    if name not in built:
        # Building makes millions of small objects and no cycles: collections would only cost.
        with collector_paused():
            tables = family_builder(family)(cluster)
        if set(tables) != set(FAMILIES[family]):
            raise RuntimeError(f"family {family} built {sorted(tables)}, "
                               f"registry says {sorted(FAMILIES[family])}")
        # A stitched dump: each row's age from its own capture period.
        estimate = getattr(cluster, "capture", None)
        if getattr(estimate, "stitched", False):
            tables = {n: restate_ages(df, estimate) for n, df in tables.items()}
        built.update(tables)
    return built[name]


def family_tables(family: str, cluster: Dump) -> dict[str, pd.DataFrame]:
    """Every table of a family (name -> DataFrame), built once per cluster."""
    return {name: build_table(name, cluster) for name in FAMILIES[family]}


def adopt_family(family: str, cluster: Dump, tables: dict[str, pd.DataFrame]) -> None:
    """Keep a family's tables built elsewhere from this same dump (a forked process: what it
    read is what this process read), as if built here; a family built here already stays."""
    if set(tables) != set(FAMILIES[family]):
        raise ValueError(f"family {family} has {sorted(FAMILIES[family])}, not {sorted(tables)}")
    built = _BUILT.setdefault(cluster, {})
    if not any(name in built for name in tables):
        built.update(tables)
