"""`kda serve`: any dump as a read-only Kubernetes API server, for kubectl and client libraries.

`serve(stores, port)` runs uvicorn on 127.0.0.1 until interrupted; `build_app` gives the ASGI
app alone (tests run it in a thread).
"""

from __future__ import annotations

from analyzer.serve.app import build_app, context_names
from analyzer.serve.kubeconfig import kubeconfig_text, write_kubeconfig

__all__ = ["build_app", "context_names", "kubeconfig_text", "write_kubeconfig"]
