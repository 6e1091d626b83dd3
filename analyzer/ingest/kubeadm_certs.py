"""The certificates a pasted `kubeadm certs check-expiration` lists, with when each expires.

kubeadm prints two tables, the certificates it manages and their certificate authorities:

    CERTIFICATE                EXPIRES                  RESIDUAL TIME   CERTIFICATE AUTHORITY   EXTERNALLY MANAGED
    apiserver                  Feb 27, 2024 08:36 UTC   <invalid>       ca                      no

`<invalid>` is kubeadm's word for a certificate past its NotAfter. Before 1.20 the command was
`kubeadm alpha certs check-expiration` and its tables had fewer columns; the first three are the
same in every version.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime

_HEADER = re.compile(r"^[ \t]*(?P<table>CERTIFICATE(?: AUTHORITY)?)[ \t]{2,}EXPIRES[ \t]{2,}RESIDUAL (?:TIME|VALIDITY)\b",
                     re.M)
_ROW = re.compile(r"^[ \t]*(?P<name>[a-z][\w.-]*)[ \t]+(?P<expires>[A-Z][a-z]{2} \d\d, \d{4} \d\d:\d\d UTC)"
                  r"[ \t]+(?P<residual><invalid>|\d+[ydhms][\w, ]*?)(?=[ \t]{2,}|[ \t]*$)")
EXPIRED = "<invalid>"


@dataclass(frozen=True, slots=True)
class CertificateExpiry:
    """One certificate a `kubeadm certs check-expiration` listed: where, its name (`apiserver`,
    `admin.conf`, `ca`), whether it is a certificate authority, when it expires (ISO, UTC) and
    the residual time kubeadm printed (`<invalid>`: expired)."""

    source: str
    line: int
    name: str
    authority: bool
    expires: str
    residual: str

    @property
    def expired(self) -> bool:
        return self.residual == EXPIRED


def certificate_expiries(text: str, source: str) -> list[CertificateExpiry]:
    """Every certificate the `kubeadm certs check-expiration` outputs of a text list, in file order.

    >>> out = ("CERTIFICATE                EXPIRES                  RESIDUAL TIME   CERTIFICATE AUTHORITY   EXTERNALLY MANAGED\\n"
    ...        "apiserver                  Feb 27, 2024 08:36 UTC   <invalid>       ca                      no\\n"
    ...        "\\n"
    ...        "CERTIFICATE AUTHORITY   EXPIRES                  RESIDUAL TIME   EXTERNALLY MANAGED\\n"
    ...        "ca                      Feb 24, 2033 08:36 UTC   8y              no\\n")
    >>> [(c.name, c.authority, c.expires, c.expired, c.line) for c in certificate_expiries(out, "t")]
    [('apiserver', False, '2024-02-27T08:36:00Z', True, 2), ('ca', True, '2033-02-24T08:36:00Z', False, 5)]
    """
    if "RESIDUAL" not in text:
        return []
    found = []
    lines = text.splitlines()
    starts = {text.count("\n", 0, m.start()): m.group("table") == "CERTIFICATE AUTHORITY" for m in _HEADER.finditer(text)}
    for index, authority in sorted(starts.items()):
        for at in range(index + 1, len(lines)):
            row = _ROW.match(lines[at])
            if row is None:
                break
            expires = datetime.strptime(row.group("expires"), "%b %d, %Y %H:%M UTC").replace(tzinfo=UTC)
            found.append(CertificateExpiry(source, at + 1, row.group("name"), authority,
                                           expires.strftime("%Y-%m-%dT%H:%M:%SZ"), row.group("residual").strip()))
    return found
