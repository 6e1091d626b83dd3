"""What the cluster autoscaler last said of a pod the scheduler could not place: a scale-up set
off for it (a node is coming), a scale-up that failed, or why it added no node (a node group at
its maximum size, backing off, not ready); or Karpenter: the node it counts on for the pod."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta
from functools import cache

from analyzer.findings.autoscaler_status import agreeing_groups, stale_since, status_configmap
from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.events import EventFact, before_capture, clipped, event_ago, first_seen_ago
from analyzer.findings.facts import age_text
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
    # the node groups the autoscaler's status names as what its event speaks of (in backoff, at
    # their maximum size, Unhealthy): the pod's cause, shared with the status's own finding
    groups: tuple[str, ...] = ()


def autoscaler_word(cluster: AnalyzedDump, facts: Iterable[EventFact]) -> AutoscalerWord | None:
    """The cluster autoscaler's newest word on a pod among its events (oldest first), or None
    when it said nothing of it.

    A scale-up set off under the provisioning time before the capture, and not failed or refused
    since, is under way; a refusal says what the node groups it skipped mean; a failure since the
    last scale-up is said with the refusal that followed it (GKE: 'IP space exhausted', then '1 in
    backoff after failed scale-up')."""
    data = _data()
    facts = list(facts)
    mine = [f for f in facts if f.reason in data["reasons"] or _karpenters(f)]
    if not mine:
        return None
    last = mine[-1]
    if _karpenters(last):
        return _karpenter_word(cluster, facts, [f for f in mine if _karpenters(f)])
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
    named, groups, stale = _status_agrees(cluster, last)
    whose = f"its status, stale (last written {stale}), said then" if stale else "its status agrees"
    if last.reason == "TriggeredScaleUp":
        since = before_capture(cluster, last)
        under_way = since is not None and timedelta(0) <= since < timedelta(minutes=data["provision_minutes"])
        if under_way and groups and not stale:
            # the group it grew backs off (or keeps its nodes unregistered) by a status that is
            # not stale: no node is on its way, the pod's wait is no warning to look at again
            under_way = False
            whose = "but no node is coming for it, its status says"
        elif under_way:
            text += "; a node is being added for it"
        elif since is not None and (refused := [f for f in facts if f.reason == "FailedScheduling"]) \
                and (after := before_capture(cluster, refused[-1])) is not None \
                and since - after >= timedelta(minutes=data["provision_minutes"]):
            # the scheduler still turned the pod away after the node's provisioning time: the
            # node never joined, or joined and does not take it (kubernetes/autoscaler#1980: a spot
            # group's scale-up 52m before, FailedScheduling 4m before)
            text += (f"; the scheduler still refused it {age_text(since - after)} after that scale-up "
                     f"({event_ago(cluster, refused[-1])}), longer than a node takes to join "
                     f"({data['provision_minutes']} minutes): the node did not come (the group could not launch "
                     "it: capacity, quota) or does not take the pod")
    said = f"; {whose}: {named}" if named else ""
    return AutoscalerWord(fact=last, text=text + said, under_way=under_way, groups=groups)


def _status_agrees(cluster: AnalyzedDump, last: EventFact) -> tuple[str, tuple[str, ...], str | None]:
    """What the autoscaler's status ConfigMap says of the node groups its event on the pod speaks
    of, where the two agree (a group in Backoff under "1 in backoff after failed scale-up", at its
    maximum size under "max node group size reached"): "node group X is ...", those groups, and
    since when the status is stale (None where it is not); ("", (), None) where the dump holds no
    status or it does not agree."""
    found = status_configmap(cluster)
    if found is None:
        return "", (), None
    obj, status = found
    agreed = agreeing_groups(status, last.reason, last.message)
    if not agreed:
        return "", (), None
    named = "; ".join(f"node group {group.name} is {said}" for group, said in agreed[:3])
    more = f" (and {len(agreed) - 3} more)" if len(agreed) > 3 else ""
    return named + more, tuple(group.name for group, _ in agreed), stale_since(cluster, obj, status) or None


def _karpenters(fact: EventFact) -> bool:
    """Whether an event is Karpenter's nomination of a node for the pod."""
    return fact.reason == "Nominated" and fact.message.startswith(_data()["karpenter_nominated"])


def _karpenter_word(cluster: AnalyzedDump, facts: list[EventFact], nominated: list[EventFact]) -> AutoscalerWord:
    """Karpenter's newest nomination, since when it has nominated for the pod, and whether the
    scheduler refused the pod since, past the provisioning time (the two disagree: Karpenter adds no
    node) or a node it launched may still be coming."""
    data = _data()
    last = nominated[-1]
    began = max((ago for f in nominated if (ago := first_seen_ago(cluster, f)) is not None), default=None)
    target = last.message[len(data["karpenter_nominated"]):].strip()
    repeated = began is not None and (last.count > 1 or len(nominated) > 1)
    first = f", the first {age_text(began)} before capture" if repeated else ""
    text = f"Karpenter says it should schedule on {clipped(target, 200)} (Nominated, last {event_ago(cluster, last)}{first})"
    provision = timedelta(minutes=data["provision_minutes"])
    refused = [f for f in facts if f.reason == "FailedScheduling"]
    newest = before_capture(cluster, refused[-1]) if refused else None
    under_way = False
    if began is not None and newest is not None and began - newest >= provision:
        text += (f"; the scheduler still refused it {age_text(began - newest)} after Karpenter first nominated, "
                 f"longer than a node takes to join ({data['provision_minutes']} minutes): the two disagree on "
                 "where it fits, and Karpenter launches no node for it while it counts on that one")
    elif began is not None and began < provision and "node/" not in target:
        under_way = True
        text += "; a node it launched for it may still be joining"
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
