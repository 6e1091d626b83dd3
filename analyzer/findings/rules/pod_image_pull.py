"""Images that cannot be pulled (ImagePullBackOff, ErrImagePull, InvalidImageName)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.events import events_by_object
from analyzer.findings.facts import pod_containers, waiting_containers
from analyzer.findings.ownership import owners
from analyzer.findings.suspects import pod_suspects
from analyzer.findings.types import Finding, RuleMeta

if TYPE_CHECKING:
    from analyzer.ingest.records import KubeObject

RULE = RuleMeta(
    id="pod-image-pull", title="Image cannot be pulled", severity="critical",
    category="workloads", requires=("Pod",),
    message="Pod {namespace}/{name} cannot pull image(s) {images} ({reasons})",
    remediation="Check the image name and tag exist, the registry is reachable from the nodes, and imagePullSecrets grant access.",
)
REASONS = frozenset({"ImagePullBackOff", "ErrImagePull", "InvalidImageName", "ErrImageNeverPull",
                     "RegistryUnavailable"})


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    for pod in pod_suspects(cluster).of("waiting", "text"):
        evidence = waiting_containers(pod, REASONS)
        if not evidence:
            continue
        failing = {e.field.split("[name=")[1].split("]")[0] for e in evidence if "[name=" in e.field}
        images = sorted({(spec.image if spec else status.image) or "?"
                         for _t, spec, status in pod_containers(pod)
                         if (spec or status).name in failing}) or _template_images(cluster, pod) \
            or _event_images(cluster, pod) or ["not named in the table"]
        yield RULE.fail(pod, *evidence, images=", ".join(images),
                        reasons=", ".join(sorted({str(e.seen) for e in evidence})))


def _template_images(cluster: AnalyzedDump, pod: KubeObject) -> list[str]:
    """The images of the pod's controller's template, for a pod pasted from a table (its row
    names no image, the controller's IMAGES column or spec does)."""
    for owner in owners(cluster, pod):
        template = getattr(owner.view.spec, "template", None)
        images = sorted({c.image for c in template.spec.containers or () if c.image}) if template else []
        if images:
            return images
    return []


# The kubelet's events name the image it fails on: `Failed to pull image "x": ...`,
# `Back-off pulling image "x"` (a `Pulling image` alone may be a pull that worked).
FAILED_PULL = re.compile(r'(?:Failed to pull image|Back-off pulling image) "([^"]+)"')


def _event_images(cluster: AnalyzedDump, pod: KubeObject) -> list[str]:
    """The images the pod's own events say fail to pull, for a pod pasted from a table with its
    events pasted too (`get pods` then `get events` or a describe's Events): said as theirs."""
    images = sorted({m.group(1) for f in events_by_object(cluster).get(("Pod", pod.namespace, pod.name), ())
                     if (m := FAILED_PULL.search(f.message or ""))})
    return [f"{', '.join(images)} (named by its events)"] if images else []
