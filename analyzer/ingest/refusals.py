"""The API server's refusals a paste quotes: an admission webhook it could not call, a kubelet
it could not reach, an eviction a PodDisruptionBudget forbade, an aggregated API that did not
answer discovery, a kind at an apiVersion it does not serve; a serving certificate kubectl would
not trust; and a DNS lookup in a pod that no server answered.

`kubectl apply` (helm, terraform) prints the API server's own words when a webhook it must call
fails: `Internal error occurred: failed calling webhook "vingress.elbv2.k8s.aws": Post
"https://aws-load-balancer-webhook-service.kube-system.svc:443/...": no endpoints available for
service "aws-load-balancer-webhook-service"`. No object carries that (the request was refused),
yet it is the cluster's state as the paste saw it: every request the webhook intercepts fails.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_FAILED_CALL = re.compile(
    r'failed calling (?:admission )?webhook \\?"(?P<hook>[^"\\]+)\\?":\s*(?:failed to call webhook:\s*)?'
    r'(?:(?:Post|Get|Patch)\s+(?:\\?"(?:\[)?(?P<url>https?://[^"\\\s\]]+)[^"]*\\?"(?:\)\\?")?:\s*'
    # (before 1.19 the API server quoted no URL: `Post https://x.ns.svc:443/path?timeout=30s: ...`)
    r'|(?P<bare>https?://\S+?):\s+))?(?P<why>[^\n]*)')
# The API server's log when a webhook whose failurePolicy is Ignore fails: it admits the request
# without it (`W... dispatcher.go:168] Failed calling webhook, failing open NAME: failed calling
# webhook "NAME": ...`, then the same error logged again as `E... dispatcher.go:169]`).
_FAILING = re.compile(r"Failed calling webhook, failing (?P<policy>open|closed) (?P<hook>\S+?):")
# The webhook's Service as its URL names it: https://NAME.NAMESPACE.svc[:port]/path
_SERVICE_HOST = re.compile(r"^https?://(?P<name>[a-z0-9]([a-z0-9-]*[a-z0-9])?)\.(?P<namespace>[a-z0-9]([a-z0-9-]*[a-z0-9])?)\.svc\b")
_MAX_WHY = 300


def _line_of(text: str, match: re.Match[str]) -> int:
    """The line of `text` (from 1) where a match starts."""
    return text.count("\n", 0, match.start()) + 1


@dataclass(frozen=True, slots=True)
class WebhookFailure:
    """One quoted failure to call an admission webhook: where it was read, the webhook, its
    Service (when the URL names one) and the API server's reason."""

    source: str
    line: int
    webhook: str
    namespace: str
    service: str
    reason: str
    # "open" when the API server's log says it admitted the request without the webhook
    # (failurePolicy Ignore), "closed" when it says it refused it; "" when the quote does not say
    # (kubectl's refusal is a webhook failing closed)
    failing: str = ""


def webhook_failures(text: str, source: str) -> list[WebhookFailure]:
    """Every quoted failure to call an admission webhook in a text, in file order.

    >>> (f,) = webhook_failures('Error from server (InternalError): error when creating "ingress.yml": '
    ...     'Internal error occurred: failed calling webhook "vingress.elbv2.k8s.aws": Post '
    ...     '"https://aws-load-balancer-webhook-service.kube-system.svc:443/validate?timeout=10s": '
    ...     'no endpoints available for service "aws-load-balancer-webhook-service"', "issue.md")
    >>> f.webhook, f.namespace, f.service, f.reason
    ('vingress.elbv2.k8s.aws', 'kube-system', 'aws-load-balancer-webhook-service', 'no endpoints available for service "aws-load-balancer-webhook-service"')
    >>> [(f.line, f.service, f.reason, f.failing) for f in webhook_failures(
    ...     'W0719 17:46:09.471959 1 dispatcher.go:168] Failed calling webhook, failing open hook.default.svc: failed '
    ...     'calling webhook "hook.default.svc": Post https://hook.default.svc:443/mutate?timeout=30s: context deadline '
    ...     'exceeded\\nE0719 17:46:09.471986 1 dispatcher.go:169] failed calling webhook "hook.default.svc": Post '
    ...     'https://hook.default.svc:443/mutate?timeout=30s: context deadline exceeded', "log")]
    [(1, 'hook', 'context deadline exceeded', 'open'), (2, 'hook', 'context deadline exceeded', 'open')]
    """
    if "failed calling webhook" not in text and "failed calling admission webhook" not in text:
        return []
    found: list[WebhookFailure] = []
    for match in _FAILED_CALL.finditer(text):
        url = match.group("url") or match.group("bare") or ""
        service = _SERVICE_HOST.match(url)
        # (a container runtime's JSON log line goes on after the message: `\\n","stream":...`)
        reason = match.group("why").split("\\n", 1)[0].strip().replace('\\"', '"')[:_MAX_WHY]
        line = _line_of(text, match)
        start = text.rfind("\n", 0, match.start()) + 1
        said = _FAILING.search(text, start, match.start())
        failing = said.group("policy") if said and said.group("hook") == match.group("hook") else ""
        if not failing and found and found[-1].line == line - 1 and found[-1].webhook == match.group("hook") \
                and found[-1].failing and "failed calling webhook" in text[start:match.start() + 40] \
                and "dispatcher.go" in text[start:match.start()]:
            failing = found[-1].failing  # the same failure, logged again by the dispatcher
        found.append(WebhookFailure(source, line, match.group("hook"),
                                    service.group("namespace") if service else "",
                                    service.group("name") if service else "", reason, failing))
    return found


