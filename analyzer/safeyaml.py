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


class DumpLoader(yaml.CSafeLoader):
    """The compiled safe loader for dumps, reading a plain `=` as the string Go's YAML (and so
    the API server) reads: YAML 1.1 resolves it to its `value` type, which PyYAML has no
    constructor for, and a whole file was refused for an enum of match operators.

    >>> yaml.load("enum:\\n- '!='\\n- =\\n- =~\\n", Loader=DumpLoader)
    {'enum': ['!=', '=', '=~']}
    """


DumpLoader.add_constructor("tag:yaml.org,2002:value", yaml.CSafeLoader.construct_yaml_str)
