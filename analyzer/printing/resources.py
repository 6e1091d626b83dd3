"""The API resources of a dump: built-in kinds, custom resources from their CRDs (or inferred
from the objects), with the names kubectl accepts for them and the objects of each."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from importlib import resources as package_files
from typing import Any

from analyzer.ingest.records import KubeObject
from analyzer.kube.kinds import is_builtin_group, is_cluster_scoped

READ_VERBS = ("get", "list", "watch")


@dataclass(slots=True)
class Resource:
    """One API resource: where it is served and what a user may call it."""

    kind: str
    plural: str
    group: str
    version: str
    namespaced: bool
    short_names: tuple[str, ...] = ()
    singular: str = ""
    builtin: bool = True
    versions: tuple[str, ...] = ()  # every version served (a CRD may serve several)
    verbs: tuple[str, ...] = READ_VERBS
    crd: dict[str, Any] | None = None  # the CustomResourceDefinition, when the dump has it
    objects: list[KubeObject] = field(default_factory=list)

    @property
    def group_version(self) -> str:
        return f"{self.group}/{self.version}" if self.group else self.version

    @property
    def qualified(self) -> str:
        """`deployments.apps`, `pods`: how kubectl names a resource unambiguously."""
        return f"{self.plural}.{self.group}" if self.group else self.plural

    @property
    def kind_label(self) -> str:
        """`deployment.apps`, `pod`: the prefix of `-o name` and of multi-kind tables."""
        low = self.kind.lower()
        return f"{low}.{self.group}" if self.group else low

    @property
    def title(self) -> str:
        """How a message names the kind in plural: `Secrets`, `Endpoints`, `NetworkPolicies`.

        >>> [Resource(k, "", "", "v1", True).title for k in ("Secret", "Endpoints", "NetworkPolicy", "Ingress")]
        ['Secrets', 'Endpoints', 'NetworkPolicies', 'Ingresses']
        """
        if self.kind.endswith("s") and not self.kind.endswith(("ss", "us")):
            return self.kind
        low = plural_of(self.kind)
        # the plural's ending on the kind as written (its capitals kept)
        common = len(self.kind) if low.startswith(self.kind.lower()) else len(self.kind) - 1
        return self.kind[:common] + low[common:]


@cache
def builtin_resources() -> tuple[Resource, ...]:
    """The resources a Kubernetes API server serves by itself (resources.yaml)."""
    from analyzer.safeyaml import load_yaml

    text = package_files.files("analyzer.printing").joinpath("resources.yaml").read_text("utf-8")
    out = []
    for row in load_yaml(text):
        out.append(Resource(
            kind=row["kind"], plural=row["plural"], group=row["group"], version=row["version"],
            namespaced=row["namespaced"], short_names=tuple(row.get("short", ())),
            singular=row["kind"].lower(), versions=(row["version"],),
            verbs=tuple(row.get("verbs", READ_VERBS)),
        ))
    return tuple(out)


@cache
def known_resources() -> dict[tuple[str, str], dict[str, Any]]:
    """(group, kind) -> a well-known custom resource whose CRD dumps often lack
    (known_resources.yaml), as a CRD body: its names, scope and printer columns."""
    from analyzer.safeyaml import load_yaml

    text = package_files.files("analyzer.printing").joinpath("known_resources.yaml").read_text("utf-8")
    out: dict[tuple[str, str], dict[str, Any]] = {}
    for row in load_yaml(text):
        out[(row["group"], row["kind"])] = {
            "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": f"{row['plural']}.{row['group']}"},
            "spec": {"group": row["group"], "scope": "Namespaced" if row["namespaced"] else "Cluster",
                     "names": {"kind": row["kind"], "plural": row["plural"], "singular": row["kind"].lower(),
                               "shortNames": list(row.get("short", ()))},
                     "versions": [{"name": row["version"], "served": True, "storage": True,
                                   "additionalPrinterColumns": row.get("columns", [])}]},
        }
    return out


def plural_of(kind: str) -> str:
    """The plural resource name the API would use for a kind with no CRD at hand.

    >>> plural_of("Certificate"), plural_of("NetworkPolicy"), plural_of("Ingress"), plural_of("Gateway")
    ('certificates', 'networkpolicies', 'ingresses', 'gateways')
    """
    low = kind.lower()
    if low.endswith("y") and low[-2:-1] not in ("a", "e", "o", "u"):
        return low[:-1] + "ies"
    if low.endswith(("s", "x", "z", "ch", "sh")):
        return low + "es"
    return low + "s"


class ResourceCatalog:
    """Every resource of one dump, with its objects sorted as the API lists them."""

    def __init__(self, objects: list[KubeObject], collected_kinds: set[str] | frozenset[str] = frozenset()) -> None:
        self.resources: list[Resource] = []
        self._by_gk: dict[tuple[str, str], Resource] = {}
        for template in builtin_resources():
            res = Resource(**{f: getattr(template, f) for f in (
                "kind", "plural", "group", "version", "namespaced", "short_names", "singular",
                "builtin", "versions", "verbs")})
            self._add(res)
        self.collected_kinds = set(collected_kinds)
        crds = [o for o in objects if o.kind == "CustomResourceDefinition"]
        for crd in crds:
            self._add_crd(crd.body())
        for obj in objects:
            res = self._resource_of(obj)
            if res is not None:
                res.objects.append(obj)
        for res in self.resources:
            # etcd order: the API lists by namespace, then name
            res.objects.sort(key=lambda o: (o.key.namespace, o.key.name))
        self._names = self._name_index()

    # -- building -------------------------------------------------------------------------

    def _add(self, res: Resource) -> None:
        self.resources.append(res)
        self._by_gk[(res.group, res.kind)] = res

    def _add_crd(self, body: dict[str, Any]) -> None:
        spec = body.get("spec") or {}
        names = spec.get("names") or {}
        group, kind = spec.get("group") or "", names.get("kind") or ""
        if not kind or not group or (group, kind) in self._by_gk:
            return
        versions = spec.get("versions") or []
        served = [v.get("name") for v in versions if isinstance(v, dict) and v.get("served", True) and v.get("name")]
        if not served and spec.get("version"):
            served = [spec["version"]]  # apiextensions v1beta1
        storage = next((v.get("name") for v in versions if isinstance(v, dict) and v.get("storage")), None)
        version = storage or (served[0] if served else "v1")
        self._add(Resource(
            kind=kind, plural=names.get("plural") or plural_of(kind), group=group, version=version,
            namespaced=(spec.get("scope") or "Namespaced") == "Namespaced",
            short_names=tuple(names.get("shortNames") or ()), singular=names.get("singular") or kind.lower(),
            builtin=False, versions=tuple(served or [version]), crd=body,
        ))

    def _resource_of(self, obj: KubeObject) -> Resource | None:
        kind, group = obj.kind, obj.key.group
        res = self._by_gk.get((group, kind))
        if res is not None:
            return res
        for candidate in (r for r in self.resources if r.builtin and r.kind == kind):
            if is_builtin_group(kind, group) or (not group and candidate.group):
                # an old group (extensions/Deployment) or a dump that left apiVersion out
                return candidate
        if not group and any(r.kind == kind for r in self.resources if not r.builtin):
            return next(r for r in self.resources if not r.builtin and r.kind == kind)
        # A custom resource whose CRD the dump does not hold: a well-known one as its platform
        # defines it, else inferred from its objects.
        known = known_resources().get((group, kind))
        if known is not None:
            self._add_crd(known)
            if (res := self._by_gk.get((group, kind))) is not None:
                return res
        version = obj.api_version.rpartition("/")[2] if obj.api_version else "v1"
        res = Resource(
            kind=kind, plural=plural_of(kind), group=group, version=version or "v1",
            namespaced=not is_cluster_scoped(kind, group) and bool(obj.key.namespace),
            singular=kind.lower(), builtin=False, versions=(version or "v1",),
        )
        self._add(res)
        return res

    def _name_index(self) -> dict[str, list[Resource]]:
        names: dict[str, list[Resource]] = {}
        for res in self.resources:
            for name in {res.plural, res.singular, res.kind.lower(), *res.short_names}:
                names.setdefault(name.lower(), []).append(res)
                if res.group:
                    names.setdefault(f"{name.lower()}.{res.group}", []).append(res)
        return names

    # -- looking up -----------------------------------------------------------------------

    def get(self, group: str, kind: str) -> Resource | None:
        return self._by_gk.get((group, kind))

    def by_plural(self, group: str, version: str, plural: str) -> Resource | None:
        """The resource served at /apis/GROUP/VERSION/PLURAL (or /api/v1/PLURAL)."""
        for res in self.resources:
            if res.group == group and res.plural == plural and version in res.versions:
                return res
        return None

    def resolve(self, name: str) -> Resource | None:
        """What a user typed (`po`, `pods`, `Deployment`, `deployments.apps`, `certificates.cert-manager.io`).

        Like kubectl, a built-in resource wins over a custom one of the same short name.
        """
        found = self._names.get(name.lower())
        if not found and "." in name:
            # deployments.v1.apps
            plural, _, rest = name.lower().partition(".")
            _version, _, group = rest.partition(".")
            found = [r for r in self._names.get(f"{plural}.{group}", [])]
        if not found:
            return None
        return sorted(found, key=lambda r: (not r.builtin, r.group != ""))[0]

    def collected(self, res: Resource) -> bool:
        """Whether the dump collected this resource at all (so an empty list means none exist)."""
        return bool(res.objects) or not res.builtin or res.kind in self.collected_kinds

    def group_versions(self) -> dict[str, list[str]]:
        """group -> versions served, the preferred version first (core group is "")."""
        out: dict[str, list[str]] = {}
        for res in self.resources:
            versions = out.setdefault(res.group, [])
            for v in (res.version, *res.versions):
                if v not in versions:
                    versions.append(v)
        return out
