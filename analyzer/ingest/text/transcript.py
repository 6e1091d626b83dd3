"""Split a terminal transcript, a markdown write-up or a ticket into blocks, each with the command
that produced it.

What a transcript wraps around kubectl's output is taken off line by line first: CI timestamp
prefixes (GitHub Actions, GitLab, Jenkins), `> ` quoting of tickets and e-mails, ANSI colours,
markdown fences and reStructuredText code blocks (which also end blocks). Then every line that runs a command behind a prompt
(bash, zsh, fish, PowerShell, cmd), a bare `kubectl ...` line, a CI step (`##[group]Run ...`)
or a `history` listing marks where a block starts. The ingest stage reads each block by its
command (analyzer.ingest.transcripts); this module only finds them.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field

from analyzer.ingest.headerdate import parse_stated_time
from analyzer.ingest.text.commands import (
    CI_PREFIX,
    CI_STEP,
    KUBECTL_VERBS,
    XTRACE,
    Command,
    command_in,
    parse_command,
    unbold,
    unwatched,
)

_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")
# A markdown blockquote's marks, at the margin or up to three spaces in (a quote in a list item)
BLOCKQUOTE = re.compile(r"^ {0,3}(?:> ?)+")
_FENCE = re.compile(r"^\s*(`{3,}|~{3,})\s*([\w+.#-]*)\s*$")
# Info strings markdown writers put after an opening fence. Any other word with text after it
# begins the block's first line (```kubectl get pods, ```NAME   READY ..., k3s#7345).
_FENCE_LANGUAGES = frozenset({
    "bash", "sh", "shell", "zsh", "console", "shell-session", "shellsession", "sh-session", "terminal",
    "powershell", "ps1", "pwsh", "cmd", "bat", "text", "txt", "plaintext", "plain", "log", "output",
    "yaml", "yml", "json", "toml", "ini", "xml", "diff", "go", "python", "py",
})
_FENCE_ANYWHERE = re.compile(r"(`{3,}|~{3,})")
# A reStructuredText code block (`.. code-block:: console`, Sphinx docs): its content is the lines
# indented under it, up to the first line back at the directive's indent.
_RST_CODE_BLOCK = re.compile(r"^(?P<indent> *)\.\.\s+(?:code-block|code|sourcecode)::(?:\s+[\w+.#-]*)?\s*$")
_CI_NOISE = re.compile(r"^##\[(?:endgroup|section|debug|warning|error)\]")

# Prompts a command may stand behind. Tried in order on the cleaned line; each leaves the
# command text after it.
_PROMPTS = [re.compile(p) for p in (
    r"^PS [^>\n]{0,160}> ?",  # PowerShell: PS C:\Users\me>
    r"^[A-Za-z]:\\[^>\n]{0,160}>",  # cmd: C:\Users\me>
    # bash/zsh/fish user@host, or user@dir as some prompts print it ("medya@~ $ ")
    r"^(?:\([^)\n]{1,40}\) ?)?(?:[\w.-]+@(?:[\w.-]+|~[\w./-]*))(?::[^$#%>\n]{0,100}|\s+[^$#%>\n]{0,100})?\s?[$#%>] ",
    r"^\[[^\]\n]{1,100}\]\s?[$#%] ",  # [root@host dir]#
    r"^\[[^\]\s@]{1,40}@[^\]\n]{1,80}\] ",  # [root@host dir] (its # lost to markdown's bold after it)
    # zsh themes: "➜  dir git:(main) ✗ ", and with the host first, "controlplane ~ ➜  " (KodeKloud's labs),
    # kube-ps1's context first, "(⎈ |default:default)➜  ~ " (rancher/support-bundle-kit's docs/quickstart.md)
    r"^(?:\([^)\n]{1,60}\) ?)?(?:[\w.-]{1,64}(?:\s+[~/]\S*)?\s+)?(?:➜|❯|λ|→|»)\s+(?:[^\s$#%>]+\s+){0,3}?(?:(?:git:\([^)]*\)|✗|✔)\s+)*",
    r"^[\w.~/:-]{1,100}\s?[$#%>] ",  # "controlplane $ ", "~/src> ", "dir% "
    # a custom prompt the command follows without a blank ("dev-EC2-->kubectl get nodes")
    r"^[\w.~/:-]{1,100}[$#%>](?=(?:kubectl|kubecolor|oc)\s)",
    # a `$` the command follows without a blank ("$kubectl describe service ...", ingress-nginx#3608)
    r"^\$(?=(?:kubectl|kubecolor|oc)\s)",
    # a folder alone before the command: a theme whose arrow or glyph the paste lost
    # (" ~/Downloads/ kubectl get deployment ...", aws-load-balancer-controller#2956)
    r"^[~/][\w.~/-]{0,100}\s+(?=(?:kubectl|kubecolor|oc)\s)",
    r"^[$#%] ",  # "$ ", "# ", "% "
    XTRACE.pattern,  # a shell's xtrace (`set -x`), as CI logs and Jenkins show the commands they ran
)]
_XTRACE = XTRACE.pattern
_THEME = 5  # the zsh theme prompt's place in _PROMPTS
# What a zsh theme prompt shows between its arrow and the command: folders, git state.
_THEME_STATE = re.compile(r"^(?:(?:~\S*|/\S*|\.{1,2}/?\S*|[\w.-]+/[\w./-]*|git:\([^)]*\)|\([^)]*\)|[✗✔±]|on|via|at)\s+)*")
# A kubectl as typed: plain, an alias, a snap or k3s wrapper, the Windows binary, under sudo.
_KUBECTL = re.compile(
    # (run in a container: `docker exec -it k3s-server kubectl ...`, `podman exec -it microshift oc ...`,
    # the container named or found by `$(docker ps ...)`)
    r"^(?:(?:sudo\s+)?(?:docker|podman)\s+exec\s+(?:-\S+\s+)*(?:\$\([^)]*\)|[\w.-]+)\s+)?"
    r"(?:sudo\s+(?:-\S+\s+)*)?(?:(?:microk8s|k3s|minikube)[ .]kubectl(?:\s+--)?|kubectl(?:\.exe)?|kubecolor|oc(?:\.exe)?|kc|k)(?=\s)"
)
_WORD = re.compile(r"^[A-Za-z][\w.+-]*(?=\s|$)")
# Other programs whose commands end a kubectl block even without a prompt before them.
_KNOWN_TOOLS = frozenset({
    "helm", "terraform", "curl", "wget", "docker", "podman", "crictl", "ctr", "nerdctl", "aws", "az",
    "gcloud", "eksctl", "minikube", "kind", "k3d", "talosctl", "microk8s", "systemctl", "journalctl",
    "cat", "ls", "cd", "echo", "export", "grep", "git", "ssh", "ping", "dig", "nslookup", "watch",
    "stern", "kubens", "kubectx", "jq", "yq", "sudo", "make", "ip", "iptables", "ps", "top", "free",
    "df", "uname", "openssl", "nc", "telnet", "apt", "apt-get", "yum", "dnf", "snap", "brew", "vi",
    "vim", "nano", "less", "tail", "head", "mkdir", "rm", "cp", "mv", "chmod", "kubeadm", "set",
    "Get-Content", "Get-Service", "Invoke-WebRequest", "dir", "type", "cls", "clear", "history",
    "kustomize", "argocd", "flux", "istioctl", "linkerd", "velero", "oci", "doctl", "linode-cli",
})
_HISTORY_LINE = re.compile(r"^\s*\d{1,6}\*?\s{1,4}(?:\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\s+)?\S")


@dataclass(slots=True)
class TranscriptLine:
    """One line of the file as it reads once its wrapping is taken off; `no` is 1-based."""

    no: int
    text: str


@dataclass(slots=True)
class Block:
    """A run of lines with what produced it.

    kind: "kubectl" (a kubectl command and its output), "command" (another program and its
    output), "history" (a shell history listing), "text" (lines no visible command produced).
    """

    kind: str
    lines: list[TranscriptLine]
    command_text: str | None = None
    command: Command | None = None
    fenced: bool = False
    quoted: bool = False  # lines of a markdown blockquote with no command (a ticket's quote of output)
    notes: list[str] = field(default_factory=list)
    indent: int = 0  # spaces before the command's prompt (a paste indented as a whole)
    pad: str = ""  # that indent as typed: spaces, or tabs (a markdown code block indented by a tab)
    continued: int = 0  # lines the command was typed on after its first (a `\` at a line's end)

    @property
    def first(self) -> int:
        return self.lines[0].no

    @property
    def last(self) -> int:
        return self.lines[-1].no

    @property
    def span(self) -> str:
        return f"line {self.first}" if self.first == self.last else f"lines {self.first}-{self.last}"

    def output(self) -> list[TranscriptLine]:
        """The lines after the command line (all lines of a block without one)."""
        return self.lines[1 + self.continued:] if self.command_text is not None else self.lines


@dataclass(slots=True)
class Transcript:
    """A file split into blocks, with what was taken off its lines to read them."""

    blocks: list[Block]
    unwrapped: list[str]  # what was taken off ("CI timestamps", "quoting", "markdown fences")


def command_of_line(text: str) -> tuple[str, str] | None:
    """("kubectl" | "command", the command as typed) if the line runs a command, else None.

    >>> command_of_line("user@host:~$ kubectl --context prod -n web get pods")
    ('kubectl', 'kubectl --context prod -n web get pods')
    >>> command_of_line("PS C:\\\\Users\\\\me> kubectl.exe get nodes")
    ('kubectl', 'kubectl.exe get nodes')
    >>> command_of_line("➜  ~ microk8s kubectl get po -A")
    ('kubectl', 'microk8s kubectl get po -A')
    >>> command_of_line("controlplane ~ ➜  k get no")
    ('kubectl', 'k get no')
    >>> command_of_line("$ helm list -A"), command_of_line("The pods were fine.")
    (('command', 'helm list -A'), None)
    >>> command_of_line("% Total    % Received % Xferd  Average Speed"), command_of_line("% kubectl get no")
    (None, ('kubectl', 'kubectl get no'))
    >>> command_of_line("dev-EC2-->kubectl get nodes  -o wide")
    ('kubectl', 'kubectl get nodes  -o wide')
    >>> command_of_line(" ~/Downloads/ kubectl get deployment -n kube-system x")
    ('kubectl', 'kubectl get deployment -n kube-system x')
    >>> command_of_line("medya@~ $ kc get pods -A"), command_of_line("/usr/bin/kubectl is the binary")
    (('kubectl', 'kc get pods -A'), None)
    >>> command_of_line("kubectl get node:")  # a heading naming the command of the output below
    ('kubectl', 'kubectl get node')

    A kubectl command behind a prompt this module does not know, or behind wrappers, is read as
    commands.command_in reads it (a theme's folder and git state, an environment assignment,
    `time`), so a session reads its commands as a single pasted command does:

    >>> command_of_line("(base) ➜  k8s-learning git:(main) ✗ kubectl get pods -n istio-system")
    ('kubectl', 'kubectl get pods -n istio-system')
    >>> command_of_line("[vadim@fedora k8s-kvm-lab]$ KUBECONFIG=kubeconfig-k8s01 kubectl get pods -A -o wide")
    ('kubectl', 'kubectl get pods -A -o wide')
    """
    found = _typed_command(text)
    if found is not None and found[0] == "kubectl" or CI_PREFIX.match(text.lstrip()) is not None \
            or _TOOL_WORD.search(text) is None or _GLUED_PROSE.search(text) or _MARKDOWN_HEADING.match(text):
        # (a CI stamp is taken off only where the file is a CI log, as split_transcript knows; a
        # `### kubectl version` heading titles the code block below, whose own line runs it; a
        # line naming no kubectl, most lines of an output, is not asked again)
        return found
    typed = command_in(text)
    if typed is not None and _known(typed):
        return "kubectl", typed.text
    return found


# kubectl or what stands for it, as a word before an argument (commands.TOOLS): `kubectl`,
# `kubecolor`, `kc`, `k`, `oc`. Written from its first letter on, which Python's regex engine
# scans for fast (the alternatives alone cost 4 µs on each line of a 20,000-row table).
_TOOL_WORD = re.compile(r"[ko](?<![\w-][ko])(?:(?<=k)(?:ubectl|ubecolor|c)?|(?<=o)c)(?:\.exe)?\s")
# A markdown heading below the first level (`# ` is also a root prompt)
_MARKDOWN_HEADING = re.compile(r"^\s{0,3}#{2,6}\s")


def _typed_command(text: str) -> tuple[str, str] | None:
    """command_of_line by this module's prompts and wrappers alone."""
    stripped = unwatched(unbold(text.strip())) if text.lstrip().startswith("Every ") else unbold(text.strip())
    if not stripped:
        return None
    for prompt in _PROMPTS:
        m = prompt.match(stripped)
        if m is None:
            continue
        rest = stripped[m.end():].strip()
        if not rest:
            return None
        rest = _shell_script_command(rest) or unwatched(rest)
        if prompt is _PROMPTS[_THEME]:
            # a theme prompt shows the folder and git state before the command
            rest = _THEME_STATE.sub("", rest)
            if not rest:
                return None
        # a bare "% " also opens curl's progress meter ("% Total    % Received ...") in logs
        plain = (prompt.pattern == r"^[$#%] " and stripped[0] in "#%") or prompt.pattern == _XTRACE
        # `date; kubectl get pods -A`: the kubectl command, the `date` before it kept (split_transcript
        # makes it a block of its own, whose output dates the table)
        date = _DATE_CHAIN.match(rest)
        typed = rest[date.end():] if date is not None else rest
        if _KUBECTL.match(typed) and (cmd := _parsed(typed)) is not None and (not plain or _known(cmd)):
            return "kubectl", rest
        # "# " is also a markdown heading and a shell comment, "+ " a diff's added line: only a
        # kubectl or a well-known tool follows them here
        if plain:
            word = _WORD.match(rest)
            known = word is not None and word.group(0) in _KNOWN_TOOLS
            return ("command", rest) if known and (prompt.pattern == _XTRACE or stripped[0] == "%") else None
        word = _WORD.match(rest)
        if word and (prompt.pattern != r"^[$#%] " or len(rest) < 200):
            return "command", rest
        return None
    if _GLUED_PROSE.search(stripped):
        return None  # `kubectl get podは動きました。` ("kubectl get pod worked."): a sentence, no command
    # a writer's heading that names the command whose output follows (`kubectl get node:`)
    headed = unwatched(stripped[:-1].rstrip() if stripped.endswith(":") else stripped)
    if _KUBECTL.match(headed) and not headed.startswith("k ") and (cmd := _parsed(headed)) is not None \
            and _known(cmd):
        return "kubectl", headed
    if stripped.startswith("k ") and (cmd := _parsed(stripped)) is not None and cmd.verb in ("get", "describe", "top", "logs"):
        return "kubectl", stripped
    return None


