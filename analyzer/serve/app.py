"""The ASGI app of `kda serve`: each dump's API under its own path, the first also at the root."""

from __future__ import annotations

import re
from collections.abc import Sequence

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from analyzer.printing.store import DumpStore
from analyzer.serve.api import DumpAPI

ALL_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]


def context_names(stores: Sequence[DumpStore]) -> list[str]:
    """One kubeconfig context (and URL path) per dump, named after it, unique.

    >>> class S:  # a stand-in with only a name
    ...     def __init__(self, name): self.name = name
    >>> context_names([S("aks"), S("aks"), S("my dump")])
    ['aks', 'aks-2', 'my-dump']
    """
    names: list[str] = []
    for store in stores:
        base = re.sub(r"[^A-Za-z0-9._-]+", "-", store.name).strip("-") or "dump"
        name, n = base, 2
        while name in names:
            name, n = f"{base}-{n}", n + 1
        names.append(name)
    return names


def build_app(stores: Sequence[DumpStore], server_address: str = "127.0.0.1") -> Starlette:
    """The app serving every dump: `/dumps/<context>/...`, and the first dump at `/...`."""
    apis = {name: DumpAPI(store, server_address) for name, store in zip(context_names(stores), stores, strict=True)}
    first = next(iter(apis.values()))

    async def by_dump(request: Request) -> Response:
        api = apis.get(request.path_params["dump"])
        if api is None:
            from analyzer.serve.api import status

            return status(404, "NotFound", f"no dump named {request.path_params['dump']!r} is served here")
        return await api.handle(request, request.path_params["path"])

    async def root(request: Request) -> Response:
        return await first.handle(request, request.path_params["path"])

    return Starlette(routes=[
        Route("/dumps/{dump}/{path:path}", by_dump, methods=ALL_METHODS),
        Route("/{path:path}", root, methods=ALL_METHODS),
    ])
