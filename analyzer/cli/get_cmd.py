"""`kda get`: a dump's objects as `kubectl get` prints them (same table code as `kda serve`)."""

from __future__ import annotations

import sys
from enum import StrEnum
from typing import Annotated, Any

import typer
from rich.markup import escape

from analyzer.cli.common import (
    SHOW_SENSITIVE_HELP,
    err_console,
    fail,
    load_cluster,
    lower_bound_note,
)


class GetOutput(StrEnum):
    """kubectl's -o forms that `kda get` prints."""

    wide = "wide"
    yaml = "yaml"
    json = "json"
    name = "name"


def get(
    args: Annotated[list[str], typer.Argument(
        help="KIND[,KIND...] [NAME] DUMP, or KIND/NAME DUMP (the dump is always last).", metavar="KIND [NAME] DUMP")],
    namespace: Annotated[str | None, typer.Option("--namespace", "-n", help="Namespace (default: default).")] = None,
    all_namespaces: Annotated[bool, typer.Option("--all-namespaces", "-A", help="Every namespace.")] = False,
    selector: Annotated[str | None, typer.Option("--selector", "-l", help="Label selector (a=b, a!=b, a in (x,y), a, !a).")] = None,
    field_selector: Annotated[str | None, typer.Option("--field-selector", help="Field selector (metadata.name=x, spec.nodeName=n, status.phase!=Running).")] = None,
    output: Annotated[GetOutput | None, typer.Option("--output", "-o", help="wide, yaml, json or name.")] = None,
    show_labels: Annotated[bool, typer.Option("--show-labels", help="Add a LABELS column.")] = False,
    no_headers: Annotated[bool, typer.Option("--no-headers", help="Leave the header line out.")] = False,
    show_sensitive: Annotated[bool, typer.Option("--show-sensitive", help=SHOW_SENSITIVE_HELP)] = False,
) -> None:
    """Print objects of a dump as kubectl get does: the same columns per kind (custom resources with their CRD's printer columns), ages measured from the dump's capture time."""
    if len(args) < 2 or len(args) > 3:
        fail("usage: kda get KIND[,KIND...] [NAME] DUMP  (or KIND/NAME DUMP)", 2)
    kinds_arg, names, dump = args[0], list(args[1:-1]), args[-1]
    requests = _requests(kinds_arg, names)
    from analyzer.printing.store import DumpStore

    cluster = load_cluster([dump], show_sensitive=show_sensitive)
    store = DumpStore.from_cluster(cluster)
    code = 0
    printed = False
    collected: list[tuple[Any, list[dict[str, Any]]]] = []
    uncollected: list[str] = []
    for kind_name, name in requests:
        res = store.catalog.resolve(kind_name)
        if res is None and kind_name in ALL_KINDS and "all" in kinds_arg.split(","):
            continue  # "all" is what the dump holds of its kinds, as kubectl's is what the cluster serves
        if res is None:
            err_console.print(escape(f'error: the dump has no resource type "{kind_name}"'))
            code = 1
            continue
        try:
            bodies = _objects(store, res, name, namespace, all_namespaces, selector, field_selector,
                              whole=output in (GetOutput.yaml, GetOutput.json))
        except LookupError as exc:
            if kind_name in ALL_KINDS and "all" in kinds_arg.split(",") and name is None:
                uncollected.append(kind_name)
                continue  # a kind of "all" the dump did not collect: nothing to list, as kubectl
            err_console.print(escape(f"Error from server (NotFound): {exc}"))
            code = 1
            continue
        except ValueError as exc:  # a selector the API would refuse
            fail(str(exc), 1)
            return
        collected.append((res, bodies))
    if uncollected and not collected:
        fail(f"the dump did not collect any kind of \"all\" ({', '.join(uncollected)})", 1)
    single = len(requests) == 1 and requests[0][1] is not None
    if output in (GetOutput.yaml, GetOutput.json):
        items = [b for _, bodies in collected for b in bodies]
        doc: Any = items[0] if single and len(items) == 1 else {
            "apiVersion": "v1", "items": items, "kind": "List", "metadata": {"resourceVersion": ""}}
        if single and not items:
            raise typer.Exit(code or 1)
        sys.stdout.write(_dump_doc(doc, output))
        raise typer.Exit(code)
    from analyzer.printing.tables import build_table, render_names, render_table

    multi = len({res.kind_label for res, _ in collected}) > 1 or len(requests) > 1
    if output != GetOutput.name and any(bodies for _, bodies in collected) and (note := lower_bound_note(cluster)):
        err_console.print(escape(note))  # (stderr, as kubectl's warnings: the columns stay as kubectl's)
    for res, bodies in collected:
        if not bodies:
            continue
        if output == GetOutput.name:
            sys.stdout.write(render_names(res, bodies))
            continue
        table = build_table(res, bodies, store.clock)
        if printed:
            sys.stdout.write("\n")
        sys.stdout.write(render_table(
            table, wide=output == GetOutput.wide, namespace_column=all_namespaces and res.namespaced,
            kind_prefix=res.kind_label if multi else "", show_labels=show_labels, headers=not no_headers))
        printed = True
    if not any(bodies for _, bodies in collected) and code == 0 and not single:
        ns = namespace or "default"
        scoped = any(res.namespaced for res, _ in collected)
        err_console.print("No resources found" + (f" in {ns} namespace." if scoped and not all_namespaces else ""))
    raise typer.Exit(code)


