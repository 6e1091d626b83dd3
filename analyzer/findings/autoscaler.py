"""What the cluster autoscaler last said of a pod the scheduler could not place: a scale-up set
off for it (a node is coming), a scale-up that failed, or why it added no node (a node group at
its maximum size, backing off, not ready)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta
from functools import cache

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.events import EventFact, before_capture, clipped, event_ago
from analyzer.findings.versions import DATA
from analyzer.safeyaml import load_yaml


@cache
def _data() -> dict:
    return load_yaml((DATA / "autoscaler_events.yaml").read_text(encoding="utf-8"))


def autoscaler_reasons() -> frozenset[str]:
    """The reasons of the autoscaler's events on a pod (TriggeredScaleUp, FailedScaleUp, NotTriggerScaleUp)."""
    return frozenset(_data()["reasons"])


@dataclass(frozen=True, slots=True)
class AutoscalerWord:
    """The autoscaler's newest event on a pod, said as a clause, and whether a node it set off
    for the pod may still be on its way."""

    fact: EventFact
    text: str
    under_way: bool


def autoscaler_word(cluster: AnalyzedDump, facts: Iterable[EventFact]) -> AutoscalerWord | None:
    """The cluster autoscaler's newest word on a pod among its events (oldest first), or None
    when it said nothing of it.

    A scale-up set off under the provisioning time before the capture, and not failed or refused
    since, is under way; a refusal says what the node groups it skipped mean; a failure since the
    last scale-up is said with the refusal that followed it (GKE: 'IP space exhausted', then '1 in
    backoff after failed scale-up')."""
    data = _data()
    mine = [f for f in facts if f.reason in data["reasons"]]
    if not mine:
        return None
    last = mine[-1]
    text = f"the cluster autoscaler says {data['reasons'][last.reason]} ({last.reason}, {event_ago(cluster, last)}): " \
           f"{clipped(last.message, 200)}"
    if last.reason == "NotTriggerScaleUp":
        meaning = _skipped_meaning(last.message)
        if meaning:
            text += f"; {meaning}"
        failed = next((f for f in reversed(mine[:-1]) if f.reason == "FailedScaleUp"), None)
        triggered = next((f for f in reversed(mine[:-1]) if f.reason == "TriggeredScaleUp"), None)
        if failed is not None and (triggered is None or mine.index(failed) > mine.index(triggered)):
            text += f"; its scale-up failed before ({event_ago(cluster, failed)}): {clipped(failed.message, 200)}"
    under_way = False
    if last.reason == "TriggeredScaleUp":
        since = before_capture(cluster, last)
        under_way = since is not None and timedelta(0) <= since < timedelta(minutes=data["provision_minutes"])
        if under_way:
            text += "; a node is being added for it"
    return AutoscalerWord(fact=last, text=text, under_way=under_way)


def _skipped_meaning(message: str) -> str:
    """What the node groups a NotTriggerScaleUp names as skipped mean, the first it names.

    >>> _skipped_meaning("pod didn't trigger scale-up: 2 max node group size reached")
    "a node group that would take it is at its maximum size (raise the group's maximum)"
    >>> _skipped_meaning("pod didn't trigger scale-up: 5 node(s) didn't match Pod's node affinity")
    ''
    >>> _skipped_meaning("pod didn't trigger scale-up (it wouldn't fit if a new node is added)")[:40]
    'no node group it may grow has nodes that'
    >>> _skipped_meaning("pod didn't trigger scale-up (it wouldn't fit if a new node is added): 5 node(s) "
    ...                  "didn't match Pod's node affinity")
    ''
    """
    for words, meaning in _data()["skipped"].items():
        if words.endswith("$") and message.rstrip().endswith(words[:-1]) or words in message:
            return meaning
    return ""