# kubectl's word for the API server's answer when it could not reach a kubelet (logs, exec,
# attach, port-forward go through the API server to the node's port 10250; on AKS, GKE and OKE
# through the provider's tunnel): `Error from server: Get https://10.0.10.10:10250/containerLogs/
# kube-system/kube-flannel-ds-h9cm9/kube-flannel: EOF`, `Error from server: error dialing backend:
# dial tcp 10.240.0.4:10250: i/o timeout`, `... error dialing backend: No agent available`.
_KUBELET_CALL = re.compile(
    # kubectl's error line (`error: error upgrading connection: ...` for exec and port-forward,
    # helm's `Error: forwarding ports: ...`), or kubectl's words quoted in a sentence ("Receiving
    # this error: “Error from server: ...”"), then what it wraps, up to the failed call: to the
    # kubelet's port, or (its host and port put out of the paste) to one of the kubelet's paths
    r"(?:^[ \t>]*|[“\"'`])(?:Error from server(?: \([A-Za-z]+\))?:|error:|Error:)[^\n]*?"
    r"(?:(?:Get|Post)\s+\"?https?://(?P<host>\[[0-9a-fA-F:]+\]|<[^>\n]*>|[^:/\"\s<]+)"
    r"(?::10250/(?P<path>[^\"\s]*)|/(?P<kubelet_path>(?:containerLogs|exec|attach|portForward|run)/[^\"\s]*))"
    r"\"?:\s*(?P<why>[^\n]*)"
    r"|error dialing backend:\s*(?P<backend>[^\n]*))", re.MULTILINE)
# The node in what the API server's dial says: its address, or the name it could not look up
# (`dial tcp: lookup aks-agentpool-1 on 10.0.0.10:53: server misbehaving`).
_DIALED = re.compile(r"dial tcp (?P<host>\[[0-9a-fA-F:]+\]|[0-9.]+|[^:\s]+):10250"
                     r"|dial tcp: lookup (?P<lookup><[^>\n]*>|[^\s<]+) on ")
# An address the paste put out of sight: `10.xxx.xxx.xxx`, `***`, `<node name>`.
_MASKED = re.compile(r"^<[^>]*>$|(?:^|[.:])(?:x+|X+|\*+)(?:[.:]|$)")


def masked_address(host: str) -> bool:
    """Whether a node's address or name, as a paste shows it, was masked.

    >>> masked_address("10.xxx.xxx.xxx"), masked_address("<agent name and port>"), masked_address("10.1.0.4")
    (True, True, False)
    """
    return bool(_MASKED.search(host))
_LOGS_PATH = re.compile(r"^containerLogs/(?P<namespace>[^/]+)/(?P<pod>[^/?]+)")


@dataclass(frozen=True, slots=True)
class KubeletUnreachable:
    """One quoted answer of the API server that it could not reach a kubelet: where it was read,
    the node's address (when the error names it), the pod asked about (a logs request names it)
    and the reason (`EOF`, `dial tcp ...: i/o timeout`, `No agent available`)."""

    source: str
    line: int
    host: str
    namespace: str
    pod: str
    reason: str


def kubelet_unreachable(text: str, source: str) -> list[KubeletUnreachable]:
    """Every quoted failure of the API server to reach a kubelet in a text, in file order. Only
    kubectl's (or helm's) own error lines: a pod's log that says it could not scrape a kubelet
    (metrics-server) is that pod's view, not the API server's.

    >>> (f,) = kubelet_unreachable('Error from server: Get https://10.0.10.10:10250/containerLogs/'
    ...     'kube-system/kube-flannel-ds-h9cm9/kube-flannel: EOF', "blog.txt")
    >>> f.host, f.namespace, f.pod, f.reason
    ('10.0.10.10', 'kube-system', 'kube-flannel-ds-h9cm9', 'EOF')
    >>> (f,) = kubelet_unreachable('Error from server: error dialing backend: dial tcp 10.240.0.4:10250: i/o timeout', "t")
    >>> f.host, f.reason
    ('10.240.0.4', 'dial tcp 10.240.0.4:10250: i/o timeout')
    >>> (f,) = kubelet_unreachable('error: error upgrading connection: error dialing backend: dial tcp '
    ...     '10.240.0.6:10250: getsockopt: connection timed out', "t")
    >>> f.host, f.reason
    ('10.240.0.6', 'dial tcp 10.240.0.6:10250: getsockopt: connection timed out')
    """
    if ":10250" not in text and "dialing backend" not in text and "/containerLogs/" not in text:
        return []
    found = []
    for match in _KUBELET_CALL.finditer(text):
        path = match.group("path") if match.group("path") is not None else match.group("kubelet_path")
        reason = (match.group("why") if path is not None else match.group("backend")) or ""
        reason = reason.strip().strip('"”\'`')[:_MAX_WHY]
        host = match.group("host") or ""
        if not host and (dialed := _DIALED.search(reason)) is not None:
            host = dialed.group("host") or dialed.group("lookup")
        pod = _LOGS_PATH.match(path or "")
        found.append(KubeletUnreachable(source, _line_of(text, match), host,
                                        pod.group("namespace") if pod else "", pod.group("pod") if pod else "",
                                        reason))
    return found


