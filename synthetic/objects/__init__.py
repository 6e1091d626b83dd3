"""Builders of API objects as the API server stores them (defaults, status, managedFields)."""

from typing import Any

# An API object or part of one, as plain JSON-like data.
Obj = dict[str, Any]