# A word of a command glued to a word of another script (Japanese, Chinese, Korean prose write
# "kubectl get pod" inside a sentence without a space): no argument kubectl takes looks so.
_GLUED_PROSE = re.compile(r"[A-Za-z0-9][\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uff00-\uffef]")


# `bash -lc '...'`, `sh -c ...` (as CI and agents run commands, often shell-escaped by xtrace).
_SHELL_C = re.compile(r"^(?:ba|z|da)?sh\s+(?:-[a-z]*\s+)*-[a-z]*c[a-z]*\s+\S")
# Script steps that print nothing a reader needs: they do not make the script another program's.
_QUIET_STEP = re.compile(r"^(?:set|cd|export|source|\.|shopt|trap|umask)(?:\s|$)")


# `date` run before a kubectl command on one line (`date; kubectl ...`, `date && kubectl ...`), as
# people stamp what they paste: its first output line is the host's clock, then kubectl's output.
_DATE_CHAIN = re.compile(r"^date(?:\s+-u)?\s*(?:;|&&)\s*(?=\S)")


def date_chained(command_text: str) -> tuple[str, str] | None:
    """("date", the command after it) for a line that runs `date` before another command.

    >>> date_chained("date; kubectl get pods -A"), date_chained("kubectl get pods")
    (('date', 'kubectl get pods -A'), None)
    """
    m = _DATE_CHAIN.match(command_text)
    return (command_text[:m.end()].rstrip(" ;&"), command_text[m.end():]) if m is not None else None


