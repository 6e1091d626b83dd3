"""The rbac_bindings table: one row per subject of each RoleBinding and ClusterRoleBinding."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pandas as pd

from analyzer.kube.views import Subject
from analyzer.model.frame import empty_columns, to_frame
from analyzer.model.normalize import builtin_objects_by_kind

if TYPE_CHECKING:
    from analyzer.ingest.dump import Dump


def build(cluster: Dump) -> dict[str, pd.DataFrame]:
    """rbac_bindings; a binding without subjects still gets one row (with no subject)."""
    b = empty_columns("rbac_bindings")
    for obj in builtin_objects_by_kind(cluster, "RoleBinding", "ClusterRoleBinding"):
        view = obj.view
        role = view.roleRef
        for subject in view.subjects or [Subject()]:
            b["kind"].append(obj.kind)
            b["namespace"].append(obj.namespace)
            b["name"].append(obj.name)
            b["role_kind"].append(role.kind if role else None)
            b["role_name"].append(role.name if role else None)
            b["subject_kind"].append(subject.kind)
            b["subject_name"].append(subject.name)
            b["subject_namespace"].append(subject.namespace)
    return {"rbac_bindings": to_frame("rbac_bindings", b, cluster.capture_time,
                                      ["kind", "namespace", "name"])}
