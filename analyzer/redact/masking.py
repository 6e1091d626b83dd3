"""Masking for output stages: values that look like credentials never reach a report as they are.

Design of `--show-sensitive` (the flag belongs to the output commands, owned by their stages):
masking is the default everywhere; every command that prints values a user wrote takes
`--show-sensitive` and passes it on as `show_sensitive=True`:
  - `kda tables`: container_env.value, containers.args/command, annotations.value, ConfigMap
    values, events.message, logs text;
  - `kda graph`: node and edge attributes copied from env, args or annotations;
  - `kda findings`: evidence and messages quoting env values, args, annotations, event messages;
  - `kda report`: everything above, plus log excerpts (HTML and Markdown alike).
`kda inspect` prints counts and names only. `kda redact` always masks (no flag). Secret data and
stringData are never shown by any flag: ingestion drops them, so nothing downstream has them.
"""

from __future__ import annotations

from analyzer.redact.patterns import (
    MASK,
    is_already_redacted,
    looks_sensitive_name,
    mask_credentials,
)


def mask_sensitive(value: str, show_sensitive: bool = False) -> str:
    """A value with every credential-looking part replaced by `<redacted>` (as is if asked).

    >>> mask_sensitive("Server=db;User Id=sa;Password=hunter2;")
    'Server=db;User Id=sa;Password=<redacted>;'
    >>> mask_sensitive("--oidc-client-secret=s3cr3tvalue --v=2")
    '--oidc-client-secret=<redacted> --v=2'
    >>> mask_sensitive("nginx:1.25")
    'nginx:1.25'
    """
    if not value or show_sensitive:
        return value
    return mask_credentials(value)[0]


def mask_named_value(name: str, value: str, show_sensitive: bool = False) -> str:
    """An env var's or flag's value, masked whole when its name says it is a credential.

    >>> mask_named_value("DB_PASSWORD", "hunter2"), mask_named_value("LOG_LEVEL", "debug")
    ('<redacted>', 'debug')
    """
    if show_sensitive:
        return value
    if value and looks_sensitive_name(name) and not is_already_redacted(value) and not value.startswith("$("):
        return MASK
    return mask_sensitive(value)
