"""A Pod known only from a row of a pasted `kubectl get` table (or a describe cut before its
containers), as the API would serve it.

Such a row names no container and often no phase (its STATUS is kubectl's summary, such as
CrashLoopBackOff). The API never serves a Pod without containers, and kubectl relies on that:
`kubectl logs POD` reads the first container's name (and panics on an empty list), `kubectl
describe` prints the phase as the pod's Status. So the served body lists the containers the dump
names (the logs it holds of the pod) and stands in for the others with placeholders, states the
phase as Unknown when the row did not print one, and says in its message what was read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from typing import Any

from analyzer.ingest.text.types import TEXT_FACTS_KEY as PASTED

# Not a DNS label, so never the name of a real container.
_PLACEHOLDER = re.compile(r"^<unknown(?:-\d+)?>$")
_READY = re.compile(r"^\d+/(\d+)$")


def is_placeholder(container: str) -> bool:
    """Whether a container name stands in for one the dump does not name.

    >>> is_placeholder("<unknown-2>"), is_placeholder("web")
    (True, False)
    """
    return _PLACEHOLDER.match(container) is not None


def containers_unknown(body: dict[str, Any]) -> bool:
    """Whether a served Pod stands in for containers the dump does not name (or has none)."""
    spec = body.get("spec") if isinstance(body.get("spec"), dict) else {}
    names = [c.get("name") for key in ("containers", "initContainers")
             for c in spec.get(key) or () if isinstance(c, dict)]
    return PASTED in body and (not names or any(isinstance(n, str) and is_placeholder(n) for n in names))


def served_pasted_pod(body: dict[str, Any], log_containers: Iterable[str]) -> dict[str, Any]:
    """The Pod of a pasted row with containers and a phase; a body that has them is returned as is.

    >>> pod = served_pasted_pod({"metadata": {"name": "svclb-traefik-qk8kq"}, "x-kda-text": {
    ...     "ready": "0/2", "status": "CrashLoopBackOff", "restarts": 2}}, ["lb-port-443"])
    >>> [c["name"] for c in pod["spec"]["containers"]], pod["status"]["phase"], pod["status"]["reason"]
    (['lb-port-443', '<unknown-2>'], 'Unknown', 'CrashLoopBackOff')
    >>> pod["status"]["message"]
    'read from a row of a pasted kubectl table (READY 0/2, STATUS CrashLoopBackOff, RESTARTS 2): the dump holds no spec or status of its containers'
    >>> served_pasted_pod({"x-kda-text": {"status": "Running"}, "status": {"phase": "Running"}}, [])["spec"]
    {'containers': [{'name': '<unknown>'}]}
    >>> served_pasted_pod({"x-kda-text": {"ready": "0/1", "status": "Init:CrashLoopBackOff"}}, ["install-cni"])["spec"]
    {'containers': [{'name': '<unknown>'}], 'initContainers': [{'name': 'install-cni'}]}
    >>> served_pasted_pod({"x-kda-text": {"described": True, "ends_after": "Controlled By"},
    ...                    "status": {"phase": "Running"}}, [])["status"]["message"]
    'read from a pasted kubectl describe that ends after its Controlled By section: the dump holds no spec or status of its containers'
    """
    facts = body.get(PASTED)
    spec = body.get("spec") if isinstance(body.get("spec"), dict) else {}
    if not isinstance(facts, dict) or spec.get("containers") or spec.get("initContainers"):
        return body
    named = sorted({c for c in log_containers if c})
    # a row whose STATUS says an init container fails: the containers its logs name are those
    # (the main ones, which READY counts, have not started)
    inits = named if str(facts.get("status") or "").startswith("Init:") else []
    named = [] if inits else named
    ready = _READY.match(str(facts.get("ready") or ""))
    count = max(len(named), int(ready.group(1)) if ready else 1, 1)
    if count == 1 and not named:
        names = ["<unknown>"]
    else:
        names = named + [f"<unknown-{i}>" for i in range(len(named) + 1, count + 1)]
    out = dict(body)
    out["spec"] = {**spec, "containers": [{"name": n} for n in names]}
    if inits:
        out["spec"]["initContainers"] = [{"name": n} for n in inits]
    status = dict(body["status"]) if isinstance(body.get("status"), dict) else {}
    said = facts.get("status")
    if not status.get("phase"):
        status["phase"] = "Unknown"
        if isinstance(said, str) and said:
            status.setdefault("reason", said)
    shown = ", ".join(f"{label} {facts[key]}" for label, key in (("READY", "ready"), ("STATUS", "status"),
                                                                   ("RESTARTS", "restarts")) if facts.get(key) is not None)
    # (a describe cut before its Containers section is no table row: k3s-io/k3s#12600)
    ends = facts.get("ends_after")
    origin = (f"a pasted kubectl describe{f' that ends after its {ends} section' if ends else ''}"
              if facts.get("described") else f"a row of a pasted kubectl table{f' ({shown})' if shown else ''}")
    status.setdefault("message", f"read from {origin}: the dump holds no spec or status of its containers")
    out["status"] = status
    return out


def with_deletion_time(body: dict[str, Any], capture: datetime | None) -> dict[str, Any]:
    """A described object whose describe said `Terminating (lasts 18m)` with the deletion time
    that implies (the capture time less those 18 minutes), as the API serves a Terminating
    object: kubectl prints its STATUS and describe from it. A body that states one, or whose
    capture time is unknown, is returned as is.

    >>> served = with_deletion_time({"metadata": {"name": "mariadb-0"}, "spec": {"terminationGracePeriodSeconds": 30},
    ...     "x-kda-text": {"deletion_ago_seconds": 1080.0}}, datetime(2026, 4, 11, 9, 30, tzinfo=UTC))
    >>> served["metadata"]
    {'name': 'mariadb-0', 'deletionTimestamp': '2026-04-11T09:12:00Z', 'deletionGracePeriodSeconds': 30}
    """
    facts = body.get(PASTED)
    ago = facts.get("deletion_ago_seconds") if isinstance(facts, dict) else None
    meta = body.get("metadata") if isinstance(body.get("metadata"), dict) else {}
    if not isinstance(ago, int | float) or capture is None or meta.get("deletionTimestamp"):
        return body
    when = (capture - timedelta(seconds=ago)).astimezone(UTC).replace(microsecond=0)
    meta = {**meta, "deletionTimestamp": when.strftime("%Y-%m-%dT%H:%M:%SZ")}
    # (a Terminating describe prints the deletion's grace period as `Termination Grace Period`)
    grace = (body.get("spec") or {}).get("terminationGracePeriodSeconds") if isinstance(body.get("spec"), dict) else None
    if isinstance(grace, int):
        meta.setdefault("deletionGracePeriodSeconds", grace)
    return {**body, "metadata": meta}
