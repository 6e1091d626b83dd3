"""Recognisers of credentials in text, and of redaction already done by others.

Every pattern here works on raw text of any format (YAML, kubectl JSON, JSON escaped inside a
last-applied annotation, logs), so one set of patterns serves both `kda redact` and the masking
that every output stage applies to single values (`analyzer.sensitive.masking`).
"""

from __future__ import annotations

import re

# What a masked credential becomes. Plain ASCII with no YAML indicator, so it is a valid plain
# scalar, a valid JSON string body and a valid command-line word.
MASK = "<redacted>"

# -- redaction already done by others ---------------------------------------------------------

# troubleshoot (`***HIDDEN***`, tokenised `***TOKEN_...***`), must-gather-clean
# (`x-ipv4-0000000001-x`, `x-fqdn-0000000001-x`, ...), and ids overwritten with x's.
ALREADY_REDACTED = re.compile(
    r"\*\*\*HIDDEN\*\*\*"
    r"|\*\*\*TOKEN_[A-Za-z0-9_]*\*\*\*"
    r"|\bx-[a-z0-9]+-\d{6,}-x\b"
    r"|\bx{6,}\b"
    r"|<redacted(?:: [^>\n]*)?>"
)


def is_already_redacted(value: str) -> bool:
    """Whether a value is (or holds) a placeholder left by a redaction tool, not a real value.

    >>> is_already_redacted("***HIDDEN***"), is_already_redacted("x-ipv4-0000000001-x")
    (True, True)
    >>> is_already_redacted("10.0.0.1")
    False
    """
    return ALREADY_REDACTED.search(value) is not None


# -- credentials -------------------------------------------------------------------------------

# Names of env vars, flags and keys whose values are credentials.
SENSITIVE_NAME = re.compile(
    r"(?i)(?:pass(?:word|wd|phrase)?|pwd|secret|token|api[_-]?key|apikey|access[_-]?key"
    r"|private[_-]?key|credential|auth[_-]?key|client[_-]?secret|conn(?:ection)?[_-]?str(?:ing)?"
    r"|account[_-]?key|sas[_-]?key|shared[_-]?access[_-]?key)"
)

# Values that are references or placeholders, never masked: `$(VAR)`, `${VAR}`, `$VAR`, booleans, empty.
_NOT_A_VALUE = re.compile(r"^(?:/[\w./-]*|\$\(.*\)|\$\{.*\}|\$[A-Za-z_]\w*|true|false|null|none|\s*|<redacted.*>|\*\*\*.*\*\*\*)$", re.I)

_Q = r'\\*"?'  # an optional quote, possibly escaped (JSON inside a JSON string)
# A credential value: up to a quote, space or separator; never a size ("password: 7 bytes"), and
# never starting with `:` or `=` (then the quote before it closed a key: `"TOKEN=": null`).
_VALUE = r"(?P<secret>[^\s\"'\\;,&{}\[\]<>(:=][^\s\"'\\;,&{}\[\]]*+)(?![ \t]+bytes\b)(?P<post>)"

# A command-line flag (lower case) whose name ends in a word that says its value is a credential:
# `--token`, `-password`, `--db-password`, `--client-secret`, `--api-key`; "secret" only inside a
# compound (`--secret NAME` names a Secret), never `--token-ttl` or `--password-file`. The flag
# stands alone: at the start, after a space or a quote (an argv element).
CREDENTIAL_FLAG = (
    r"-(?<![^\s\"'\[,(]-)-?(?:[a-z0-9][a-z0-9_.-]*[_.-])?"
    r"(?:pass(?:word|wd|phrase)?|pwd|token|api[_-]?key|apikey|access[_-]?key|secret[_-]?key|private[_-]?key"
    r"|auth[_-]?key|account[_-]?key|sas[_-]?key|(?<=[a-z0-9][_.-])secret)(?![a-z0-9_.-])"
)

