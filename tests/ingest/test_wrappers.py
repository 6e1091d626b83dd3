"""Tool-call records and terminal frames around kubectl output are removed, the output read."""

from __future__ import annotations

from analyzer.ingest import ingest_text

# HolmesGPT fixture shape (realdata aks/holmesgpt-fixtures): tool metadata, the invocation,
# `stdout:`, the kubectl output, `stderr:` and what the command wrote there.
HOLMES_YAML = (
    '{"toolset_name": "kubernetes/core", "tool_name": "kubectl_get_yaml", "match_params": {}}\n'
    '{"schema_version": "robusta:v1.0.0", "status": "success", "invocation": "kubectl get -o yaml pod web -n shop"}\n'
    "stdout:\n"
    "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  namespace: shop\n"
    "stderr:\n"
    "Warning: some warning\n"
)


def test_tool_call_record_around_yaml() -> None:
    r = ingest_text(HOLMES_YAML)
    assert [o.key.id for o in r.objects] == ["core/Pod/shop/web"]
    assert r.objects[0].provenance.line == 4  # lines keep their numbers in the file
    reasons = [s.reason for s in r.skipped]
    assert "tool-call header (HolmesGPT record), not Kubernetes objects" in reasons
    assert "tool's stderr: 'Warning: some warning'" in reasons
    assert r.formats == ["kubectl-yaml"] and not r.rejections


def test_tool_call_record_around_json() -> None:
    text = ('{"tool_name": "kubectl_get_json"}\n'
            '{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "web", "namespace": "shop"}}\n')
    r = ingest_text(text)
    assert [o.key.id for o in r.objects] == ["core/Pod/shop/web"]


# k9s "YAML" view copied from a terminal (realdata kubeadm/oci-ccm-issue-409): the first line
# lost its left border in the selection, every line is padded to the pane and closed by `│`.
K9S = "\n".join([
    "apiVersion: v1                                             │",
    "│ kind: Node                                                 │",
    "│ metadata:                                                  │",
    "│   labels:                                                  │",
    "│     kubernetes.io/hostname: worker-1                       │",
    "│   name: worker-1                                           │",
    "│ spec:                                                      │",
    "│   providerID: oci://ocid1.instance.oc1.iad.abc             │",
    "└────────────────────────────────────────────────────────────┘",
])


def test_k9s_frame_is_removed_and_the_yaml_read() -> None:
    r = ingest_text(K9S)
    [node] = r.objects
    assert node.key.id == "core/Node//worker-1"
    assert node.view.spec.providerID == "oci://ocid1.instance.oc1.iad.abc"
    assert node.view.metadata.labels == {"kubernetes.io/hostname": "worker-1"}
    assert any("terminal frame" in s.reason for s in r.skipped)


def test_a_table_with_a_few_box_characters_is_not_treated_as_framed() -> None:
    # One `│` in a value must not make the whole file a frame.
    text = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: art\n  namespace: x\ndata:\n  a: 'x │ y'\n"
    r = ingest_text(text)
    assert r.objects[0].body()["data"] == {"a": "x │ y"}
    assert not any("terminal frame" in s.reason for s in r.skipped)
