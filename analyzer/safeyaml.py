"""YAML that is not a dump (the package's catalogs and rules, a ConfigMap's embedded config):
read with libyaml's compiled safe loader. PyYAML's `safe_load` is the pure-Python loader,
about ten times slower, and every process that starts pays it for each data file."""

from __future__ import annotations

from typing import Any

import yaml


def load_yaml(text: str) -> Any:
    """One YAML document, safely (no tags run), by the compiled loader.

    >>> load_yaml("a: [1, on, '0755']")
    {'a': [1, True, '0755']}
    """
    return yaml.load(text, Loader=yaml.CSafeLoader)
