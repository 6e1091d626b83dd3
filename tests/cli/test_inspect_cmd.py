"""`kda inspect`: the text and JSON forms, exit codes, and no traceback for any input."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REALDATA, SAMPLE_DUMPS
from typer.testing import CliRunner

from analyzer.cli import app

runner = CliRunner()
# `kubectl get pod -o yaml` shape, and the same with a second, broken document after it.
POD_YAML = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web-1\n  namespace: shop\n  uid: u1\n"
BROKEN_SECOND = POD_YAML + "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: [oops\n"


def run(*args: str, stdin: bytes | None = None):
    result = runner.invoke(app, list(args), input=stdin)
    # typer reports its own Exit as SystemExit; anything else escaped as a traceback
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    return result


def test_json_contract(tmp_path: Path) -> None:
    path = tmp_path / "pods.yaml"
    path.write_text(BROKEN_SECOND + "---\n" + POD_YAML)
    result = run("inspect", "--format", "json", str(path))
    assert result.exit_code == 0
    doc = json.loads(result.stdout)
    assert doc["objects_total"] == 1
    assert doc["objects_by_kind"] == {"Pod": 1}
    assert doc["duplicates"] == 1
    assert doc["formats"] == ["kubectl-yaml"]
    assert doc["coverage"]["present"] == ["Pod"] and "ConfigMap" in doc["coverage"]["absent"]
    assert doc["capture_time"] is None  # no timestamps in this dump
    [rej] = doc["rejected"]
    assert set(rej) == {"source", "location", "reason"}
    assert rej["source"] == str(path) and rej["location"].startswith("document 1")
    assert doc["rejected_objects"] == 1 and doc["rejected_inputs"] == 0
    assert doc["objects_read"] == doc["objects_total"] + doc["duplicates"] + doc["rejected_objects"]


def test_text_summary_of_a_real_dump() -> None:
    result = run("inspect", str(REALDATA / "kubeadm" / "cka-3c97-cluster-info-dump"))
    assert result.exit_code == 0
    out = result.stdout
    assert "47 objects" in out and "cluster-info-dump" in out
    assert "capture time: 2021-04-11T14:33:30Z" in out
    assert "logs: 35 container logs" in out


def test_strict_exits_1_on_any_rejection(tmp_path: Path) -> None:
    path = tmp_path / "pods.yaml"
    path.write_text(BROKEN_SECOND)
    assert run("inspect", str(path)).exit_code == 0
    assert run("inspect", "--strict", str(path)).exit_code == 1
    clean = tmp_path / "clean.yaml"
    clean.write_text(POD_YAML)
    assert run("inspect", "--strict", str(clean)).exit_code == 0


def test_nothing_read_exits_2(tmp_path: Path) -> None:
    missing = run("inspect", str(tmp_path / "nope"))
    assert missing.exit_code == 2
    assert "no such file or folder" in " ".join(missing.output.split())  # rich wraps lines
    junk = tmp_path / "notes.md"
    junk.write_text("we restarted the nodes on monday, see attached\n")
    assert run("inspect", str(junk)).exit_code == 2


def test_one_missing_input_among_good_ones_still_exits_0(tmp_path: Path) -> None:
    good = tmp_path / "pod.yaml"
    good.write_text(POD_YAML)
    result = run("inspect", "-f", "json", str(tmp_path / "nope"), str(good))
    assert result.exit_code == 0
    assert json.loads(result.stdout)["rejected_inputs"] == 1


def test_stdin() -> None:
    result = run("inspect", "-f", "json", "-", stdin=POD_YAML.encode())
    assert result.exit_code == 0
    assert json.loads(result.stdout)["objects_by_kind"] == {"Pod": 1}


HOSTILE = {
    "binary": os.urandom(4096).replace(b"\x1f\x8b", b"xx").replace(b"PK", b"xx"),
    "empty": b"",
    "deep-json": b"[" * 100_000 + b"]" * 100_000,
    "deep-yaml": b"kind: Pod\nspec: " + b"[" * 100_000 + b"]" * 100_000,
    "python-tag": b"kind: Pod\nmetadata: !!python/object/apply:os.system ['true']\n",
    "corrupt-gzip": gzip.compress(POD_YAML.encode())[:30],
    "half-json": b'{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": ',
    "utf16-no-bom": POD_YAML.encode("utf-16-le"),
    "only-prompt": b"$ kubectl get pods\nNo resources found in default namespace.\n",
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_no_traceback_for_any_input(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_bytes(HOSTILE[name])
    for fmt in ("text", "json"):
        result = run("inspect", "-f", fmt, str(path))
        assert result.exit_code in (0, 2)


def test_kda_process_on_a_pipe_prints_no_traceback() -> None:
    # The installed console script, as a user runs it: `cat x | kda inspect -`.
    proc = subprocess.run(
        [sys.executable, "-m", "analyzer", "inspect", "-"],
        input=b"\x00\x01garbage" * 100, capture_output=True, timeout=120, check=False,
    )
    assert proc.returncode == 2
    assert b"Traceback" not in proc.stderr + proc.stdout
    assert b"binary data" in proc.stderr


def test_notes_on_objects_kept_are_shown(tmp_path: Path) -> None:
    # A hand-edited Deployment whose replicas is a list: kept, with the field left out and said.
    path = tmp_path / "deploy.yaml"
    path.write_text("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop}\n"
                    "spec:\n  replicas: [3]\n  selector: {matchLabels: {app: web}}\n")
    doc = json.loads(run("inspect", "--format", "json", str(path)).stdout)
    assert doc["objects_total"] == 1 and not doc["rejected"]
    [note] = doc["notes"]
    assert note["object"] == "apps/Deployment/shop/web" and note["source"] == str(path)
    assert note["note"].startswith("field ignored") and "$.spec.replicas" in note["note"]
    text = run("inspect", str(path)).stdout
    assert "notes on objects kept (1):" in text and "apps/Deployment/shop/web: field ignored" in text


@pytest.mark.parametrize("command", [["inspect"], ["findings"], ["graph"], ["tables", "--table", "pods"],
                                     ["timeline"]])
def test_json_contract_holds_when_nothing_is_read(tmp_path: Path, command: list[str]) -> None:
    junk = tmp_path / "notes.md"
    junk.write_text("we restarted the nodes on monday, see attached\n")
    result = run(*command, "--format", "json", str(junk), str(tmp_path / "nope"))
    assert result.exit_code == 2
    doc = json.loads(result.stdout)
    assert doc["objects_total"] == 0 and doc["objects_read"] == 0
    assert {(r["source"], r["location"]) for r in doc["rejected"]} == {(str(junk), ""), (str(tmp_path / "nope"), "")}
    assert all(r["reason"] for r in doc["rejected"])


def test_inspect_exits_2_when_only_logs_were_read_and_says_why(tmp_path: Path) -> None:
    # A cluster-info tree whose nodes.json and pods.json are damaged past reading: the logs
    # are read, no object is; the summary is still printed, and the loss is said out loud.
    (tmp_path / "kube-system" / "web-1").mkdir(parents=True)
    (tmp_path / "nodes.json").write_text('{"kind": "NodeList", "items": [[')
    (tmp_path / "kube-system" / "pods.json").write_text('{"kind": "PodList", "items": [[')
    (tmp_path / "kube-system" / "web-1" / "logs.txt").write_text(
        "==== START logs for container web of pod kube-system/web-1 ====\nhello\n"
        "==== END logs for container web of pod kube-system/web-1 ====\n")
    result = run("inspect", "--format", "json", str(tmp_path))
    assert result.exit_code == 2
    doc = json.loads(result.stdout)
    assert doc["logs"]["containers"] == 1
    assert "nodes.json was present but no Node could be read (see the rejections)" in doc["warnings"]
    assert "pods.json was present but no Pod could be read (see the rejections)" in doc["warnings"]
    assert "Node" not in doc["coverage"]["absent"] and "Node" in doc["coverage"]["unreadable"]
    text = run("inspect", str(tmp_path))
    assert "WARNING: nodes.json was present but no Node could be read" in text.stdout


def test_inspect_reads_logs_alone_as_a_dump(tmp_path: Path) -> None:
    # The logs part of a cluster-info dump cut out on its own: nothing lost, so exit 0, with a
    # note that says where the logs can be read.
    logs = tmp_path / "logs.txt"
    logs.write_text("==== START logs for container web of pod shop/web-1 ====\nhello\n"
                    "==== END logs for container web of pod shop/web-1 ====\n")
    result = run("inspect", str(logs))
    assert result.exit_code == 0
    assert "logs: 1 container logs" in result.stdout
    assert "only container logs" in result.stderr and "error" not in result.stderr


def test_a_paste_of_one_command_and_the_refusal_it_met_is_read_not_rejected(tmp_path: Path) -> None:
    # One `kubectl exec` and the API server's error for the kubelet it could not reach (the shape
    # of Azure/AKS#50): the refusal is a finding, so the file was read (exit 0, a report written),
    # not "nothing could be read".
    paste = tmp_path / "exec.txt"
    paste.write_text("$ kubectl exec -it web -- sh\nError from server: error dialing backend: "
                     "dial tcp 10.240.0.4:10250: i/o timeout\n")
    result = run("inspect", str(paste))
    assert result.exit_code == 0, result.stderr
    assert "refusal" in result.stdout and "error" not in result.stderr
    out = tmp_path / "out"
    assert run("report", str(paste), "-o", str(out)).exit_code == 0
    assert "10.240.0.4" in next(out.rglob("report.html")).read_text(encoding="utf-8")


def test_diff_json_prints_the_summary_of_a_side_that_cannot_be_read(tmp_path: Path) -> None:
    junk = tmp_path / "notes.md"
    junk.write_text("we restarted the nodes on monday, see attached\n")
    result = run("diff", str(SAMPLE_DUMPS / "aks"), str(junk), "--format", "json")
    assert result.exit_code == 2
    doc = json.loads(result.stdout)
    assert doc["objects_total"] == 0 and [r["source"] for r in doc["rejected"]] == [str(junk)]


def test_a_file_that_holds_no_objects_says_what_it_holds(tmp_path) -> None:
    # `aws eks describe-cluster` saved by PowerShell as cluster-info.txt (pguniganti/terraform-aws-eks-1
    # @ 321c6b1: UTF-16 with a BOM), trimmed to a few fields: nothing is refused, so the error must
    # say what the file was passed over as.
    from typer.testing import CliRunner

    from analyzer.cli import app

    doc = ('{\r\n    "cluster": {\r\n        "name": "my-eks-cluster",\r\n        "arn": "arn:aws:eks:us-east-1:'
           '975049994493:cluster/my-eks-cluster",\r\n        "version": "1.30",\r\n        "endpoint": '
           '"https://AFE3343721AA5D359E89EAA8A2C26A82.gr7.us-east-1.eks.amazonaws.com"\r\n    }\r\n}\r\n')
    path = tmp_path / "cluster-info.txt"
    path.write_bytes(doc.encode("utf-16"))
    result = CliRunner().invoke(app, ["findings", str(path)])
    assert result.exit_code == 2
    assert "an EKS cluster as `aws eks describe-cluster` prints it, Kubernetes 1.30" in result.output


def test_a_paste_of_only_kubeadms_certificate_list_is_read_and_says_so(tmp_path: Path) -> None:
    # Trimmed from zahui.fan's post "使用kubeadm部署的集群证书过期后处理" (2024-03-04)
    path = tmp_path / "post.md"
    path.write_text("```bash\n[root@ALSHBSITL00061 kubernetes]# kubeadm certs check-expiration\n"
                    "CERTIFICATE                EXPIRES                  RESIDUAL TIME   CERTIFICATE AUTHORITY   EXTERNALLY MANAGED\n"
                    "apiserver                  Feb 27, 2024 08:36 UTC   <invalid>       ca                      no\n```\n",
                    encoding="utf-8")
    result = run("inspect", str(path))
    assert result.exit_code == 0
    assert "only the certificates `kubeadm certs check-expiration` listed: `kda findings DUMP` reads it" in result.output


def test_a_folder_of_pastes_says_what_each_file_gave(tmp_path: Path) -> None:
    # Two unrelated tickets and a note in one folder: kubernetes#10560's kubectl 1.0 `get pods`
    # (trimmed) and the pending pod of kubernetes docs/user-guide/introspection-and-debugging.md of
    # 1.0 (the describe's Events alone, trimmed), beside prose that holds nothing. Before: only
    # the objects by kind, not which ticket gave them, nor that one gave nothing.
    from tests.findings.test_pasted_problems import K8S_10_PENDING

    (tmp_path / "10560.txt").write_text(
        "$ kubectl get pods\n"
        "NAME                      READY     REASON                                  RESTARTS   AGE\n"
        "frontend                  0/2       Pending                                 0          1h\n"
        "memhog                    0/1       OOM Killed                              0          5m\n", encoding="utf-8")
    (tmp_path / "docs.md").write_text("Events:" + K8S_10_PENDING.split("Events:")[1], encoding="utf-8")
    (tmp_path / "notes.txt").write_text("Here is what I ran, nothing came back.\n", encoding="utf-8")
    result = run("inspect", str(tmp_path))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    at = lines.index("objects by file:")
    assert lines[at + 1:at + 4] == [f"  {tmp_path / '10560.txt'} (kubectl-text): 2 (Pod 2)",
                                    f"  {tmp_path / 'docs.md'} (transcript): 1 (Event 1)",
                                    f"  {tmp_path / 'notes.txt'} (ignored): 0"]
    doc = json.loads(run("inspect", "--format", "json", str(tmp_path)).stdout)
    by_file = {Path(f["source"]).name: f for f in doc["objects_by_file"]}
    assert by_file["10560.txt"]["objects"] == {"Pod": 2}
    # each file's kept objects add up to the dump's
    assert sum(sum(f["objects"].values()) for f in doc["objects_by_file"]) == doc["objects_total"]


# virtual-kubelet/virtual-kubelet#1250 (shared/realdata aks/virtual-kubelet-issue-1250, trimmed):
# a `kubectl describe node` the comment ends inside its Labels.
VK_1250 = """root@myJump:/home/fiona/virtualnode# kubectl describe node aks-newpool-20956280-vmss000000
Name:               aks-newpool-20956280-vmss000000
Roles:              <none>
Labels:             agentpool=newpool
                    beta.kubernetes.io/arch=amd64
                    kubernetes.azure.com/mode=user
                    kubernetes.azure.com/node-image-version=AKSUbuntu-2204gen2containerd-202409.30.0