def _shell_script_command(rest: str) -> str | None:
    """The kubectl command a `bash -c SCRIPT` line runs, when that is the script's one command
    besides settings (`set -o pipefail; kubectl get events -A | tail -n 40`); else None.

    >>> _shell_script_command(r"bash -lc set\\ -o\\ pipefail\\;\\ kubectl\\ get\\ events\\ -A\\ \\|\\ tail\\ -n\\ 40")
    'kubectl get events -A | tail -n 40'
    >>> _shell_script_command("sh -c 'kubectl get pods -n web && echo done'") is None
    True
    """
    if _SHELL_C.match(rest) is None:
        return None
    try:
        words = shlex.split(rest)
    except ValueError:
        return None
    at = next((i for i, w in enumerate(words[1:], 1) if w.startswith("-") and "c" in w[1:] and not w.startswith("--")), None)
    if at is None or at + 1 >= len(words):
        return None
    steps = [step.strip() for step in re.split(r";|&&|\n", words[at + 1]) if step.strip()]
    steps = [step for step in steps if not _QUIET_STEP.match(step)]
    if len(steps) != 1 or _KUBECTL.match(steps[0]) is None:
        return None
    return steps[0]


def _parsed(text: str) -> Command | None:
    return parse_command(normalise_command(text))


def _known(command: Command) -> bool:
    return command.verb.split()[0] in KUBECTL_VERBS


