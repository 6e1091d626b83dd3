"""Transcripts (terminal sessions, markdown write-ups, tickets, CI logs): what each block gives.

analyzer.ingest.text.transcript splits the file into blocks, each with the command that produced it;
here a block is told how it is to be read (structured output, kubectl text, a log, a version,
or nothing at all with the reason), and its lines are laid back at their own line numbers so
that every object and rejection names the line of the file it came from.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

import orjson

from analyzer.ingest.headerdate import parse_stated_time
from analyzer.ingest.jsondocs import looks_like_json
from analyzer.ingest.yamldocs import looks_like_yaml

if TYPE_CHECKING:
    from analyzer.ingest.text.transcript import Block

# Fast look at the head of a file: a kubectl command (not `kubectl.kubernetes.io/` keys), a
# markdown fence, a CI step, k3s's debug line naming the kubectl it runs. Only a file with one
# of these is split into blocks.
_HINT = re.compile(
    rb"(?:^|[\s$#%>])(?:kubectl(?:\.exe)?|kubecolor|oc|kc|k) +(?:-{1,2}[\w-]+(?:[ =]\S+)? +)*[a-z][a-z-]+(?:[ \r\n]|$)"
    rb"|^\s*(?:```|~~~)|##\[group\]|^\s*DEBU\[\d+\] +Running \S*/kubectl \[kubectl ",
    re.M,
)
# (`[2021-04-25 13:02:15] + kubectl get pods` is a CI log's time, Jenkins' timestamper or a
# script's, not a JSON array: oracle/cloudtestdrive#128)
_JSON_START = re.compile(rb"\s*(?:\{|\[(?!\d{4}-\d\d-\d\d[T ]\d\d:\d\d|\d\d:\d\d:\d\d)\s*(?:[\[{\]\"0-9-]|$))")
_SERVER_VERSION = re.compile(
    r"Server Version:\s*(?:version\.Info\{.*?GitVersion:\"(v[^\"]+)\"|(v\d[^\s,]*))"
    r"|\"serverVersion\"\s*:\s*\{[^}]*?\"gitVersion\"\s*:\s*\"(v[^\"]+)\""
    r"|serverVersion:\s*\n(?:\s+.*\n)*?\s+gitVersion:\s*(v\S+)"
    # OpenShift 4's `oc version`: `Server Version: 4.6.1` is the platform's; this line is Kubernetes'
    r"|^\s*Kubernetes Version:\s*(v\d[^\s,]*)",
    re.S | re.M,
)
# Verbs whose output holds no object (what they print is a message, a prompt, a stream).
_NO_OBJECTS = {
    "apply": "prints what it changed", "create": "prints what it created", "delete": "prints what it deleted",
    "edit": "opens an editor", "patch": "prints what it patched", "label": "prints what it labelled",
    "annotate": "prints what it annotated", "scale": "prints what it scaled", "exec": "runs a command in a container", "rsh": "opens a shell in a container",
    "port-forward": "forwards a port", "proxy": "serves the API locally", "cp": "copies files",
    "run": "prints what it started", "expose": "prints what it exposed", "cordon": "prints a message",
    "uncordon": "prints a message", "drain": "prints what it evicted", "taint": "prints a message",
    "set": "prints what it changed", "explain": "prints API documentation", "api-resources": "lists resource types",
    "api-versions": "lists API versions", "auth can-i": "prints yes or no", "config": "prints kubeconfig settings",
    "wait": "prints conditions met", "debug": "starts a debug container", "attach": "attaches to a container",
    "rollout": "prints rollout messages", "autoscale": "prints what it created", "certificate": "prints a message",
    "plugin": "lists plugins", "completion": "prints a shell script", "diff": "prints a diff", "kustomize": "prints manifests",
    "replace": "prints what it replaced", "events": "is read as events",
    # oc's own verbs (OpenShift sessions)
    "login": "prints who logged in and the projects", "logout": "prints a message", "whoami": "prints the user",
    "new-app": "prints what it created", "new-build": "prints what it created", "start-build": "prints the build it started",
    "status": "prints a summary of the project",
}


@dataclass(frozen=True, slots=True)
class LogTarget:
    """Which container a `kubectl logs` command printed."""

    namespace: str
    pod: str
    container: str
    previous: bool


def may_be_transcript(data: bytes) -> bool:
    """A cheap look before the real one: never true for a JSON document, and a YAML dump only
    when it names a kubectl command line (not a `kubectl.kubernetes.io/` key)."""
    head = data[:65536]
    return _JSON_START.match(head) is None and _HINT.search(head) is not None


def placed(lines: list[tuple[int, str]], prefix: tuple[int, str] | None = None) -> str:
    """Text with each line at its own line number (other lines blank), so that a reader's
    line numbers are the file's."""
    rows = ([prefix] if prefix else []) + lines
    if not rows:
        return ""
    last = max(no for no, _ in rows)
    out = [""] * last
    for no, text in rows:
        out[no - 1] = text if not out[no - 1] else out[no - 1] + " " + text
    return "\n".join(out) + "\n"


