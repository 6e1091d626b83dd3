"""The component catalog (catalog.yaml): which system workload is which component, and its role.

A catalog entry names a component, the workload-name patterns and image patterns it goes by, its
role (dns, cni, csi, ...), the distributions it belongs to (none: generic) and whether losing it
breaks the cluster. Matching prefers the most specific pattern, so `coredns-autoscaler` is the
autoscaler and not CoreDNS.

Examples:
    >>> entry = CatalogEntry("coredns", ("coredns", "kube-dns"), (), "dns", (), True, "")
    >>> auto = CatalogEntry("coredns-autoscaler", ("coredns-autoscaler",), (), "autoscaler", (), False, "")
    >>> catalog = Catalog((entry, auto))
    >>> catalog.match("coredns-autoscaler", ()).name, catalog.match("coredns", ()).name
    ('coredns-autoscaler', 'coredns')
    >>> catalog.match("metrics-server", ()) is None
    True
    >>> kube_dns = CatalogEntry("kube-dns", ("kube-dns",), ("/k8s-dns-kube-dns",), "dns", (), True, "")
    >>> coredns = CatalogEntry("coredns", ("coredns",), ("/coredns[:@]",), "dns", (), True, "")
    >>> Catalog((coredns, kube_dns)).match("kube-dns", ("registry.k8s.io/coredns:1.3.1",)).name
    'coredns'
    >>> gmp = CatalogEntry("gmp-collector", ("gmp-system/collector",), (), "logging-monitoring", (), False, "")
    >>> Catalog((gmp,)).match("collector", (), namespace="gmp-system").name
    'gmp-collector'
    >>> Catalog((gmp,)).match("collector", (), namespace="otel") is None
    True
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from analyzer.distributions.profiles import load_profiles
from analyzer.safeyaml import load_yaml

CATALOG_FILE = Path(__file__).with_name("catalog.yaml")
ROLES = (
    "dns", "cni", "csi", "kube-proxy", "control-plane", "api-tunnel", "metrics", "autoscaler",
    "cloud-controller", "ingress", "load-balancer", "logging-monitoring", "device-plugin", "storage",
    "network-policy", "security", "addon-manager", "operator", "other",
)
_REGEX_CHARS = re.compile(r"[\\^$*+?()\[\]{}|]")


@dataclass(frozen=True, slots=True)
class CatalogEntry:
    """One known component: its name patterns, image patterns, role and where it belongs."""

    name: str
    match: tuple[str, ...]
    images: tuple[str, ...]
    role: str
    distributions: tuple[str, ...]
    critical: bool
    description: str
    # the controller its pods come from where their names cannot tell (`Job`: a helm-install
    # pod `<job>-<5 chars>` looks like a DaemonSet's); "" when the name's shape says it
    controller: str = ""
    # installed by the cluster's owner where it runs (a Helm chart, an opt-in add-on), though
    # only that distribution runs it: a pasted row of it is not the provider's to act on
    user_installed: bool = False
    # distributions, beyond `distributions`, whose platform installs and reconciles this generic
    # component (AKS's add-on manager, EKS's default add-ons, OKE's essential add-ons): there it is
    # the provider's, as the labels of a structured dump of it say (where it carries any)
    managed_on: tuple[str, ...] = ()
    # (distribution, components): there it is the provider's where one of those runs beside it,
    # the owner's install otherwise (AKS's Cilium dataplane runs azure-cns; a BYOCNI cluster none)
    managed_with: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # a family of components rather than one (any CSI driver the catalog does not name): the
    # facts that list components by role name each by its workload's name, not the entry's
    family: bool = False
    # for a family: the words of a member's workload names that tell its parts apart (a CSI
    # driver's node and controller plugins); the name without them is the member
    parts: str = ""
    # its workloads run in the namespace of what they serve, not only in a system one (k3s's
    # ServiceLB once made svclb-<service> beside its Service): a pasted pod of it anywhere is it
    any_namespace: bool = False

    def member(self, workload: str) -> str:
        """Which component a workload of this entry is part of: the entry itself, or for a family
        the member its name names (one CSI driver's node and controller plugins are one driver).

        >>> e = CatalogEntry("csi-driver", (), (), "csi", (), False, "", family=True,
        ...                  parts=r"(node|controller)(plugin)?|-win(dows)?$")
        >>> e.member("csi-cinder-controllerplugin") == e.member("csi-cinder-nodeplugin"), e.member("ebs-csi-node")
        (True, 'ebs-csi-')
        """
        if not self.family:
            return self.name
        return re.sub(self.parts, "", workload) if self.parts else workload

    def platform_of(self, distribution: str, beside: frozenset[str] = frozenset()) -> bool:
        """Whether this component is part of the platform of that distribution (its provider's),
        or of the one it is built on (ARO runs OpenShift's operators as its own); `beside`: the
        components the dump runs, which `managed_with` asks about."""
        if self.user_installed:
            return False
        family = {distribution, load_profiles().family(distribution)}
        return (any(d in self.distributions or d in self.managed_on for d in family)
                or any(d in family and not beside.isdisjoint(names) for d, names in self.managed_with))

    @property
    def distribution_specific(self) -> bool:
        return bool(self.distributions)


def _name_score(pattern: str, names: tuple[str, ...]) -> tuple[int, int] | None:
    """How specifically a pattern names a workload: exact > regex > `pattern-` prefix, then length."""
    best: tuple[int, int] | None = None
    for name in names:
        if _REGEX_CHARS.search(pattern):
            score = (1, len(pattern)) if re.match(pattern, name) else None
        elif name == pattern:
            score = (3, len(pattern))
        elif name.startswith(pattern + "-"):
            score = (0, len(pattern))
        else:
            score = None
        if score and (best is None or score > best):
            best = score
    return best


@dataclass(frozen=True, slots=True)
class Catalog:
    """All catalog entries, with matching by workload name (and image as a fallback)."""

    entries: tuple[CatalogEntry, ...]

    def match(self, name: str, images: tuple[str, ...], base: str | None = None,
              namespace: str = "") -> CatalogEntry | None:
        """The entry that most specifically names this workload (`base`: its name less suffixes;
        a pattern `namespace/name` names it only in that namespace, as GMP's `collector` is only
        the Prometheus collector in gmp-system)."""
        names = (base, name) if base and base != name else (name,)
        qualified = tuple(f"{namespace}/{n}" for n in names) if namespace else ()
        best: tuple[tuple[int, int], int] | None = None
        found: CatalogEntry | None = None
        for i, entry in enumerate(self.entries):
            for pattern in entry.match:
                score = _name_score(pattern, qualified if "/" in pattern else names)
                if score and (best is None or (score, -i) > best):
                    best, found = (score, -i), entry
        by_image = self._match_image(images)
        if found is not None:
            # A name another component of the same role goes by (a kube-dns Deployment running
            # CoreDNS's image) is that component: the images say what runs.
            if (by_image is not None and by_image.role == found.role and found.images
                    and not self._runs(found, images)):
                return by_image
            return found
        return by_image

    @staticmethod
    def _runs(entry: CatalogEntry, images: tuple[str, ...]) -> bool:
        return any(re.search(pattern, image) for pattern in entry.images for image in images)

    def _match_image(self, images: tuple[str, ...]) -> CatalogEntry | None:
        return next((e for e in self.entries if self._runs(e, images)), None) if images else None

    def by_name(self, name: str) -> CatalogEntry | None:
        """The entry with this canonical name."""
        return next((e for e in self.entries if e.name == name), None)


def _strings(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    return tuple(str(v) for v in value)


def _rows(data: Any) -> list[Any]:
    # The file is a list of entries, or a mapping holding that list (under `components`).
    if isinstance(data, dict):
        for key in ("components", "catalog", "entries"):
            if isinstance(data.get(key), list):
                return data[key]
        return []
    return data if isinstance(data, list) else []


@cache
def load_catalog(path: Path = CATALOG_FILE) -> Catalog:
    """Read and check catalog.yaml (unknown roles and bad patterns fail here, naming the entry)."""
    if not path.exists():
        return Catalog(())
    entries = []
    for i, row in enumerate(_rows(load_yaml(path.read_text(encoding="utf-8")))):
        where = f"{path.name}: entry {i + 1}"
        if not isinstance(row, dict) or not row.get("name"):
            raise ValueError(f"{where}: needs a name")
        if row.get("role") not in ROLES:
            raise ValueError(f"{where} ({row['name']}): unknown role {row.get('role')!r}")
        match = _strings(row.get("match")) or (str(row["name"]),)
        images = _strings(row.get("images") or row.get("image"))
        for pattern in (*[m for m in match if _REGEX_CHARS.search(m)], *images):
            try:
                re.compile(pattern)
            except re.error as exc:
                raise ValueError(f"{where} ({row['name']}): pattern {pattern!r}: {exc}") from exc
        entries.append(CatalogEntry(
            name=str(row["name"]), match=match, images=images, role=row["role"],
            distributions=_strings(row.get("distributions")), critical=bool(row.get("critical")),
            description=str(row.get("description") or ""), controller=str(row.get("controller") or ""),
            user_installed=bool(row.get("user_installed")), managed_on=_strings(row.get("managed_on")),
            managed_with=tuple((str(d), _strings(names)) for d, names in (row.get("managed_with") or {}).items()),
            family=bool(row.get("family")), parts=str(row.get("parts") or ""),
            any_namespace=bool(row.get("any_namespace")),
        ))
    return Catalog(tuple(entries))
