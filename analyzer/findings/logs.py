"""Log signature matches as the rules need them: per pod, dump-wide patterns, and as evidence."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from analyzer.findings.types import Evidence, Finding
from analyzer.model.logsignatures import ContainerLogMatch, container_log_matches

if TYPE_CHECKING:
    from analyzer.findings.dump import AnalyzedDump

# A signature is dump-wide when it is in at least this share of the dump's logs (and in at
# least DUMP_WIDE_MIN_LOGS of them): then it says something about the capture or the whole
# cluster, and is reported once rather than once per pod.
DUMP_WIDE_SHARE = 0.5
DUMP_WIDE_MIN_LOGS = 3
# Rules whose findings are about logs already (nothing to append to them).
LOG_RULES = frozenset({"pod-log-errors", "logs-dump-wide-pattern"})
# Evidence lines quoted per signature and log.
QUOTED_PER_SIGNATURE = 2


@dataclass(frozen=True, slots=True)
class DumpWidePattern:
    """A signature found in most logs of the dump."""

    signature_id: str
    logs: int
    total_logs: int
    examples: tuple[ContainerLogMatch, ...]


def log_evidence(match: ContainerLogMatch) -> Evidence:
    """A quoted log line as evidence: the file, the line in it, and the line itself."""
    log = match.log
    container = f"{log.container or '?'}{' previous' if log.previous else ''}"
    return Evidence(field=f"log[{container}] {match.match.signature.id}", seen=match.match.text,
                    expected=None, source=match.file, line=match.file_line)


def dump_wide_patterns(cluster: AnalyzedDump) -> list[DumpWidePattern]:
    """Signatures marked dump_wide that are in most of the dump's logs."""
    total = len(cluster.logs)
    if total < DUMP_WIDE_MIN_LOGS:
        return []
    by_sig: dict[str, dict[int, ContainerLogMatch]] = defaultdict(dict)
    for m in container_log_matches(cluster):
        if m.match.signature.dump_wide:
            by_sig[m.match.signature.id].setdefault(id(m.log), m)
    found = []
    for sig_id, per_log in sorted(by_sig.items()):
        if len(per_log) >= DUMP_WIDE_MIN_LOGS and len(per_log) >= DUMP_WIDE_SHARE * total:
            found.append(DumpWidePattern(sig_id, len(per_log), total, tuple(list(per_log.values())[:3])))
    return found


def matches_by_pod(cluster: AnalyzedDump, skip: frozenset[str] = frozenset()) -> dict[tuple[str, str], list[ContainerLogMatch]]:
    """(namespace, pod) -> its log matches, leaving out the signature ids in `skip`."""
    pods: dict[tuple[str, str], list[ContainerLogMatch]] = defaultdict(list)
    for m in container_log_matches(cluster):
        if m.match.signature.id not in skip:
            pods[(m.log.namespace, m.log.pod)].append(m)
    return pods


def quoted(matches: list[ContainerLogMatch]) -> list[ContainerLogMatch]:
    """The lines worth quoting: per log and signature, the last QUOTED_PER_SIGNATURE matches,
    current ones and a previous container's last words first."""
    groups: dict[tuple[int, str], list[ContainerLogMatch]] = defaultdict(list)
    for m in matches:
        groups[(id(m.log), m.match.signature.id)].append(m)
    picked = [m for group in groups.values() for m in group[-QUOTED_PER_SIGNATURE:]]
    return sorted(picked, key=lambda m: (not m.current, not m.log.previous, m.file, m.file_line))


def evidence_for_pod(cluster: AnalyzedDump, namespace: str, pod: str, limit: int = 3,
                     by_pod: dict[tuple[str, str], list[ContainerLogMatch]] | None = None) -> list[Evidence]:
    """Log lines that explain a pod's state: current matches, and a previous container's last
    words (the lines it exited with); at most `limit`. `by_pod`: matches_by_pod, if at hand."""
    if by_pod is None:
        by_pod = matches_by_pod(cluster, frozenset(p.signature_id for p in dump_wide_patterns(cluster)))
    matches = by_pod.get((namespace, pod), [])
    wanted = [m for m in matches if m.current or (m.log.previous and _last_words(m))]
    return [log_evidence(m) for m in quoted(wanted)[:limit]]


def _last_words(m: ContainerLogMatch) -> bool:
    text = m.log.text
    total = text.count("\n") + (0 if text.endswith("\n") else 1)
    return m.match.line > total - 5


def with_log_evidence(findings: list[Finding], cluster: AnalyzedDump) -> list[Finding]:
    """Findings about a pod, with the log lines that explain it appended to their evidence."""
    if not cluster.logs:
        return findings
    by_pod = matches_by_pod(cluster, frozenset(p.signature_id for p in dump_wide_patterns(cluster)))
    out = []
    for f in findings:
        # (a problem resolved since keeps its story: a restart's last words say why it restarted)
        if f.status == "fail" and f.kind == "Pod" and f.rule not in LOG_RULES \
                and (f.severity != "info" or f.resolved):
            extra = evidence_for_pod(cluster, f.namespace, f.name, by_pod=by_pod)
            if extra:
                f = replace(f, evidence=(*f.evidence, *extra))
        out.append(f)
    return out
