"""The package version, in a module of its own so that every part can read it without importing
the public API in `analyzer/__init__` (which imports the parts)."""

__version__ = "0.1.0"
