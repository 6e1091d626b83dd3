"""`reads`: container env (valueFrom) and envFrom to the ConfigMaps and Secrets they read."""

from __future__ import annotations

from analyzer.graph.context import GraphContext, Reference
from analyzer.graph.relations import Relation
from analyzer.model.views import PodSpec

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
                if source is None:
                    continue
                for kind, ref in (("ConfigMap", source.configMapKeyRef), ("Secret", source.secretKeyRef)):
                    if ref is not None and ref.name:
                        found.append((kind, ref.name, bool(ref.optional), f"env {env.name} of {container.name}"))
            for env_from in container.envFrom or ():
                for kind, ref in (("ConfigMap", env_from.configMapRef), ("Secret", env_from.secretRef)):
                    if ref is not None and ref.name:
                        found.append((kind, ref.name, bool(ref.optional), f"envFrom of {container.name}"))
    return found