def normalise_command(text: str) -> str:
    """The command as plain `kubectl ...`: wrappers (sudo, microk8s, k3s, .exe) taken off.

    >>> normalise_command("sudo k3s kubectl get nodes"), normalise_command("kubectl.exe get po")
    ('kubectl get nodes', 'kubectl get po')
    >>> normalise_command("podman exec -it microshift oc describe node")
    'oc describe node'
    """
    m = _KUBECTL.match(text.strip())
    if m is None:
        return text
    tool = m.group(0).split()[-1] if m.group(0).split()[-1] != "--" else "kubectl"
    tool = tool.removesuffix(".exe").rsplit(".", 1)[-1]
    if tool not in ("kubectl", "oc", "k"):
        tool = "kubectl"
    return tool + text.strip()[m.end():]


def looks_like_transcript(text: str) -> bool:
    """Whether text is more than one kubectl output: two commands or more, fences around one,
    quoted or CI-stamped commands, a history listing, or a `$ kubectl logs` with its log. (One
    pasted `get` or `describe` with its output is read as it always was.)"""
    every_line = text.splitlines()
    lines = every_line[:_LOOK_LINES]
    commands = 0
    fenced = quoted = False
    stamp = _stamped(lines)
    quoting = _quoting(text, stamp)
    stamped_at = _stamped_lines(lines, stamp)
    # an indented prompt quotes a session, unless the file is a manifest (a README in a
    # ConfigMap shows commands indented too)
    head = next((ln for ln in lines if ln.strip() and not ln.lstrip().startswith("#")), "")
    manifest = _STRUCTURED_HEAD.match(head) is not None
    inline = kubectl = False
    # a fence at the start of a line: no YAML or JSON dump has one (a Corefile's `~~~~` in a
    # ConfigMap is indented in its block scalar)
    fence_line = False
    for at, raw in enumerate(lines):
        line = _clean(raw, at in stamped_at, quoting)
        if _FENCE_ANYWHERE.search(line):
            fenced = True
            fence_line = fence_line or (_FENCE.match(raw) is not None and not raw[:1].isspace())
            if inline:
                return True  # a write-up: a command in inline code, its output in a fence
        elif "`" in line and any((c := command_of_line(m.group(1))) is not None and c[0] == "kubectl"
                                 for m in _INLINE_CODE.finditer(line)):
            inline = True
        if _QUOTED.match(raw):
            quoted = True
        if CI_STEP.match(line):
            commands += 1
            continue
        if _K3S_RUNNING.match(line):
            return True  # k3s logs the kubectl command it runs: the output below is that command's
        found = command_of_line(line)
        if found is not None:
            commands += 2 if date_chained(found[1]) is not None else 1
            kubectl = kubectl or found[0] == "kubectl"
            if found[0] == "kubectl" and (fenced or quoted or at in stamped_at
                                          or (_indented_prompt(line) and not manifest)):
                return True
            if (found[0] == "kubectl" and not manifest and _KUBECTL.match(line.lstrip()) is None
                    and _verb(found[1]) == "logs"):
                return True  # `$ kubectl logs POD` and its log: no kubectl text reader reads a log
        if commands >= 2:
            return True
    if kubectl and quoted:
        return True  # a command typed plain, its output quoted below it (okd#1470: `>NAME ...`)
    if fence_line:
        return True  # a write-up whose fences hold YAML or JSON with prose between, no command
    # One command so far, and the file goes on (a cluster-info dump is thousands of lines): a
    # second command anywhere makes it a session, wherever its prompt is. Only prompt-shaped
    # lines are looked at; a dump without any prompt in its head never comes here.
    if commands == 1 and len(every_line) > _LOOK_LINES:
        rest = "\n".join(every_line[_LOOK_LINES:])
        return any(command_of_line(_clean(m.group(0), stamp, quoting)) is not None for m in _PROMPT_LINE.finditer(rest))
    return False