# Each pattern keeps groups "pre" and "post" and masks group "secret". Each row also names the
# lowercase words one of which a text must hold for the pattern to be run at all (dumps are large;
# most texts hold no credential, and `in` is far faster than a regex scan). Patterns start at
# their keyword where they can, for the same reason.
CREDENTIAL_PATTERNS: tuple[tuple[str, tuple[str, ...], re.Pattern[str]], ...] = (
    ("private-key", ("private key",), re.compile(
        # never across a quote: the key's body is one string (its newlines escaped in JSON)
        r"(?P<pre>-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----)(?P<secret>[^\"]*?)(?P<post>-----END [A-Z0-9 ]*PRIVATE KEY-----)")),
    # the same key base64-encoded, as a kubeconfig's `client-key-data` and a TLS key's data hold
    # it ("-----BEGIN RSA PRIVATE", "... EC PRIVATE", "... PRIVATE KEY", "... OPENSSH PRIVATE",
    # "... ENCRYPTED PRIVATE", "... DSA PRIVATE" encoded); a certificate's stays
    ("private-key-base64", ("ls0tls1crudjtib",), re.compile(
        r"(?P<pre>)(?P<secret>LS0tLS1CRUdJTiB(?:SU0EgUFJJVkFURSBLRVkt|FQyBQUklWQVRFIEtFWS0t|QUklWQVRFIEtFWS0t"
        r"|PUEVOU1NIIFBSSVZBVEUgS0VZ|FTkNSWVBURUQgUFJJVkFURSBLRVkt|EU0EgUFJJVkFURSBLRVkt)[A-Za-z0-9+/]*={0,2})(?P<post>)")),
    # a Helm release as Helm stores it (a ConfigMap's or Secret's `release`: gzip, base64), the
    # chart's whole values with their passwords; where text is rewritten (kda redact's copy)
    ("helm-release", ("h4si",), re.compile(
        r"(?P<pre>\brelease\\*\"?[ \t]*:[ \t]*\\*\"?)(?P<secret>H4sI[A-Za-z0-9+/]{16,}={0,2})(?P<post>)")),
    ("jwt", ("eyj",), re.compile(
        r"(?P<pre>)(?P<secret>eyJ(?<![A-Za-z0-9_-]eyJ)[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,})(?P<post>)")),
    # a token after Bearer/Basic has digits or mixed case ("basic authentication" is prose)
    ("bearer", ("bearer", "basic"), re.compile(
        r"(?P<pre>(?i:\b(?:bearer|basic)[ \t]+))"
        r"(?P<secret>(?=[A-Za-z._~+/-]*[0-9+/]|[a-z._~-]*[A-Z][A-Za-z._~-]*[a-z]|[A-Z._~-]*[a-z][A-Za-z._~-]*[A-Z])"
        r"[A-Za-z0-9._~+/-]{8,}=*)(?P<post>)")),
    # (the user may be empty: `redis://:PASSWORD@host:6379`, Redis's own form)
    ("url-password", ("://",), re.compile(r"(?P<pre>://[^:/@\s\"'\\]*:)(?P<secret>[^@\s\"'\\/]+)(?P<post>@)")),
    # an Azure shared access signature: the `sig` of a SAS URL or connection string grants access
    ("sas-signature", ("sig=",), re.compile(r"(?P<pre>(?<![A-Za-z0-9_])sig=)" + _VALUE)),
    # a password as a URL's query parameter named `pass` (Technitium DNS Server's HTTP API login,
    # `/api/user/login?user=admin&pass=...`); only after `?`, `&` or `;` (`password=` and `pwd=`
    # anywhere are the key-value rows')
    ("query-pass", ("pass=",), re.compile(r"(?P<pre>[?&;](?i:pass)=)" + _VALUE)),
    # a K3s or RKE2 join token (`K10<CA hash>::server:<password>`), wherever it stands
    ("k3s-token", ("k10",), re.compile(r"(?P<pre>)(?P<secret>\bK10[0-9a-f]{64}::[A-Za-z0-9_-]+:[^\s\"'\\]+)(?P<post>)")),
    ("cloud-key", ("akia", "asia", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "xox", "glpat-"), re.compile(
        r"(?P<pre>)(?P<secret>\b(?:AKIA|ASIA)[0-9A-Z]{16}\b|\bgh[pousr]_[A-Za-z0-9]{30,}\b"
        r"|\bxox[abprs]-[A-Za-z0-9-]{10,}\b|\bglpat-[A-Za-z0-9_-]{20,}\b)(?P<post>)")),
    # NAME=VALUE / "name": "value" / --name=value, where NAME says it is a credential. Words that
    # are unambiguous take `:` or `=`; "secret" and "token" alone are everyday words in logs
    # ("failed to list *core.Secret: timeout"), so they count with `=` or inside a compound name
    # (`client_secret:`, `authToken:`, `--token=`).
    # (the two key-value rows are matched against the lower-cased text, see LOWERCASE_PATTERNS)
    ("key-value", ("pass", "pwd", "key", "secret"), re.compile(
        r"(?P<pre>(?:pass(?:word|wd|phrase)|pwd|api[_-]?key|apikey"
        r"|access[_-]?key|secret[_-]?key|client[_-]?secret|account[_-]?key|shared[_-]?access[_-]?key|private[_-]?key)"
        + _Q + r"[ \t]*[=:][ \t]*" + _Q + r")" + _VALUE)),
    ("key-value", ("secret", "token"), re.compile(
        r"(?P<pre>(?:secret|token)(?:(?<=[a-z0-9]secret)|(?<=[a-z0-9]token)|(?<=[a-z0-9][_-]secret)"
        r"|(?<=[a-z0-9][_-]token))" + _Q + r"[ \t]*[=:][ \t]*" + _Q + r")" + _VALUE)),
    ("key-value", ("secret=", "token=", "secret =", "token ="), re.compile(
        r"(?P<pre>(?:secret|token)(?<![a-z0-9.*]secret)(?<![a-z0-9.*]token)[ \t]*=[ \t]*" + _Q + r")" + _VALUE)),
    # a command-line flag whose name ends in a credential's word, and its value as the next word
    # (`kubeadm join --token 447067.20b55955bd6abe6c`) or the next element of an argv list, as
    # YAML, JSON (plain or escaped) and describe's Args block print it; `--name=value` is a row
    # above. Never a flag's type in a usage text (`--token string   Bearer token ...`).
    ("flag-value", ("pass", "pwd", "token", "secret", "key"), re.compile(
        r"(?P<pre>" + CREDENTIAL_FLAG + r"(?:" + _Q + r"[ \t]*,?[ \t]*\r?\n?[ \t]*(?:-[ \t]+)?\\*\""
        r"|[ \t]*\r?\n[ \t]*(?:-[ \t]+)?|[ \t]+))"
        r"(?!(?:string|strings|stringarray|int|int32|int64|uint|duration|float|float64)\b)"
        r"(?P<secret>[^\s\"'\\;,&{}\[\]<>(:=-][^\s\"'\\;,&{}\[\]]*+)(?P<post>)")),
    # a registry login's password as its short flag, `-p VALUE` or `-p=VALUE` after `docker login`
    # (podman's, nerdctl's, buildah's, skopeo's, oc's, helm registry's, az acr's alike), as a
    # CI log pasted it (charmed-kubernetes/jenkins#168: `cmd: docker login HOST -u USER -p ...`);
    # a `$(oc whoami -t)` in its place is a reference, kept
    ("login-password", ("login",), re.compile(
        r"(?P<pre>\b(?:docker|podman|nerdctl|buildah|skopeo|oc|helm[ \t]+registry|az[ \t]+acr)[ \t]+login\b"
        r"[^\n|;&]*?[ \t]-p(?:[ \t]+|=))"
        r"(?P<secret>\$\([^)\n]*\)|[^\s\"'\\;,&{}\[\]<>(:=-][^\s\"'\\;,&{}\[\]]*+)(?P<post>)")),
    # curl's basic auth, `-u USER:PASSWORD` (`--user`), as a ticket pastes the request that got a
    # 401 (rancher/rancher#19134: `curl -i -u ACCESS_KEY:SECRET_KEY http://...`); the user stays
    ("curl-user", ("curl",), re.compile(
        r"(?P<pre>\bcurl\b[^\n|;&]*?[ \t](?:-u|--user)(?:[ \t]+|=)[\"']?[^\s:\"']+:)"
        r"(?P<secret>\$\([^)\n]*\)|[^\s\"'\\]+)(?P<post>)")),
    # a kubeconfig's bare `token:` (kubectl config view --raw, a ConfigMap holding a kubeconfig:
    # `users: - user: token: ...`, kubernetes/kubectl#667) or a kubeadm bootstrap token
    # (`bootstrapTokens: - token: abcdef.0123456789abcdef`): the word alone (after a space, a
    # quote or nothing) as a YAML or JSON key, its value one word of 8 or more with a digit that
    # ends the line (or a string's escaped line) or its quotes; "token: expired", "token is invalid" stay
    ("kubeconfig-token", ("token",), re.compile(
        r"(?P<pre>token(?<![^\s\"\\]token)\\*\"?[ \t]*:[ \t]*\\*\"?)"
        r"(?P<secret>(?=[^\s\"\\]*[0-9])[A-Za-z0-9._~+/=-]{8,})(?P<post>(?=\\*\"|\\[nr]|[ \t]*\r?$))", re.M)),
    # env entries: {"name": "DB_PASSWORD", "value": "..."} in JSON (plain or escaped) and YAML.
    ("env", ("pass", "pwd", "secret", "token", "key", "credential", "conn"), re.compile(
        r"(?P<pre>name" + _Q + r"[ \t]*:[ \t]*" + _Q
        + r"(?P<name>[A-Za-z0-9_.-]*(?i:pass|pwd|secret|token|api_?key|apikey|access_?key|private_?key"
        r"|credential|conn(?:ection)?_?str)[A-Za-z0-9_.-]*)"
        + _Q + r"[ \t]*,?[ \t]*\n?[ \t-]*" + _Q + r"value" + _Q + r"[ \t]*:[ \t]*" + _Q + r")"
        r"(?P<secret>[^\"\\\n]+?)(?P<post>" + _Q + r"[ \t]*(?:[,}\n]|$))")),
)