# client-go discovery's words (kubectl, helm) when a group the API server advertises fails to
# list its resources: only an aggregated API (an APIService backed by a Service, like
# metrics-server's v1beta1.metrics.k8s.io) can, the API server serves its own groups itself.
# `error: unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: the server
# is currently unable to handle the request` (the failed groups sorted, joined by ", "), and since
# kubectl 1.26 a klog line per lookup: `E0201 17:31:08.811083 1454925 memcache.go:255] couldn't get
# resource list for metrics.k8s.io/v1beta1: the server is currently unable to handle the request`.
_INCOMPLETE_DISCOVERY = re.compile(r"unable to retrieve the complete list of server APIs:[ \t]*(?P<groups>[^\n]*)")
_NO_RESOURCE_LIST = re.compile(r"couldn't get resource list for (?P<gv>[a-z0-9][a-z0-9.-]*/v[0-9][a-z0-9]*):[ \t]*(?P<why>[^\n]*)")
_GROUP_VERSION = r"[a-z0-9][a-z0-9-]*(?:\.[a-z0-9][a-z0-9-]*)+/v[0-9][a-z0-9]*"
_FAILED_GROUP = re.compile(rf"(?P<gv>{_GROUP_VERSION}):\s*(?P<why>.*?)(?=,\s*{_GROUP_VERSION}:\s|$)")


@dataclass(frozen=True, slots=True)
class DiscoveryFailure:
    """One quoted failure of an aggregated API's group to list its resources: where it was read,
    the group, its version and the API server's answer."""

    source: str
    line: int
    group: str
    version: str
    reason: str

    @property
    def apiservice(self) -> str:
        """The APIService that serves the group: VERSION.GROUP."""
        return f"{self.version}.{self.group}"


def discovery_failures(text: str, source: str) -> list[DiscoveryFailure]:
    """Every quoted failure of an aggregated API to answer discovery in a text, in file order.

    >>> (f,) = discovery_failures('error: unable to retrieve the complete list of server APIs: '
    ...     'metrics.k8s.io/v1beta1: the server is currently unable to handle the request', "issue.md")
    >>> f.apiservice, f.reason
    ('v1beta1.metrics.k8s.io', 'the server is currently unable to handle the request')
    >>> [f.apiservice for f in discovery_failures('E0201 17:31:08.811083 1454925 memcache.go:255] '
    ...     "couldn't get resource list for custom.metrics.k8s.io/v1beta2: Unauthorized", "t")]
    ['v1beta2.custom.metrics.k8s.io']
    """
    if "server APIs" not in text and "resource list for" not in text:
        return []
    found = []
    for match in _INCOMPLETE_DISCOVERY.finditer(text):
        line = _line_of(text, match)
        for group in _FAILED_GROUP.finditer(match.group("groups").rstrip()):
            found.append(_discovery_failure(source, line, group.group("gv"), group.group("why")))
    for match in _NO_RESOURCE_LIST.finditer(text):
        found.append(_discovery_failure(source, _line_of(text, match), match.group("gv"),
                                        match.group("why")))
    return sorted(found, key=lambda f: f.line)


def _discovery_failure(source: str, line: int, group_version: str, why: str) -> DiscoveryFailure:
    group, version = group_version.rsplit("/", 1)
    return DiscoveryFailure(source, line, group, version, why.strip()[:_MAX_WHY])


# kubectl drain's words when the Eviction API refuses a pod its PodDisruptionBudget protects
# (kubectl/pkg/drain): `error when evicting pods/"NAME" -n "NS" (will retry after 5s): Cannot
# evict pod as it would violate the pod's disruption budget.`; before 1.21 `error when evicting
# pod "NAME" (...)`, no namespace; since 1.26 the budget is named after it.
_EVICTION_REFUSED = re.compile(
    r'error when evicting pods?/?\s*\\?"(?P<pod>[a-z0-9][a-z0-9.-]*)\\?"(?:\s+-n\s+\\?"(?P<ns>[a-z0-9][a-z0-9-]*)\\?")?'
    r"\s*\(will retry after \w+\):\s*(?P<why>Cannot evict pod as it would violate the pod.s disruption budget\.?)"
    r"(?:\s*The disruption budget (?P<budget>[a-z0-9][a-z0-9.-]*) needs \d+ healthy pods? and has \d+ currently)?")
