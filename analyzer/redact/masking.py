"""Masking for output stages: values that look like credentials never reach a report as they are.

Tables, graphs, findings and reports call `mask_sensitive` on env values, args, commands and
annotation values before showing them (unless the user asked for `--show-sensitive`; Secret data
never reaches them at all: ingestion drops it).
"""

from __future__ import annotations

from analyzer.redact.patterns import (
    MASK,
    is_already_redacted,
    looks_sensitive_name,
    mask_credentials,
)


def mask_sensitive(value: str) -> str:
    """A value with every credential-looking part replaced by `<redacted>`.

    >>> mask_sensitive("Server=db;User Id=sa;Password=hunter2;")
    'Server=db;User Id=sa;Password=<redacted>;'
    >>> mask_sensitive("--oidc-client-secret=s3cr3tvalue --v=2")
    '--oidc-client-secret=<redacted> --v=2'
    >>> mask_sensitive("nginx:1.25")
    'nginx:1.25'
    """
    if not value:
        return value
    return mask_credentials(value)[0]


def mask_named_value(name: str, value: str) -> str:
    """An env var's or flag's value, masked whole when its name says it is a credential.

    >>> mask_named_value("DB_PASSWORD", "hunter2"), mask_named_value("LOG_LEVEL", "debug")
    ('<redacted>', 'debug')
    """
    if value and looks_sensitive_name(name) and not is_already_redacted(value) and not value.startswith("$("):
        return MASK
    return mask_sensitive(value)
