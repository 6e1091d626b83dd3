"""Emitters: one module per form a dump takes (what prints the objects, and how)."""
