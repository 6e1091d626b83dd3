"""The one registry of table builders: which module builds which tables, checked at import.

A family module (`analyzer/model/tables/<family>.py`) builds all its tables in one pass over
its objects; the result is kept per cluster, so asking for `containers` after `pods` is free.
"""

from __future__ import annotations

import gc
import importlib
import weakref
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING

import pandas as pd

from analyzer.model.frame import restate_ages
from analyzer.model.schema import TABLE_SPECS

if TYPE_CHECKING:
    from analyzer.cluster import Cluster

# family module -> the tables it builds together.
FAMILIES: dict[str, tuple[str, ...]] = {
    "meta": ("objects", "namespaces", "labels", "annotations", "owner_refs"),
    "nodes": ("nodes",),
    "pods": ("pods", "containers", "container_env", "volumes"),
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

# Tables another stage builds: name -> (module, function); listed only when the module exists.
EXTERNAL_TABLES: dict[str, tuple[str, str]] = {
    "components": ("analyzer.distributions.components", "build_components_table"),
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
    clash = sorted(set(EXTERNAL_TABLES) & set(declared))
    if clash:
        raise RuntimeError(f"tables claimed by the model and another stage: {clash}")


_validate()

_BUILT: weakref.WeakKeyDictionary[Cluster, dict[str, pd.DataFrame]] = weakref.WeakKeyDictionary()


@cache
def _external_builder(name: str) -> Callable[[Cluster], pd.DataFrame] | None:
    module_name, func = EXTERNAL_TABLES[name]
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        # Only "that stage is not there yet" hides the table; a bug inside it still raises.
        if exc.name and module_name.startswith(exc.name):
            return None
        raise
    return getattr(module, func, None)


def table_names() -> list[str]:
    """Every table name that can be built, in a stable order (model tables, then others)."""
    names = list(TABLE_SPECS)
    names += [n for n in EXTERNAL_TABLES if _external_builder(n) is not None]
    return names


def family_builder(family: str) -> Callable[[Cluster], dict[str, pd.DataFrame]]:
    """The `build(cluster)` function of a family module."""
    return importlib.import_module(f"analyzer.model.tables.{family}").build


def build_table(name: str, cluster: Cluster) -> pd.DataFrame:
    """Table `name` of the cluster, built once per cluster together with its family."""
    if name in EXTERNAL_TABLES:
        builder = _external_builder(name)
        if builder is None:
            raise KeyError(f"no table {name!r}")
        return builder(cluster)
    family = FAMILY_OF.get(name)
    if family is None:
        raise KeyError(f"no table {name!r}; tables are: {', '.join(table_names())}")
    built = _BUILT.setdefault(cluster, {})
    if name not in built:
        # Building makes millions of small objects and no cycles: collections would only cost.
        was_enabled = gc.isenabled()
        gc.disable()
        try:
            tables = family_builder(family)(cluster)
        finally:
            if was_enabled:
                gc.enable()
        if set(tables) != set(FAMILIES[family]):
            raise RuntimeError(f"family {family} built {sorted(tables)}, "
                               f"registry says {sorted(FAMILIES[family])}")
        # A stitched dump: each row's age from its own capture period.
        estimate = getattr(cluster, "capture", None)
        if getattr(estimate, "stitched", False):
            tables = {n: restate_ages(df, estimate) for n, df in tables.items()}
        built.update(tables)
    return built[name]
