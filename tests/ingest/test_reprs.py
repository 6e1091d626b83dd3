"""What a notebook shows of an object or a log it is handed: which one and read where, never
the body or the text, which hold what the tables mask and run to megabytes."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import REALDATA

import analyzer

DATA = Path(__file__).parent / "data" / "reprs"
K3S_BUNDLE = REALDATA / "k3s" / "troubleshoot-testdata-supportbundle"


def test_an_objects_repr_names_it_and_where_it_was_read_not_its_env() -> None:
    cluster = analyzer.load(DATA / "postgres-deployment.yaml")
    (deployment,) = cluster.objects_of("Deployment")
    shown = repr(deployment)
    assert shown == (f"<KubeObject Deployment.apps postgresql from "
                     f"{DATA / 'postgres-deployment.yaml'} (document 0, line 1)>")
    assert "POSTGRES_PASSWORD" not in shown and "gitlabhq_production" not in shown
    # The whole object stays one explicit call away.
    assert deployment.body()["spec"]["template"]["spec"]["containers"][0]["env"][2]["value"] == "gitlab"


@pytest.mark.skipif(not K3S_BUNDLE.is_dir(), reason="realdata not present")
def test_a_logs_repr_names_the_container_and_file_not_the_lines() -> None:
    cluster = analyzer.load(K3S_BUNDLE)
    log = next(x for x in cluster.logs if x.pod.startswith("coredns-") and not x.previous)
    shown = repr(log)
    assert shown.startswith(f"<LogRecord kube-system/{log.pod}/coredns: {log.line_count} lines from ")
    assert shown.endswith("coredns.log line 1>")
    assert log.line_count > 100 and len(shown) < 300
    assert log.text.splitlines()[0] not in shown
    # Objects in a list print one short line each, not their views.
    assert all(len(repr(o)) < 300 for o in cluster.objects)
