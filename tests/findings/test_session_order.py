"""Pasted outputs of one session are printed one after another: an event row's age counts from
its own table, and a later listing of its object tells what became of it."""

from __future__ import annotations

from pathlib import Path

import analyzer
from analyzer.findings import collect_findings

# Written for this test in the shape of a minikube tutorial session (kubernetes/website#56173:
# a rollout to an image that cannot be pulled, then a fix): the pod crash-looped, its BackOff
# event 12s old when `get events` printed it, and a later listing shows it running since its
# last restart 10 minutes before. Before: the event was "12s before capture" and not resolved.
SESSION = """$ kubectl get pods -n web
NAME                   READY   STATUS             RESTARTS       AGE
web-7d9f8b6c5d-x2kq9   0/1     CrashLoopBackOff   6 (40s ago)    3d2h
$ kubectl get events -n web
LAST SEEN   TYPE      REASON    OBJECT                     MESSAGE
12s         Warning   BackOff   pod/web-7d9f8b6c5d-x2kq9   Back-off restarting failed container web in pod web-7d9f8b6c5d-x2kq9_web(5c1e)
$ kubectl rollout restart deploy/db -n web
deployment.apps/db restarted
$ kubectl get pods -n web
NAME                   READY   STATUS    RESTARTS      AGE
web-7d9f8b6c5d-x2kq9   1/1     Running   7 (10m ago)   3d2h
"""


def _summary(tmp_path: Path, text: str):
    paste = tmp_path / "session.txt"
    paste.write_text(text, encoding="utf-8")
    [found] = collect_findings(analyzer.load(str(paste)), ["events-warning-summary"])
    return found


def test_an_event_printed_before_a_listing_of_its_pod_running_since_is_resolved(tmp_path: Path) -> None:
    found = _summary(tmp_path, SESSION)
    assert found.severity == "info"
    # its age counts from its own table, not from the capture (the later listing)
    assert found.facts["age"] == "12s before its table was printed (line 6)"
    assert found.resolved == ("running and ready in a later listing (line 11) than the events' (line 6), "
                              "its last restart 10m before it")


def test_a_pod_restarted_just_before_the_later_listing_may_crash_again(tmp_path: Path) -> None:
    found = _summary(tmp_path, SESSION.replace("7 (10m ago)", "7 (20s ago) "))
    assert not found.resolved
    # and a listing printed before the events says nothing of what came after them
    before = SESSION.split("$ kubectl rollout")[0].replace("0/1     CrashLoopBackOff   6 (40s ago) ",
                                                           "1/1     Running            6 (40m ago) ")
    assert not _summary(tmp_path, before).resolved
