"""Which operating system a Node runs, from what the dump says of it: its nodeInfo, its labels,
else its OS image and kernel, which a pasted `kubectl get nodes -o wide` row keeps alone."""

from __future__ import annotations

import re
from typing import Any

from analyzer.kube.views import NodeInfo

# A Windows kubelet reports the registry's ProductName ("Windows Server 2019 Datacenter", the
# semi-annual channel's "Windows Server Datacenter"; before 1.9 "Microsoft Windows [Version
# 10.0.14393]", kubernetes/kubernetes#50396) and the build as its kernel (10.0.17763.1935); no Linux
# kernel is numbered 10.0 with a five-digit part.
_WINDOWS_IMAGE = re.compile(r"(microsoft )?windows\b", re.IGNORECASE)
_WINDOWS_KERNEL = re.compile(r"10\.0\.\d{5}(\.|$)")
# The node labels that say its OS (the beta one before 1.14).
OS_LABELS = ("kubernetes.io/os", "beta.kubernetes.io/os")


def node_os(info: NodeInfo | None, labels: dict[str, Any] | None) -> str | None:
    """The node's operating system (linux, windows), or None where the dump does not say.

    A kubelet runs on Linux or Windows only, so a node whose OS image or kernel is known and is
    not Windows's runs Linux.

    Examples:
        >>> node_os(NodeInfo(osImage="Windows Server 2022 Datacenter"), None)
        'windows'
        >>> node_os(NodeInfo(kernelVersion="10.0.17763.1397"), None)
        'windows'
        >>> node_os(NodeInfo(osImage="Microsoft Windows [Version 10.0.14393]"), None)
        'windows'
        >>> node_os(NodeInfo(osImage="Ubuntu 18.04.4 LTS", kernelVersion="5.3.0-1028-azure"), None)
        'linux'
        >>> node_os(NodeInfo(operatingSystem="linux"), {"kubernetes.io/os": "windows"})
        'linux'
        >>> node_os(None, {"beta.kubernetes.io/os": "windows"})
        'windows'
        >>> node_os(NodeInfo(kubeletVersion="v1.29.2"), None) is None
        True
    """
    if info is not None and info.operatingSystem:
        return info.operatingSystem
    for key in OS_LABELS:
        if labels and labels.get(key):
            return str(labels[key])
    image, kernel = (_stated(info.osImage), _stated(info.kernelVersion)) if info else ("", "")
    if not (image or kernel):
        return None
    if _WINDOWS_IMAGE.match(image) or _WINDOWS_KERNEL.match(kernel):
        return "windows"
    return "linux"


def _stated(value: str | None) -> str:
    """The value, or '' for none or a placeholder a table printed (`<unknown>`)."""
    return "" if not value or value.startswith("<") else value