_LOOK_LINES = 4000
_INLINE_CODE = re.compile(r"`([^`\n]+)`")
# A line that may run a command behind a prompt (what command_of_line then judges).
_PROMPT_LINE = re.compile("|".join("(?:" + p.pattern.removeprefix("^") + ".*)" for p in _PROMPTS[:7])
                          .join(("^(?:", ")")), re.M)


# The first line of a manifest or a JSON dump (a `[root@host dir]# ` prompt opens no JSON array).
_STRUCTURED_HEAD = re.compile(r"^\s*(?:---|apiVersion:|kind:|items:|metadata:|\{|\[(?![^\]\n]{1,100}\]\s?[$#%] ))")
# A line quoted with `> ` that says something (a lone `>` is as often a log's or a shell's own).
_QUOTED = re.compile(r"^\s*>+ ?\S")


def _verb(command: str) -> str | None:
    parsed = _parsed(command)
    return parsed.verb if parsed is not None else None


def _indented_prompt(line: str) -> bool:
    """A prompt (not a bare `kubectl`) behind spaces: a session quoted by indenting it, as in a
    markdown list or a ticket."""
    stripped = line.lstrip(" \t")
    return len(stripped) < len(line) and _KUBECTL.match(stripped) is None


def _indent_of(text: str) -> int:
    return len(text) - len(text.lstrip(" "))


def _unindented(line: str, indent: int) -> str:
    """A fenced line without the fence's indent (markdown takes off up to that many spaces).

    >>> _unindented("    NAME   READY", 4), _unindented("  web-1", 4), _unindented("      x", 4)
    ('NAME   READY', 'web-1', '  x')
    """
    return line[min(indent, _indent_of(line)):]


def _dedent_output(block: Block) -> bool:
    """Take a prompt's indentation off the lines of its output when all of them share it
    (a session pasted with a uniform indent); True if it did."""
    if block.indent <= 0 or block.command_text is None:
        return False
    pad = block.pad or " " * block.indent
    out = block.output()
    if not any(ln.text.strip() for ln in out) or any(ln.text.strip() and not ln.text.startswith(pad) for ln in out):
        return False
    for ln in out:
        ln.text = ln.text[len(pad):]
    return True


def _stamped(lines: list[str]) -> bool:
    """A CI log: most of its first lines start with a timestamp, its command lines too. A
    command line without one says the times are its output's own: a pasted container log whose
    lines begin with their time (rancher/rke2#6220's `kubectl logs ... --all-containers`).

    >>> log = ["$ kubectl -n kube-system logs rke2-canal-fmk8g", "2024-06-18 17:55:23.199 [INFO][1] install.go 142: x",
    ...        "2024-06-18 17:55:53.767 [FATAL][1] install.go 482: y"]
    >>> _stamped(log), _stamped(["2024-06-18T17:55:23.1990000Z " + ln for ln in log])
    (False, True)
    """
    sample = [_ANSI.sub("", ln) for ln in lines[:300] if ln.strip()]
    if len(sample) < 2:
        return False
    hits = sum(1 for ln in sample if CI_PREFIX.match(ln))
    if hits * 2 < len(sample):
        return False
    return not any(not CI_PREFIX.match(ln) and command_of_line(ln) is not None for ln in sample)


# Lines of a run of stamped ones looked at for a command: a CI excerpt runs its command first.
_RUN_LOOK_LINES = 200