# kubectl's "all" category: the workload kinds and Services, in the order kubectl prints them.
ALL_KINDS = ("pods", "replicationcontrollers", "services", "daemonsets", "deployments", "replicasets",
             "statefulsets", "horizontalpodautoscalers", "cronjobs", "jobs")


def _requests(kinds_arg: str, names: list[str]) -> list[tuple[str, str | None]]:
    """(kind, name or None) pairs from `pods`, `pods,svc`, `pod web`, `pod/web`, `all`."""
    if "/" in kinds_arg:
        kind, _, name = kinds_arg.partition("/")
        return [(kind, name)] + [(kind, n) for n in names]
    kinds = [e for k in kinds_arg.split(",") if k for e in (ALL_KINDS if k == "all" else (k,))]
    if names:
        return [(k, n) for k in kinds for n in names]
    return [(k, None) for k in kinds]


def _objects(store: Any, res: Any, name: str | None, namespace: str | None, all_namespaces: bool,
             selector: str | None, field_selector: str | None, whole: bool) -> list[dict[str, Any]]:
    """The objects asked for: whole for -o yaml|json, else only what their rows need."""
    ns = None if all_namespaces else (namespace or "default")
    if name is not None:
        obj = store.find(res, ns or "", name)
        if obj is None:
            raise LookupError(f'{res.qualified} "{name}" not found')
        objs = [obj]
    else:
        objs = store.select(res, ns, selector, field_selector)
    return store.bodies(res, objs) if whole else store.row_bodies(res, objs)


def _dump_doc(doc: Any, output: GetOutput) -> str:
    if output == GetOutput.json:
        import json

        return json.dumps(doc, indent=4, ensure_ascii=False) + "\n"
    return _kubectl_yaml(doc)


def _kubectl_yaml(doc: Any) -> str:
    """YAML as kubectl prints it: sorted keys, block style, and a string that would read as
    another type ("1", "true", "") in double quotes, as Go's encoder writes it.

    >>> print(_kubectl_yaml({"metadata": {"annotations": {"revision": "1", "ok": "yes-no"}}}), end="")
    metadata:
      annotations:
        ok: yes-no
        revision: "1"
    """
    import yaml

    base = getattr(yaml, "CSafeDumper", yaml.SafeDumper)

    class KubectlDumper(base):  # type: ignore[misc, valid-type]
        pass

    resolver = yaml.resolver.Resolver()

    def represent_str(dumper: Any, value: str) -> Any:
        plain_type = resolver.resolve(yaml.ScalarNode, value, (True, False))
        style = '"' if plain_type != "tag:yaml.org,2002:str" or value == "" else None
        if "\n" in value and style is None:
            style = "|"
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)

    KubectlDumper.add_representer(str, represent_str)
    return yaml.dump(doc, Dumper=KubectlDumper, default_flow_style=False, sort_keys=True, allow_unicode=True,
                     width=10**9)


def register(app: typer.Typer) -> None:
    """Add `kda get`."""
    app.command(name="get")(get)
