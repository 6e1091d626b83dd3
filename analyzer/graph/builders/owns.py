"""`owns`: ownerReferences, from the owner to the object it owns (deleted with it)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from analyzer.graph.context import GraphContext
from analyzer.graph.relations import Relation
from analyzer.kube.names import DEPLOYMENT_POD, RAND

if TYPE_CHECKING:
    from analyzer.ingest.records import KubeObject

RELATION = Relation(
    name="owns",
    source="any owner (Deployment, ReplicaSet, DaemonSet, Job, CronJob, Service, custom resources)",
    target="the owned object",
    description="metadata.ownerReferences; owner -> owned. The owned object is garbage-collected "
    "with its owner, and the owner is degraded when what it owns fails.",
    dependent="target",
    cascade=True,
    mutual=True,
)


# How controllers name what they create: a ReplicaSet `<deployment>-<pod-template-hash>`, a pod
# `<replicaset|daemonset|job>-<5 random>`, `<statefulset>-<ordinal>`, a Job `<cronjob>-<minutes>`.
# (Suffix characters: apimachinery's rand.String alphabet, `analyzer.kube.names.RAND`.)
_RANDOM = RAND
_OWNER_BY_NAME: dict[str, tuple[tuple[str, re.Pattern[str]], ...]] = {
    "Pod": (("ReplicaSet", re.compile(rf"(.+)-{_RANDOM}{{5}}")), ("DaemonSet", re.compile(rf"(.+)-{_RANDOM}{{5}}")),
            ("Job", re.compile(rf"(.+)-{_RANDOM}{{5}}")), ("StatefulSet", re.compile(r"(.+)-\d+")),
            ("ReplicationController", re.compile(rf"(.+)-{_RANDOM}{{5}}")),
            # a Deployment's pod when the dump holds no ReplicaSet (a `get pods` and a `get deploy`)
            ("Deployment", DEPLOYMENT_POD)),
    "ReplicaSet": (("Deployment", re.compile(rf"(.+)-{_RANDOM}{{6,10}}")),),
    "Job": (("CronJob", re.compile(r"(.+)-\d{8,}")),),
}


def build(ctx: GraphContext) -> None:
    """Add owner -> owned for every ownerReference (a pod's Node owner is `mirror_of`), and by
    name for objects read from a pasted table, whose rows carry no ownerReferences."""
    for owned, obj in ctx.all_with_nodes():
        refs = obj.view.metadata.ownerReferences
        if not refs:
            if obj.view.text is not None and obj.key.kind in _OWNER_BY_NAME:
                _owner_by_name(ctx, owned, obj)
            continue
        is_pod = obj.key.kind == "Pod"
        for ref in refs:
            if is_pod and ref.kind == "Node":
                continue
            owner = ctx.by_uid(ref.uid) or ctx.ref(ref.kind, obj.namespace, ref.name, ref.apiVersion)
            ctx.edge(owner, owned, RELATION.name, "controller" if ref.controller else "owner")


def _owner_by_name(ctx: GraphContext, owned: str, obj: KubeObject) -> None:
    """The controller whose naming the object's name follows, if the dump holds it: a table
    shows `web-7d9f8c6b5-x2k4q` and `replicaset.apps/web-7d9f8c6b5`, a person links them."""
    for kind, pattern in _OWNER_BY_NAME[obj.key.kind]:
        m = pattern.fullmatch(obj.key.name)
        if m and ctx.exists(kind, obj.key.namespace, m[1]):
            ctx.edge(ctx.ref(kind, obj.key.namespace, m[1]), owned, RELATION.name, "inferred from the name (a table row has no ownerReferences)")
            return