"""


def test_a_describe_the_paste_ends_inside_is_kept_and_said_truncated_not_rejected(tmp_path: Path) -> None:
    # Before: "kept 1 + ... rejected 0 (and 1 inputs, files or passages of text not read)" and the
    # cut listed as rejected, beside the node it kept; `--strict` failed on it.
    path = tmp_path / "describe-node-excerpt.txt"
    path.write_text(VK_1250, encoding="utf-8")
    result = run("inspect", "--strict", str(path))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert "objects read 1 = kept 1 (1 truncated) + duplicates 0 + rejected 0" in lines
    at = lines.index("truncated, kept as far as the paste goes (1):")
    assert lines[at + 1].endswith("[line 7]: describe of Node 'aks-newpool-20956280-vmss000000' ends mid-section 'Labels'")
    assert not any(line.startswith("rejected") for line in lines)
    doc = json.loads(run("inspect", "--format", "json", str(path)).stdout)
    assert (doc["objects_total"], doc["rejected"], doc["rejected_inputs"]) == (1, [], 0)
    assert [t["location"] for t in doc["truncated"]] == ["line 7"]
    # a cut that loses an object is still a rejection: the same paste ending inside a table row
    cut_row = tmp_path / "cut-row.txt"
    cut_row.write_text("$ kubectl get nodes\nNAME                              STATUS   ROLES   AGE   VERSION\n"
                       "aks-newpool-20956280-vmss000000   Ready    agent   5d    v1.29.8\naks-newpo\n", encoding="utf-8")
    assert json.loads(run("inspect", "--format", "json", str(cut_row)).stdout)["truncated"] == []
