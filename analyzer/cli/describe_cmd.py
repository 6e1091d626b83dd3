"""`kda describe`: one object (or all of a kind) in kubectl describe's layout, with its events."""

from __future__ import annotations

import sys
from typing import Annotated

import typer
from rich.markup import escape

from analyzer.cli.common import (
    SHOW_SENSITIVE_HELP,
    err_console,
    fail,
    load_cluster,
    lower_bound_note,
)


def describe(
    args: Annotated[list[str], typer.Argument(
        help="KIND NAME DUMP, KIND/NAME DUMP, or KIND DUMP for every object of the kind (the dump is last).",
        metavar="KIND [NAME] DUMP")],
    namespace: Annotated[str | None, typer.Option("--namespace", "-n", help="Namespace (default: default).")] = None,
    all_namespaces: Annotated[bool, typer.Option("--all-namespaces", "-A", help="Every namespace (without NAME).")] = False,
    show_sensitive: Annotated[bool, typer.Option("--show-sensitive", help=SHOW_SENSITIVE_HELP)] = False,
) -> None:
    """Print an object as kubectl describe does (nodes, pods, deployments and services in their own layouts, any other kind generically), with the events of the object and ages measured from the dump's capture time."""
    if len(args) not in (2, 3):
        fail("usage: kda describe KIND NAME DUMP  (or KIND/NAME DUMP, or KIND DUMP)", 2)
    kind, name = (args[0].split("/", 1) + [None])[:2] if "/" in args[0] else (args[0], None)
    if len(args) == 3:
        if name is not None:
            fail("give the name once: KIND/NAME DUMP or KIND NAME DUMP", 2)
        name = args[1]
    from analyzer.printing.describe import describe as describe_object
    from analyzer.printing.store import DumpStore, NotCollected

    cluster = load_cluster([args[-1]], show_sensitive=show_sensitive)
    store = DumpStore.from_cluster(cluster)
    res = store.catalog.resolve(kind)
    if res is None:
        fail(f'the dump has no resource type "{kind}"', 1)
        return
    ns = None if all_namespaces else (namespace or "default")
    try:
        if name is not None:
            found = store.find(res, ns or "", name)
            # like kubectl, a name that is no object's is tried as a prefix
            objs = [found] if found is not None else [o for o in store.select(res, ns) if o.name.startswith(name)]
            if not objs:
                fail(f'{res.qualified} "{name}" not found', 1)
        else:
            objs = store.select(res, ns)
    except NotCollected as exc:
        fail(str(exc), 1)
        return
    texts = [describe_object(store, res, store.body(res, o)) for o in objs]
    if not texts:
        fail("No resources found" + (f" in {ns} namespace." if res.namespaced and ns else "."), 1)
    if note := lower_bound_note(cluster):
        err_console.print(escape(note))  # (stderr, as kubectl's warnings)
    # as kubectl: each text as its describer wrote it, two newlines before each after the first
    out = texts[0] + "".join("\n\n" + t for t in texts[1:])
    sys.stdout.write(out if out.endswith("\n") else out + "\n")


def register(app: typer.Typer) -> None:
    """Add `kda describe`."""
    app.command(name="describe")(describe)
