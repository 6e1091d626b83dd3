"""The timeline's summary (what the report reads of it: counts, spans, marks, densest periods):
made from the facts as collected, it is the summary of the whole `cluster.timeline`, on every
sample and real dump; it does not depend on the order its facts come in; ties between equally
busy rows or facts go to the one the timeline lists first."""

from __future__ import annotations

import json

import pandas as pd
import pytest
from conftest import REALDATA, SAMPLE_DUMPS

import analyzer
from analyzer.timeline import TimelineSummary, build_timeline, summarize, timeline_summary

CASES = sorted(p.relative_to(REALDATA).as_posix() for p in REALDATA.glob("*/*") if p.is_dir()) \
    if REALDATA.is_dir() else []


def _same(a: TimelineSummary, b: TimelineSummary) -> None:
    assert (a.facts, a.first, a.last, a.by_fact) == (b.facts, b.first, b.last, b.by_fact)
    assert (a.undated, a.unparsed, a.capture_time) == (b.undated, b.unparsed, b.capture_time)
    assert a.densest == b.densest
    # the spans in the timeline's order, with its types
    pd.testing.assert_frame_equal(a.spans, b.spans)
    # the marks in any order
    key = ["moment", "row", "category", "fact"]
    pd.testing.assert_frame_equal(a.marks.sort_values(key, ignore_index=True),
                                  b.marks.sort_values(key, ignore_index=True))


def _check(cluster: analyzer.Cluster) -> TimelineSummary:
    summary = timeline_summary(cluster)
    whole = build_timeline(cluster)
    _same(summary, summarize(whole))
    assert summary.facts == len(whole)
    assert summary.by_fact == sorted(whole["fact"].astype(str).value_counts().items())
    assert len(summary.spans) == int((whole["mark"] == "span").sum())
    return summary


@pytest.mark.parametrize("name", ["aks", "eks", "kubeadm", "oke"])
def test_the_summary_of_the_facts_is_the_summary_of_the_timeline(name: str) -> None:
    summary = _check(analyzer.load(str(SAMPLE_DUMPS / name)))
    assert summary.facts > 100 and summary.densest


@pytest.mark.skipif(not CASES, reason="no realdata beside the checkout")
@pytest.mark.parametrize("case", CASES)
def test_the_same_on_every_real_dump(case: str) -> None:
    _check(analyzer.load(str(REALDATA / case)))


def test_the_cluster_reads_the_whole_timeline_when_it_is_built() -> None:
    cluster = analyzer.load(str(SAMPLE_DUMPS / "aks"))
    before = cluster.timeline_summary
    again = analyzer.load(str(SAMPLE_DUMPS / "aks"))
    again.timeline  # noqa: B018 (built first: the summary is read from it)
    _same(before, again.timeline_summary)


CAPTURE = "2024-05-20T10:00:00Z"


def _pod(name: str, node: str, ns: str, created: str, ready: str) -> dict:
    return {"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": name, "namespace": ns, "creationTimestamp": created},
            "spec": {"nodeName": node, "containers": [{"name": "app", "image": "app:1"}]},
            "status": {"phase": "Running", "conditions": [
                {"type": "Ready", "status": "True", "lastTransitionTime": ready}]}}


def _ties() -> analyzer.Cluster:
    """Pods on nodes z-node, a-node and m-node, two marks each (a creation and a Ready
    transition) in one 10-minute period, z-node's the earliest; then a-node's and m-node's at one
    second, where the namespace decides (a-node's pod is in namespace b, m-node's in a)."""
    items = [
        _pod("p1", "z-node", "shop", "2024-05-20T09:31:00Z", "2024-05-20T09:32:00Z"),
        _pod("p2", "a-node", "b", "2024-05-20T09:33:00Z", "2024-05-20T09:34:00Z"),
        _pod("p3", "m-node", "a", "2024-05-20T09:33:00Z", "2024-05-20T09:34:00Z"),
        {"apiVersion": "v1", "kind": "ConfigMap",
         "metadata": {"name": "marker", "namespace": "shop", "creationTimestamp": CAPTURE}},
    ]
    return analyzer.load(json.dumps({"apiVersion": "v1", "kind": "List", "items": items}))


def test_equally_busy_rows_go_in_the_timelines_order() -> None:
    summary = _check(_ties())
    period = next(p for p in summary.densest if p.start == pd.Timestamp("2024-05-20T09:30:00Z"))
    assert period.rows == [("z-node", 2), ("m-node", 2), ("a-node", 2)]
    assert period.kinds_of_fact == [("created", 3), ("condition", 3)]
    assert period.categories == {"transition": 6}


def test_the_summary_does_not_depend_on_the_order_of_the_facts() -> None:
    for cluster in (_ties(), analyzer.load(str(SAMPLE_DUMPS / "kubeadm"))):
        whole = build_timeline(cluster)
        for seed in range(3):
            shuffled = whole.sample(frac=1, random_state=seed)
            shuffled.attrs.update(whole.attrs)
            _same(summarize(shuffled), summarize(whole))
