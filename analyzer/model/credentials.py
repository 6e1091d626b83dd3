"""Recognising values that look like credentials, so tables can flag or mask them."""

from __future__ import annotations

import re
from functools import lru_cache

# Names whose literal value is probably a credential (env vars: DB_PASSWORD, API_KEY, ...).
_CREDENTIAL_NAME_RX = re.compile(
    r"passw(?:or)?d|passphrase|(?:^|[_.-])pass(?:$|[_.-])|secret|token|api[_-]?key"
    r"|private[_-]?key|credential|access[_-]?key|bearer|conn(?:ection)?[_-]?str",
    re.IGNORECASE,
)
# Stricter, for annotation keys: "secret" and "token" there usually name an object, not a value.
_ANNOTATION_KEY_RX = re.compile(
    r"passw(?:or)?d|passphrase|api[_-]?key|private[_-]?key|access[_-]?key|client[_-]?secret",
    re.IGNORECASE,
)
_CREDENTIAL_VALUE_RX = re.compile(
    r"://[^/\s:@]+:[^/\s@]+@"  # URL with user:password
    r"|(?:password|passwd|pwd)\s*=\s*[^;\s]"  # connection string
    r"|AccountKey=|SharedAccessKey=|[?&]sig="  # Azure storage / service bus keys
    r"|-----BEGIN [A-Z ]*PRIVATE KEY-----"
    r"|^\s*bearer\s+\S"
    r"|\bAKIA[0-9A-Z]{16}\b"  # AWS access key id
    r"|\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.",  # a JWT
    re.IGNORECASE,
)

MASKED = "<masked>"


def looks_like_credential_value(value: str) -> bool:
    """Whether a literal value looks like a credential whatever its name.

    Examples:
        >>> looks_like_credential_value("postgres://app:s3cret@db:5432/app")
        True
        >>> looks_like_credential_value("Server=db;User Id=sa;Password=hunter2;")
        True
        >>> looks_like_credential_value("Bearer abc.def")
        True
        >>> looks_like_credential_value("https://example.com/path")
        False
    """
    return bool(_CREDENTIAL_VALUE_RX.search(value))


def is_sensitive_env(name: str, value: object) -> bool:
    """Whether an env var's literal value looks like a credential (by its name or its value).

    Examples:
        >>> is_sensitive_env("DB_PASSWORD", "hunter2"), is_sensitive_env("DB_PASS", "x")
        (True, True)
        >>> is_sensitive_env("PASSWORD_FILE_DIR", ""), is_sensitive_env("PWD", "/app")
        (False, False)
        >>> is_sensitive_env("DATABASE_URL", "mysql://root:pw@db/app")
        True
        >>> is_sensitive_env("LOG_LEVEL", "debug")
        False
    """
    if value is None or value == "":
        return False
    return _sensitive(name, value if isinstance(value, str) else str(value))


@lru_cache(maxsize=65536)
def _sensitive(name: str, text: str) -> bool:
    # Cached: pods of one controller repeat the same env, thousands of times in a big dump.
    return bool(_CREDENTIAL_NAME_RX.search(name)) or looks_like_credential_value(text)


def mask_annotation(key: str, value: str) -> str:
    """The annotation value to show: masked when it looks like a credential.

    Examples:
        >>> mask_annotation("example.com/db", "postgres://u:p@db/x")
        '<masked>'
        >>> mask_annotation("example.com/api-key", "abc123")
        '<masked>'
        >>> mask_annotation("cert-manager.io/secret-name", "tls-cert")
        'tls-cert'
    """
    if value and _masked_annotation(key, value):
        return MASKED
    return value


@lru_cache(maxsize=65536)
def _masked_annotation(key: str, value: str) -> bool:
    return bool(_ANNOTATION_KEY_RX.search(key)) or looks_like_credential_value(value)
