"""Container image references split into registry, repository, tag and digest."""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

DOCKER_HUB = "docker.io"
# Names Docker Hub is also written as; they all mean the same registry.
_DOCKER_HUB_ALIASES = frozenset({"docker.io", "index.docker.io", "registry-1.docker.io"})


class ImageRef(NamedTuple):
    registry: str | None
    repository: str | None
    tag: str | None
    digest: str | None


_EMPTY = ImageRef(None, None, None, None)


@lru_cache(maxsize=8192)
def split_image(image: str | None) -> ImageRef:
    """Split an image reference the way the container runtime resolves it.

    The registry is the first path part when it looks like a host (has a dot or a port, or is
    `localhost`); otherwise it is Docker Hub, where one-part names live under `library/`.
    The tag is missing when the reference does not write one (implied latest, or digest only).

    Examples:
        >>> split_image("nginx")
        ImageRef(registry='docker.io', repository='library/nginx', tag=None, digest=None)
        >>> split_image("docker.io/library/nginx:1.25")
        ImageRef(registry='docker.io', repository='library/nginx', tag='1.25', digest=None)
        >>> split_image("bitnami/redis:7.0")
        ImageRef(registry='docker.io', repository='bitnami/redis', tag='7.0', digest=None)
        >>> split_image("localhost:5000/x")
        ImageRef(registry='localhost:5000', repository='x', tag=None, digest=None)
        >>> split_image("mcr.microsoft.com/oss/kubernetes/coredns:v1.9.4")
        ImageRef(registry='mcr.microsoft.com', repository='oss/kubernetes/coredns', tag='v1.9.4', digest=None)
        >>> split_image("602401143452.dkr.ecr.us-west-2.amazonaws.com/amazon-k8s-cni:v1.11.4-eksbuild.1")
        ImageRef(registry='602401143452.dkr.ecr.us-west-2.amazonaws.com', repository='amazon-k8s-cni', tag='v1.11.4-eksbuild.1', digest=None)
        >>> split_image("quay.io/cilium/cilium@sha256:0123abcd")
        ImageRef(registry='quay.io', repository='cilium/cilium', tag=None, digest='sha256:0123abcd')
        >>> split_image("registry.k8s.io/pause:3.9@sha256:7031c1b2")
        ImageRef(registry='registry.k8s.io', repository='pause', tag='3.9', digest='sha256:7031c1b2')
        >>> split_image("")
        ImageRef(registry=None, repository=None, tag=None, digest=None)
    """
    if not image or not isinstance(image, str):
        return _EMPTY
    ref = image.strip()
    name, _, digest = ref.partition("@")
    slash = name.rfind("/")
    colon = name.rfind(":")
    tag = None
    if colon > slash:  # a colon after the last slash is a tag, before it a registry port
        name, tag = name[:colon], name[colon + 1:]
    first, sep, rest = name.partition("/")
    if sep and ("." in first or ":" in first or first == "localhost"):
        registry, repository = first, rest
    else:
        registry, repository = DOCKER_HUB, name
    if registry in _DOCKER_HUB_ALIASES:
        registry = DOCKER_HUB
        if "/" not in repository:
            repository = f"library/{repository}"
    return ImageRef(registry, repository or None, tag or None, digest or None)
