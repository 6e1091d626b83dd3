"""Two primary CNIs side by side (flannel and weave, flannel and Calico as separate plugins: the
leftover of a CNI swap), a classic cause of pod networking failures. Combinations that run
together by design (Canal, policy or chaining over a cloud CNI, a product's own parts) are
data: data/cni_primaries.yaml. Warning when both run pods; critical when pods also fail to get
a network (sandbox events naming the CNI within the hour before capture); info when one runs on
no node or the dump cannot tell whether one only enforces policy or chains."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from datetime import timedelta
from functools import cache
from itertools import combinations
from typing import Any

import pandas as pd

from analyzer.findings.components import ComponentsUnavailable, components
from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.events import EventFact, event_facts
from analyzer.findings.facts import capture_of, ev
from analyzer.findings.types import Evidence, Finding, RuleMeta
from analyzer.findings.versions import DATA
from analyzer.kube.time import parse_time
from analyzer.model.normalize import as_dict, as_list
from analyzer.safeyaml import load_yaml

RULE = RuleMeta(
    id="cni-multiple", title="Two primary CNIs side by side", severity="warning",
    category="cluster", requires_any=("DaemonSet", "Pod"), needs_host=True,
    message="Two primary CNIs run side by side: {first} and {second}; {which}",
    remediation="Keep one pod network: remove the leftover plugin's DaemonSet and its config "
                "(/etc/cni/net.d on every node), then restart the pods that got addresses from it.",
)


@cache
def _data() -> dict[str, Any]:
    return load_yaml((DATA / "cni_primaries.yaml").read_text(encoding="utf-8"))


def _chained(cluster: AnalyzedDump, plugin: str) -> bool | None:
    """Whether `plugin` chains onto another CNI by its config (None: the dump cannot tell)."""
    rule = _data().get("chaining") or {}
    if rule.get("plugin") != plugin:
        return False
    if not cluster.covers("ConfigMap"):
        return None
    for cm in cluster.objects_of("ConfigMap"):
        if cm.name == rule["configmap"]:
            value = (cm.body().get("data") or {}).get(rule["key"])
            return value is not None and str(value).strip() not in (rule.get("not_chained") or ())
    return None


def _policy_only(cluster: AnalyzedDump, families: dict[str, pd.DataFrame], pair: frozenset[str]) -> bool | None:
    """Whether a pair of data/cni_primaries.yaml `policy_only` runs as designed there (one side
    leaves the network to the other, by its env); None when the dump does not show the env."""
    for rule in _data().get("policy_only") or ():
        if frozenset(rule["pair"]) != pair:
            continue
        rows = families[rule["plugin"]]
        keys = {(str(r.namespace), str(r.name)) for r in rows.itertuples(index=False)}
        seen = None
        for ds in cluster.objects_of("DaemonSet"):
            if (ds.namespace, ds.name) not in keys:
                continue
            template = as_dict(as_dict(as_dict(ds.body().get("spec")).get("template")).get("spec"))
            for container in as_list(template.get("containers")):
                for env in as_list(as_dict(container).get("env")):
                    if not isinstance(env, dict) or env.get("name") != rule["env"]:
                        continue
                    value = _env_value(cluster, ds.namespace, env)
                    if value is None:
                        continue
                    seen = value.strip().lower() in [str(v).lower() for v in rule["values"]]
                    if not seen:
                        return False
        return seen
    return False


def _env_value(cluster: AnalyzedDump, namespace: str, env: dict[str, Any]) -> str | None:
    """An env var's value: stated, or from the ConfigMap key it names (calico.yaml's
    CALICO_NETWORKING_BACKEND comes from calico-config's calico_backend); None if not shown."""
    if "value" in env:
        return str(env["value"])
    ref = (env.get("valueFrom") or {}).get("configMapKeyRef") or {}
    if not ref.get("name") or not ref.get("key"):
        return None
    for cm in cluster.objects_of("ConfigMap"):
        if cm.namespace == namespace and cm.name == ref["name"]:
            value = (cm.body().get("data") or {}).get(ref["key"])
            return None if value is None else str(value)
    return None


def _side(rows: pd.DataFrame, cluster: AnalyzedDump) -> dict[str, Any]:
    """What the dump shows of one family's workloads: names, pods scheduled and ready, creation."""
    names = sorted({f"{r.kind} {r.namespace}/{r.name}" for r in rows.itertuples(index=False)})
    desired = int(pd.to_numeric(rows["desired"], errors="coerce").fillna(0).sum())
    ready = int(pd.to_numeric(rows["ready"], errors="coerce").fillna(0).sum())
    created = age = None
    try:
        wl = cluster.tables["workloads"]
    except KeyError:
        wl = None
    if wl is not None and len(wl):
        keys = {(str(r.kind), str(r.namespace), str(r.name)) for r in rows.itertuples(index=False)}
        mask = [(str(k), str(ns), str(n)) in keys for k, ns, n in zip(wl["kind"], wl["namespace"], wl["name"], strict=True)]
        found = wl[mask]
        stamps = found["created"].dropna() if "created" in found else []
        ages = found["age"].dropna() if "age" in found else []
        created = min(stamps) if len(stamps) else None
        age = max(ages) if len(ages) else None
    if created is None:
        created = _earliest_creation(cluster, rows)
    return {"workloads": names, "desired": desired, "ready": ready, "created": created, "age": age}


def _earliest_creation(cluster: AnalyzedDump, rows: pd.DataFrame) -> Any:
    """The first creation among the objects a component was recognised by (its pods, where the
    dump holds no DaemonSet): when the plugin was installed, at the latest."""
    ids = {i for value in rows["objects"].dropna().astype(str) for i in value.split(",") if i}
    stamps = [t for o in cluster.objects_of("DaemonSet", "Pod") if o.key.id in ids
              and (t := parse_time(o.view.metadata.creationTimestamp or "")) is not None]
    return min(stamps) if stamps else None