# `evicting pod NS/NAME`: the namespace an older refusal line leaves out
_EVICTING = re.compile(r"evicting pod (?P<ns>[a-z0-9][a-z0-9-]*)/(?P<pod>[a-z0-9][a-z0-9.-]*)")
# AKS's own words when the drain of its node-pool upgrade (or node image upgrade, maintenance)
# meets a budget, the operation's error (UpgradeFailed): `Drain node NODE failed when evicting pod
# POD failed with Too Many Requests error. ... Original error: Cannot evict pod as it would violate
# the pod's disruption budget.. PDB debug info: NS/POD blocked by pdb NAME (MinAvailable: 1) ...`;
# in 2023 `Drain of NODE did not complete: Too many req pod POD on node NODE: NS/POD blocked by
# pdb NAME with unready pods [...]`.
_NAME = r"[a-z0-9][a-z0-9.-]*[a-z0-9]"
_AKS_BLOCKED_BY = (rf"(?:\s*PDB debug info:)?\s*(?:(?P<ns>[a-z0-9][a-z0-9-]*)/)?{_NAME}\s+blocked by pdb"
                   rf"\s+(?P<budget>{_NAME})")
_AKS_DRAIN_FAILED = re.compile(
    rf"Drain node (?P<node>{_NAME}) failed when evicting pod (?P<pod>{_NAME}) failed with Too Many Requests error\."
    r"[^\n]{0,400}?Original error:\s*(?P<why>Cannot evict pod as it would violate the pod.s disruption budget)\.*"
    rf"(?:{_AKS_BLOCKED_BY})?")
_AKS_TOO_MANY = re.compile(
    rf"Too many req pod (?P<pod>{_NAME}) on node (?P<node>{_NAME}):{_AKS_BLOCKED_BY}")
# eksctl's drain of a nodegroup (delete, upgrade): the refusal and the node, not the pod
# (pkg/drain: `pod eviction error (%q) on node %s`; 0.7's `... on node N – will retry after delay
# of 5s`; eksctl#1244's `pod eviction error: "...", on node: N (retry in 5 sec, 1/60)`)
_EKSCTL_REFUSED = re.compile(
    r'pod eviction error:?\s*\(?\\?"(?P<why>Cannot evict pod as it would violate the pod.s disruption budget)\.?\\?"\)?,?'
    rf"\s+on node:?\s+(?P<node>{_NAME})")
# eksctl's drain since it retries evictions until its timeout (pkg/drain/nodegroup.go), once a minute
# while pods it must evict are still on the node: `N pods are unevictable from node NODE`, naming
# neither the pods nor why (an eviction refused with 429, a disruption budget's most often, which it
# retries; or a pod still terminating) (elastic/cloud-on-k8s#7481)
_EKSCTL_UNEVICTABLE = re.compile(rf"\b(?P<count>\d+) pods? (?:are|is) unevictable from node (?P<node>{_NAME})")

# EKS's managed node group update (a version or launch template update) whose drain of an old node
# gave up (15 minutes of evictions refused): `PodEvictionFailure` with `Reached max retries while
# trying to evict pods from nodes in node group NG`, the nodes it could not drain as its resource
# ids, the pods unnamed. Quoted by `aws eks describe-update` (`"errorCode"`, `"errorMessage"`,
# `"resourceIds": [...]`, the update's `"createdAt"` above), CloudFormation (`{ErrorCode: ...,
# ErrorMessage: ..., ResourceIds: [N]}`), Terraform (`N: PodEvictionFailure: Reached ...`) or the
# console's update history (the code, a tab, the message).
_EKS_GAVE_UP = re.compile(r"Reached max retries\s+while trying to evict pods from nodes in node group"
                          r"(?:[ \t]+(?P<group>[A-Za-z0-9][\w.-]*[A-Za-z0-9]))?")
_EKS_IDS_BEFORE = re.compile(r"(?P<ids>[\w.-]+(?:,\s*[\w.-]+)*):\s*PodEvictionFailure\W*$")
_EKS_IDS_AFTER = re.compile(r'[^\n{}]*?(?:\n[^\n{}]*?){0,2}resourceIds\W*\[(?P<ids>[^\]]*)\]', re.I)
_EKS_CREATED = re.compile(r'"createdAt"\s*:\s*"(?P<at>[0-9T:.+-]+Z?)"')
_EKS_UPDATE = re.compile(r'"update"\s*:\s*\{')
_NODE_NAME = re.compile(rf"{_NAME}\Z")


# What names the node a drain works on: its `node/NAME cordoned` line (1.17+; `node "NAME"
# cordoned` before), else the drain command itself; the next command line ends the drain's output
_CORDONED = re.compile(r'^\s*node(?:/(?P<name>[a-z0-9][a-z0-9.-]*)|\s+"(?P<quoted>[a-z0-9][a-z0-9.-]*)")'
                       r"\s+(?:already\s+)?cordoned\b", re.M)
