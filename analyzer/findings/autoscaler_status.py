"""The cluster autoscaler's status ConfigMap (kube-system/cluster-autoscaler-status) read into
typed values: its cluster-wide and per node group health, scale-up and scale-down, with their
node counts, sizes and times, from either form it writes (text before 1.30, YAML from 1.30;
data/autoscaler_status.yaml)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import cache
from typing import TYPE_CHECKING, Any

from analyzer.findings.facts import age_at_capture, capture_of, lasted_text
from analyzer.findings.versions import DATA
from analyzer.kube.time import parse_time
from analyzer.memo import once_per
from analyzer.safeyaml import load_yaml

if TYPE_CHECKING:
    from analyzer.findings.dump import AnalyzedDump
    from analyzer.ingest.records import KubeObject


@cache
def status_data() -> dict[str, Any]:
    """data/autoscaler_status.yaml."""
    return load_yaml((DATA / "autoscaler_status.yaml").read_text(encoding="utf-8"))


@dataclass(frozen=True, slots=True)
class Condition:
    """One of Health, ScaleUp, ScaleDown: its status word, its counts (ready, unready, notStarted,
    registered, longUnregistered, cloudProviderTarget, candidates...), a node group's sizes, when
    it was last probed and since when it holds, and a backoff's error (YAML form only)."""

    status: str
    counts: dict[str, int] = field(default_factory=dict)
    min_size: int | None = None
    max_size: int | None = None
    probed: datetime | None = None
    since: datetime | None = None
    error: str = ""


@dataclass(frozen=True, slots=True)
class Group:
    """One node group's conditions, by type ("Health", "ScaleUp", "ScaleDown")."""

    name: str
    conditions: dict[str, Condition]


@dataclass(frozen=True, slots=True)
class AutoscalerStatus:
    """The whole status: when it was written, the autoscaler's state ("Running", "Initializing";
    the text form says "Initializing" alone, else it runs), the cluster-wide conditions and the
    node groups', and its form ("text" or "yaml")."""

    written: datetime | None
    state: str
    cluster: dict[str, Condition]
    groups: tuple[Group, ...]
    form: str


@once_per
def status_configmap(cluster: AnalyzedDump) -> tuple[KubeObject, AutoscalerStatus] | None:
    """The dump's cluster-autoscaler-status ConfigMap and its status read, or None when the dump
    holds none or its status cannot be read."""
    where = status_data()["configmap"]
    named = sorted((obj for obj in cluster.objects_of("ConfigMap") if obj.name == where["name"]),
                   key=lambda obj: obj.namespace != where["namespace"])
    if not named:
        return None
    obj = named[0]
    data = obj.body().get("data")
    text = data.get("status") if isinstance(data, dict) else None
    parsed = parse_status(text) if isinstance(text, str) else None
    return (obj, parsed) if parsed is not None else None


def parse_status(text: str) -> AutoscalerStatus | None:
    """The status in either form, or None when it is neither.

    >>> s = parse_status("Cluster-autoscaler status at 2019-09-02 14:57:47.683724023 +0000 UTC:\\n"
    ...     "Cluster-wide:\\n  Health:      Healthy (ready=2 unready=0 notStarted=0 longNotStarted=0 registered=2 "
    ...     "longUnregistered=0)\\n               LastProbeTime:      2019-09-02 14:57:47.467422992 +0000 UTC "
    ...     "m=+238.237952298\\n\\nNodeGroups:\\n  Name:        work-default-eks-spot1\\n  Health:      Healthy "
    ...     "(ready=1 unready=0 notStarted=0 longNotStarted=0 registered=1 longUnregistered=0 cloudProviderTarget=1 "
    ...     "(minSize=1, maxSize=7))\\n  ScaleUp:     NoActivity (ready=1 cloudProviderTarget=1)\\n")
    >>> s.form, s.state, s.cluster["Health"].status, s.cluster["Health"].probed.isoformat()
    ('text', 'Running', 'Healthy', '2019-09-02T14:57:47.467422+00:00')
    >>> g = s.groups[0]; g.name, g.conditions["Health"].max_size, g.conditions["ScaleUp"].counts
    ('work-default-eks-spot1', 7, {'ready': 1, 'cloudProviderTarget': 1})
    >>> parse_status("Cluster-autoscaler status at 2024-06-26 05:17:03.13712722 +0000 UTC:\\nInitializing").state
    'Initializing'
    """
    if _TEXT_HEAD.search(text) or text.lstrip().startswith("Cluster-wide:"):
        return _parse_text(text)
    try:
        doc = load_yaml(text)
    except Exception:  # noqa: BLE001 - a status cut or mangled in a paste is no status
        return None
    if isinstance(doc, dict) and ("autoscalerStatus" in doc or "clusterWide" in doc):
        return _parse_yaml(doc)
    return None


