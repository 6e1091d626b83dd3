"""Cell readers: the age, restart and time forms kubectl prints (values from the seeds)."""

from __future__ import annotations

import pytest

from analyzer.ingest.text.values import age_seconds, describe_time, labels, restarts, service_ports


@pytest.mark.parametrize(("text", "seconds"), [
    ("7d2h", 612000.0), ("3m43s", 223.0), ("11d", 950400.0), ("2y45d", 66960000.0),
    ("12h", 43200.0), ("49s", 49.0), ("106m", 6360.0), ("6d22h", 597600.0),
    ("<invalid>", None), ("<unknown>", None), ("", None), ("5 days", None), (None, None),
])
def test_age_seconds(text: str | None, seconds: float | None) -> None:
    assert age_seconds(text) == seconds


@pytest.mark.parametrize(("text", "expected"), [
    ("3 (12h ago)", (3, 43200.0)), ("16 (5m11s ago)", (16, 311.0)), ("9 (104s ago)", (9, 104.0)),
    ("0", (0, None)), ("<none>", (None, None)), ("three", (None, None)),
])
def test_restarts(text: str, expected: tuple) -> None:
    assert restarts(text) == expected


def test_describe_times_are_rfc3339_utc_and_ignore_a_wrong_weekday() -> None:
    # realdata aks/holmesgpt-fixtures: a hand-edited date whose weekday does not match
    assert describe_time("Mon, 23 Aug 2025 15:02:32 +0300") == "2025-08-23T12:02:32Z"
    assert describe_time("Thu, 09 May 2024 10:35:17 +0200") == "2024-05-09T08:35:17Z"
    assert describe_time("<unknown>") is None
    assert describe_time("yesterday") is None


def test_labels_and_ports() -> None:
    assert labels("app=my-deployment,pod-template-hash=57d86476b6") == {
        "app": "my-deployment", "pod-template-hash": "57d86476b6"}
    assert labels("app in (a,b)") is None
    assert service_ports("53/UDP,53/TCP,9153/TCP") == [
        {"port": 53, "protocol": "UDP"}, {"port": 53, "protocol": "TCP"},
        {"port": 9153, "protocol": "TCP"}]
    assert service_ports("<none>") is None