_DRAIN = re.compile(r"^[^\n]*?\bkubectl\s+drain\s+(?P<args>[^\n]*)", re.M)
_COMMAND_LINE = re.compile(r"^\s*(?:[$#%]\s|kubectl\s|[\w.@-]+[:~][^\n]*?[$#]\s)", re.M)
# kubectl drain's flags whose value may be the next word
_DRAIN_VALUED_FLAGS = frozenset({"--pod-selector", "--selector", "-l", "--timeout", "--grace-period",
                                 "--skip-wait-for-delete-timeout", "--chunk-size", "--context", "--kubeconfig",
                                 "-n", "--namespace", "--dry-run"})


@dataclass(frozen=True, slots=True)
class EvictionRefusal:
    """One quoted refusal to evict a pod for its disruption budget: where it was read, the pod,
    its namespace ("" when the paste does not say), the budget when kubectl named it, the node
    the drain it came from works on ("" when the paste does not say one)."""

    source: str
    line: int
    pod: str
    namespace: str
    budget: str
    reason: str
    node: str = ""
    # who drained: kubectl (or a tool running it), else the provider whose operation quoted it
    drainer: str = "kubectl drain"
    # the provider's node group (pool) whose update drained the node, when its words name it
    group: str = ""
    # when the operation that drained began, as the paste gives it (RFC 3339), else ""
    began: str = ""
    # how many pods the drain says are still on the node where it names neither them nor why
    # (eksctl's `N pods are unevictable from node NODE`), else 0
    pods_left: int = 0


def _drained_node(text: str, at: int) -> str:
    """The one node the drain whose output holds offset `at` works on: the node the
    `node/NAME cordoned` lines since the last command line name, else that command's one node
    when it is `kubectl drain`; "" when the paste says no node or several."""
    commands = list(_COMMAND_LINE.finditer(text, 0, at))
    start = text.find("\n", commands[-1].start()) + 1 if commands else 0
    cordoned = {m.group("name") or m.group("quoted") for m in _CORDONED.finditer(text, start, at)}
    if cordoned:
        return cordoned.pop() if len(cordoned) == 1 else ""
    drain = _DRAIN.match(text, commands[-1].start()) if commands else None
    if drain is None:
        return ""
    words, nodes = drain.group("args").split(), []
    for i, word in enumerate(words):
        if word.startswith(("|", ">", "&", ";")):
            break
        if not word.startswith("-") and not (i and words[i - 1] in _DRAIN_VALUED_FLAGS):
            nodes.append(word)
    return nodes[0] if len(nodes) == 1 else ""


def eviction_refusals(text: str, source: str) -> list[EvictionRefusal]:
    """Every quoted refusal to evict a pod for its PodDisruptionBudget, in file order (the pod ""
    where the drain's words name only its node: eksctl's).

    >>> (r,) = eviction_refusals('evicting pod istio-system/istiod-bc4584967-9l5j7\\n'
    ...     'error when evicting pods/"istiod-bc4584967-9l5j7" -n "istio-system" (will retry after 5s): '
    ...     "Cannot evict pod as it would violate the pod's disruption budget.", "issue.md")
    >>> r.pod, r.namespace, r.line, r.budget
    ('istiod-bc4584967-9l5j7', 'istio-system', 2, '')
    >>> [(r.pod, r.node, r.drainer) for r in eviction_refusals('[!]  pod eviction error ("Cannot evict pod as '
    ...     "it would violate the pod's disruption budget.\\") on node ip-10-0-1-5.ec2.internal", "t")]
    [('', 'ip-10-0-1-5.ec2.internal', 'eksctl')]
    >>> [(r.node, r.pods_left) for r in eviction_refusals("2024-01-17 14:40:51 [!]  1 pods are unevictable from "
    ...     "node ip-192-168-49-63.eu-west-1.compute.internal", "t")]
    [('ip-192-168-49-63.eu-west-1.compute.internal', 1)]
    """
    found = _eks_gave_up(text, source) if "Reached max retries" in text else []
    if "unevictable from node" in text:
        found.extend(EvictionRefusal(source, _line_of(text, m), "", "", "", m.group(0), m.group("node"), "eksctl",
                                     pods_left=int(m.group("count"))) for m in _EKSCTL_UNEVICTABLE.finditer(text))
    if "disruption budget" not in text and "blocked by pdb" not in text:
        return sorted(found, key=lambda r: r.line)
    namespaces = {m.group("pod"): m.group("ns") for m in _EVICTING.finditer(text)}
    found.extend(EvictionRefusal(source, _line_of(text, m), m.group("pod"),
                                 m.group("ns") or namespaces.get(m.group("pod"), ""), m.group("budget") or "",
                                 m.group("why").rstrip("."), _drained_node(text, m.start()))
                 for m in _EVICTION_REFUSED.finditer(text))
    if "Drain node" in text or "Too many req pod" in text:
        found.extend(_aks_refusals(text, source))
    found.extend(EvictionRefusal(source, _line_of(text, m), "", "", "", m.group("why"), m.group("node"), "eksctl")
                 for m in _EKSCTL_REFUSED.finditer(text))
    return sorted(found, key=lambda r: r.line)


