"""What layout.yaml says about `kubectl describe`, checked when loaded."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources

from analyzer.safeyaml import load_yaml


@dataclass(frozen=True, slots=True)
class ItemSection:
    """A section of named items (containers, volumes): their fields and the deeper-nested ones."""

    fields: frozenset[str]
    nested: frozenset[str]


@dataclass(frozen=True, slots=True)
class DescribeLayout:
    """Per kind: top-level fields and identifying fields; and how sections nest."""

    top: dict[str, tuple[str, ...]]
    identify: dict[str, tuple[str, ...]]
    lists: frozenset[str]
    items: dict[str, ItemSection]
    fields: frozenset[str]
    tables: frozenset[str]

    def kind_of(self, keys: set[str]) -> str | None:
        """The kind whose identifying fields a describe has (its top-level keys), if any."""
        for kind, marks in self.identify.items():
            if keys & set(marks):
                return kind
        return None

    @property
    def all_top(self) -> frozenset[str]:
        """Every top-level field of any kind."""
        return frozenset(key for keys in self.top.values() for key in keys)


@cache
def describe_layout() -> DescribeLayout:
    """The packaged layout.yaml, loaded and checked once."""
    text = resources.files("analyzer.ingest.text.describe").joinpath("layout.yaml").read_text("utf-8")
    data = load_yaml(text)
    kinds = data["kinds"]
    for kind, raw in kinds.items():
        if missing := set(raw["identify"]) - set(raw["top"]):
            raise ValueError(f"layout.yaml: {kind} identifies by fields it never prints: {missing}")
    return DescribeLayout(
        top={kind: tuple(raw["top"]) for kind, raw in kinds.items()},
        identify={kind: tuple(raw["identify"]) for kind, raw in kinds.items()},
        lists=frozenset(data["lists"]),
        items={
            name: ItemSection(frozenset(raw["fields"]), frozenset(raw.get("nested") or ()))
            for name, raw in data["items"].items()
        },
        fields=frozenset(data["fields"]),
        tables=frozenset(data["tables"]),
    )
