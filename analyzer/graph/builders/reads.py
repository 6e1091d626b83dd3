"""`reads`: container env (valueFrom) and envFrom to the ConfigMaps and Secrets they read."""

from __future__ import annotations

from analyzer.graph.context import GraphContext
from analyzer.graph.relations import Relation

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
        ns = held.obj.namespace
        spec = held.spec
        for container in (*(spec.containers or ()), *(spec.initContainers or ()), *(spec.ephemeralContainers or ())):
            for env in container.env or ():
                source = env.valueFrom
                if source is None:
                    continue
                for kind, ref in (("ConfigMap", source.configMapKeyRef), ("Secret", source.secretKeyRef)):
                    if ref is not None and ref.name:
                        via = f"env {env.name} of {container.name}"
                        ctx.link(held.node, kind, ns, ref.name, RELATION.name, via, bool(ref.optional))
            for env_from in container.envFrom or ():
                for kind, ref in (("ConfigMap", env_from.configMapRef), ("Secret", env_from.secretRef)):
                    if ref is not None and ref.name:
                        via = f"envFrom of {container.name}"
                        ctx.link(held.node, kind, ns, ref.name, RELATION.name, via, bool(ref.optional))
