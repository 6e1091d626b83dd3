"""Masking for output stages: values that look like credentials never reach a report as they are.

Design of `--show-sensitive` (the flag belongs to the output commands, owned by their stages):
masking is the default everywhere; every command that prints values a user wrote takes
`--show-sensitive` and passes it on as `show_sensitive=True`:
  - `kda tables`: container_env.value, containers.args/command, annotations.value, ConfigMap
    values, events.message, logs text;
  - `kda graph`: node and edge attributes copied from env, args or annotations;
  - `kda findings`: evidence and messages quoting env values, args, annotations, event messages;
  - `kda report`: everything above, plus log excerpts (HTML and Markdown alike).
`kda inspect` prints counts, names and why a passage was not read: a reason quoting a pasted
command has its credentials masked when ingestion writes it (no flag shows them). `kda redact`
always masks (no flag). Secret data and stringData are never shown by any flag: ingestion drops
them, so nothing downstream has them.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from analyzer.sensitive.credentials import (
    CREDENTIAL_FLAG,
    MASK,
    is_placeholder,
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
    if value and looks_sensitive_name(name) and not is_placeholder(value):
        return MASK
    return mask_sensitive(value)


_BARE_CREDENTIAL_FLAG = re.compile(CREDENTIAL_FLAG + r"$")


def mask_argv(argv: list[Any], show_sensitive: bool = False) -> list[Any]:
    """A container's command or args with credentials masked: each element as text, and the
    element after a credential flag that stands alone (`--db-password`, `--token`) whole, as
    the program reads it (a flag's value, whatever it looks like).

    >>> mask_argv(["--db-password", "hunter2", "--token=abc123def", "--token", "$(TOKEN)", "-v"])
    ['--db-password', '<redacted>', '--token=<redacted>', '--token', '$(TOKEN)', '-v']
    """
    if show_sensitive:
        return argv
    out: list[Any] = []
    after_flag = False
    for arg in argv:
        if not isinstance(arg, str):
            out.append(arg)
            after_flag = False
            continue
        if after_flag and arg and not arg.startswith("-") and not is_placeholder(arg):
            out.append(MASK)
        else:
            out.append(mask_sensitive(arg))
        after_flag = _BARE_CREDENTIAL_FLAG.match(arg.lower()) is not None
    return out


def is_sensitive_env(name: str, value: object) -> bool:
    """Whether `mask_named_value` would mask any of an env var's literal value: the tables
    flag such variables (and never store their values).

    >>> is_sensitive_env("DB_PASS", "x"), is_sensitive_env("PWD", "/app"), is_sensitive_env("PASSWORD", "")
    (True, False, False)
    >>> is_sensitive_env("DATABASE_URL", "mysql://root:pw@db/app"), is_sensitive_env("LOG_LEVEL", "debug")
    (True, False)
    """
    if value is None or value == "":
        return False
    return _masks_named(name, value if isinstance(value, str) else str(value))


@lru_cache(maxsize=65536)
def _masks_named(name: str, text: str) -> bool:
    # Cached: the pods of one controller repeat the same env, thousands of times in a big dump.
    return mask_named_value(name, text) != text


def mask_annotation(key: str, value: str, show_sensitive: bool = False) -> str:
    """An annotation's value with its credentials masked, read together with its key (so
    `example.com/api-key: abc` is masked while `cert-manager.io/secret-name: tls` is not:
    "secret" and "token" in an annotation key usually name an object, not a value).

    >>> mask_annotation("example.com/db", "postgres://app:hunter2@db/x")
    'postgres://app:<redacted>@db/x'
    >>> mask_annotation("example.com/api-key", "abc123"), mask_annotation("cert-manager.io/secret-name", "tls")
    ('<redacted>', 'tls')
    """
    if not value or show_sensitive:
        return value
    prefix = f"{key}: "
    masked, count = mask_credentials(prefix + value)
    if not count:
        return value
    # A pattern that reached into the key (it never should) masks the whole value.
    return masked[len(prefix):] if masked.startswith(prefix) else MASK