_TEXT_HEAD = re.compile(r"Cluster-autoscaler status at ([^\n]*?):?\s*$", re.M)
_CONDITION = re.compile(r"^(Health|ScaleUp|ScaleDown):\s+(\S+)(?:\s+\((.*)\))?\s*$")
_TIME_LINE = re.compile(r"^(LastProbeTime|LastTransitionTime):\s+(.*)$")
_COUNT = re.compile(r"(\w+)=(\d+)")
_SIZE = re.compile(r"\b(min|max)(?:Size)?=(\d+)")
# Go's time.Time as it prints: "2023-11-29 13:34:28.808043334 +0000 UTC m=+1081389.237180180"
_GO_TIME = re.compile(r"(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?:\.(\d+))? ([+-]\d{4})")


def go_time(text: str) -> datetime | None:
    """A Go time.Time as the text form prints it, in UTC; None for Go's zero time (year 1: never
    probed) or no time.

    >>> go_time("2023-11-29 13:34:28.808043334 +0000 UTC m=+1081389.237180180").isoformat()
    '2023-11-29T13:34:28.808043+00:00'
    >>> go_time("0001-01-01 00:00:00 +0000 UTC") is None
    True
    """
    found = _GO_TIME.search(text)
    if found is None or found.group(1).startswith("0001-"):
        return None
    fraction = (found.group(3) or "0")[:6].ljust(6, "0")
    when = datetime.strptime(f"{found.group(1)} {found.group(2)}.{fraction} {found.group(4)}", "%Y-%m-%d %H:%M:%S.%f %z")
    return when.astimezone(UTC)


def _parse_text(text: str) -> AutoscalerStatus:
    """The text form (before 1.30): line by line, the conditions of the cluster, then of each
    node group after its Name."""
    head = _TEXT_HEAD.search(text)
    written = go_time(head.group(1)) if head else None
    body = text[head.end():] if head else text
    cluster: dict[str, dict[str, Any]] = {}
    groups: list[tuple[str, dict[str, dict[str, Any]]]] = []
    current, last = cluster, None
    in_groups = False
    state = "Running"
    for raw in body.splitlines():
        line = raw.strip()
        if not line:
            continue
        if line == "Initializing" and not cluster and not groups:
            state = "Initializing"
        elif line == "NodeGroups:":
            in_groups = True
        elif line.startswith("Name:") and in_groups:
            current, last = {}, None
            groups.append((line[len("Name:"):].strip(), current))
        elif (found := _CONDITION.match(line)) is not None:
            words = found.group(3) or ""
            sizes = dict((k, int(v)) for k, v in _SIZE.findall(words))
            last = current[found.group(1)] = {
                "status": found.group(2), "min_size": sizes.get("min"), "max_size": sizes.get("max"),
                "counts": {k: int(v) for k, v in _COUNT.findall(words) if not _SIZE.fullmatch(f"{k}={v}")}}
        elif (found := _TIME_LINE.match(line)) is not None and last is not None:
            last["probed" if found.group(1) == "LastProbeTime" else "since"] = go_time(found.group(2))
    return AutoscalerStatus(
        written=written, state=state, form="text",
        cluster={k: Condition(**v) for k, v in cluster.items()},
        groups=tuple(Group(name, {k: Condition(**v) for k, v in conds.items()}) for name, conds in groups))


