"""The images table: every distinct image reference with how many containers and pods use it."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pandas as pd

from analyzer.model.frame import empty_columns, to_frame
from analyzer.model.images import split_image
from analyzer.model.normalize import joined

if TYPE_CHECKING:
    from analyzer.cluster import Cluster


def build(cluster: Cluster) -> dict[str, pd.DataFrame]:
    """The images table, counted from the containers table."""
    from analyzer.model.registry import build_table

    containers = build_table("containers", cluster)
    image_col = containers["image"].tolist()
    ns_col = containers["namespace"].tolist()
    pod_col = containers["pod"].tolist()
    uses: dict[str, int] = {}
    pods: dict[str, set[tuple[str, str]]] = {}
    namespaces: dict[str, set[str]] = {}
    for image, ns, pod in zip(image_col, ns_col, pod_col, strict=True):
        if image is None or image is pd.NA:
            continue
        uses[image] = uses.get(image, 0) + 1
        pods.setdefault(image, set()).add((ns, pod))
        namespaces.setdefault(image, set()).add(ns)
    i = empty_columns("images")
    for image in sorted(uses):
        ref = split_image(image)
        i["image"].append(image)
        i["registry"].append(ref.registry)
        i["repository"].append(ref.repository)
        i["tag"].append(ref.tag)
        i["digest"].append(ref.digest)
        i["containers"].append(uses[image])
        i["pods"].append(len(pods[image]))
        i["namespaces"].append(joined(sorted(namespaces[image])))
    return {"images": to_frame("images", i, cluster.capture_time, ["image"])}
