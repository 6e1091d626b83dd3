"""The rules: one per file, each with RULE = RuleMeta(...) and check(cluster)."""