def _aks_refusals(text: str, source: str) -> list[EvictionRefusal]:
    """The refusals AKS's failed drain quotes, each naming its node and pod (and, when its debug
    info says, the pod's namespace and budget).

    >>> (r,) = _aks_refusals("Error: Drain of aks-infra-1-vmss00000y did not complete:\\n\\nToo many req pod "
    ...     "wi-749b9d5cc8-2chl9 on node aks-infra-1-vmss00000y:\\n\\nwi-system/wi-749b9d5cc8-2chl9 blocked by "
    ...     "pdb wi-pdb with unready pods [].", "issue.md")
    >>> r.pod, r.namespace, r.node, r.budget, r.line, r.reason
    ('wi-749b9d5cc8-2chl9', 'wi-system', 'aks-infra-1-vmss00000y', 'wi-pdb', 3, 'blocked by pdb wi-pdb')
    """
    found = []
    for match in _AKS_DRAIN_FAILED.finditer(text):
        found.append(EvictionRefusal(source, _line_of(text, match), match.group("pod"), match.group("ns") or "",
                                     match.group("budget") or "", match.group("why"), match.group("node"), "AKS"))
    for match in _AKS_TOO_MANY.finditer(text):
        found.append(EvictionRefusal(source, _line_of(text, match), match.group("pod"), match.group("ns") or "",
                                     match.group("budget"), f"blocked by pdb {match.group('budget')}",
                                     match.group("node"), "AKS"))
    return found


def _eks_gave_up(text: str, source: str) -> list[EvictionRefusal]:
    """EKS's PodEvictionFailure: one per node it names (its resource ids, a Terraform error's
    prefix), else one of its node group; the node group and the update's start where quoted. A
    masked or elided name (`ip-10-0-XX-XX`, `<NODE_GROUP_NAME>`, `...`) is no name.

    >>> [(r.node, r.group, r.began, r.line) for r in _eks_gave_up('"createdAt": "2023-06-03T17:19:38.068000+00:00",'
    ...     '\\n"errors": [{"errorCode": "PodEvictionFailure", "errorMessage": "Reached max retries while trying to '
    ...     'evict pods from nodes in node group ng-1",\\n "resourceIds": ["ip-192-168-2-44.eu-west-1.compute.internal"]}]',
    ...     "t")]
    [('ip-192-168-2-44.eu-west-1.compute.internal', 'ng-1', '', 2)]
    >>> [(r.node, r.group) for r in _eks_gave_up("* i-0abc123, i-0def456: PodEvictionFailure: Reached max retries "
    ...     "while trying to evict pods from nodes in node group default_ng", "t")]
    [('i-0abc123', 'default_ng'), ('i-0def456', 'default_ng')]
    """
    found = []
    for match in _EKS_GAVE_UP.finditer(text):
        line_start = text.rfind("\n", 0, match.start()) + 1
        head = text[max(line_start, match.start() - 200):match.start()]
        before = _EKS_IDS_BEFORE.search(head)
        after = None if before else _EKS_IDS_AFTER.match(text, match.end(), match.end() + 400)
        ids = (before or after).group("ids") if (before or after) else ""
        nodes = [n for n in re.split(r"[\s,\"']+", ids) if n and _NODE_NAME.match(n)] or [""]
        began = ""
        update = list(_EKS_UPDATE.finditer(text, 0, match.start()))
        if update:
            created = list(_EKS_CREATED.finditer(text, update[-1].end(), match.start()))
            began = created[-1].group("at") if created else ""
        group = match.group("group") or ""
        for node in dict.fromkeys(nodes):
            found.append(EvictionRefusal(source, _line_of(text, match), "", "", "",
                                         "PodEvictionFailure: Reached max retries while trying to evict pods",
                                         node, "EKS", group, began))
    return found


# kubectl's (and Helm's) words when the API server serves no such kind at that apiVersion
# (discovery has no mapping for it): the object is not sent, so it is not created or changed.
# Since kubectl 1.22: `resource mapping not found for name: "NAME" namespace: "NS" from "FILE":
# no matches for kind "KIND" in version "GV"`, then `ensure CRDs are installed first`; before,
# and Helm's `UPGRADE FAILED`: `unable to recognize "FILE": no matches for kind ...` (no name).
_UNSERVED = re.compile(
    r'(?:resource mapping not found for name:\s*\\?"(?P<name>[^"\\\n]*)\\?"\s*namespace:\s*\\?"(?P<ns>[^"\\\n]*)\\?"'
    r'\s*from\s*\\?"(?P<src>[^"\\\n]*)\\?"'
    r'|unable to recognize\s*\\?"(?P<file>[^"\\\n]*)\\?")'
    r':\s*no matches for kind\s*\\?"(?P<kind>[A-Za-z0-9]+)\\?"\s*in version\s*\\?"(?P<gv>[a-z0-9.-]*/?[a-z0-9]+)\\?"')


