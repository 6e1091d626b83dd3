"""Edge cases of the quantity parser and the image splitter (the main cases are the doctests in
analyzer/model); values follow the API's quantity grammar and the container runtimes' reference
rules."""

from __future__ import annotations

import math

import pytest

from analyzer.kube.quantities import parse_quantity
from analyzer.model.images import split_image


@pytest.mark.parametrize(("raw", "value"), [
    ("0", 0.0), ("+1", 1.0), ("-2", -2.0), (".5", 0.5), ("1.", 1.0), ("250m", 0.25),
    ("1e-3", 0.001), ("1E3", 1000.0), ("2E", 2e18), ("3Ki", 3072.0), ("4Ti", 4 * 2.0**40),
    ("5P", 5e15), ("1.5Mi", 1.5 * 2**20), (" 100Mi ", 100 * 2**20), (7, 7.0), (0.5, 0.5),
])
def test_quantities(raw, value) -> None:
    assert parse_quantity(raw) == pytest.approx(value)


@pytest.mark.parametrize("raw", ["", "Mi", "1 Gi", "1GiB", "1e", "0x10", "1.2.3", "--1", [], {}])
def test_unreadable_quantities_are_nan(raw) -> None:
    assert math.isnan(parse_quantity(raw))


@pytest.mark.parametrize(("image", "parts"), [
    ("nginx@sha256:abc", ("docker.io", "library/nginx", None, "sha256:abc")),
    ("index.docker.io/library/busybox:1.36", ("docker.io", "library/busybox", "1.36", None)),
    ("localhost/app:dev", ("localhost", "app", "dev", None)),
    ("registry.k8s.io/kube-proxy:v1.29.0", ("registry.k8s.io", "kube-proxy", "v1.29.0", None)),
    ("gcr.io/google-containers/pause-amd64:3.1", ("gcr.io", "google-containers/pause-amd64",
                                                  "3.1", None)),
    ("quay.io:443/org/app", ("quay.io:443", "org/app", None, None)),
    ("iad.ocir.io/ns/oke-public-coredns:v1.10", ("iad.ocir.io", "ns/oke-public-coredns",
                                                 "v1.10", None)),
])
def test_image_references(image, parts) -> None:
    assert tuple(split_image(image)) == parts
