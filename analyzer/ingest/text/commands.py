"""Recognise shell prompt lines that run kubectl and read what the command asked for."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field

# What may stand before `kubectl` on a prompt line: nothing, or a short prompt ending in $ # > %
# (`$ `, `# `, `root@host:~# `, `controlplane $ `, `# controlplane$ `, `[root@m ~]# `, `PS C:\> `).
# A bracketed `[user@host dir]` before the command is a prompt too, its `#` or `$` sometimes lost
# to markdown (`[root@localhost ~] **kubectl logs ...**:`).
# A zsh theme's prompt: an arrow or glyph, the host before it, the folder and git state after it
# (`➜  ~ `, `❯ `, `controlplane ~ ➜  `, `➜  shop git:(main) ✗ `), kube-ps1's context before it
# (`(⎈ |default:default)➜  ~ `, rancher/support-bundle-kit's docs/quickstart.md); the git state
# alone where a paste lost the arrow (`tekton-pipelines git:(main) ✗ `).
_PROMPT = re.compile(r"^(?:PS [^>]{0,80}>|\S{0,80}(?: \S{1,80}){0,3}?\s?[$#>%]|\[[^\]\s@]{1,40}@[^\]]{1,80}\]"
                     r"|\s*(?:\([^)]{1,60}\)\s?)?(?:\S{1,64}\s+){0,2}(?:[➜❯λ→»]|git:\([^)\s]{1,60}\))(?:\s+\S{1,80}){0,4}?"
                     r"|)\s*$")
# A shell's xtrace (`set -x`, `++` in a subshell): how CI logs and Jenkins show the commands they ran
# (`+ kubectl rollout status deployment/web -n shop`). `+ ` also begins a diff's added line, so
# only a kubectl verb after it makes a command.
XTRACE = re.compile(r"^\+{1,3} ")
# CI log timestamps before a line: GitHub Actions `2024-05-02T10:11:12.1234567Z `, GitLab's with a
# stream tag (`... 00O `), Jenkins' timestamper `[2024-05-02T10:11:12.123Z] ` or `10:11:12 `.
CI_PREFIX = re.compile(
    r"^(?:\[?\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?\]?(?: \d\d[OE]\+?)?"
    r"|\[\d\d:\d\d:\d\d(?:\.\d+)?\]|\d\d:\d\d:\d\d\.\d+)(?: |$)"
)
# A CI step's command as GitHub Actions and Azure Pipelines print it (`##[group]Run kubectl ...`,
# `##[command]/usr/bin/kubectl rollout status ...`; Azure's task log `[command]/usr/local/bin/kubectl`;
# a markdown link `[command](...)` is none).
CI_STEP = re.compile(r"^(?:##)?\[(?:group|command)\](?!\()(?:Run )?(.*)$")
# kubectl's verbs (and common plugins'): a line traced by xtrace, or typed without a prompt, runs
# kubectl only with one of these (`# kubectl and helm ...` is a comment).
KUBECTL_VERBS = frozenset({
    "get", "describe", "logs", "top", "version", "cluster-info", "apply", "create", "delete", "edit",
    "patch", "label", "annotate", "scale", "exec", "port-forward", "proxy", "cp", "run", "expose",
    "cordon", "uncordon", "drain", "taint", "set", "explain", "api-resources", "api-versions", "auth",
    "config", "wait", "debug", "attach", "rollout", "autoscale", "certificate", "plugin", "completion",
    "diff", "kustomize", "replace", "events", "neat", "tree", "lineage", "ctx", "ns", "krew", "whoami",
    "adm", "project", "projects", "new-app", "login", "status", "rsh", "image",
})
# kubectl and what stands for it (longest first: the regexes below try them in this order).
TOOLS = ("kubectl", "kubecolor", "oc", "kc", "k")
_TOOL_NAMES = "|".join(TOOLS)
_TOOL = re.compile(rf"(?:^|(?<=\s)|(?<=[$#>%/.]))({_TOOL_NAMES})(?:\.exe)?\s+(?=\S)")
# What may stand between a prompt and kubectl and leave its command as typed: sudo (with its
# flags), env and VAR=value assignments, time; a distribution's wrapper (`k3s kubectl`,
# `microk8s kubectl`, `microk8s.kubectl`, `minikube kubectl --`); the container it runs in (`docker
# exec -it kind-control-plane kubectl`, the container found by `$(docker ps ...)`); the binary's
# path (`/usr/local/bin/kubectl`, `./kubectl`). Matched up to the tool's name, at the prefix's end.
_WRAPPER = re.compile(
    r"(?:(?:sudo|doas)(?:\s+-\S+)*\s+|env\s+|[A-Za-z_][A-Za-z0-9_]*=\S*\s+|time\s+"
    r"|(?:docker|podman|nerdctl)\s+exec\s+(?:-\S+\s+)*(?:\$\([^)]*\)|[\w.-]+)\s+"
    r"|watch(?:\s+(?:-n\s*[\d.]+|--interval[= ][\d.]+|-[a-zA-Z]+|--[a-z-]+))*\s+)*"
    r"(?:(?:k3s|microk8s|minikube)[ .])?(?:[\w.~-]*/)*$"
)
# Flags that take a value when written apart from it (`-n kube-system`).
_VALUE_FLAGS = frozenset(
    {
        "-n", "--namespace", "-o", "--output", "-l", "--selector", "--context", "--kubeconfig",
        "--cluster", "--user", "-c", "--container", "--field-selector", "--sort-by", "-f",
        "--filename", "--template", "-L", "--label-columns", "--server", "-s", "--token",
        "--as", "--request-timeout", "--chunk-size", "--since", "--tail", "--revision",
        "--timeout",  # `rollout status deploy/web --timeout 0s`, `wait`, `drain`: a duration
    }
)
# `k` and `kc` are common aliases of kubectl: typed without a prompt, only trusted before these
# verbs; behind a prompt, before any kubectl verb (`$ k rollout status deploy/web`). kubecolor
# wraps kubectl and takes its arguments.
_ALIASES = frozenset({"k", "kc"})
_ALIAS_VERBS = frozenset({"get", "describe", "top", "lineage"})
# Issue write-ups set the command in bold, or after a bold label: `**kubectl get nodes**`,
# `**COMMAND:** kubectl get pods -A`.
_BOLD_LABEL = re.compile(rf"^\*\*[^*\n]{{1,40}}?\*\*:?\s+(?=(?:{_TOOL_NAMES})\s)")
_BOLD_LINE = re.compile(rf"^\*\*((?:{_TOOL_NAMES})\s[^*\n]+?)\*\*:?$")
# ... or after the prompt: `[root@localhost ~]# **kubectl describe pod x**:`, its `$` in the bold
# too (`j_doe@cloudshell:~ (project-121212)**$ kubectl get deploy,svc -n kube-system**`, Harness's docs)
_BOLD_AFTER_PROMPT = re.compile(rf"^(?P<prompt>[^*\n]{{1,80}}?\s?)\*\*(?P<mark>[$#%>]\s?)?"
                                rf"(?P<command>(?:{_TOOL_NAMES})\s[^*\n]+?)\*\*:?$")
# ... or the prompt in the bold too: `**host:dir user$ kubectl get pods -n kube-system**` (aws/aws-cdk#6005)
_BOLD_WITH_PROMPT = re.compile(rf"^\*\*(?P<line>[^*\n]{{1,80}}?[$#%>]\s?(?:{_TOOL_NAMES})\s[^*\n]+?)\*\*:?$")


def unbold(line: str) -> str:
    """A command line without the markdown bold around it or the bold label before it.

    >>> unbold("**COMMAND:** kubectl get nodes"), unbold("**kubectl get pods -A**")
    ('kubectl get nodes', 'kubectl get pods -A')
    >>> unbold("[root@localhost ~]# **kubectl describe pod -n kube-system coredns-x**:")
    '[root@localhost ~]# kubectl describe pod -n kube-system coredns-x'
    >>> unbold("j_doe@cloudshell:~ (project-121212)**$ kubectl get deploy,svc tiller-deploy -n kube-system**  ")
    'j_doe@cloudshell:~ (project-121212)$ kubectl get deploy,svc tiller-deploy -n kube-system'
    >>> unbold("**mbp:eks-cluster me$ kubectl get pods -n kube-system**")
    'mbp:eks-cluster me$ kubectl get pods -n kube-system'
    """
    stripped = line.strip()
    if not stripped.startswith("**"):
        if "**" in stripped and (m := _BOLD_AFTER_PROMPT.match(stripped)):
            return f"{m.group('prompt')}{m.group('mark') or ''}{m.group('command').strip()}"
        return line
    if m := _BOLD_LINE.match(stripped) or _BOLD_WITH_PROMPT.match(stripped):
        return m.group(1).strip()
    return _BOLD_LABEL.sub("", stripped)


@dataclass(frozen=True, slots=True)
class Command:
    """A kubectl command line: the verb, what it names, and the flags that shape its output."""

    text: str
    verb: str
    resources: tuple[str, ...] = ()
    names: tuple[str, ...] = ()
    namespace: str | None = None
    all_namespaces: bool = False
    output: str | None = None
    show_labels: bool = False
    no_headers: bool = False
    piped: str | None = None  # the command after the first `|`
    redirected: bool = False  # stdout went to a file, so nothing was printed
    label_columns: tuple[str, ...] = ()  # `-L key` label keys kubectl adds as columns
    flags: dict[str, str] = field(default_factory=dict)

    @property
    def wide(self) -> bool:
        return self.output == "wide"

    @property
    def prints_table(self) -> bool:
        """True when the output is a kubectl table (not YAML/JSON/name/jsonpath)."""
        return self.verb in ("get", "top", "lineage") and not self.redirected and (
            self.output in (None, "wide") or (self.output or "").startswith("custom-columns")
        )


# procps `watch` runs a command every few seconds and shows its last output under a title line,
# `Every 2.0s: kubectl get pods -n x      host: Thu Oct 12 12:57:56 2023` (older ones print no
# host): the output is that command's, as if it was typed alone.
_WATCH = re.compile(r"^watch(?:\s+(?:-n\s*[\d.]+|--interval[= ][\d.]+|-[a-zA-Z]+|--[a-z-]+))*\s+(?=\S)")
_WATCH_TITLE = re.compile(r"^Every\s+[\d.]+s:\s+(?P<command>\S.*?)"
                          r"(?:\s{2,}(?:\S+:\s+)?\w{3}\s+\w{3}\s+\d+\s+[\d:]+\s+\d{4})?\s*$")


def unwatched(text: str) -> str:
    """The command `watch` runs, from its command line or its title line; else the text as it is.

    >>> unwatched("watch -n 2 kubectl get hpa web"), unwatched("watch kubectl get pods")
    ('kubectl get hpa web', 'kubectl get pods')
    >>> unwatched("Every 2.0s: kubectl get pods -n calico-system      k8s01: Thu Oct 12 12:57:56 2023")
    'kubectl get pods -n calico-system'
    >>> unwatched("watchers are fine")
    'watchers are fine'
    """
    if (title := _WATCH_TITLE.match(text)) is not None:
        return title.group("command")
    return _WATCH.sub("", text, count=1)


def command_in(line: str) -> Command | None:
    """The kubectl command a prompt line runs, or None when the line is no such prompt.

    >>> command_in("root@host:~# kubectl get pods -A -o wide").all_namespaces
    True
    >>> command_in("PS C:\\\\> kubectl -n kube-system get po").namespace
    'kube-system'
    >>> command_in("3 kubectl set image deployment/x") is None
    True
    >>> command_in("[root@localhost ~] kubectl get pods").verb
    'get'
    >>> [command_in(f"$ {w}kubectl get pods -n shop").namespace for w in ("sudo ", "/usr/local/bin/", "./", "sudo k3s ")]
    ['shop', 'shop', 'shop', 'shop']
    >>> command_in("$ minikube kubectl -- get pods -n shop").namespace
    'shop'
    >>> c = command_in("kubectl -n elastic-system get pods -o wide:")  # a writer's heading
    >>> c.namespace, c.resources, c.output
    ('elastic-system', ('pods',), 'wide')
    >>> [command_in(t).namespace for t in ("+ kubectl get pods -n shop", "2024-05-02T10:11:12.1234567Z + kubectl "
    ...     "get pods -n shop", "➜  ~ kubectl get pods -n shop", "controlplane ~ ➜  k get po -n shop",
    ...     "(⎈ |default:default)➜  ~ kubectl get pods -n shop", " shop git:(main) ✗ kubectl get pods -n shop")]
    ['shop', 'shop', 'shop', 'shop', 'shop', 'shop']
    >>> command_in("$ k rollout status deploy/web").verb, command_in("k rollout status deploy/web")
    ('rollout status', None)
    >>> command_in("##[command]/usr/bin/kubectl rollout status Deployment/web --namespace shop").namespace
    'shop'
    >>> command_in("+ kubectl is the binary") is None  # a diff's added line
    True
    """
    line = unbold(CI_PREFIX.sub("", line, count=1)).rstrip()
    if (step := CI_STEP.match(line)) is not None:
        line = "$ " + step.group(1)
    # a writer's heading naming the command whose output follows (`kubectl get pods -o wide:`),
    # as transcript.command_of_line reads it: the colon is no part of the command
    line = line[:-1].rstrip() if line.endswith(":") else line
    if (title := _WATCH_TITLE.match(line.strip())) is not None:
        line = "$ " + title.group("command")
    traced = XTRACE.match(line.lstrip())
    if traced is not None:
        line = "$ " + line.lstrip()[traced.end():]
    for match in _TOOL.finditer(line):
        if not _prompted(line[: match.start()]):
            continue
        rest = line[match.end():]
        if rest.startswith("-- "):
            rest = rest[3:]  # `minikube kubectl -- get pods`
        command = parse_command(f"{match.group(1)} {rest}")
        if command is None or (traced is not None and command.verb.split()[0] not in KUBECTL_VERBS):
            continue
        if match.group(1) not in _ALIASES or command.verb in _ALIAS_VERBS \
                or (line[: match.start()].strip() and command.verb.split()[0] in KUBECTL_VERBS):
            return command
    return None


def _prompted(prefix: str) -> bool:
    """Whether what stands before kubectl on a line is a prompt, then at most wrappers of it.

    >>> _prompted("$ "), _prompted("$ sudo -E "), _prompted("root@cp:~# /usr/local/bin/"), _prompted("see ")
    (True, True, True, False)
    """
    if _PROMPT.match(prefix):
        return True
    wrapper = _WRAPPER.search(prefix)
    return wrapper is not None and wrapper.start() < len(prefix) and bool(_PROMPT.match(prefix[: wrapper.start()]))


# A word ending in a colon after a command, as a write-up introduces its output ("kubectl get pod
# -A gives:", "... shows:"): no Kubernetes name, container name or flag value has a colon there.
_PROSE_TAIL = re.compile(r"[A-Za-z][A-Za-z-]*:")


def parse_command(text: str) -> Command | None:
    """Read a `kubectl ...` command string (as typed, or as a tool's recorded invocation).

    >>> c = parse_command("kubectl get --show-labels -o wide pod web-1 -n default | grep web")
    >>> (c.verb, c.resources, c.names, c.namespace, c.output, c.show_labels, c.piped)
    ('get', ('pod',), ('web-1',), 'default', 'wide', True, 'grep web')
    >>> parse_command("kubectl get daemonset.apps/kube-proxy -n kube-system -o=yaml").resources
    ('daemonset.apps',)
    >>> parse_command("kubectl get nodes -L topology.kubernetes.io/zone,agentpool -L x").label_columns
    ('topology.kubernetes.io/zone', 'agentpool', 'x')
    >>> c = parse_command("kubectl logs -f -n kube-system coredns-56684f94d6-f7tzp")
    >>> (c.verb, c.names, c.namespace, c.resources)
    ('logs', (), 'kube-system', ('coredns-56684f94d6-f7tzp',))
    >>> c = parse_command("kubectl logs svclb-traefik-4ea49843-qhf9g lb-tcp-80 -n kube-system gives:")
    >>> (c.resources, c.names)
    (('svclb-traefik-4ea49843-qhf9g',), ('lb-tcp-80',))
    """
    main, piped, redirected = _split_pipeline(text.strip())
    try:
        tokens = shlex.split(main, comments=True)
    except ValueError:
        tokens = main.split()
    if not tokens or tokens[0] not in TOOLS:
        return None
    while len(tokens) > 2 and _PROSE_TAIL.fullmatch(tokens[-1]):
        tokens = tokens[:-1]  # `kubectl logs web-1 -n shop gives:`: the writer's words, not an argument
    flags: dict[str, str] = {}
    label_keys: list[str] = []
    positional: list[str] = []
    items = iter(tokens[1:])
    for token in items:
        if token == "--":
            break
        if token.startswith("-") and len(token) > 1:
            name, eq, value = token.partition("=")
            if not eq and name == "-f" and positional[:1] in (["logs"], ["log"]):
                name = "--follow"  # `kubectl logs -f POD`: -f follows, it names no file
            elif not eq and name in _VALUE_FLAGS:
                value = next(items, "")
            elif not eq and re.fullmatch(r"-[nol]\S+", token):
                name, value = token[:2], token[2:]  # -nkube-system, -owide
            flags[_long(name)] = value if (eq or value) else "true"
            if _long(name) == "--label-columns":
                label_keys += [key for key in value.split(",") if key]
        else:
            positional.append(token)
    if not positional:
        return None
    verb, args = positional[0], positional[1:]
    if verb in ("rollout", "auth", "config", "certificate") and args:
        verb, args = f"{verb} {args[0]}", args[1:]
    resources: list[str] = []
    names: list[str] = []
    if args:
        first, *rest = args
        if "/" in first:  # get pod/web-1 deploy/x
            for arg in args:
                resource, _, name = arg.partition("/")
                resources.append(resource)
                names.append(name)
        else:
            resources = [part for part in first.split(",") if part]
            names = rest
    return Command(
        text=text.strip(),
        verb=verb,
        resources=tuple(resources),
        names=tuple(names),
        namespace=flags.get("--namespace"),
        all_namespaces="--all-namespaces" in flags,
        output=flags.get("--output"),
        show_labels="--show-labels" in flags,
        label_columns=tuple(label_keys),
        no_headers="--no-headers" in flags,
        piped=piped,
        redirected=redirected,
        flags=flags,
    )


_LONG = {"-n": "--namespace", "-o": "--output", "-A": "--all-namespaces", "-l": "--selector",
         "-L": "--label-columns"}


def label_column_header(key: str) -> str:
    """The column kubectl prints for `-L key`: the key's last path part in capitals.

    >>> label_column_header("topology.kubernetes.io/zone")
    'ZONE'
    """
    return key.rsplit("/", 1)[-1].upper()


def _long(flag: str) -> str:
    return _LONG.get(flag, flag)


def _split_pipeline(text: str) -> tuple[str, str | None, bool]:
    """Cut `cmd | grep x` and `cmd > file` outside quotes: (command, piped command, redirected).
    A writer's placeholder (`<pod>`, `<pod-name>`) is a word, no redirection.

    >>> _split_pipeline("kubectl logs web-<pod> -n x"), _split_pipeline("kubectl get po -o yaml > po.yaml")
    (('kubectl logs web-<pod> -n x', None, False), ('kubectl get po -o yaml', None, True))
    """
    quote = ""
    placeholder_end = 0
    for i, char in enumerate(text):
        if i < placeholder_end:
            continue
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "<" and (m := _PLACEHOLDER.match(text, i)):
            placeholder_end = m.end()
        elif char == "|":
            return text[:i].strip(), text[i + 1 :].strip() or None, False
        elif char == ">" and (i == 0 or text[i - 1] != "2"):
            return text[:i].strip(), None, True
    return text, None, False


# `<pod>`, `<node-name>`: a word a writer leaves for the reader to fill in.
_PLACEHOLDER = re.compile(r"<[A-Za-z][\w.-]*>")
