"""The report's Timeline section: the picture folds rows beyond the busiest ones, draws the
capture time, and picks a window that holds what happened; the densest periods below it."""

from __future__ import annotations

import json

import matplotlib.dates as mdates
import pandas as pd
from conftest import SAMPLE_DUMPS
from matplotlib.backends.backend_agg import FigureCanvasAgg

import analyzer
from analyzer.report.diagrams import figure_svg
from analyzer.report.sections import cluster_facts
from analyzer.report.timeline import MAX_ROWS, timeline_picture, timeline_section

CAPTURE = "2024-05-20T10:00:00Z"


def _many_nodes(nodes: int) -> analyzer.Cluster:
    """`nodes` nodes, each with two pods whose containers ended together 30 minutes before the
    capture (a reboot per node), and one more crash on node 0 at another time."""
    items = []
    for n in range(nodes):
        items.append({"apiVersion": "v1", "kind": "Node", "metadata": {"name": f"node-{n:03d}"},
                      "status": {"conditions": [{"type": "Ready", "status": "True",
                                                 "lastHeartbeatTime": CAPTURE,
                                                 "lastTransitionTime": "2024-05-20T09:31:00Z"}]}})
        for p in range(2):
            finished = f"2024-05-20T09:30:{p:02d}Z" if n or p else "2024-05-20T08:00:00Z"
            items.append({"apiVersion": "v1", "kind": "Pod",
                          "metadata": {"name": f"app-{n}-{p}", "namespace": f"team-{n % 7}"},
                          "spec": {"nodeName": f"node-{n:03d}"},
                          "status": {"containerStatuses": [{"name": "c", "restartCount": 1,
                                                            "lastState": {"terminated": {
                                                                "reason": "Unknown", "exitCode": 255,
                                                                "finishedAt": finished}}}]}})
    return analyzer.load(json.dumps({"apiVersion": "v1", "kind": "List", "items": items}, indent=1))


def test_picture_folds_rows_and_draws_capture() -> None:
    cluster = _many_nodes(80)
    fig = timeline_picture(cluster)
    ax = fig.axes[0]
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert len(labels) == MAX_ROWS
    assert labels[-1] == f"{80 - (MAX_ROWS - 1)} other rows ({80 - (MAX_ROWS - 1)} nodes)"
    capture = pd.Timestamp(CAPTURE).to_pydatetime()
    assert any(list(mdates.date2num(line.get_xdata())) == [mdates.date2num(capture)] * 2
               for line in ax.get_lines())
    assert "6 hours before capture" in ax.get_title()
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    # 160 terminations; node 0's two were an hour and a half apart, so 79 nodes restarted
    assert legend == ["restarts (160)", "transitions (80)", "node restarted (79)"]
    assert figure_svg(fig) == figure_svg(timeline_picture(_many_nodes(80)))  # same dump, same bytes


def test_capture_label_stays_inside_the_axes_clear_of_the_legend() -> None:
    """The 'capture' label had spilled right of the axes, over the legend's first entry."""
    for nodes in (1, 80):
        fig = timeline_picture(_many_nodes(nodes))
        ax = fig.axes[0]
        renderer = FigureCanvasAgg(fig).get_renderer()
        label = next(t for t in ax.texts if t.get_text().strip() == "capture")
        box = label.get_window_extent(renderer)
        axes_box = ax.get_window_extent(renderer)
        assert axes_box.x0 <= box.x0 and box.x1 <= axes_box.x1
        assert axes_box.y0 <= box.y0 and box.y1 <= axes_box.y1
        assert not box.overlaps(ax.get_legend().get_window_extent(renderer))


def test_legend_without_node_restarts() -> None:
    cluster = _many_nodes(1)
    legend = [t.get_text() for t in timeline_picture(cluster).axes[0].get_legend().get_texts()]
    assert legend == ["restarts (2)", "transitions (1)"]


def test_window_widens_to_hold_what_happened() -> None:
    cluster = analyzer.load(str(SAMPLE_DUMPS / "kubeadm"))
    assert "before capture" in timeline_picture(cluster).axes[0].get_title()
    few = _many_nodes(1)  # three restarts: fewer than the picture wants in 6 hours
    assert "7 days before capture" in timeline_picture(few).axes[0].get_title()


def test_section_data() -> None:
    cluster = _many_nodes(10)
    section = timeline_section(cluster)
    assert section["facts"] == len(cluster.timeline)
    assert section["capture_time"] == CAPTURE
    densest = section["densest"]
    assert densest == sorted(densest, key=lambda p: p["start"])
    busiest = max(densest, key=lambda p: p["restarts"])
    assert busiest["start"] == "2024-05-20T09:30:00Z" and busiest["before_capture"] == "30m"
    assert busiest["restarts"] == 19  # node 0's other one ended at 08:00
    assert {s["fact"] for s in section["spans"]} == {"node restarted"}
    assert section["spans_total"] == len(section["spans"]) == 9
    assert all(s["source"] for s in section["spans"])


def test_spans_listed_are_capped_newest_first(monkeypatch) -> None:
    from analyzer.report import timeline as section_module

    monkeypatch.setattr(section_module, "MAX_SPANS", 4)
    section = timeline_section(_many_nodes(10))
    assert section["spans_total"] == 9 and len(section["spans"]) == 4
    starts = [s["start"] for s in section["spans"]]
    assert starts == sorted(starts, reverse=True)


def test_report_facts_have_a_timeline() -> None:
    facts = cluster_facts(analyzer.load(str(SAMPLE_DUMPS / "aks")))
    assert facts["timeline"]["available"] and facts["timeline"]["facts"] > 100
    json.dumps(facts["timeline"])


def test_no_capture_time_is_said() -> None:
    cluster = analyzer.load("NAME    READY   STATUS    RESTARTS   AGE\nweb-1   1/1     Running   0          5d\n")
    fig = timeline_picture(cluster)
    assert "capture time is unknown" in " ".join(t.get_text() for t in fig.axes[0].texts)
