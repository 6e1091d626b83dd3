r"""kube-dump-analyzer: offline analysis of Kubernetes cluster dumps.

>>> import analyzer
>>> c = analyzer.load("apiVersion: v1\nkind: Pod\nmetadata: {name: web, namespace: shop}\n")
>>> c.objects[0].key.id
'core/Pod/shop/web'
"""

from __future__ import annotations

from analyzer.cluster import Cluster, Tables, load

# `analyzer.diff(old, new)`: bound after the subpackage of the same name is imported, so the
# name is the function (the subpackage stays importable as `analyzer.diff.<module>`).
from analyzer.diff import diff  # noqa: E402  (isort: after Cluster)
from analyzer.errors import AnalyzerError, InputError
from analyzer.ingest import IngestResult, KubeObject, ObjectKey, ingest

__all__ = [
    "AnalyzerError", "Cluster", "IngestResult", "InputError", "KubeObject", "ObjectKey",
    "Tables", "diff", "ingest", "load",
]
__version__ = "0.1.0"
