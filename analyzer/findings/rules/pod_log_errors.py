"""Known error lines in a pod's container logs (the catalog in analyzer/model/data/log_signatures.yaml)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import timedelta

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import age_text, objects_named
from analyzer.findings.logs import dump_wide_patterns, log_evidence, matches_by_pod, quoted
from analyzer.findings.types import SEVERITIES, Finding, RuleMeta
from analyzer.model.logsignatures import MIN_REPEATS, STARTUP_GRACE, line_time

RULE = RuleMeta(
    id="pod-log-errors", title="Known error lines in container logs", severity="warning",
    category="workloads",
    message="{object}: {lines} log line(s) match {signature} ({state}): {meaning}",
    remediation="Read the quoted lines in context; the signature's meaning names the usual cause. Lines only from start-up or from a previous container are history unless they repeat.",
)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    if not cluster.logs:
        yield RULE.not_applicable("the dump holds no container logs")
        return
    dump_wide = frozenset(p.signature_id for p in dump_wide_patterns(cluster))
    by_pod = matches_by_pod(cluster, dump_wide)
    ended = _ended_in_error(cluster, {pod for pod, matches in by_pod.items() if any(m.current for m in matches)})
    for (namespace, pod), matches in sorted(by_pod.items()):
        current = [m for m in matches if m.current]
        ranked = current or matches
        # The most severe signature (ties: the one with most lines) names the finding.
        counts: dict[str, int] = {}
        for m in ranked:
            counts[m.match.signature.id] = counts.get(m.match.signature.id, 0) + 1
        top = min(ranked, key=lambda m: (SEVERITIES.index(m.match.signature.severity),
                                         -counts[m.match.signature.id])).match.signature
        severity = top.severity if current else "info"
        evidence = [log_evidence(m) for m in quoted(ranked)[:5]]
        quiet = next((m.quiet_since for m in matches if m.quiet_since), None)
        answered = next((m.api_server_since for m in matches if m.api_server_since), None)
        if current and all(m.match.signature.exits and m.match.line == m.log.line_count for m in current):
            state = "the last line of its log: the process exited on it"
        elif current and (namespace, pod) in ended:
            state = "the last words of its container, which ended in an error and stays ended"
        elif current:
            state = "still coming at capture"
        elif any(m.orphan for m in matches):
            state = "history: the dump holds no pod of that name, a log left by an earlier capture"
        elif answered is not None:
            # an API server restarting (a revision rollout) refuses its clients meanwhile
            state = (f"history: the API server {answered[0]} was ready again at {answered[1]:%Y-%m-%d %H:%M}Z, "
                     "after them, and every API server of the dump runs ready")
        elif quiet is not None:
            # untimed lines a replica started later never logged: older than its start
            state = f"history: replica {quiet[0]}, started {quiet[1]:%Y-%m-%d %H:%M}Z, never logged them"
        elif (last := _last_in_current_log(cluster, matches)) is not None:
            # timed lines of the container that still runs, days after its start: not start-up
            state = f"history: in its current log, the last {age_text(last)} before capture, none since"
        elif sum(m.untimed_in_tail for m in matches) >= MIN_REPEATS:
            # (coredns's informers each failing once in an etcd leader election, then quiet)
            state = "history: a burst near the end of its log, untimed, no line of it repeated"
        else:
            state = "history: start-up or a previous container"
        finding = RULE.fail(
            None, *evidence, kind="Pod", namespace=namespace, name=pod,
            signature=top.id, meaning=next(m.match.meaning for m in reversed(ranked) if m.match.signature is top),
            lines=counts[top.id],
            signatures=sorted({m.match.signature.id for m in matches}),
            state=state,
            current=bool(current),
        )
        yield replace(finding, severity=severity) if severity != finding.severity else finding


# How many first lines of a log may go by before one says when the log began.
FIRST_LINES = 20


def _last_in_current_log(cluster: AnalyzedDump, matches: list) -> timedelta | None:
    """How long before the capture the last of `matches` was logged, when all of them are
    lines of current (not previous) logs that say when; None otherwise."""
    if any(m.log.previous for m in matches):
        return None
    # the capture of the file the log was read from (a stitched dump's files have their own)
    estimate = getattr(cluster, "capture", None)
    captures = {estimate.time_for(m.log.source) if estimate is not None else cluster.capture_time for m in matches}
    capture = next(iter(captures)) if len(captures) == 1 else None
    if capture is None:
        return None
    times = [m.time(capture.year) for m in matches]
    if not times or any(t is None for t in times):
        return None
    last = max(times)
    for log in {id(m.log): m.log for m in matches}.values():
        # its first timed line (a banner such as coredns's `.:53` says no time)
        head = log.text.split("\n", FIRST_LINES)[:FIRST_LINES]
        started = next((t for t in (line_time(line, capture.year) for line in head) if t is not None), None)
        if started is None or last - started <= STARTUP_GRACE:
            return None  # start-up noise, or no start to tell it from: the fallback says so
    ago = capture - last
    return ago if ago >= timedelta(0) else None


def _ended_in_error(cluster: AnalyzedDump, wanted: set[tuple[str, str]]) -> set[tuple[str, str]]:
    """Of the (namespace, pod) wanted, those whose containers have all ended, one in an error (a
    Job's failed pod): what their logs say last is not "still coming"."""
    out: set[tuple[str, str]] = set()
    pods = objects_named(cluster, "Pod")  # (the rules' index)
    for key in wanted:
        pod = pods.get(key)
        if pod is None:
            continue
        states = [cs.state for cs in pod.view.status.containerStatuses or ()]
        if states and all(st is not None and st.terminated for st in states) \
                and any(st.terminated.exitCode for st in states if st is not None and st.terminated):
            out.add((pod.namespace, pod.name))
    return out
