"""Reports: one cluster's facts, diagrams and findings as HTML/Markdown/JSON; comparisons; batches.

The names below are imported on first use: matplotlib comes with the diagrams only, so a report
whose diagrams are drawn in a second process (`render_cluster_report(second_process=...)`)
never imports it here.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from analyzer.report.cluster_report import ReportFiles, cluster_diagrams, render_cluster_report
    from analyzer.report.diagrams import (
        component_matrix,
        dependency_diagram,
        figure_png,
        figure_svg,
        findings_by_severity,
        node_distribution,
    )
    from analyzer.report.sections import cluster_facts

_WHERE = {
    "ReportFiles": "cluster_report", "cluster_diagrams": "cluster_report",
    "render_cluster_report": "cluster_report", "cluster_facts": "sections",
    "component_matrix": "diagrams", "dependency_diagram": "diagrams", "figure_png": "diagrams",
    "figure_svg": "diagrams", "findings_by_severity": "diagrams", "node_distribution": "diagrams",
}

__all__ = [
    "ReportFiles", "cluster_diagrams", "cluster_facts", "component_matrix", "dependency_diagram",
    "figure_png", "figure_svg", "findings_by_severity", "node_distribution", "render_cluster_report",
]


def __getattr__(name: str) -> Any:
    if name not in _WHERE:  # a submodule (`from analyzer.report import diagrams`) is imported
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"analyzer.report.{_WHERE[name]}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
