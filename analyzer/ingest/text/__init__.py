"""Pasted kubectl text (tables, describe output) read into Kubernetes API-shaped objects."""

from __future__ import annotations

from analyzer.ingest.text.parse import parse_kubectl_text
from analyzer.ingest.text.sniff import looks_like_kubectl_text
from analyzer.ingest.text.types import TEXT_FACTS_KEY, GenericTable, TextObject, TextParse

__all__ = [
    "TEXT_FACTS_KEY",
    "GenericTable",
    "TextObject",
    "TextParse",
    "looks_like_kubectl_text",
    "parse_kubectl_text",
]