def _stamped_lines(lines: list[str], stamped: bool) -> frozenset[int]:
    """The lines (from 0) whose CI timestamp is taken off: every one of a CI log (`stamped`);
    else each run of stamped lines in which one, its stamp off, runs a command: a CI log's
    excerpt pasted into a ticket beside other output (oracle/cloudtestdrive#128's
    `[2021-04-25 13:02:15] + kubectl get pods`, then a describe's Events). A stamped run under a
    command typed without a stamp is that command's log, its times its own.

    >>> _stamped_lines(["[2021-04-25 13:02:15] + kubectl get pods", "[2021-04-25 13:02:18] NAME   READY",
    ...                 "", "Events:"], False)
    frozenset({0, 1})
    >>> _stamped_lines(["$ kubectl logs web-1 --timestamps", "2024-06-18T17:55:23.199Z + kubectl apply -f x.yaml",
    ...                 "2024-06-18T17:55:24.001Z deployment.apps/web configured"], False)
    frozenset()
    """
    if stamped:
        return frozenset(range(len(lines)))
    found: set[int] = set()
    run: list[int] = []
    typed: str | None = None  # the last line with text before the run
    for at in range(len(lines) + 1):
        if at < len(lines) and CI_PREFIX.match(line := _ANSI.sub("", lines[at])) and line.strip():
            run.append(at)
            continue
        if len(run) >= 2 and (typed is None or command_of_line(typed) is None) \
                and any(command_of_line(_clean(lines[i], True, quoting=False)) is not None
                        for i in run[:_RUN_LOOK_LINES]):
            found.update(run)
        run = []
        if at < len(lines) and lines[at].strip():
            typed = lines[at]
    return frozenset(found)


def _clean(raw: str, stamped: bool, quoting: bool = True) -> str:
    line = _ANSI.sub("", raw.rstrip("\r"))
    if stamped:
        line = CI_PREFIX.sub("", line, count=1)
    if quoting and line.lstrip(" ")[:1] == ">":
        line = BLOCKQUOTE.sub("", line, count=1)
    return line


# A line quoted with `> ` that says something, at the margin or in a list item (`> > ` quoted twice).
BLOCKQUOTED_TEXT = re.compile(r"^ {0,3}(?:> ?)+ *[^\s>]", re.M)


def _quoting(text: str, stamped: bool) -> bool:
    """Whether `>` at a line's start is quoting: some quoted line says something. (A file whose
    only `>` lines are lone ones, a log's or a shell's, keeps them as they are.)"""
    return stamped or BLOCKQUOTED_TEXT.search(text) is not None


