"""What a pasted `kubeadm upgrade plan`, `apply` or `node` run says: the versions it read and
chose, and, when it failed, why.

kubeadm prints its steps as `[phase] words` lines:

    [upgrade/version] You have chosen to change the cluster version to "v1.9.2"
    [upgrade/versions] Cluster version: v1.9.1
    [upgrade/versions] kubeadm version: v1.9.2
    [upgrade/apply] FATAL: couldn't upgrade control plane. kubeadm has tried to recover everything
    into the earlier state. Errors faced: [timed out waiting for the condition]

Since 1.13 a failure is `error execution phase PHASE: ...` (`kubeadm upgrade node`) or still
`[upgrade/apply] FATAL: ...`; a failed preflight lists its checks as `[ERROR Check]: why`. The
control plane's static pods are replaced one by one, and kubeadm waits five minutes for the
kubelet to restart each: `static Pod hash for component C on Node N did not change after 5m0s`
names which, and kubeadm then restores the earlier manifests.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# one run: the command, else its first `[upgrade` line
_RUN = re.compile(r"^[^\n]*?\bkubeadm\s+upgrade\s+(?P<verb>plan|apply|node)\b[^\n]*$|^\[upgrade[/\]]", re.M)
_COMMAND_TARGET = re.compile(r"\bkubeadm\s+upgrade\s+apply\s+(?:--version[=\s]+)?(?P<v>v\d+\.\d+\.\d+[\w.+-]*)")
_TARGET = re.compile(r'\[upgrade/version\] You have chosen to change the cluster version to \\?"(?P<v>v\d[\w.+-]*)\\?"')
_CLUSTER = re.compile(r"\[upgrade/versions\] Cluster version: (?P<v>v\d[\w.+-]*)")
_KUBEADM = re.compile(r"\[upgrade/versions\] kubeadm version: (?P<v>v\d[\w.+-]*)")
_SUCCESS = re.compile(r'\[upgrade/successful\] SUCCESS! Your cluster was upgraded to \\?"(?P<v>v\d[\w.+-]*)'
                      r"|\[upgrade\] The (?:control plane instance|configuration) for this node was successfully updated")
_FAILED = re.compile(r"\[upgrade/(?P<phase>[\w-]+)\] FATAL:?\s*(?P<why>[^\n]*)"
                     r"|error execution phase (?P<exec>[\w/-]+):\s*(?P<exec_why>[^\n]*)")
_CHECK = re.compile(r"\[ERROR (?P<check>[\w-]+)\]:\s*(?P<why>[^\n]*)")
_HASH = re.compile(r"static Pod hash for component (?P<component>[\w-]+) on Node (?P<node>[\w.-]+) did not change")
_ROLLED_BACK = re.compile(r"kubeadm has tried to recover everything into the earlier state|Etcd was rolled back")
_MAX_WHY = 300


@dataclass(frozen=True, slots=True)
class KubeadmUpgrade:
    """One `kubeadm upgrade` run a paste shows: where it starts, its verb ("" when the command is
    not in the paste), the cluster and kubeadm versions it read, the version it was to reach,
    whether it said it succeeded, and, when it failed, the line, reason and, where said, the
    preflight check or the control plane component and node whose static pod did not restart."""

    source: str
    line: int
    verb: str
    cluster_version: str
    kubeadm_version: str
    target: str
    succeeded: bool
    failure: str = ""
    failure_line: int = 0
    check: str = ""
    component: str = ""
    node: str = ""
    rolled_back: bool = False


def kubeadm_upgrades(text: str, source: str) -> list[KubeadmUpgrade]:
    """Every `kubeadm upgrade` run of a text, in file order (a run without a word of its
    versions, its success or its failure is none).

    >>> (u,) = kubeadm_upgrades('[upgrade/version] You have chosen to change the cluster version to "v1.9.2"\\n'
    ...     "[upgrade/versions] Cluster version: v1.9.1\\n[upgrade/versions] kubeadm version: v1.9.2\\n"
    ...     "[upgrade/apply] FATAL: couldn't upgrade control plane. kubeadm has tried to recover everything into "
    ...     "the earlier state. Errors faced: [timed out waiting for the condition]", "t")
    >>> u.cluster_version, u.target, u.succeeded, u.failure_line, u.rolled_back
    ('v1.9.1', 'v1.9.2', False, 4, True)
    """
    if "[upgrade" not in text and "kubeadm upgrade" not in text:
        return []
    starts = [(m.start(), m.group("verb") or "") for m in _RUN.finditer(text)
              if m.group("verb") or _starts_run(text, m.start())]
    if not starts and (quoted := text.find("[upgrade")) >= 0:  # its lines quoted within others' (`error: [upgrade/...`)
        block = text.rfind("\n\n", 0, quoted)
        starts = [(block + 2 if block >= 0 else 0, "")]
    found = []
    for index, (at, verb) in enumerate(starts):
        end = starts[index + 1][0] if index + 1 < len(starts) else len(text)
        run = text[at:end]
        cluster, kubeadm, target = (_first(p, run) for p in (_CLUSTER, _KUBEADM, _TARGET))
        target = target or _first(_COMMAND_TARGET, run[:run.find("\n") + 1 or len(run)])
        success = _SUCCESS.search(run)
        failed = _FAILED.search(run)
        if not (cluster or target or success or failed):
            continue
        line = text.count("\n", 0, at) + 1
        if failed is None or (success is not None and success.start() > failed.start()):
            found.append(KubeadmUpgrade(source, line, verb, cluster, kubeadm,
                                        target or (success.group("v") or "" if success else ""), success is not None))
            continue
        why = (failed.group("why") if failed.group("phase") else failed.group("exec_why")) or ""
        # a failed preflight lists its checks under its FATAL line (before 1.30), or above it
        checks = list(_CHECK.finditer(run))
        check = checks[0] if checks else None
        hashed = _HASH.search(run, failed.start())
        if check is not None and ("fatal errors occurred" in why or "preflight checks failed" in why):
            why = check.group("why") + (f" (and {len(checks) - 1} more failed check(s))" if len(checks) > 1 else "")
        found.append(KubeadmUpgrade(
            source, line, verb, cluster, kubeadm, target, False, why.strip()[:_MAX_WHY],
            line + run.count("\n", 0, failed.start()), check.group("check") if check else "",
            hashed.group("component") if hashed else "", hashed.group("node") if hashed else "",
            bool(_ROLLED_BACK.search(run, failed.start()))))
    return found


def _starts_run(text: str, at: int) -> bool:
    """Whether an `[upgrade` line at `at` opens a run: no `kubeadm upgrade` command and no other
    `[upgrade` line since the last blank line before it."""
    block = text.rfind("\n\n", 0, at)
    before = text[block + 2 if block >= 0 else 0:at]
    return "[upgrade" not in before and not re.search(r"\bkubeadm\s+upgrade\s+(?:plan|apply|node)\b", before)


def _first(pattern: re.Pattern[str], text: str) -> str:
    found = pattern.search(text)
    return found.group("v") if found else ""
