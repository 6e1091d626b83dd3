"""Images pinned to `:latest` or to no tag at all (what runs changes under you)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from analyzer.findings.alike import replica_groups, said_for_replicas
from analyzer.findings.containers import TABLES, container_rows, judged_containers, pod_index
from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import container_path, ev
from analyzer.findings.types import Finding, RuleMeta
from analyzer.model.namespaces import is_dump_tool_namespace

if TYPE_CHECKING:
    import pandas as pd

    from analyzer.ingest.records import KubeObject

RULE = RuleMeta(
    id="container-image-latest", title="Image uses :latest or no tag", severity="warning",
    category="configuration", requires=("Pod",), tables=TABLES,
    message="Pod {namespace}/{name}: container {container} runs {image} ({problem})",
    remediation="Pin the image to a version tag or, better, a digest, so restarts and new nodes run the same code.",
)


# What an image reference can be made of (registry/path:tag@digest). A value outside it is no
# image but what stands in for one in a paste: `<redacted>`, `***` (k9s#174: a GKE describe's
# `Image: <redacted>` was said to run `latest`).
_REFERENCE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._/:@-]*$")


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    rows = judged_containers(cluster, types=("init", "container", "ephemeral"), system=True, finished=True)
    unpinned = rows["digest"].isna() & (rows["tag"].isna() | (rows["tag"] == "latest")).fillna(False)
    for pod, (kind, name, image), others, controller in replica_groups(cluster, _unpinned(cluster, rows[unpinned])):
        explicit = str(image).rsplit("/", 1)[-1].endswith(":latest")
        yield said_for_replicas(RULE.fail(pod, ev(pod, f"{container_path(kind, name)}.image", image, "a version tag or digest"),
                                          container=name, image=image, problem="tag latest" if explicit else "no tag, so latest"),
                                others, controller)


def _unpinned(cluster: AnalyzedDump, rows: pd.DataFrame) -> Iterator[tuple[KubeObject, tuple[str, str, str]]]:
    pods = pod_index(cluster)
    for row in container_rows(rows, "image"):
        if is_dump_tool_namespace(row.namespace):
            continue  # the pods of the tool that made the dump (sonobuoy's plugins run :latest)
        if not _REFERENCE.match(str(row.image)):
            continue  # a placeholder the paste put for the image: its tag is not known
        yield pods[(row.namespace, row.pod)], (row.container_type, row.name, row.image)
