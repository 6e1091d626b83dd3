"""Reports: one cluster's facts, diagrams and findings as HTML/Markdown/JSON; comparisons; batches."""

from __future__ import annotations

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

__all__ = [
    "ReportFiles", "cluster_diagrams", "cluster_facts", "component_matrix", "dependency_diagram",
    "figure_png", "figure_svg", "findings_by_severity", "node_distribution", "render_cluster_report",
]
