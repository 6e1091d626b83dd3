"""What must not be shown: credential patterns and the masking every output stage applies.

A neutral low part (it imports nothing else of `analyzer`), used by model, findings, report,
printing and redact alike."""
