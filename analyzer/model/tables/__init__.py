"""Table builders, one module per kind family; each `build(cluster)` returns its tables."""