def _parse_yaml(doc: dict[str, Any]) -> AutoscalerStatus:
    """The YAML form (from 1.30)."""
    wide = _dict(doc.get("clusterWide"))
    groups = []
    listed = doc.get("nodeGroups")
    for g in listed if isinstance(listed, list) else ():
        if isinstance(g, dict):
            groups.append(Group(str(g.get("name") or ""), {k: _yaml_condition(_dict(g.get(key)))
                                                           for k, key in _KEYS.items() if isinstance(g.get(key), dict)}))
    written = doc.get("time")
    return AutoscalerStatus(
        written=go_time(str(written)) if written is not None else None,
        state=str(doc.get("autoscalerStatus") or "Running"), form="yaml",
        cluster={k: _yaml_condition(_dict(wide.get(key))) for k, key in _KEYS.items() if isinstance(wide.get(key), dict)},
        groups=tuple(groups))


_KEYS = {"Health": "health", "ScaleUp": "scaleUp", "ScaleDown": "scaleDown"}


def _yaml_condition(c: dict[str, Any]) -> Condition:
    """One condition of the YAML form, its node counts flattened as the text form gives them
    (registered.total -> registered, registered.unready.total -> unready)."""
    counts = _dict(c.get("nodeCounts"))
    registered = _dict(counts.get("registered"))
    flat = {"registered": registered.get("total"), "ready": registered.get("ready"),
            "notStarted": registered.get("notStarted"), "unready": _dict(registered.get("unready")).get("total"),
            "longUnregistered": counts.get("longUnregistered"), "unregistered": counts.get("unregistered"),
            "cloudProviderTarget": c.get("cloudProviderTarget"), "candidates": c.get("candidates")}
    backoff = _dict(c.get("backoffInfo"))
    error = ": ".join(str(backoff[k]) for k in ("errorCode", "errorMessage") if backoff.get(k))
    return Condition(status=str(c.get("status") or ""), counts={k: v for k, v in flat.items() if isinstance(v, int)},
                     min_size=_int(c.get("minSize")), max_size=_int(c.get("maxSize")),
                     probed=_when(c.get("lastProbeTime")), since=_when(c.get("lastTransitionTime")), error=error)


def _when(value: Any) -> datetime | None:
    """An RFC 3339 time of the YAML form (a datetime where the loader made it one)."""
    if isinstance(value, datetime):
        when = value if value.tzinfo else value.replace(tzinfo=UTC)
        return None if when.year == 1 else when.astimezone(UTC)
    when = parse_time(value) if isinstance(value, str) else None
    return None if when is None or when.year == 1 else when


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def managed_by(cluster: AnalyzedDump, status: AutoscalerStatus) -> str:
    """Who runs the autoscaler where a provider does (AKS, GKE: on their control plane), by its
    node groups' names or the dump's distribution; '' where the customer runs it (EKS, kubeadm).

    >>> from types import SimpleNamespace as NS
    >>> s = AutoscalerStatus(None, "Running", {}, (Group("aks-cpunp-38371103-vmss", {}),), "text")
    >>> managed_by(NS(distribution=NS(name="unknown")), s)
    'AKS runs this cluster autoscaler on its control plane'
    >>> from dataclasses import replace
    >>> managed_by(NS(distribution=NS(name="eks")), replace(s, groups=(Group("eks-ng-1-0ac6f2", {}),)))
    ''
    """
    data = status_data()
    for group in status.groups:
        for row in data["managed_groups"]:
            if re.search(row["pattern"], group.name):
                return str(row["provider"])
    distribution = getattr(getattr(cluster, "distribution", None), "name", "")
    return str(data["managed_distributions"].get(distribution, ""))


