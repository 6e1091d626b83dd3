"""`reads`: container env (valueFrom) and envFrom to the ConfigMaps and Secrets they read."""

from __future__ import annotations

from analyzer.graph.context import GraphContext, Reference
from analyzer.graph.relations import Relation
from analyzer.kube.views import KeyRef, NameRef, PodSpec

RELATION = Relation(
    name="reads",
    source="Pod, and workloads/CronJobs through their pod template",
    target="ConfigMap, Secret",
    description="env[].valueFrom.configMapKeyRef/secretKeyRef and envFrom[] of every "
    "container, init and ephemeral container; pod -> object.",
)


def build(ctx: GraphContext) -> None:
    """Add holder -> ConfigMap/Secret for every env and envFrom reference."""
    for held in ctx.pod_specs:
        refs = env_references(held.spec)
        if refs:
            ctx.links(held.node, held.namespace, refs, RELATION.name)


def env_references(spec: PodSpec) -> list[Reference]:
    """(kind, name, optional, via) of every env and envFrom reference of a pod spec, in order."""
    found: list[Reference] = []
    for containers in (spec.containers, spec.initContainers, spec.ephemeralContainers):
        for container in containers or ():
            for env in container.env or ():
                source = env.valueFrom
                # Most sources are field refs (a Struct is true): skip them before making anything.
                if source is not None and (source.configMapKeyRef or source.secretKeyRef):
                    _add_refs(found, source.configMapKeyRef, source.secretKeyRef, f"env {env.name} of {container.name}")
            for env_from in container.envFrom or ():
                _add_refs(found, env_from.configMapRef, env_from.secretRef, f"envFrom of {container.name}")
    return found


def _add_refs(found: list[Reference], config_map: KeyRef | NameRef | None, secret: KeyRef | NameRef | None, via: str) -> None:
    if config_map is not None and config_map.name:
        found.append(("ConfigMap", config_map.name, bool(config_map.optional), via))
    if secret is not None and secret.name:
        found.append(("Secret", secret.name, bool(secret.optional), via))
