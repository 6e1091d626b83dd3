r"""kube-dump-analyzer: offline analysis of Kubernetes cluster dumps.

>>> import analyzer
>>> c = analyzer.load("apiVersion: v1\nkind: Pod\nmetadata: {name: web, namespace: shop}\n")
>>> c.objects[0].key.id
'core/Pod/shop/web'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

# `analyzer.diff(old, new)`: bound after the subpackage of the same name is imported, so the
# name is the function (the subpackage stays importable as `analyzer.diff.<module>`).
from analyzer.diff import diff
from analyzer.errors import AnalyzerError, InputError
from analyzer.version import __version__ as __version__

if TYPE_CHECKING:
    from analyzer.cluster import Cluster, Tables, load
    from analyzer.ingest import IngestResult, KubeObject, ObjectKey, ingest

__all__ = [
    "AnalyzerError", "Cluster", "IngestResult", "InputError", "KubeObject", "ObjectKey",
    "Tables", "diff", "ingest", "load",
]

# Imported on first use, so `kda --help` and `kda --version` do not load the readers.
_HOMES = {"Cluster": "analyzer.cluster", "Tables": "analyzer.cluster", "load": "analyzer.cluster",
          "IngestResult": "analyzer.ingest", "KubeObject": "analyzer.ingest", "ObjectKey": "analyzer.ingest",
          "ingest": "analyzer.ingest"}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'analyzer' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_HOMES])
