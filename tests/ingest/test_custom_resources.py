"""A custom resource named like a built-in kind is read as any object, not squeezed into the
built-in kind's view (which dropped its fields as "ignored", or could reject it)."""

from __future__ import annotations

import copy
import json

import orjson
import pytest
import yaml

import analyzer
from analyzer.ingest.tree import MemoryTree
from analyzer.kube.views import NodeView, ObjectView, ServiceView

# Trimmed from realdata/kubeadm/sbctl-kurl-supportbundle,
# cluster-resources/custom-resources/nodes.longhorn.io/longhorn-system.yaml: its status
# conditions are a map by type, where a core Node has a list.
LONGHORN_NODE = {
    "apiVersion": "longhorn.io/v1beta1", "kind": "Node",
    "metadata": {"name": "troubleshoot-demo-001", "namespace": "longhorn-system",
                 "uid": "8fa3ff36-62a9-4e98-b2a8-da54d45dded8"},
    "spec": {"allowScheduling": True, "name": "troubleshoot-demo-001", "tags": []},
    "status": {"conditions": {"Ready": {"lastTransitionTime": "2022-04-11T22:51:56Z",
                                        "status": "True", "type": "Ready"}}, "region": ""},
}
# Written for this test: the core Node of the same name, and a Knative Service.
CORE_NODE = {
    "apiVersion": "v1", "kind": "Node", "metadata": {"name": "troubleshoot-demo-001"},
    "status": {"conditions": [{"type": "Ready", "status": "True"}]},
}
KNATIVE_SERVICE = {
    "apiVersion": "serving.knative.dev/v1", "kind": "Service",
    "metadata": {"name": "hello", "namespace": "default"},
    "spec": {"template": {"spec": {"containers": [{"image": "ghcr.io/knative/helloworld-go"}]}},
             "ports": {"http": 8080}},
}


def _list_json(items: list[dict]) -> bytes:
    return orjson.dumps({"apiVersion": "v1", "kind": "List", "items": items}, option=orjson.OPT_INDENT_2)


@pytest.mark.parametrize("form", ["yaml", "json-list", "json-objects"])
def test_custom_resources_named_like_builtin_kinds_keep_their_fields(form: str) -> None:
    items = [copy.deepcopy(o) for o in (LONGHORN_NODE, CORE_NODE, KNATIVE_SERVICE)]
    if form == "yaml":
        files = {"dump.yaml": yaml.safe_dump({"apiVersion": "v1", "kind": "List", "items": items})}
    elif form == "json-list":
        files = {"dump.json": _list_json(items)}  # one scan of the List, parts by kind
    else:
        files = {f"{i}.json": json.dumps(o) for i, o in enumerate(items)}  # item by item
    cluster = analyzer.load(MemoryTree(files, name=form))
    by_id = {o.key.id: o for o in cluster.objects}
    assert set(by_id) == {"longhorn.io/Node/longhorn-system/troubleshoot-demo-001",
                          "core/Node//troubleshoot-demo-001", "serving.knative.dev/Service/default/hello"}
    assert not cluster.ingest.rejections
    assert all(not o.notes for o in cluster.objects), [o.notes for o in cluster.objects]
    assert type(by_id["longhorn.io/Node/longhorn-system/troubleshoot-demo-001"].view) is ObjectView
    assert type(by_id["serving.knative.dev/Service/default/hello"].view) is ObjectView
    assert isinstance(by_id["core/Node//troubleshoot-demo-001"].view, NodeView)
    # The whole custom resource is still there, and the tables hold only the built-in kinds.
    assert by_id["longhorn.io/Node/longhorn-system/troubleshoot-demo-001"].body()["status"]["conditions"]["Ready"]
    assert cluster.tables.nodes["name"].tolist() == ["troubleshoot-demo-001"]
    assert cluster.tables.services.empty


def test_builtin_kinds_from_former_groups_keep_their_view() -> None:
    old = {"apiVersion": "extensions/v1beta1", "kind": "Ingress",
           "metadata": {"name": "web", "namespace": "shop"}, "spec": {"rules": []}}
    svc = {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "web", "namespace": "shop"},
           "spec": {"ports": [{"port": 80}]}}
    cluster = analyzer.load(MemoryTree({"d.json": _list_json([old, svc])}))
    views = {o.kind: o.view for o in cluster.objects}
    assert type(views["Ingress"]).__name__ == "IngressView" and isinstance(views["Service"], ServiceView)