# Rows whose regex runs on the lower-cased text (a case-insensitive scan is several times slower).
LOWERCASE_PATTERNS = frozenset({"key-value", "flag-value"})

# Every row's words in one compiled matcher, run once on the lower-cased text: most texts hold
# none of them (a URL, a JSON config, an image name), and one scan tells so ~4x faster than a
# test per word. Longer words first, so that where two start at one place the longer is found.
_ANY_NEEDLE = re.compile("|".join(re.escape(needle) for needle in sorted(
    {needle for _, needles, _ in CREDENTIAL_PATTERNS for needle in needles}, key=lambda n: (-len(n), n))))


def mask_credentials(text: str) -> tuple[str, int]:
    """Text with every credential-looking value replaced by MASK, and how many were masked.

    >>> mask_credentials("postgres://app:hunter2@db:5432/x")
    ('postgres://app:<redacted>@db:5432/x', 1)
    >>> mask_credentials('--token=abc123def ok')[0]
    '--token=<redacted> ok'
    """
    total = 0
    low = text.lower()
    if _ANY_NEEDLE.search(low) is None:
        return text, 0
    for name, needles, rx in CREDENTIAL_PATTERNS:
        if any(n in low for n in needles):
            if name in LOWERCASE_PATTERNS and len(low) == len(text):
                text, n = _mask_spans(rx, text, low)
            else:
                text, n = _mask_one(rx, text)
            if n:
                low = text.lower()
            total += n
    return text, total


