"""The images table: every distinct image reference with how many containers and pods use it."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from analyzer.model.frame import empty_columns, to_frame
from analyzer.model.images import split_image
from analyzer.model.normalize import joined

if TYPE_CHECKING:
    from analyzer.ingest.dump import Dump


def _distinct_pairs(first: np.ndarray, second: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct pairs of two columns of codes (from -1 up): their firsts and seconds, and
    per row the number of its pair."""
    width = int(second.max()) + 2 if len(second) else 1
    pairs, pair_of = np.unique((first.astype(np.int64) + 1) * width + (second + 1),
                               return_inverse=True)
    return pairs // width - 1, pairs % width - 1, pair_of.reshape(-1)


def build(cluster: Dump) -> dict[str, pd.DataFrame]:
    """The images table, counted from the containers table by codes (a big dump has tens of
    thousands of containers and a few hundred images)."""
    from analyzer.model.registry import build_table

    containers = build_table("containers", cluster)
    used = containers["image"].notna().to_numpy()
    image, images = pd.factorize(containers["image"].array[used])
    namespace = containers["namespace"].array[used]
    pod_name, _ = pd.factorize(containers["pod"].array[used])
    # A pod is its namespace and name; an image's namespaces are read as `tolist` gives them.
    _, _, pod = _distinct_pairs(namespace.codes, pod_name)
    pods_image, _, _ = _distinct_pairs(image, pod)
    ns_image, ns_code, _ = _distinct_pairs(image, namespace.codes)
    namespaces: list[list[str]] = [[] for _ in images]
    for at, ns in zip(ns_image.tolist(),
                      pd.Categorical.from_codes(ns_code, dtype=namespace.dtype).tolist(),
                      strict=True):
        namespaces[at].append(ns)
    uses = np.bincount(image, minlength=len(images)).tolist()
    pods = np.bincount(pods_image, minlength=len(images)).tolist()

    i = empty_columns("images")
    for at, text in enumerate(images.tolist()):
        ref = split_image(text)
        i["image"].append(text)
        i["registry"].append(ref.registry)
        i["repository"].append(ref.repository)
        i["tag"].append(ref.tag)
        i["digest"].append(ref.digest)
        i["containers"].append(uses[at])
        i["pods"].append(pods[at])
        i["namespaces"].append(joined(sorted(namespaces[at])))
    # Rows in order of first use: to_frame sorts them by image.
    return {"images": to_frame("images", i, cluster.capture_time, ["image"])}