def split_transcript(text: str) -> Transcript:
    """The blocks of a transcript, in file order, every line in exactly one block or a fence."""
    raw_lines = text.splitlines()
    stamped = _stamped(raw_lines)
    quoting = _quoting(text, stamped)
    stamped_at = _stamped_lines(raw_lines, stamped)
    unwrapped: list[str] = ["CI timestamps"] if stamped_at else []
    blocks: list[Block] = []
    current: Block | None = None
    in_fence = False
    # spaces before the open fence: markdown takes as many off each line inside it (a fence in
    # a list item, its output indented with it: ingress-nginx#9492)
    fence_indent = 0
    rst_indent: int | None = None  # the indent of the reStructuredText code block's directive, inside one
    quoted = False
    xtraced = False  # a kubectl command was traced (`+ kubectl get pods`): the log is a CI log
    clock: Block | None = None  # a `date` run before the open kubectl block, waiting for its output

    def close() -> None:
        nonlocal current
        if current is not None and current.lines:
            if current.kind == "text" and not any(ln.text.strip() for ln in current.lines):
                current = None  # blank lines between fences: nothing to account for
                return
            if _dedent_output(current) and "a uniform indent" not in unwrapped:
                unwrapped.append("a uniform indent")
            blocks.append(current)
        current = None

    for no, raw in enumerate(raw_lines, start=1):
        quoted = quoted or quoting and BLOCKQUOTED_TEXT.match(raw) is not None
        line = _clean(raw, no - 1 in stamped_at, quoting)
        if rst_indent is not None and line.strip():
            if _indent_of(line) <= rst_indent:
                in_fence, rst_indent, fence_indent = False, None, 0  # the text is back at the directive's indent
                close()
            elif not fence_indent:
                fence_indent = _indent_of(line)  # its content's indent, taken off each of its lines
        in_quote = quoting and not in_fence and BLOCKQUOTE.match(raw) is not None
        if in_fence and fence_indent:
            line = _unindented(line, fence_indent)
        if not in_fence and (directive := _RST_CODE_BLOCK.match(line)) is not None:
            close()
            in_fence, rst_indent, fence_indent = True, len(directive.group("indent")), 0
            if "reStructuredText code blocks" not in unwrapped:
                unwrapped.append("reStructuredText code blocks")
            continue
        fence = _FENCE.match(line)
        if fence is None and (m := _FENCE_ANYWHERE.search(line)) is not None:
            # a fence opened or closed on a line with text: the text before it is prose, the
            # text after it (not a language tag) is the block's first line
            before, after = line[:m.start()], line[m.end():]
            tag = re.match(r"^[\w+.#-]*", after).group(0)
            if tag.lower() not in _FENCE_LANGUAGES and after[len(tag):].strip():
                tag = ""  # `kubectl get pods`, `NAME  STATUS ...`: the block's first line, typed on the fence's
            rest = after[len(tag):].strip() if tag and not after[len(tag):len(tag) + 1].strip() else after.strip()
            if before.strip():
                close()
                current = Block("text", [TranscriptLine(no, before)])
                close()
            in_fence = not in_fence
            fence_indent = _indent_of(before) if in_fence and not before.strip() else 0
            close()
            if "markdown fences" not in unwrapped:
                unwrapped.append("markdown fences")
            if in_fence and rest:
                # a command (behind a prompt or not), else output: a table's header, a describe's Name:
                current = _start(no, rest, fenced=True) if tag or command_of_line(rest) is not None \
                    else Block("text", [TranscriptLine(no, rest)], fenced=True)
            continue
        if fence is not None:
            in_fence = not in_fence
            fence_indent = _indent_of(line) if in_fence else 0
            close()
            if "markdown fences" not in unwrapped:
                unwrapped.append("markdown fences")
            continue
        if current is not None and current.command_text is not None and len(current.lines) == 1 + current.continued \
                and current.command_text.endswith("\\") and line.strip():
            # the command goes on: typed over lines, each but the last ending in `\`, the shell's
            # `> ` before the next (taken off here, or as quoting)
            current.command_text = current.command_text[:-1].rstrip() + " " + _CONTINUED.sub("", line).strip()
            if current.kind == "kubectl":
                current.command = _parsed(current.command_text)
            current.lines.append(TranscriptLine(no, line))
            current.continued += 1
            continue
        if current is not None and line.lstrip()[:1] in _NO_COMMAND_START and line.strip():
            # a JSON body line (`"key": ...`, a bracket): no prompt, command or CI mark starts so;
            # a pasted dump of a million lines is read without asking each of them
            current.lines.append(TranscriptLine(no, line))
            continue
        if _CI_NOISE.match(line):
            continue
        step = CI_STEP.match(line)
        found = None
        if step is not None:
            cmd = step.group(1).strip()
            found = ("kubectl", cmd) if _KUBECTL.match(cmd) and _parsed(cmd) else ("command", cmd)
        else:
            found = command_of_line(line)
            if found is not None and re.match(_XTRACE, line.strip()):
                # a `+ grep` line is a shell's trace in a CI log whose commands are all traced
                # (one of them a kubectl), and output elsewhere: a describe prints the trace a
                # failing exec probe wrote (`Readiness probe failed: + unset X` and on)
                if found[0] != "kubectl" and not xtraced:
                    found = None
                xtraced = xtraced or found is not None
        if found is None and in_fence and (word := _WORD.match(line.strip())) and word.group(0) in _KNOWN_TOOLS \
                and (current is None or current.kind != "history") \
                and _indent_of(line) <= (current.indent if current is not None else 0):
            # `helm list` alone on a line of a code block; a word indented deeper than the block
            # is a value of its output (a describe's `Organizations:` lists `aws`:
            # cert-manager/aws-privateca-issuer#291)
            found = ("command", line.strip())
        if found is None and _bare_prompt(line):
            close()  # a prompt with nothing typed after it: the session's last line, or a pause
            continue
        if found is not None and current is not None and current.command_text == found[1] \
                and len(current.lines) == 1 and step is None:
            continue  # a CI step echoes its command on the next line
        if found is not None and not (current is not None and current.kind == "history" and _HISTORY_LINE.match(line)):
            close()
            clock = None
            chained = date_chained(found[1]) if found[0] == "kubectl" else None
            if chained is not None:
                # `date; kubectl ...`: `date` is a block of its own, before the kubectl one
                clock = Block("command", [TranscriptLine(no, chained[0])], command_text=chained[0], fenced=in_fence)
                blocks.append(clock)
                found = ("kubectl", chained[1])
            current = _start(no, found[1], fenced=in_fence, kind=found[0])
            # a session indented by spaces, or by a tab (a markdown code block: k3s#10010)
            current.pad = line[:len(line) - len(line.lstrip(" \t"))]
            current.indent = len(current.pad)
            if current.kind == "command" and (current.command_text or "").split()[:1] == ["history"]:
                current.kind = "history"
            continue
        if clock is not None and current is not None and line.strip():
            if len(current.lines) == 1 and parse_stated_time(line) is not None:
                clock.lines.append(TranscriptLine(no, line))  # what `date` printed, before kubectl's output
                clock = None
                continue
            clock = None
        if current is not None and current.pad and line.strip() and not line.startswith(current.pad) \
                and current.command_text is not None and current.lines and not current.lines[-1].text.strip():
            # an indented session's output ends where, after a blank line, the text comes back
            # to the margin: the write-up's prose goes on (k3s#10010: a tab-indented code block)
            close()
        if current is not None and current.kind == "text" and not in_fence and current.quoted != in_quote:
            close()  # a blockquote begins or ends: its lines are a block of their own
        if current is None:
            current = Block("text", [], fenced=in_fence, quoted=in_quote)
        elif current.kind == "text" and not line.strip() and not in_fence and not in_quote:
            # prose is cut at blank lines, so each paragraph is accounted for on its own
            close()
            continue
        current.lines.append(TranscriptLine(no, line))
    close()
    if quoted:
        unwrapped.append("quoting")
    return Transcript(_k3s_ran(_merge_history(blocks)), unwrapped)


