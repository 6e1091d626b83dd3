"""Label selectors matched through an inverted index of pod labels, one namespace at a time."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from functools import cached_property
from typing import Any


class LabelIndex:
    """Labels of one kind's objects, indexed by (namespace, key, value) and (namespace, key).

    >>> idx = LabelIndex([("a", "ns1", {"app": "web"}), ("b", "ns2", {"app": "web"})])
    >>> idx.match("ns1", {"matchLabels": {"app": "web"}})
    ['a']
    >>> idx.match("ns1", {"matchExpressions": [{"key": "app", "operator": "NotIn", "values": ["web"]}]})
    []
    """

    def __init__(self, items: Iterable[tuple[str, str, Mapping[str, Any] | None]], keys: frozenset[str] | None = None) -> None:
        """Index (node, namespace, labels) items; with `keys`, only labels with those keys (the
        keys selectors use) go into the index, the rest are still checked for NotIn/DoesNotExist."""
        self._by_pair: dict[tuple[str, str, str], list[str]] = defaultdict(list)
        self._by_ns: dict[str, list[str]] = defaultdict(list)
        self._labels: dict[str, Mapping[str, Any]] = {}
        self._keys = keys
        self._posting_sets: dict[tuple[str, str, str], set[str]] = {}  # made when a selector needs one
        for node, namespace, labels in items:
            labels = labels or {}
            self._labels[node] = labels
            self._by_ns[namespace].append(node)
            for k, v in labels.items():
                if keys is None or k in keys:
                    self._by_pair[(namespace, k, v if isinstance(v, str) else str(v))].append(node)

    @cached_property
    def _by_key(self) -> dict[tuple[str, str], list[str]]:
        """(namespace, label key) -> nodes; only `In`/`Exists` expressions need it."""
        by_key: dict[tuple[str, str], list[str]] = defaultdict(list)
        for (namespace, k, _), nodes in self._by_pair.items():
            by_key[(namespace, k)].extend(nodes)
        return by_key

    def match(self, namespace: str, selector: Mapping[str, Any] | None, empty_matches_all: bool = False) -> list[str]:
        """Nodes in `namespace` whose labels satisfy a LabelSelector (matchLabels/matchExpressions).

        An empty selector matches every object only where the API says so (`empty_matches_all`:
        NetworkPolicy podSelector, PodDisruptionBudget in policy/v1); an absent one matches nothing.
        """
        if not isinstance(selector, Mapping):
            return []
        match_labels = selector.get("matchLabels") or {}
        expressions = [e for e in selector.get("matchExpressions") or () if isinstance(e, Mapping)]
        if not isinstance(match_labels, Mapping):
            return []  # a selector the API would have refused selects nothing
        if not match_labels and not expressions:
            return list(self._by_ns.get(namespace, ())) if empty_matches_all else []
        return self._filter(namespace, match_labels, expressions)

    def match_map(self, namespace: str, selector: Mapping[str, Any] | None) -> list[str]:
        """Nodes matching a plain map selector (Service, ReplicationController); empty matches none."""
        if not selector or not isinstance(selector, Mapping):
            return []
        return self._filter(namespace, selector, [])

    def _filter(self, namespace: str, match_labels: Mapping[str, Any], expressions: list[Any]) -> list[str]:
        wanted = {*match_labels, *(e.get("key") for e in expressions)}
        if self._keys is not None and not wanted <= self._keys:
            # A key left out of the index: check every object of the namespace.
            return [n for n in self._by_ns.get(namespace, ()) if _satisfies(self._labels[n], match_labels, expressions)]
        if match_labels and not expressions:
            return self._in_every_posting(namespace, match_labels)
        candidates: list[str] | None = None
        # Start from the narrowest posting list, then check the rest label by label.
        for k, v in match_labels.items():
            posting = self._by_pair.get((namespace, k, str(v)), [])
            if candidates is None or len(posting) < len(candidates):
                candidates = posting
            if not candidates:
                return []
        for expr in expressions:
            if expr.get("operator") in ("In", "Exists"):
                posting = self._by_key.get((namespace, expr.get("key", "")), [])
                if candidates is None or len(posting) < len(candidates):
                    candidates = posting
        if candidates is None:
            candidates = self._by_ns.get(namespace, [])
        return [n for n in candidates if _satisfies(self._labels[n], match_labels, expressions)]

    def _in_every_posting(self, namespace: str, match_labels: Mapping[str, Any]) -> list[str]:
        """Nodes with every label of `match_labels` (all indexed): the narrowest posting list,
        in its order, less the nodes missing from another label's posting list."""
        keys = [(namespace, k, str(v)) for k, v in match_labels.items()]
        keys.sort(key=lambda key: len(self._by_pair.get(key, ())))  # stable: the first narrowest
        matched = list(self._by_pair.get(keys[0], ()))
        for key in keys[1:]:
            if not matched:
                break
            members = self._posting_sets.get(key)
            if members is None:  # selectors of a Service, its Deployment and ReplicaSets share these
                members = self._posting_sets[key] = set(self._by_pair.get(key, ()))
            matched = [n for n in matched if n in members]
        return matched


def _satisfies(labels: Mapping[str, Any], match_labels: Mapping[str, Any], expressions: list[Any]) -> bool:
    for k, v in match_labels.items():
        if k not in labels or str(labels[k]) != str(v):
            return False
    for expr in expressions:
        key = expr.get("key", "")
        op = expr.get("operator")
        raw_values = expr.get("values") or ()
        values = {str(v) for v in raw_values} if isinstance(raw_values, list) else set()
        present = key in labels
        if op == "In" and not (present and str(labels[key]) in values):
            return False
        if op == "NotIn" and present and str(labels[key]) in values:
            return False
        if op == "Exists" and not present:
            return False
        if op == "DoesNotExist" and present:
            return False
        if op not in ("In", "NotIn", "Exists", "DoesNotExist"):
            return False  # an operator the API does not have selects nothing
    return True