@dataclass(frozen=True, slots=True)
class UnservedApi:
    """One quoted refusal to map a manifest's kind and apiVersion to anything the API server
    serves: where it was read, the kind and apiVersion, the object's name and namespace when
    kubectl named them ("" else), and the file or URL the manifest came from ("" for Helm's)."""

    source: str
    line: int
    kind: str
    api_version: str
    name: str
    namespace: str
    manifest: str
    # the apply or install whose output it is: its line ("" text when the paste shows none, then
    # the line its code block opens on, 0 for none) and its words after any prompt
    command_line: int = 0
    command: str = ""


# a command that sends manifests to the API server (kubectl's or oc's apply/create/replace, a
# Helm install or upgrade, helmfile's sync), after a prompt, a pipe or at a line's start; flags
# may come before the verb, with their values (`helm -n istio-system install ...`)
_SENDING_COMMAND = re.compile(r"(?<![\w./-])(?:kubectl|oc|k|helm|helmfile)(?:\.exe)?\s+"
                              r"(?:-[^\s=]+(?:=\S*|[ \t]+(?!-)\S+)?\s+)*"
                              r"(?:apply|create|replace|install|upgrade|sync)\b[^\n]*")
_FENCE = re.compile(r"^\s*(?:```|~~~)", re.M)


def _command_before(text: str, at: int) -> tuple[int, str]:
    """The line and words of the last command sending manifests before offset `at`, within the
    code block that holds it; else the one a write-up gives in its next code block, after the
    error (`**To Reproduce**`), when no other refusal comes between; else the line that block
    opens on (0 for none) and ""."""
    fences = list(_FENCE.finditer(text, 0, at))
    start = fences[-1].start() if fences else 0
    commands = list(_SENDING_COMMAND.finditer(text, start, at))
    if commands:
        found = commands[-1]
        return text.count("\n", 0, found.start()) + 1, found.group(0).strip()
    if fences and len(fences) % 2 and (after := _command_after(text, at)) is not None:
        return text.count("\n", 0, after.start()) + 1, after.group(0).strip()
    return (text.count("\n", 0, start) + 1 if fences else 0), ""


def _command_after(text: str, at: int) -> re.Match[str] | None:
    """The command sending manifests that opens the code block right after the one holding
    offset `at` (its first line that holds words), when no refusal is quoted between."""
    fences = list(_FENCE.finditer(text, at))
    if len(fences) < 2 or "no matches for kind" in text[text.find("\n", at) + 1:fences[1].start()]:
        return None
    opened = text.find("\n", fences[1].start()) + 1
    first = re.compile(r"[ \t]*(?:[$#>%][ \t]*)?(?P<words>\S[^\n]*)").match(text, opened)
    return _SENDING_COMMAND.match(text, first.start("words")) if first else None


def unserved_apis(text: str, source: str) -> list[UnservedApi]:
    """Every quoted `no matches for kind K in version V`, in file order.

    >>> (u,) = unserved_apis('error: resource mapping not found for name: "psp-a" namespace: "" from "node.yaml": '
    ...     'no matches for kind "PodSecurityPolicy" in version "policy/v1beta1"', "issue.md")
    >>> u.kind, u.api_version, u.name, u.manifest, u.command_line, u.command
    ('PodSecurityPolicy', 'policy/v1beta1', 'psp-a', 'node.yaml', 0, '')
    >>> [(u.command_line, u.command) for u in unserved_apis('$ helm upgrade -i web ./chart\\nError: UPGRADE FAILED: '
    ...     'unable to recognize "": no matches for kind "Ingress" in version "extensions/v1beta1"', "t")]
    [(1, 'helm upgrade -i web ./chart')]
    >>> [(u.kind, u.name) for u in unserved_apis('Error: UPGRADE FAILED: unable to recognize "": '
    ...     'no matches for kind "Ingress" in version "extensions/v1beta1"', "t")]
    [('Ingress', '')]
    """
    if "no matches for kind" not in text:
        return []
    return [UnservedApi(source, _line_of(text, m), m.group("kind"), m.group("gv"), m.group("name") or "",
                        m.group("ns") or "", m.group("src") if m.group("src") is not None else m.group("file") or "",
                        *_command_before(text, m.start()))
            for m in _UNSERVED.finditer(text)]


# What a resolver run in a pod prints when no DNS server answers it (nslookup/dig's `;;`
# lines; Go's and glibc's words for a query that timed out).
_NO_ANSWER = re.compile(r"(?:;; connection timed out; no servers could be reached"
                        r"|;; communications error to \S+: timed out"
                        r"|\b(?:read|dial) udp [\d.:\[\]a-f]+->[\d.:\[\]a-f]+:53: i/o timeout)")
