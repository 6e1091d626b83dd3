"""OpenShift's ClusterOperators as system components: each one's role (cluster_operators.yaml),
version and health from its Available and Degraded conditions, as `oc adm upgrade status` judges
them (openshift/oc pkg/cli/admin/upgrade/status/controlplane.go: not Available=True is
unavailable; Available but Degraded=True is degraded).

Examples:
    >>> operator_health([{"type": "Available", "status": "True"}, {"type": "Degraded", "status": "False"}])
    (True, [])
    >>> operator_health([{"type": "Available", "status": "Unknown"}, {"type": "Degraded", "status": "True",
    ...     "lastTransitionTime": "2020-11-30T10:00:00Z", "message": "OAuthServerDeploymentDegraded: 0 replicas"}])
    (False, ['Available=Unknown', 'Degraded=True since 2020-11-30T10:00:00Z: OAuthServerDeploymentDegraded: 0 replicas'])
    >>> operator_health([])
    (None, [])
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from analyzer.kube.time import parse_time
from analyzer.printing.timefmt import human_duration
from analyzer.safeyaml import load_yaml
from analyzer.sensitive.masking import mask_sensitive

if TYPE_CHECKING:
    from analyzer.ingest import KubeObject

OPERATORS_FILE = Path(__file__).with_name("cluster_operators.yaml")
OPERATOR_KIND = "ClusterOperator"
UNLISTED_ROLE = "operator"
# Degraded, and its name in the API of OpenShift 4.0 (openshift/api config/v1
# types_cluster_operator.go, OperatorFailing: "the user intent cannot be fulfilled").
DEGRADED_TYPES = ("Degraded", "Failing")
# An operator's message can run to pages (authentication's 40 sub-controllers): a line of it.
_MESSAGE_LIMIT = 300


@dataclass(frozen=True, slots=True)
class OperatorRole:
    """What an operator runs, as the catalog words it."""

    role: str
    critical: bool | None


@cache
def operator_roles() -> dict[str, OperatorRole]:
    """Operator name -> its role and criticality, from cluster_operators.yaml."""
    raw = load_yaml(OPERATORS_FILE.read_text(encoding="utf-8")) or {}
    return {str(name): OperatorRole(str(spec["role"]), bool(spec.get("critical", False)))
            for name, spec in (raw.get("operators") or {}).items()}


def role_of(name: str) -> OperatorRole:
    """The role of the operator named `name` (an operator the data does not list: `operator`)."""
    return operator_roles().get(name, OperatorRole(UNLISTED_ROLE, None))


def cluster_operators(objects: Iterable[KubeObject]) -> list[KubeObject]:
    """The ClusterOperators among `objects`, by name."""
    return sorted((o for o in objects if o.kind == OPERATOR_KIND), key=lambda o: o.name)


def _since(cond: Mapping[str, Any], ages: Mapping[str, float]) -> str:
    """' since <lastTransitionTime>', or what a pasted table's SINCE says of it, or ''."""
    if (when := parse_time(cond.get("lastTransitionTime"))) is not None:
        return f" since {when.astimezone(UTC):%Y-%m-%dT%H:%M:%SZ}"
    seconds = ages.get(str(cond.get("type")))
    return f" since {human_duration(seconds)} before the table was printed" if seconds is not None else ""


def _said(cond: Mapping[str, Any], ages: Mapping[str, float]) -> str:
    text = f"{cond.get('type')}={cond.get('status')}{_since(cond, ages)}"
    message = " ".join(str(cond.get("message") or "").split())
    if message:
        cut = message[:_MESSAGE_LIMIT] + ("..." if len(message) > _MESSAGE_LIMIT else "")
        text += f": {mask_sensitive(cut)}"
    return text


def operator_health(conditions: Any, ages: Mapping[str, float] | None = None) -> tuple[bool | None, list[str]]:
    """(healthy, why not): not healthy where Available is not True or Degraded (Failing) is True,
    each said with since when and the operator's message (a Degraded operator may be failing on
    the owner's configuration: its message says which); None where no condition was collected."""
    conds = {str(c.get("type")): c for c in conditions or () if isinstance(c, dict) and c.get("type")}
    if not conds:
        return None, []
    why = []
    available = conds.get("Available")
    if available is None or str(available.get("status")) != "True":
        why.append(_said(available, ages or {}) if available is not None else "no Available condition")
    for ctype in DEGRADED_TYPES:
        degraded = conds.get(ctype)
        if degraded is not None and str(degraded.get("status")) == "True":
            why.append(_said(degraded, ages or {}))
    return not why, why


def operator_version(obj: KubeObject) -> str | None:
    """The operator's own version (status.versions' `operator` entry)."""
    versions = (obj.body().get("status") or {}).get("versions")
    for entry in versions if isinstance(versions, list) else ():
        if isinstance(entry, dict) and entry.get("name") == "operator" and entry.get("version"):
            return str(entry["version"])
    return None


def operator_row(obj: KubeObject) -> dict[str, Any]:
    """One ClusterOperator as a row of the components table (its columns, COMPONENTS_SPEC)."""
    status = obj.body().get("status")
    text = getattr(obj.view, "text", None)
    ages = (getattr(text, "condition_ages", None) or {}) if text is not None else {}
    healthy, why = operator_health(status.get("conditions") if isinstance(status, dict) else None, ages)
    role = role_of(obj.name)
    return {
        "namespace": "", "name": obj.name, "kind": OPERATOR_KIND,
        "component": None, "role": role.role,
        "distribution_specific": True, "distributions": "openshift", "critical": role.critical,
        "images": None, "version": operator_version(obj),
        "desired": None, "ready": None, "host_network": None, "priority_class": None,
        "healthy": healthy, "recent_restarts": 0, "probe_failures": 0, "log_errors": 0,
        "health_evidence": "; ".join(why) or None,
        "inferred": False, "objects": obj.key.id,
    }