_NO_COMMAND_START = frozenset('"{}],')
_CONTINUED = re.compile(r"^\s*>\s?")  # the shell's prompt for a command's next line
_OUTPUT_FLAG = re.compile(r"(?:-o|--output)[ =]?(?:yaml|json)")
_DOCUMENT_START = re.compile(r"\s*(?:[{\[]|apiVersion:|kind:|items:|---)")


def split_glued_output(command_text: str) -> tuple[str, str | None]:
    """A command whose YAML/JSON output starts on the prompt line: (command, first output line).

    >>> split_glued_output("kubectl get pod web -o yamlapiVersion: v1")
    ('kubectl get pod web -o yaml', 'apiVersion: v1')
    >>> split_glued_output('kubectl get no n1 -o json {"apiVersion": "v1",')
    ('kubectl get no n1 -o json', '{"apiVersion": "v1",')
    >>> split_glued_output("kubectl get pods -o yaml")
    ('kubectl get pods -o yaml', None)
    """
    flag = _OUTPUT_FLAG.search(command_text)
    if flag is None:
        return command_text, None
    # the first place after the flag where a document starts (after the flag's own word)
    for m in re.finditer(r"(?<=yaml)|(?<=json)|\s(?=\S)", command_text[flag.start():]):
        at = flag.start() + m.end()
        if at < flag.end():
            continue
        doc = _DOCUMENT_START.match(command_text, at)
        if doc is not None and command_text[at:].strip():
            return command_text[:at].rstrip(), command_text[at:].strip()
    return command_text, None


def _bare_prompt(line: str) -> bool:
    """A prompt with nothing typed after it (`user@host:~$`, `PS C:\\>`, `C:\\Users\\me>`)."""
    stripped = line.strip()
    if not stripped or stripped in ("$", "#", "%", ">"):
        return stripped in ("$", "%")
    return any((m := p.match(stripped + " ")) is not None and not stripped[m.end():].strip()
               for p in _PROMPTS[:4])


def _start(no: int, command_text: str, fenced: bool, kind: str | None = None) -> Block:
    if kind is None:
        # text after a fence on its line: a prompt may come before the command
        # (```[root@qa065 ~]# kubectl logs ..., coredns/coredns#2391)
        kind, command_text = command_of_line(command_text) or ("command", command_text)
    found = kind
    glued = None
    if found == "kubectl":
        command_text, glued = split_glued_output(command_text)
    block = Block(found, [TranscriptLine(no, command_text)], command_text=command_text, fenced=fenced)
    if found == "kubectl":
        block.command = _parsed(command_text)
    if glued is not None:
        block.lines.append(TranscriptLine(no, glued))
        block.notes.append("output began on the prompt line")
    return block


# k3s's one binary, run with its debug on (an alias for `k3s kubectl`, K3S_DEBUG set), logs what it
# runs before kubectl's own output: `DEBU[0000] Running <data dir>/bin/kubectl [kubectl ARGS]`.
_K3S_RUNNING = re.compile(r"^\s*DEBU\[\d+\]\s+Running \S*/kubectl \[(kubectl [^\]]*)\]\s*$")
_K3S_DEBUG = re.compile(r"^\s*DEBU\[\d+\]\s")


def _k3s_ran(blocks: list[Block]) -> list[Block]:
    """A command whose output opens with k3s's debug line naming the kubectl it ran (k3s-io/k3s#12600:
    `kspd POD`, an alias) is that kubectl command from that line on; the lines before it stay the
    typed command's."""
    out: list[Block] = []
    for block in blocks:
        lines = block.output() if block.kind in ("command", "kubectl") else []
        lead = 0
        while lead < len(lines) and _K3S_DEBUG.match(lines[lead].text) and not _K3S_RUNNING.match(lines[lead].text):
            lead += 1
        ran = _K3S_RUNNING.match(lines[lead].text) if lead < len(lines) else None
        command = _parsed(ran.group(1)) if ran is not None else None
        if command is None or not _known(command):
            out.append(block)
            continue
        typed = len(block.lines) - len(lines)
        block.lines, rest = block.lines[:typed + lead], block.lines[typed + lead:]
        out.append(block)
        # (run by the k3s binary: `k3s kubectl`, as the transcript's client)
        kubectl = Block("kubectl", rest, command_text=f"k3s {ran.group(1)}", command=command, fenced=block.fenced)
        kubectl.notes.append(f"the kubectl that k3s says '{block.command_text}' ran")
        out.append(kubectl)
    return out


def _merge_history(blocks: list[Block]) -> list[Block]:
    """A run of numbered command lines (`history` output pasted without its own command) is one
    history block, not a command per line."""
    out: list[Block] = []
    for block in blocks:
        if block.kind == "text" and len(block.lines) >= 2 and all(
            _HISTORY_LINE.match(ln.text) for ln in block.lines if ln.text.strip()
        ) and any(command_of_line(re.sub(r"^\s*\d+\*?\s+", "", ln.text)) for ln in block.lines):
            block.kind = "history"
        out.append(block)
    return out
