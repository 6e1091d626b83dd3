"""What an emitter reads: a cluster's objects by kind, and its containers' logs (narrow, so that
any cluster model can be printed in any form)."""

from __future__ import annotations

from typing import Protocol

from synthetic.objects import Obj


class ObjectSource(Protocol):
    """A cluster's objects as the API server lists them."""

    @property
    def list_rv(self) -> str:
        """The resourceVersion a List call returns."""
        ...

    def of_kind(self, kind: str, namespace: str | None = None) -> list[Obj]:
        """Objects of a kind (in one namespace if given), sorted as the API lists them."""
        ...

    def namespaces(self) -> list[str]:
        """The names of the cluster's namespaces."""
        ...


class LogSource(Protocol):
    """What `kubectl logs` returns for a container (an error line where the kubelet gives none)."""

    def current(self, pod: Obj, container: Obj) -> str:
        """The log of the running (or last) instance."""
        ...

    def previous(self, pod: Obj, container: Obj) -> str | None:
        """`--previous`: the log of the instance before, when the dump kept one."""
        ...
