"""Images pinned to `:latest` or to no tag at all (what runs changes under you)."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.cluster import Cluster
from analyzer.findings.facts import container_path, ev, pod_containers
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="container-image-latest", title="Image uses :latest or no tag", severity="warning",
    category="configuration", requires=("Pod",),
    message="Pod {namespace}/{name}: container {container} runs {image} ({problem})",
    remediation="Pin the image to a version tag or, better, a digest, so restarts and new nodes run the same code.",
)


def image_tag(image: str) -> tuple[str | None, bool]:
    """(tag, has_digest) of an image reference.

    >>> image_tag("nginx"), image_tag("reg:5000/app:1.2"), image_tag("app@sha256:ab"), image_tag("a:latest")
    ((None, False), ('1.2', False), (None, True), ('latest', False))
    """
    name, _, digest = image.partition("@")
    last = name.rsplit("/", 1)[-1]
    tag = last.split(":", 1)[1] if ":" in last else None
    return tag, bool(digest)


def check(cluster: Cluster) -> Iterator[Finding]:
    for pod in cluster.objects_of("Pod"):
        for ctype, spec, _status in pod_containers(pod):
            if spec is None or not spec.image:
                continue
            tag, digest = image_tag(spec.image)
            if digest or (tag and tag != "latest"):
                continue
            yield RULE.fail(pod, ev(pod, f"{container_path(ctype, spec.name)}.image", spec.image, "a version tag or digest"),
                            container=spec.name, image=spec.image,
                            problem="tag latest" if tag else "no tag, so latest")
