"""A node's kubelet log folders (`kind export logs`, node log collectors): which file is the log
of the container run the dump shows, which its previous run, and which neither.

The kubelet writes one file per run of a container, /var/log/pods/<ns>_<pod>_<uid>/<container>/
<restart>.log, and links /var/log/containers/<pod>_<ns>_<container>-<container id>.log to it.
A pod of the same name recreated (a kind cluster made again, a StatefulSet's pod) writes under
another uid, and a later run under another id and number: such a file is not the log of the
pod the dump holds, however its name reads. The kubelet rotates a run's file past its size limit
(<restart>.log.<YYYYMMDD-hhmmss>, gzipped from the second on): those are the run's earlier
lines, read before its file, oldest first (pkg/kubelet/logs/container_log_manager.go).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from analyzer.ingest.layouts import NodeLogHint


@dataclass(frozen=True, slots=True)
class ContainerRuns:
    """What a pod's status says of one container's runs: the current, the previous."""

    current_id: str | None = None
    previous_id: str | None = None
    restarts: int | None = None


@dataclass(frozen=True, slots=True)
class PodRuns:
    """The ids a pod of the dump is known by (its uid; a static pod's config hash) and its
    containers' runs."""

    ids: frozenset[str]
    containers: dict[str, ContainerRuns] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class NodeLogFile:
    display: str
    hint: NodeLogHint
    data: bytes


@dataclass(frozen=True, slots=True)
class Verdict:
    """A file's fate: read as the log of its container (`previous` or not), or skipped (`why`)."""

    file: NodeLogFile
    previous: bool = False
    why: str | None = None


def _bare_id(container_id: Any) -> str | None:
    """containerd://<id> -> <id>."""
    if not isinstance(container_id, str) or not container_id:
        return None
    return container_id.rsplit("//", 1)[-1]


def pod_runs(body: dict[str, Any]) -> PodRuns:
    """A pod's ids and its containers' runs, from its body.

    >>> runs = pod_runs({"metadata": {"uid": "u1", "annotations": {"kubernetes.io/config.hash": "h"}},
    ...     "status": {"containerStatuses": [{"name": "c", "restartCount": 2, "containerID": "containerd://b",
    ...     "lastState": {"terminated": {"containerID": "containerd://a"}}}]}})
    >>> sorted(runs.ids), runs.containers["c"]
    (['h', 'u1'], ContainerRuns(current_id='b', previous_id='a', restarts=2))
    """
    meta = body.get("metadata") or {}
    annotations = meta.get("annotations") or {}
    ids = {meta.get("uid"), annotations.get("kubernetes.io/config.hash"), annotations.get("kubernetes.io/config.mirror")}
    status = body.get("status") or {}
    containers = {}
    for group in ("initContainerStatuses", "containerStatuses", "ephemeralContainerStatuses"):
        for cs in status.get(group) or ():
            if not isinstance(cs, dict) or not cs.get("name"):
                continue
            last = ((cs.get("lastState") or {}).get("terminated") or {}).get("containerID")
            restarts = cs.get("restartCount")
            containers[cs["name"]] = ContainerRuns(_bare_id(cs.get("containerID")), _bare_id(last),
                                                   restarts if isinstance(restarts, int) else None)
    return PodRuns(frozenset(i for i in ids if isinstance(i, str) and i), containers)


RunKey = tuple[str, str, str | None, str, int | None]


def run_key(hint: NodeLogHint) -> RunKey:
    """The run a pods/ file is of: its pod's namespace, name and uid, its container and restart."""
    return hint.namespace, hint.pod, hint.uid, hint.container, hint.restart


def split_rotated(files: list[NodeLogFile]) -> tuple[list[NodeLogFile], dict[RunKey, list[NodeLogFile]], list[Verdict]]:
    """The files that stand for their run (its file, else its newest rotated one, whose run is
    then told as any other), each run's other rotated files oldest first, and the rotated files
    not read, with why: one the kubelet was still compressing (.tmp), or one it had compressed
    (its .gz beside it holds the same lines)."""
    names = {f.display for f in files}
    current = [f for f in files if f.hint.rotated is None]
    earlier: dict[RunKey, list[NodeLogFile]] = {}
    skipped: list[Verdict] = []
    for f in files:
        if f.hint.rotated is None:
            continue
        if f.hint.unfinished:
            skipped.append(Verdict(f, why="a rotated log the kubelet was still compressing (.tmp, removed at its "
                                          "next rotation): not read"))
        elif not f.hint.compressed and f"{f.display}.gz" in names:
            skipped.append(Verdict(f, why=f"the lines of {f.display.rsplit('/', 1)[-1]}.gz, which the kubelet "
                                          "compressed from it: read there"))
        else:
            earlier.setdefault(run_key(f.hint), []).append(f)
    runs = {run_key(f.hint) for f in current}
    for key, group in earlier.items():
        group.sort(key=lambda f: f.hint.rotated or "")
        if key not in runs:
            current.append(group.pop())
    return current, earlier, skipped


def _first_time(data: bytes) -> bytes:
    """The first word of a CRI log (its first line's RFC 3339 time), to order runs by."""
    return data[:40].split(b" ", 1)[0]


def resolve(files: list[NodeLogFile], pods: dict[tuple[str, str], PodRuns]) -> list[Verdict]:
    """Each file's verdict, the files of one container taken together."""
    groups: dict[tuple[str, str, str], list[NodeLogFile]] = {}
    for f in files:
        groups.setdefault((f.hint.namespace, f.hint.pod, f.hint.container), []).append(f)
    verdicts: list[Verdict] = []
    for (ns, pod, container), group in sorted(groups.items()):
        runs, links = _runs_and_links(group)
        verdicts += links
        known = pods.get((ns, pod))
        if known is None:
            verdicts += _by_order(runs, f"{ns}/{pod}")
            continue
        own: list[tuple[NodeLogFile, str | None]] = []
        for f, cid in runs:
            if f.hint.uid and known.ids and f.hint.uid not in known.ids:
                verdicts.append(Verdict(f, why=(
                    f"the log of another pod named {ns}/{pod} (uid {f.hint.uid}; the dump's pod is "
                    f"{' or '.join(sorted(known.ids))}): not read as its log")))
            else:
                own.append((f, cid))
        facts = known.containers.get(container)
        if facts is None:
            verdicts += _by_order(own, f"{ns}/{pod}")
            continue
        verdicts += [_by_status(f, cid, facts, container) for f, cid in own]
    return verdicts


def _runs_and_links(group: list[NodeLogFile]) -> tuple[list[tuple[NodeLogFile, str | None]], list[Verdict]]:
    """The group's runs (a pods/ file, with the container id of the link to it when one is
    there), and the links to them (containers/ files of the same bytes as a pods/ file)."""
    numbered = [f for f in group if f.hint.restart is not None]
    runs: dict[int, str | None] = {id(f): None for f in numbered}
    links: list[Verdict] = []
    unpaired: list[tuple[NodeLogFile, str | None]] = []
    for f in group:
        if f.hint.container_id is None:
            continue
        target = next((t for t in numbered if runs[id(t)] is None and t.data == f.data), None)
        if target is None:
            unpaired.append((f, f.hint.container_id))
            continue
        runs[id(target)] = f.hint.container_id
        links.append(Verdict(f, why=f"a link to {target.display} (/var/log/containers links to /var/log/pods): "
                                    "the same log, accounted for there"))
    return [(f, runs[id(f)]) for f in numbered] + unpaired, links


def _by_status(f: NodeLogFile, cid: str | None, facts: ContainerRuns, container: str) -> Verdict:
    """A run of a container the dump's pod shows: by its container id where known, else by its
    restart number against the pod's restart count."""
    if cid is not None and facts.current_id is not None:
        if cid == facts.current_id:
            return Verdict(f)
        if cid == facts.previous_id:
            return Verdict(f, previous=True)
        return Verdict(f, why=(f"the log of container {container}'s run {cid[:13]}, which is neither the run the "
                               f"dump shows ({facts.current_id[:13]}) nor its previous one: not read as its log"))
    n, restarts = f.hint.restart, facts.restarts
    if n is None or restarts is None:
        return Verdict(f)
    if n == restarts:
        return Verdict(f)
    if n == restarts - 1:
        return Verdict(f, previous=True)
    when = "later than" if n > restarts else "older than the previous run of"
    return Verdict(f, why=(f"the log of container {container}'s run {n}, {when} the one the dump shows "
                           f"(restart {restarts}): not read as its log"))


def _by_order(runs: list[tuple[NodeLogFile, str | None]], pod: str) -> list[Verdict]:
    """Runs of a container whose pod's status the dump lacks: the latest is its log, the one
    before it the previous; earlier ones are named."""
    ordered = sorted(runs, key=lambda r: (r[0].hint.restart if r[0].hint.restart is not None else -1,
                                          _first_time(r[0].data)))
    verdicts = []
    for at, (f, _) in enumerate(reversed(ordered)):
        if at < 2:
            verdicts.append(Verdict(f, previous=at == 1))
        else:
            verdicts.append(Verdict(f, why=f"an older run of {pod}'s container {f.hint.container} than its "
                                           "previous one: not read"))
    return verdicts
