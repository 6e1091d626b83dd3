"""Builders of API objects as the API server stores them (defaults, status, managedFields)."""