_LOOKUP_TOOLS = frozenset({"nslookup", "dig", "host"})
# kubectl exec's flags that take a value as the next word
_VALUED_FLAGS = frozenset({"-n", "--namespace", "-c", "--container", "--context", "-f", "--filename",
                           "--pod-running-timeout", "--kubeconfig"})


@dataclass(frozen=True, slots=True)
class DnsFailure:
    """A DNS lookup run in a pod (`kubectl exec POD -- nslookup NAME`) that no server answered:
    where it was read, the pod, its namespace ("" when not stated), the lookup, what it printed."""

    source: str
    line: int
    pod: str
    namespace: str
    lookup: str
    said: str


def dns_failure(command_text: str, output: list[tuple[int, str]], source: str,
                namespace: str | None) -> DnsFailure | None:
    """The lookup a `kubectl exec` ran and no DNS server answered, or None.

    >>> f = dns_failure("kubectl exec -i -t dnsutils -- nslookup kubernetes.default",
    ...     [(9, ";; connection timed out; no servers could be reached"), (11, "command terminated with exit code 1")],
    ...     "issue.md", None)
    >>> f.pod, f.lookup, f.line, f.said
    ('dnsutils', 'nslookup kubernetes.default', 9, ';; connection timed out; no servers could be reached')
    """
    said = next(((no, m.group(0)) for no, text in output if (m := _NO_ANSWER.search(text))), None)
    if said is None:
        return None
    words = command_text.split()
    if "exec" not in words:
        return None
    pod, inside, ns, index = "", [], namespace, words.index("exec") + 1
    while index < len(words):
        word = words[index]
        if word == "--":
            inside = words[index + 1:]
            break
        if word in _VALUED_FLAGS:
            if word in ("-n", "--namespace") and index + 1 < len(words):
                ns = words[index + 1]
            index += 2
            continue
        if word.startswith("--namespace="):
            ns = word.split("=", 1)[1]
        elif not word.startswith("-") and not pod:
            pod = word.split("/", 1)[1] if word.startswith(("pod/", "po/", "pods/")) else word
        elif not word.startswith("-"):
            inside = words[index:]  # an old kubectl's `exec POD CMD ...`, no `--`
            break
        index += 1
    tool = next((w.strip("'\"") for w in inside if w.strip("'\"") in _LOOKUP_TOOLS), None)
    if not pod or tool is None:
        return None
    lookup = " ".join(w.strip("'\"") for w in inside[inside.index(next(w for w in inside if w.strip("'\"") == tool)):])
    return DnsFailure(source, said[0], pod, ns or "", lookup, said[1])


# kubectl's words when the API server's serving certificate fails its TLS check: expired or not
# yet valid (Go's x509 says against which clock), signed by a CA the kubeconfig does not hold, or
# issued for other names than the one dialled.
_SERVER_CERTIFICATE = re.compile(
    r"Unable to connect to the server: (?P<why>x509: (?:certificate has expired or is not yet valid"
    r"(?::\s*current time (?P<now>\S+) is (?P<side>after|before) (?P<bound>[^\s,;]+))?"
    r"|certificate signed by unknown authority|certificate is valid for [^\n]*?, not \S+))")


@dataclass(frozen=True, slots=True)
class ServerCertificateRefused:
    """One quoted refusal of kubectl to trust the API server's serving certificate: where it was
    read, what was wrong (`expired`, `not yet valid`, `expired or not yet valid` when the
    message gives no times, `unknown authority`, `other names`), the client's clock when it
    refused and the bound it was past (the certificate's NotAfter or NotBefore; "" when not
    quoted), and kubectl's words."""

    source: str
    line: int
    problem: str
    client_time: str
    bound: str
    reason: str


def server_certificate_refusals(text: str, source: str) -> list[ServerCertificateRefused]:
    """Every quoted refusal of kubectl to trust the API server's certificate, in file order.

    >>> (r,) = server_certificate_refusals('Unable to connect to the server: x509: certificate has expired or '
    ...     'is not yet valid: current time 2023-03-31T09:11:37+03:00 is after 2023-03-25T05:32:30Z', "issue.md")
    >>> r.problem, r.client_time, r.bound, r.line
    ('expired', '2023-03-31T09:11:37+03:00', '2023-03-25T05:32:30Z', 1)
    >>> [r.problem for r in server_certificate_refusals('$ kubectl get pod\\nUnable to connect to the server: '
    ...     'x509: certificate signed by unknown authority', "t")]
    ['unknown authority']
    """
    if "Unable to connect to the server: x509" not in text:
        return []
    found = []
    for match in _SERVER_CERTIFICATE.finditer(text):
        why = match.group("why")
        if match.group("side"):
            problem = "expired" if match.group("side") == "after" else "not yet valid"
        elif "unknown authority" in why:
            problem = "unknown authority"
        elif "is valid for" in why:
            problem = "other names"
        else:
            problem = "expired or not yet valid"
        found.append(ServerCertificateRefused(source, _line_of(text, match), problem, match.group("now") or "",
                                              match.group("bound") or "", why[:_MAX_WHY]))
    return found
