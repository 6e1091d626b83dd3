"""The cluster's default StorageClasses, as the API server picks one for a claim naming none."""

from __future__ import annotations

from typing import TYPE_CHECKING

from analyzer.findings.facts import object_age
from analyzer.kube.time import parse_time
from analyzer.model.tables.storage import DEFAULT_CLASS_ANNOTATIONS

if TYPE_CHECKING:
    from analyzer.findings.dump import AnalyzedDump
    from analyzer.ingest.records import KubeObject


def is_default_class(sc: KubeObject) -> bool:
    """Whether a StorageClass is marked default: either annotation `"true"` (as the admission
    plugin reads them, the beta one too), or a table's `NAME (default)`."""
    annotations = sc.view.metadata.annotations or {}
    text = sc.view.text
    return any(annotations.get(a) == "true" for a in DEFAULT_CLASS_ANNOTATIONS) or bool(text and text.default)


def default_classes(cluster: AnalyzedDump) -> list[KubeObject]:
    """The dump's default StorageClasses, the one a claim naming none gets first: since 1.26 the
    newest (kubernetes/kubernetes#134568), the first by name among equals; in name order where
    their ages are not all known."""
    defaults = sorted((sc for sc in cluster.objects_of("StorageClass") if is_default_class(sc)), key=lambda sc: sc.name)
    ages = [object_age(cluster, sc) for sc in defaults]
    if None not in ages:
        return [sc for _, sc in sorted(zip(ages, defaults, strict=True), key=lambda pair: pair[0])]
    created = [parse_time(sc.view.metadata.creationTimestamp) for sc in defaults]
    if None not in created:  # (no capture time to age them by: their creations still order them)
        return [sc for _, sc in sorted(zip(created, defaults, strict=True), key=lambda pair: pair[0], reverse=True)]
    return defaults


def ages_known(cluster: AnalyzedDump, classes: list[KubeObject]) -> bool:
    """Whether the classes' ages or creations order them (else `default_classes` ordered them by name)."""
    return (all(object_age(cluster, sc) is not None for sc in classes)
            or all(parse_time(sc.view.metadata.creationTimestamp) is not None for sc in classes))