def _evidence(cluster: AnalyzedDump, rows: pd.DataFrame, family: str, side: dict[str, Any]) -> Evidence:
    """One plugin's side: its workloads, their pods ready of scheduled and creation, located at
    the first of its objects the dump holds."""
    field = f"{family} ({', '.join(side['workloads'])})"
    seen = f"{side['ready']} of {side['desired']} pods ready" + (
        f", created {side['created']:%Y-%m-%d %H:%M}Z" if side["created"] is not None else "")
    keys = {(str(r.kind), str(r.namespace), str(r.name)) for r in rows.itertuples(index=False)}
    obj = next((o for o in cluster.objects_of("DaemonSet", "Deployment", "Pod")
                if (o.kind, o.namespace, o.name) in keys), None)
    if obj is None:
        return Evidence(field, seen, "one primary CNI")
    return ev(obj, field, seen, "one primary CNI")


def _which(a: str, b: str, sides: dict[str, dict[str, Any]]) -> str:
    """Which of the two is the newer (likely the one intended): by creation, else by age."""
    if all(sides[f]["created"] is not None for f in (a, b)) and sides[a]["created"] != sides[b]["created"]:
        newer = max((a, b), key=lambda f: sides[f]["created"])
    elif all(sides[f]["age"] is not None for f in (a, b)) and sides[a]["age"] != sides[b]["age"]:
        newer = min((a, b), key=lambda f: sides[f]["age"])
    else:
        return "the dump does not tell which was installed last"
    older = b if newer == a else a
    return f"{newer} is the newer (likely the one intended), {older} likely a leftover"


def _network_failures(cluster: AnalyzedDump) -> list[EventFact]:
    """Recent events of pods that could not get a network from the CNI (newest first)."""
    rule = _data().get("network_failures") or {}
    reasons = frozenset(rule.get("reasons") or ())
    pattern = re.compile(str(rule.get("message") or "$^"))
    window = timedelta(minutes=int(rule.get("recent_minutes") or 60))
    capture = capture_of(cluster)
    found = []
    for fact in event_facts(cluster):
        if fact.reason not in reasons or not pattern.search(fact.message):
            continue
        if fact.last_seen_ago is not None:
            recent = fact.last_seen_ago <= window
        elif fact.last_seen is not None and capture is not None:
            recent = capture - fact.last_seen <= window
        else:
            recent = False  # no time: cannot say it is still happening
        if recent:
            found.append(fact)
    return sorted(found, key=lambda f: f.last_seen_ago or (capture - f.last_seen if capture and f.last_seen else timedelta()))


def _node_counts(cluster: AnalyzedDump) -> dict[str, int]:
    """Nodes annotated by each family (the networks the nodes really were configured with)."""
    prefixes = _data().get("node_annotations") or {}
    counts: dict[str, int] = {}
    for node in cluster.objects_of("Node"):
        keys = tuple((node.view.metadata.annotations or {}).keys())
        for family, prefix in prefixes.items():
            if any(k.startswith(prefix) for k in keys):
                counts[family] = counts.get(family, 0) + 1
    return counts


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    try:
        table = components(cluster)
    except ComponentsUnavailable as exc:
        yield RULE.not_applicable(str(exc))
        return
    data = _data()
    primary: dict[str, str] = data.get("primary") or {}
    compatible = {frozenset(pair) for pair in data.get("compatible") or ()}
    cni = table[table["role"].astype("string") == "cni"] if len(table) else table
    families: dict[str, pd.DataFrame] = {}
    for family in sorted({primary[c] for c in cni["component"].astype("string").dropna() if c in primary}):
        members = cni[cni["component"].astype("string").map(lambda c, f=family: primary.get(c) == f).astype(bool)]
        families[family] = members
    nodes = _node_counts(cluster) if len(families) > 1 else {}
    for a, b in combinations(sorted(families), 2):
        if frozenset((a, b)) in compatible:
            continue
        chained = [_chained(cluster, a), _chained(cluster, b), _policy_only(cluster, families, frozenset((a, b)))]
        if True in chained:
            continue
        sides = {a: _side(families[a], cluster), b: _side(families[b], cluster)}
        which = _which(a, b, sides)
        evidence = [_evidence(cluster, families[family], family, side) for family, side in sides.items()]
        if nodes:
            evidence.append(Evidence("nodes annotated by each CNI", ", ".join(f"{f} {n}" for f, n in sorted(nodes.items())),
                                     "one CNI's annotations"))
        # Both running pods: both plugins write the nodes' CNI config. One without pods is a
        # leftover that runs nowhere now (its config may still sit on the nodes): info.
        both_run = all(s["desired"] > 0 or s["ready"] > 0 for s in sides.values())
        unsure = None in chained
        failing = _network_failures(cluster) if both_run and not unsure else []
        if failing:
            pods = sorted({f"{f.namespace}/{f.name}" for f in failing})
            evidence.append(ev(failing[0].event, f"Event.message ({failing[0].reason}, {len(pods)} pod(s))",
                               failing[0].message, "pods get a network"))
            which += f"; {len(pods)} pod(s) cannot get a network ({failing[0].reason}: {failing[0].message[:160]})"
        finding = RULE.fail(None, *evidence, kind="Component", namespace="", name=f"cni:{a}+{b}",
                            first=a, second=b, which=which,
                            workloads={f: s["workloads"] for f, s in sides.items()},
                            layering_unknown=unsure, nodes=nodes or None)
        if failing:
            yield replace(finding, severity="critical")
        else:
            yield finding if both_run and not unsure else replace(finding, severity="info")