def is_placeholder(value: str) -> bool:
    """Whether a value only stands for one (a path, a `$(VAR)` reference, a boolean, empty or
    already redacted): a credential's name may carry it without it being a credential.

    >>> is_placeholder("/etc/secret/pw"), is_placeholder("$(DB_PASSWORD)"), is_placeholder("hunter2")
    (True, True, False)
    """
    return _NOT_A_VALUE.match(value) is not None or is_already_redacted(value)


# Go's net/http error (`Get "https://host/v1-k3s/node-token": dial tcp ...`): a request's method
# and quoted URL, never a credential's value.
_HTTP_REQUEST = re.compile(r'(?:get|post|put|patch|delete|head)[ \t]+\\*"https?://')
# A quoted string that a key-like word ends: a URL ("https://host/v1-k3s/node-token") when it is one.
_URL_BEFORE = re.compile(r'https?://[^\s"\\]*$')


def _names_no_credential(low: str, m: re.Match[str]) -> bool:
    """Whether a name-value match is no credential where it stands (`low`, the lower-cased text):
    the value is Go's failed request (`node-token: Get "https://..."`), or the name is the last
    path segment of a quoted URL (`".../v1-k3s/node-token": dial tcp ...`). Anything else, an
    annotation's key with a slash (`"example.com/api-token": "..."`) too, stays masked.

    >>> rx = next(rx for _, needles, rx in CREDENTIAL_PATTERNS if needles == ("secret", "token"))
    >>> low = 'failed to get node-token: get "https://10.0.1.10:6443/v1-k3s/node-token": dial tcp'
    >>> [_names_no_credential(low, m) for m in rx.finditer(low)]
    [True, True]
    >>> low = '"example.com/api-token": "abc123" "https://h/access-token": "abc123"'
    >>> [_names_no_credential(low, m) for m in rx.finditer(low)]
    [False, False]
    """
    if _HTTP_REQUEST.match(low, m.start("secret")):
        return True
    if low[m.start("secret") - 1] == '"':
        return False  # a quoted value: a URL may key it (a config's map of endpoints to tokens)
    name_start = m.start("pre")
    while name_start and (low[name_start - 1].isalnum() or low[name_start - 1] in "_.-/:"):
        name_start -= 1
    return _URL_BEFORE.match(low, name_start, m.start("pre")) is not None and low[name_start - 1:name_start] in ('"', "")


def _mask_spans(rx: re.Pattern[str], text: str, low: str) -> tuple[str, int]:
    """Mask what `rx` finds in the lower-cased `low`, in `text` (same length, same places)."""
    pieces: list[str] = []
    done = count = 0
    for m in rx.finditer(low):
        start, end = m.span("secret")
        secret = text[start:end]
        if is_placeholder(secret) or _names_no_credential(low, m):
            continue
        pieces.append(text[done:start])
        pieces.append(MASK)
        done = end
        count += 1
    if not count:
        return text, 0
    pieces.append(text[done:])
    return "".join(pieces), count


def _mask_one(rx: re.Pattern[str], text: str) -> tuple[str, int]:
    count = 0

    def sub(m: re.Match[str]) -> str:
        nonlocal count
        secret = m.group("secret")
        if is_placeholder(secret):
            return m.group(0)
        count += 1
        return m.group("pre") + MASK + m.group("post")

    return rx.sub(sub, text), count


def looks_sensitive_name(name: str) -> bool:
    """Whether an env var, flag or key name says its value is a credential.

    >>> looks_sensitive_name("DB_PASSWORD"), looks_sensitive_name("LOG_LEVEL")
    (True, False)
    """
    return SENSITIVE_NAME.search(name) is not None
