"""Every table a Cluster offers: the model's, then those other stages build (the distribution's
components), each stage imported on first use. Also renders docs/tables.md:
`python -m analyzer.cluster.tables > docs/tables.md` (or `kda tables --docs`).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd

    from analyzer.model.dump import ModeledDump
    from analyzer.model.schema import TableSpec

# Tables a stage above the model builds: name -> (module, builder, the table's declared spec).
STAGE_TABLES: dict[str, tuple[str, str, str]] = {
    "components": ("analyzer.distributions.components", "build_components_table", "COMPONENTS_SPEC"),
}


def _validate() -> None:
    from analyzer.model.schema import TABLE_SPECS

    clash = sorted(set(STAGE_TABLES) & set(TABLE_SPECS))
    if clash:
        raise RuntimeError(f"tables claimed by the model and another stage: {clash}")


def table_names() -> list[str]:
    """Every table name that can be built, in a stable order (model tables, then the stages')."""
    from analyzer.model import table_names as model_tables

    return [*model_tables(), *STAGE_TABLES]


def build_table(name: str, dump: ModeledDump) -> pd.DataFrame:
    """Table `name` of the dump: the model builds its own (once per dump), a stage the others."""
    if name in STAGE_TABLES:
        module, builder, _spec = STAGE_TABLES[name]
        return getattr(importlib.import_module(module), builder)(dump)
    from analyzer.model import build_table as build_model_table

    return build_model_table(name, dump)


def table_specs() -> list[TableSpec]:
    """The declared columns of every table, in `table_names()` order."""
    from analyzer.model.schema import TABLES

    stage = [getattr(importlib.import_module(m), spec) for m, _b, spec in STAGE_TABLES.values()]
    return [*TABLES, *stage]


def render_docs() -> str:
    """docs/tables.md: every table with its columns, types and meanings."""
    from analyzer.model.docs import render_docs as render

    return render(table_specs())


_validate()

if __name__ == "__main__":
    import sys

    sys.stdout.write(render_docs())
