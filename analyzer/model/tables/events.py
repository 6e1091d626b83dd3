"""The events table, from core/v1 Events and events.k8s.io/v1 Events alike."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pandas as pd

from analyzer.kube.views import EventView
from analyzer.model.frame import empty_columns, to_frame
from analyzer.model.normalize import builtin_objects
from analyzer.sensitive.masking import mask_sensitive

if TYPE_CHECKING:
    from analyzer.ingest.dump import Dump


def build(cluster: Dump) -> dict[str, pd.DataFrame]:
    """The events table; age counts from last_seen (or the age a pasted event states)."""
    e = empty_columns("events")
    show = getattr(cluster, "show_sensitive", False)
    shown: dict[str, str] = {}  # message -> as masked: a dump's events repeat their messages
    for obj in builtin_objects(cluster, "Event"):
        view: EventView = obj.view
        involved = view.involvedObject or view.regarding
        series = view.series
        source = view.source
        facts = view.text
        e["namespace"].append(obj.namespace)
        e["name"].append(obj.name)
        e["type"].append(view.type)
        e["reason"].append(view.reason)
        # Messages quote what failed, sometimes with a token or password in it.
        message = view.message or view.note
        if message:
            text = shown.get(message)
            if text is None:
                text = shown[message] = mask_sensitive(message, show)
            message = text
        e["message"].append(message)
        e["object_kind"].append(involved.kind if involved else None)
        e["object_namespace"].append(involved.namespace if involved else None)
        e["object_name"].append(involved.name if involved else None)
        e["field_path"].append(involved.fieldPath if involved else None)
        e["count"].append(view.count or (series.count if series else None)
                          or view.deprecatedCount)
        e["first_seen"].append(view.firstTimestamp or view.eventTime
                               or view.deprecatedFirstTimestamp)
        e["last_seen"].append(view.lastTimestamp or (series.lastObservedTime if series else None)
                              or view.eventTime or view.deprecatedLastTimestamp)
        e["age"].append(facts.last_seen_ago_seconds if facts is not None else None)
        e["source_component"].append((source.component if source else None)
                                     or view.reportingComponent)
        e["source_host"].append(source.host if source else None)
    return {"events": to_frame("events", e, cluster.capture_time,
                               ["namespace", "last_seen", "name"], age_from="last_seen")}
