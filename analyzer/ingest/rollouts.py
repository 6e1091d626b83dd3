"""`kubectl rollout status`'s verdicts a paste quotes, one per Deployment, DaemonSet or StatefulSet
it watched.

kubectl prints a line each time what it watches changes (`Waiting for deployment "web" rollout to
finish: 1 out of 2 new replicas have been updated...`) and ends with `deployment "web"
successfully rolled out`, or with an error: the Deployment's own verdict (`error: deployment "web"
exceeded its progress deadline`, its Progressing condition False, ProgressDeadlineExceeded) or
its own `--timeout` running out (`error: timed out waiting for the condition`). No object carries
these lines, yet they are the workload's state when the command ran (kubernetes/kubernetes#95550,
a CI log's `rollout status` after `apply`; Deepomatic/dmake#475).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from analyzer.ingest.text.catalog import catalog
from analyzer.ingest.text.commands import Command, command_in

_NAME = r'"(?P<name>[a-z0-9][a-z0-9.-]*)"'
# kubectl's words (polymorphichelpers/rollout_status.go); Argo CD says the same of a Deployment
# with a capital D
_WAITING = re.compile(rf"Waiting for (?P<kind>deployment|daemon set) {_NAME} rollout to finish: "
                      r"(?P<said>[^\n]*?)\.*[ \t]*$", re.M)
# kubectl before 1.10 named no workload in its wait (`Waiting for rollout to finish: 0 of 2 updated
# pods are available...`): the command above it names it
_UNNAMED_WAITING = re.compile(r"Waiting for rollout to finish: (?P<said>[^\n]*?)\.*[ \t]*$", re.M)
# A StatefulSet's waits and end name no StatefulSet either (`Waiting for 1 pods to be ready...`,
# `statefulset rolling update complete 3 pods at revision zk-5db4499664...`)
_STATEFUL_WAITING = re.compile(r"(?:Waiting for (?P<ready>\d+ pods to be ready)"
                               r"|[Ww]aiting for (?P<said>statefulset rolling update to complete \d+ pods at revision \S+?"
                               r"|partitioned roll out to finish: [^\n]*?))\.*[ \t]*$", re.M)
_STATEFUL_DONE = re.compile(r"(?:statefulset rolling update complete|partitioned roll out complete)\b")
_TIMED_OUT = re.compile(rf"\b(?P<kind>[Dd]eployment) {_NAME} exceeded its progress deadline")
_DONE = re.compile(rf"\b(?P<kind>deployment|daemon set) {_NAME} successfully rolled out")
_GAVE_UP = re.compile(r"\berror: timed out waiting for the condition")
# Where a `rollout status` command line may be; command_in reads it (its prompt, a CI step or
# trace, sudo and the distribution's wrapper, its flags)
_ROLLOUT_STATUS = re.compile(r"\brollout\s+status\b")
# A name or namespace as written: a variable (`${NS}`) or a placeholder (`<ns>`) names none
_DNS_NAME = re.compile(r"[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?")
_KINDS = {"deployment": "Deployment", "daemon set": "DaemonSet"}
# A `timed out waiting for the condition` is about the wait just before it, a line or two above.
_GAVE_UP_WITHIN = 2


@dataclass(frozen=True, slots=True)
class RolloutVerdict:
    """What `kubectl rollout status` last said of one workload: where (the line it began saying
    it), the workload (its namespace "" when the paste does not name it), and its state:
    "timed out" (its progress deadline exceeded), "gave up" (kubectl's --timeout ran out while it
    waited), "waiting" (the paste ends while it waits) or "done"; `said` is kubectl's last count
    of its progress ("1 out of 2 new replicas have been updated"), "" when it printed none."""

    source: str
    line: int
    kind: str
    name: str
    namespace: str
    state: str
    said: str


def rollout_verdicts(text: str, source: str) -> list[RolloutVerdict]:
    """The last verdict of `kubectl rollout status` on each workload a text quotes, in file order.

    >>> (v,) = rollout_verdicts('/usr/bin/kubectl rollout status Deployment/web --namespace shop\\n'
    ...     'Waiting for deployment "web" rollout to finish: 1 out of 2 new replicas have been updated...\\n'
    ...     'error: deployment "web" exceeded its progress deadline\\n', "ci.log")
    >>> v.kind, v.namespace, v.name, v.state, v.line, v.said
    ('Deployment', 'shop', 'web', 'timed out', 3, '1 out of 2 new replicas have been updated')
    >>> [(v.name, v.state) for v in rollout_verdicts('Waiting for daemon set "fluentd" rollout to finish: '
    ...     '0 of 3 updated pods are available...\\nerror: timed out waiting for the condition\\n', "x")]
    [('fluentd', 'gave up')]
    >>> [(v.kind, v.namespace, v.name, v.state, v.said) for v in rollout_verdicts(
    ...     '$ kubectl rollout status daemonset/cilium -n kube-system\\n'
    ...     'Waiting for rollout to finish: 1 of 2 updated pods are available...\\n', "x")]
    [('DaemonSet', 'kube-system', 'cilium', 'waiting', '1 of 2 updated pods are available')]
    >>> [(v.kind, v.name, v.state, v.said) for v in rollout_verdicts('$ kubectl rollout status sts/zk\\n'
    ...     'Waiting for 1 pods to be ready...\\nerror: timed out waiting for the condition\\n', "x")]
    [('StatefulSet', 'zk', 'gave up', '1 pods to be ready')]
    """
    if "rollout" not in text and "progress deadline" not in text:
        return []
    said: list[tuple[int, str, str, str, str]] = []  # (offset, kind, name, state, words)
    for pattern, state in ((_WAITING, "waiting"), (_TIMED_OUT, "timed out"), (_DONE, "done")):
        for m in pattern.finditer(text):
            words = m.group("said").strip() if state == "waiting" else ""
            said.append((m.start(), _KINDS[m.group("kind").lower()], m.group("name"), state, words))
    unnamed = [(m, "waiting", m.group("said")) for m in _UNNAMED_WAITING.finditer(text)]
    if "pods" in text or "roll out" in text:
        unnamed += [(m, "waiting", m.group("ready") or m.group("said")) for m in _STATEFUL_WAITING.finditer(text)]
        unnamed += [(m, "done", "") for m in _STATEFUL_DONE.finditer(text)]
    for m, state, words in unnamed:
        watched = _watched(_command_before(text, m.start()))
        if watched is not None and watched[1]:
            said.append((m.start(), watched[0], watched[1], state, words.strip()))
    said.sort()
    for m in _GAVE_UP.finditer(text):
        last = next((s for s in reversed(said) if s[0] < m.start()), None)
        if last is not None and last[3] == "waiting" and text.count("\n", last[0], m.start()) <= _GAVE_UP_WITHIN:
            said.append((m.start(), last[1], last[2], "gave up", ""))
    said.sort()
    verdicts: dict[tuple[str, str], RolloutVerdict] = {}
    for offset, kind, name, state, words in said:
        earlier = verdicts.get((kind, name))
        if earlier is not None and earlier.state == state and state != "waiting":
            continue  # said again (a CI step that echoes its error): it began where it was first said
        progress = words or (earlier.said if earlier is not None and state != "done" else "")
        verdicts[(kind, name)] = RolloutVerdict(source, text.count("\n", 0, offset) + 1, kind, name,
                                                _namespace(text, offset, name), state, progress)
    return sorted(verdicts.values(), key=lambda v: v.line)


def _command_before(text: str, at: int) -> Command | None:
    """The last `rollout status` command a line before offset `at` runs (None when none does):
    a line that only names it (a writer's words, an echo) is passed over; one indented (a
    session quoted in a write-up's code block) is read as typed.

    >>> text = ("$ kubectl rollout status deploy/web -n shop\\n"
    ...         "(the same command in another terminal: kubectl rollout status deploy/web -n other)\\n")
    >>> _command_before(text, len(text)).namespace
    'shop'
    """
    for m in reversed(list(_ROLLOUT_STATUS.finditer(text, 0, at))):
        end = text.find("\n", m.end())
        command = command_in(text[text.rfind("\n", 0, m.start()) + 1:end if end >= 0 else len(text)].lstrip())
        if command is not None and command.verb == "rollout status":
            return command
    return None


def _watched(command: Command | None) -> tuple[str, str] | None:
    """(kind, name) of the workload a `rollout status` command watches (`deploy/web`,
    `deployment web`, `Deployment.v1.apps/web`), its name "" when a variable gives it; None
    when it names no Deployment, DaemonSet or StatefulSet.

    >>> from analyzer.ingest.text.commands import parse_command
    >>> _watched(parse_command("kubectl rollout status deployment.v1.apps/capstone-project"))
    ('Deployment', 'capstone-project')
    >>> _watched(parse_command('kubectl rollout status "deploy/${VLLM_DEPLOY}" --timeout=30m'))
    ('Deployment', '')
    """
    if command is None or not command.resources:
        return None
    info = catalog().for_resource(command.resources[0].split(".", 1)[0].lower())
    if info is None or info.kind not in ("Deployment", "DaemonSet", "StatefulSet"):
        return None
    name = command.names[0] if command.names else ""
    return info.kind, name if _DNS_NAME.fullmatch(name) else ""


def _namespace(text: str, at: int, name: str) -> str:
    """The namespace the last `rollout status` command line before offset `at` names, when that
    command watches the workload of that name (or names it through a variable); "" else."""
    command = _command_before(text, at)
    watched = _watched(command)
    if command is None or watched is not None and watched[1] and watched[1] != name:
        return ""
    namespace = command.namespace or ""
    return namespace if _DNS_NAME.fullmatch(namespace) else ""
