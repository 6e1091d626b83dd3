"""LabelIndex: selectors matched per namespace, with and without a restricted set of indexed keys."""

from __future__ import annotations

import pytest

from analyzer.graph.selectors import LabelIndex

# Pods as (node, namespace, labels); written for this test.
PODS = [
    ("web-1", "app", {"app": "web", "tier": "fe", "track": "stable"}),
    ("web-2", "app", {"app": "web", "tier": "fe"}),
    ("api-1", "app", {"app": "api", "tier": "be"}),
    ("web-x", "other", {"app": "web", "tier": "fe"}),
    ("bare", "app", {}),
]

SELECTORS = [
    ({"matchLabels": {"app": "web"}}, ["web-1", "web-2"]),
    ({"matchLabels": {"app": "web", "tier": "fe"}}, ["web-1", "web-2"]),
    ({"matchExpressions": [{"key": "tier", "operator": "In", "values": ["fe", "be"]}]}, ["web-1", "web-2", "api-1"]),
    ({"matchExpressions": [{"key": "track", "operator": "Exists"}]}, ["web-1"]),
    ({"matchLabels": {"app": "web"}, "matchExpressions": [{"key": "track", "operator": "DoesNotExist"}]}, ["web-2"]),
    ({"matchExpressions": [{"key": "app", "operator": "NotIn", "values": ["web"]}]}, ["api-1", "bare"]),
    ({"matchExpressions": [{"key": "app", "operator": "Bogus", "values": ["web"]}]}, []),
    ({"matchLabels": {"app": "nope"}}, []),
    ({}, []),
]


@pytest.mark.parametrize("keys", [None, frozenset({"app"}), frozenset()])
@pytest.mark.parametrize(("selector", "expected"), SELECTORS)
def test_match_is_the_same_whatever_keys_are_indexed(keys, selector, expected):
    index = LabelIndex(PODS, keys=keys)
    assert sorted(index.match("app", selector)) == sorted(expected)


def test_empty_selector_matches_all_only_when_asked_and_never_across_namespaces():
    index = LabelIndex(PODS)
    assert sorted(index.match("app", {}, empty_matches_all=True)) == ["api-1", "bare", "web-1", "web-2"]
    assert index.match("app", None, empty_matches_all=True) == []
    assert index.match_map("other", {"app": "web"}) == ["web-x"]
    assert index.match_map("app", {}) == []


def test_several_labels_match_in_object_order_and_compare_as_text():
    pods = [("c", "ns", {"app": "web", "v": 1}), ("a", "ns", {"app": "web", "v": "1"}), ("b", "ns", {"v": "1"})]
    index = LabelIndex(pods)
    assert index.match_map("ns", {"app": "web", "v": "1"}) == ["c", "a"]
    assert index.match_map("ns", {"v": 1, "app": "web"}) == ["c", "a"]
    assert index.match("ns", {"matchLabels": {"app": "web", "v": "2"}}) == []