# Helm's release head and the heading of its RESOURCES section (v2 and v3, `helm install`,
# `upgrade`, `status`): the tables under it are kubectl's, printed by Helm.
_HELM_HEAD = re.compile(r"^LAST DEPLOYED:\s+\S.*\n(?:[A-Z ]+:.*\n)*?NAMESPACE:\s+\S+\s*$", re.MULTILINE)
_HELM_RESOURCES = re.compile(r"^RESOURCES:\s*\n(?:\s*\n)*==> \S+/\S", re.MULTILINE)


def helm_release_resources(lines: list[tuple[int, str]]) -> bool:
    """Whether a Helm command's output is a release head stating its namespace with the live
    objects of the release listed under RESOURCES (their tables have no NAMESPACE column).

    >>> helm_release_resources(list(enumerate(["NAME: ui", "LAST DEPLOYED: Fri Jun 19 21:25:18 2026",
    ...     "NAMESPACE: default", "STATUS: deployed", "RESOURCES:", "==> v1/Service", "NAME  AGE"])))
    True
    >>> helm_release_resources(list(enumerate(["NAME: ui", "LAST DEPLOYED: Fri Jun 19 21:25:18 2026",
    ...     "NAMESPACE: default", "STATUS: deployed", "TEST SUITE: None"])))
    False
    """
    text = "\n".join(t for _, t in lines) + "\n"
    return _HELM_HEAD.search(text) is not None and _HELM_RESOURCES.search(text) is not None


# One label of a LABELS cell a paste broke one label a line (`key=value,`).
_LABEL_PIECE = re.compile(r"^\s*[A-Za-z0-9][\w./-]*=[\w./-]*,?\s*$")


