"""The view of a dump the findings read: tables, and the analyses of the stages below them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from analyzer.model.dump import ModeledDump

if TYPE_CHECKING:
    import networkx as nx

    from analyzer.distributions.result import Distribution
    from analyzer.distributions.virtual import VirtualCluster


class AnalyzedDump(ModeledDump, Protocol):
    """A dump with its tables, distribution, virtual-cluster verdict and dependency graph."""

    @property
    def distribution(self) -> Distribution: ...

    @property
    def virtual(self) -> VirtualCluster: ...

    @property
    def graph(self) -> nx.MultiDiGraph: ...