def stale_since(cluster: AnalyzedDump, obj: KubeObject, status: AutoscalerStatus) -> str | None:
    """When the status was last written and how long before the capture, where that is longer
    than the autoscaler's loop makes possible (data stale_minutes); None when current or unknown."""
    probes = [c.probed for c in status.cluster.values() if c.probed is not None]
    newest = max(probes, default=None) or status.written
    age = age_at_capture(cluster, newest, obj)
    if newest is None or age is None or capture_of(cluster, obj) is None:
        return None
    if age <= timedelta(minutes=status_data()["stale_minutes"]):
        return None
    return f"{newest:%Y-%m-%d %H:%M:%S}Z, {lasted_text(cluster, age)} before capture"


def agreeing_groups(status: AutoscalerStatus, reason: str, message: str) -> list[tuple[Group, str]]:
    """The node groups of the status that an autoscaler event on a pending pod speaks of, each
    with what the status says of it: those in backoff where the event says a group backs off (or
    its scale-up failed), those at their maximum size where it says a group is, those Unhealthy
    where it says a group is not ready; the groups a TriggeredScaleUp grew that then backed off
    or kept nodes unregistered. [] where the status does not agree.

    >>> s = parse_status("Cluster-wide:\\nNodeGroups:\\n  Name:        ng1\\n  Health:      Unhealthy (ready=0 "
    ...                  "unready=1 notStarted=0 longNotStarted=0 registered=1 cloudProviderTarget=5 (min=5, max=5))")
    >>> [(g.name, said) for g, said in agreeing_groups(s, "NotTriggerScaleUp", "pod didn't trigger scale-up: "
    ...                                                 "2 max node group size reached")]
    [('ng1', 'at its maximum size (5 of 5)')]
    >>> agreeing_groups(s, "NotTriggerScaleUp", "pod didn't trigger scale-up: 1 in backoff after failed scale-up")
    []
    """
    data = status_data()
    if reason == "TriggeredScaleUp":
        grown = set(re.findall(data["triggered_group"], message))
        return [(g, said) for g in status.groups if g.name in grown
                if (said := _backoff_said(g) or _unregistered_said(g))]
    kinds = {kind for words, kind in data["agrees"].items() if words == reason or words in message}
    out = []
    for group in status.groups:
        said = (("backoff" in kinds and _backoff_said(group)) or ("at_max" in kinds and _at_max_said(group))
                or ("unhealthy" in kinds and _unhealthy_said(group)))
        if said:
            out.append((group, said))
    return out


def _backoff_said(group: Group) -> str:
    scale_up = group.conditions.get("ScaleUp")
    if scale_up is None or scale_up.status not in status_data()["backoff"]:
        return ""
    why = f" ({scale_up.error.rstrip('.')})" if scale_up.error else ""
    since = f" since {scale_up.since:%Y-%m-%d %H:%M:%S}Z" if scale_up.since else ""
    return f"in {scale_up.status} after a failed scale-up{why}{since}"


def _at_max_said(group: Group) -> str:
    health = group.conditions.get("Health")
    target = health.counts.get("cloudProviderTarget") if health is not None else None
    if health is None or health.max_size is None or target is None or target < health.max_size:
        return ""
    return f"at its maximum size ({target} of {health.max_size})"


def _unhealthy_said(group: Group) -> str:
    health = group.conditions.get("Health")
    return f"{health.status}" if health is not None and health.status in status_data()["unhealthy"] else ""


def _unregistered_said(group: Group) -> str:
    health = group.conditions.get("Health")
    n = health.counts.get("longUnregistered") if health is not None else None
    return f"keeping {n} node(s) long unregistered (launched, never joined)" if n else ""