def labels_rejoined(lines: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """The output of `get --show-labels` as kubectl printed it, when a paste broke each row's
    LABELS cell one label a line and indented the whole output (kubernetes-sigs/kind#3226): the
    label lines joined back onto their row, and the indent every line shares taken off. Output
    with no such label lines is returned as it is.

    >>> labels_rejoined([(3, ""), (4, "  kind-control-plane   Ready   10m   v1.27.1   "),
    ...                  (5, "  kubernetes.io/arch=amd64,"), (6, "  kubernetes.io/os=linux")])
    [(3, ''), (4, 'kind-control-plane   Ready   10m   v1.27.1   kubernetes.io/arch=amd64,kubernetes.io/os=linux')]
    """
    joined: list[tuple[int, str]] = []
    pieces = 0
    for no, text in lines:
        if joined and joined[-1][1].strip() and _LABEL_PIECE.match(text) \
                and (pieces or not _LABEL_PIECE.match(joined[-1][1])):
            row_no, row = joined[-1]
            glue = "" if row.rstrip().endswith(",") else "   " if not pieces else ","
            joined[-1] = (row_no, row.rstrip() + glue + text.strip())
            pieces += 1
            continue
        joined.append((no, text))
    if not pieces:
        return lines
    filled = [text for _, text in joined if text.strip()]
    indent = min(len(t) - len(t.lstrip()) for t in filled)
    return [(no, text[indent:] if text.strip() else text) for no, text in joined]


def server_version(text: str) -> str | None:
    """The server version `kubectl version` printed (plain, `--short`, old struct, -o json/yaml).

    >>> server_version("Client Version: v1.28.2\\nServer Version: v1.27.3+k3s1\\n")
    'v1.27.3+k3s1'
    >>> server_version('Server Version: version.Info{Major:"1", Minor:"9", GitVersion:"v1.9.1", GitCommit:"x"}')
    'v1.9.1'
    >>> server_version("Client Version: 4.6.1\\nServer Version: 4.6.1\\nKubernetes Version: v1.19.0+d59ce34\\n")
    'v1.19.0+d59ce34'
    """
    m = _SERVER_VERSION.search(text)
    if m is None:
        return None
    return next(g for g in m.groups() if g)


# kubeadm upgrade plan/apply: the API server's version it read from the cluster (`[upgrade/versions]
# Cluster version: v1.9.2`), and the one a successful apply left (`[upgrade/successful] SUCCESS!
# Your cluster was upgraded to "v1.14.3"`); quoted in an Ansible task's JSON, escaped
_KUBEADM_CLUSTER_VERSION = re.compile(r"\[upgrade/versions\] Cluster version: (v\d+\.\d+\.\d+[\w.+-]*)"
                                      r'|\[upgrade/successful\] SUCCESS! Your cluster was upgraded to \\?"(v\d+\.\d+\.\d+[\w.+-]*)')


def kubeadm_cluster_version(text: str) -> str | None:
    """The API server's version kubeadm's upgrade plan or apply last stated: a successful apply's
    new version over the version it read before.

    >>> kubeadm_cluster_version("[upgrade/versions] Cluster version: v1.9.2\\n[upgrade/versions] kubeadm version: v1.9.2")
    'v1.9.2'
    >>> kubeadm_cluster_version('[upgrade/versions] Cluster version: v1.13.3\\n'
    ...     '[upgrade/successful] SUCCESS! Your cluster was upgraded to "v1.14.3". Enjoy!')
    'v1.14.3'
    """
    if "[upgrade/" not in text:
        return None
    said = [m.group(1) or m.group(2) for m in _KUBEADM_CLUSTER_VERSION.finditer(text)]
    return said[-1] if said else None


# OpenShift 3's `oc version`: the client's lines, then (when it reached one) `Server <url>` and
# the server's `openshift v3.x` and `kubernetes v1.x+<commit>` (openshift/origin#20233's paste).
_OC3_CLIENT = re.compile(r"^[ \t]*oc v\d+\.\d+\S*[ \t]*$", re.M)
_OC3_SERVER = re.compile(r"^[ \t]*Server https?://\S+[ \t]*\n[ \t]*openshift v\S+[ \t]*\n[ \t]*kubernetes (v\d+\.\d+\S*)", re.M)


def oc3_version(text: str) -> tuple[bool, str | None]:
    """Whether OpenShift 3's `oc version` printed its client here, and the server's Kubernetes
    version when it printed the server's too.

    >>> oc3_version("oc v3.9.30\\nkubernetes v1.9.1+a0ce1bc657\\nfeatures: Basic-Auth GSSAPI Kerberos SPNEGO\\n")
    (True, None)
    >>> oc3_version("oc v3.11.0+0cbc58b\\nkubernetes v1.11.0+d4cacc0\\n\\nServer https://ocp:8443\\nopenshift v3.11.16\\nkubernetes v1.11.0+d4cacc0\\n")
    (True, 'v1.11.0+d4cacc0')
    >>> oc3_version("kubernetes v1.9.1 is old")
    (False, None)
    """
    if "oc v" not in text and "Server http" not in text:  # the cheap look first: most text has neither
        return False, None
    server = _OC3_SERVER.search(text) if "Server http" in text else None
    return "oc v" in text and _OC3_CLIENT.search(text) is not None, server.group(1) if server else None


_POD_WORDS = frozenset({"pod", "pods", "po"})
# What `kubectl logs TYPE/NAME` takes besides pods: it picks one of their pods.
_WORKLOAD_WORDS = frozenset({
    "deploy", "deployment", "deployments", "rs", "replicaset", "replicasets", "sts", "statefulset",
    "statefulsets", "ds", "daemonset", "daemonsets", "job", "jobs", "rc", "replicationcontroller",
    "replicationcontrollers", "svc", "service", "services", "cronjob", "cronjobs", "cj"})


def log_target(flags: dict[str, str], names: tuple[str, ...], resources: tuple[str, ...]) -> LogTarget | None:
    """Pod and container of `kubectl logs POD [CONTAINER] [-c C] [-n NS] [-p]`; None for a
    selector or a workload (`deploy/x`, `-l app=x`), whose pod the output does not name.

    >>> log_target({"--namespace": "kube-system"}, ("lb-tcp-80",), ("svclb-traefik-4ea49843-qhf9g",))
    LogTarget(namespace='kube-system', pod='svclb-traefik-4ea49843-qhf9g', container='lb-tcp-80', previous=False)
    >>> log_target({}, ("web",), ("deploy",)) is None, log_target({}, ("web-1",), ("pod",)).pod
    (True, 'web-1')
    """
    if "--selector" in flags or not (names or resources):
        return None
    if resources and names and resources[0].split(".")[0] in _POD_WORDS:
        pod = names[0]
        container = names[1] if len(names) > 1 else ""
    elif resources and names and resources[0].split(".")[0] in _WORKLOAD_WORDS:
        return None  # deploy/x, job/x: kubectl picks a pod the output does not name
    elif resources and names:
        # `kubectl logs POD CONTAINER`
        pod, container = resources[0], names[0]
    else:
        pod = resources[0]
        container = names[0] if names else ""
    container = flags.get("-c") or flags.get("--container") or container
    previous = "--previous" in flags or "-p" in flags
    return LogTarget(flags.get("--namespace", ""), pod, container, previous)


# The wrappers of kubectl that come with a distribution, and OpenShift's own client.
_CLI_TOOL = re.compile(r"^(?:sudo\s+(?:-\S+\s+)*)?(?:(microk8s|k3s|minikube)[ .]kubectl|(oc)(?:\.exe)?)(?=\s)")


def cli_tool(command_text: str) -> str | None:
    """The distribution's client a command line ran through, or None for plain kubectl.

    >>> cli_tool("microk8s.kubectl get po -A"), cli_tool("oc get pods -n openstack"), cli_tool("kubectl get no")
    ('microk8s kubectl', 'oc', None)
    """
    m = _CLI_TOOL.match(command_text.strip())
    if m is None:
        return None
    return f"{m[1]} kubectl" if m[1] else m[2]


# A distribution's own command line typed in a session (`minikube start`, `kind create cluster`,
# `k3d cluster create`, `k3s server`): the cluster the session talks to is of that distribution.
_DISTRIBUTION_CLI = re.compile(
    r"^(?:sudo\s+(?:-\S+\s+)*)?(?:(minikube)(?:\.exe)?\s+(?:start|status|ssh|addons|service|tunnel|node|logs|ip|dashboard|image|mount|version)"
    r"|(kind)\s+(?:create|get|load|delete|export|version)|(k3d)\s+(?:cluster|node|kubeconfig|image|registry|version)"
    r"|(k3s|rke2)\s+(?:server|agent|check-config|etcd-snapshot|certificate|crictl|ctr|-v|--version|-version)"
    # the managed clouds' own CLIs, for their Kubernetes service (credentials, node pools, upgrades)
    r"|(az\s+aks|aws\s+eks|eksctl|gcloud\s+container|oci\s+ce)(?:\.exe)?\s+\S+)(?=\s|$)")
# What `minikube start` prints of the Kubernetes it brings up.
_MINIKUBE_PREPARING = re.compile(r"Preparing Kubernetes (v\d+\.\d+\.\d+\S*) on ")


def distribution_cli(command_text: str) -> str | None:
    """The distribution whose own command line this is (not a kubectl), or None.

    >>> distribution_cli("minikube start --cpus 4"), distribution_cli("kind create cluster --config c.yaml")
    ('minikube', 'kind')
    >>> distribution_cli("sudo k3s check-config"), distribution_cli("rke2 -version"), distribution_cli("kind of")
    ('k3s', 'rke2', None)
    >>> distribution_cli("minikube kubectl -- get po") is None
    True
    >>> distribution_cli("az aks get-credentials -g rg -n prod"), distribution_cli("aws  eks update-kubeconfig --name c")
    ('az aks', 'aws eks')
    >>> distribution_cli("gcloud container clusters get-credentials c"), distribution_cli("oci ce cluster create-kubeconfig")
    ('gcloud container', 'oci ce')
    """
    m = _DISTRIBUTION_CLI.match(command_text.strip())
    return next((" ".join(g.split()) for g in m.groups() if g), None) if m else None


def minikube_kubernetes_version(output: str) -> str | None:
    """The Kubernetes version `minikube start` says it prepares.

    >>> minikube_kubernetes_version("🐳  Preparing Kubernetes v1.18.3 on Docker 19.03.8 ...")
    'v1.18.3'
    """
    m = _MINIKUBE_PREPARING.search(output)
    return m.group(1) if m else None


def dry_run_reason(flags: dict[str, str], output: str | None) -> str | None:
    """Why what a `--dry-run` command printed as YAML or JSON is no object of the cluster, or None
    when the command is no such dry run.

    >>> dry_run_reason({"--dry-run": "client", "--output": "yaml"}, "yaml")
    'kubectl --dry-run=client printed the manifest it would send, not an object of the cluster (nothing was created or changed)'
    >>> dry_run_reason({"--dry-run": "client"}, None) is None
    True
    """
    if "--dry-run" not in flags or (output or "").split("=", 1)[0] not in ("yaml", "json"):
        return None
    # (--dry-run=server returns the object as the server would make it, uid and status too:
    # it looks served, yet none was stored)
    mode = flags["--dry-run"]
    return (f"kubectl --dry-run{'' if mode == 'true' else '=' + mode} printed the manifest it would send, "
            "not an object of the cluster (nothing was created or changed)")


def no_objects_reason(verb: str) -> str | None:
    """Why the output of a kubectl verb holds no objects, or None when it may hold some."""
    reason = _NO_OBJECTS.get(verb) or _NO_OBJECTS.get(verb.split()[0])
    if verb == "events" or reason is None:
        return None
    return f"kubectl {verb} {reason}, no objects"


# Verbs that print one message a changed object (`deployment.apps/web image updated`, `pod "x"
# deleted`), a warning or an error, nothing else: a table or a describe under one of them is the
# output of a command the writer left out of the paste (a describe's Events after `set image`).
_CHANGE_MESSAGES_ONLY = frozenset({"apply", "create", "delete", "patch", "label", "annotate", "scale", "set",
                                   "replace", "expose", "autoscale", "cordon", "uncordon", "taint"})
_CHANGE_MESSAGE = re.compile(r'^\s*(?:[a-z][\w.-]*/[\w.:-]+ \S|[a-z][\w.-]* "[^"]+" \S|(?:Warning|error|Error|W\d{4}|E\d{4})\b)')


def output_of_a_left_out_command(verb: str, lines: list[tuple[int, str]]) -> int | None:
    """Where, in the output shown under a verb that prints only change messages, kubectl output
    of another command begins (a table, a describe or its Events section), its first line's index;
    None when the output is that verb's own.

    >>> output_of_a_left_out_command("set", [(7, "Events:"), (8, "  Type    Reason   Age   From     Message"),
    ...                                      (9, "  ----    ------   ----  ----     -------"),
    ...                                      (10, "  Normal  Pulling  30s   kubelet  Pulling image")])
    0
    >>> output_of_a_left_out_command("set", [(7, "deployment.apps/web image updated")]) is None
    True
    """
    from analyzer.ingest.text import looks_like_kubectl_text

    if verb.split()[0] not in _CHANGE_MESSAGES_ONLY:
        return None
    for index, (_, text) in enumerate(lines):
        if not text.strip() or _CHANGE_MESSAGE.match(text):
            continue
        tail = "\n".join(t for _, t in lines[index:])
        return index if looks_like_kubectl_text(tail) else None
    return None


# What a structured log line holds (zap, logrus, klog's JSON): a level, a message, a time.
_LOG_LEVEL_KEYS = frozenset({"level", "lvl", "severity"})
_LOG_MESSAGE_KEYS = frozenset({"msg", "message"})
_OBJECT_KEYS = frozenset({"apiVersion", "kind", "metadata", "items"})


def json_log_lines(text: str) -> bool:
    """Whether text is lines of a JSON-structured log (`{"level":"error","ts":...,"msg":...}`, as
    aws-node's ipamd writes), one object a line: log lines, not Kubernetes objects.

    >>> json_log_lines('{"level":"info","ts":"2021-03-02T19:55:24Z","msg":"ok"}'), json_log_lines('{"kind":"Pod"}')
    (True, False)
    """
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        return False
    for line in lines:
        try:
            item = orjson.loads(line)
        except orjson.JSONDecodeError:
            return False
        if not isinstance(item, dict) or not (item.keys() & _LOG_LEVEL_KEYS and item.keys() & _LOG_MESSAGE_KEYS) \
                or item.keys() & _OBJECT_KEYS:
            return False
    return True


def structured(text: str) -> str | None:
    """"json" or "yaml" when text without a command is a JSON document or YAML objects."""
    if looks_like_json(text.encode("utf-8")):
        return "json"
    if looks_like_yaml(text):
        return "yaml"
    return None


# An inline-code span that ends a line of prose (`` `kubectl get po -n x` ``, "Run `...`."), or
# the last one on a line that ends in a colon ("`kubectl get po` shows:").
_INLINE_CODE_END = re.compile(r"`([^`\n]+)`\s*[:.]?\s*$")
_INLINE_CODE = re.compile(r"`([^`\n]+)`")
# Verbs whose output may well be YAML/JSON without an -o flag saying so.
_STRUCTURED_VERBS = frozenset({"logs", "cluster-info"})
# Verbs that print a kubectl table or describe output.
_TEXT_VERBS = frozenset({"get", "describe", "top"})


def linked_blocks(blocks: list[Block]) -> list[Block]:
    """Blocks with each output code block joined to the command that printed it.

    Markdown write-ups put a command in its own fence (or in inline code on the line before) and
    its output in the next fence (or quote it, `> ` before each line). A fenced or quoted block
    without a command that follows a kubectl command with no output of its own, with nothing but
    prose between them, is that command's output: it is read with the command's namespace,
    resource and output flags, as if they shared a block.
    A command whose output really is missing keeps "no output shown"; a fence holding YAML or
    JSON after a command that prints a table (a manifest shown after `kubectl apply`) is not
    taken as its output.
    """
    from analyzer.ingest.text.transcript import Block

    out: list[Block] = []
    pending: Block | None = None  # a kubectl command without output, waiting for it
    pending_prose: Block | None = None  # the prose block an inline-code command came from

    def flush() -> None:
        nonlocal pending, pending_prose
        if pending is not None and pending_prose is None:
            out.append(pending)
        pending = pending_prose = None

    for block in blocks:
        if block.kind == "text" and not block.fenced and not block.quoted:
            inline = _inline_command(block)
            out.append(block)
            if inline is not None:
                flush()
                pending, pending_prose = inline, block
            continue
        if block.kind == "text" and pending is not None and pending.command is not None \
                and _fits(pending, block):
            merged = Block("kubectl", pending.lines + block.lines, command_text=pending.command_text,
                           command=pending.command, fenced=True, indent=pending.indent,
                           notes=[*pending.notes, *block.notes])
            if pending_prose is not None:
                # the command's line is the command's, the rest of the paragraph stays prose
                pending_prose.lines = [ln for ln in pending_prose.lines if ln.no != pending.first]
                if not any(ln.text.strip() for ln in pending_prose.lines):
                    out.remove(pending_prose)
            out.append(merged)
            pending = pending_prose = None
            continue
        flush()
        if block.kind == "kubectl" and block.command is not None and not block.command.redirected \
                and not any(ln.text.strip() for ln in block.output()):
            pending = block
            continue
        out.append(block)
    flush()
    return out


def _inline_command(block: Block) -> Block | None:
    """The kubectl command in inline code that ends a paragraph, as a block of its own line."""
    from analyzer.ingest.text.commands import parse_command
    from analyzer.ingest.text.transcript import (
        Block,
        TranscriptLine,
        command_of_line,
        normalise_command,
    )

    last = next((ln for ln in reversed(block.lines) if ln.text.strip()), None)
    m = _INLINE_CODE_END.search(last.text) if last is not None else None
    if m is None and last is not None and last.text.rstrip().endswith(":"):
        m = next(reversed(list(_INLINE_CODE.finditer(last.text))), None)
    found = command_of_line(m.group(1)) if m is not None else None
    if found is None or found[0] != "kubectl":
        return None
    command = parse_command(normalise_command(found[1]))
    if command is None:
        return None
    return Block("kubectl", [TranscriptLine(last.no, found[1])], command_text=found[1], command=command)


def _fits(command_block: Block, output: Block) -> bool:
    """Whether a code block may be the output of the command before it: not YAML or JSON after
    a command that prints text (a manifest shown after `kubectl apply` is its input)."""
    from analyzer.ingest.text import looks_like_kubectl_text
    from analyzer.ingest.text.transcript import normalise_command

    command = command_block.command
    body = "\n".join(ln.text for ln in output.lines)
    if not body.strip():
        return False
    output_format = (command.output or "").split("=", 1)[0]
    if output_format in ("json", "yaml") or command.verb in _STRUCTURED_VERBS:
        return True
    if structured(body) is not None:
        return False
    if command.verb in _TEXT_VERBS and output_format in ("", "wide"):
        # a table or describe: only a block that reads as one (not a log pasted after `get pods`),
        # or the condition rows alone of the one object a describe names (kubernetes/kubernetes
        # #107899: "`kubectl describe node 10.0.10.132` shows:" above a fence of its MemoryPressure row)
        from analyzer.ingest.text.fragments import fragment_of_named
        return looks_like_kubectl_text(f"$ {normalise_command(command_block.command_text or '')}\n{body}\n") \
            or fragment_of_named(command, body) is not None
    return True


def printed_time(block: Block) -> tuple[str, str] | None:
    """The time `date` printed in a session, as UTC RFC 3339, with what printed it: only a time
    whose zone `date` printed and is known (as for a write-up's header, ingest.headerdate)."""
    command = (block.command_text or "").strip()
    if block.kind != "command" or command.split()[:1] != ["date"]:
        return None
    said = next((ln.text.strip() for ln in block.output() if ln.text.strip()), "")
    when = parse_stated_time(said)
    return (when.strftime("%Y-%m-%dT%H:%M:%SZ"), f"the output of `{command}`") if when is not None else None
