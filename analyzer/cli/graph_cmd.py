"""`kda graph`: the dependency graph of a dump, whole, per namespace or around one object, as a file."""

from __future__ import annotations

from collections import Counter
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from analyzer.cli.common import fail, load_cluster, write_output
from analyzer.errors import UnknownObjectError

if TYPE_CHECKING:
    import networkx as nx


class GraphFormat(StrEnum):
    graphml = "graphml"
    gexf = "gexf"
    json = "json"
    dot = "dot"
    mermaid = "mermaid"
    cypher = "cypher"
    text = "text"


def graph(
    inputs: Annotated[list[str], typer.Argument(help="Dump files, folders, archives, or - for stdin.")],
    format: Annotated[GraphFormat, typer.Option("--format", "-f", help="graphml, gexf, json, dot, mermaid, cypher, or text (a summary)")] = GraphFormat.json,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write to this file instead of stdout.")] = None,
    namespace: Annotated[str | None, typer.Option("--namespace", "-n", help="Only this namespace (and the cluster-scoped objects it touches).")] = None,
    impact: Annotated[str | None, typer.Option("--impact", help="Only what breaks if KIND/NS/NAME (or KIND/NAME) goes.")] = None,
    dependencies: Annotated[str | None, typer.Option("--dependencies", help="Only what KIND/NS/NAME needs.")] = None,
    collapse: Annotated[bool, typer.Option("--collapse", help="Fold pods and ReplicaSets into their top controller.")] = False,
) -> None:
    """Write the dependency graph: objects, and the references between them by relation."""
    from analyzer.graph import dependencies as dependencies_of
    from analyzer.graph import impact as impact_of
    from analyzer.graph import namespace_subgraph, reach_subgraph
    from analyzer.graph.export import export

    if impact and dependencies:
        fail("give --impact or --dependencies, not both", 2)
    cluster = load_cluster(inputs, json_output=format is GraphFormat.json)
    g = cluster.graph
    reach = None
    key = impact or dependencies
    if key:
        try:
            reach = impact_of(g, key) if impact else dependencies_of(g, key)
        except UnknownObjectError as exc:
            fail(str(exc), 2)
        g = reach_subgraph(g, reach)
    if namespace:
        g = namespace_subgraph(g, namespace)
    if collapse:
        from analyzer.graph import collapse_pods

        g = collapse_pods(g)
    if format is GraphFormat.text:
        write_output(reach.text() if reach is not None else summary_text(g), output)
    else:
        write_output(export(g, format.value), output)


def summary_text(g: nx.MultiDiGraph) -> str:
    """Counts of objects by state and references by relation, then the dangling references."""
    from analyzer.graph import dangling

    lines = [f"{g.number_of_nodes()} objects, {g.number_of_edges()} references"]
    states = Counter(str(s) for _, s in g.nodes(data="state"))
    lines += [f"  {state:14} {n}" for state, n in sorted(states.items())]
    lines.append("references by relation:")
    relations = Counter(str(r) for _, _, r in g.edges(data="relation"))
    lines += [f"  {rel:20} {n}" for rel, n in sorted(relations.items())]
    missing = dangling(g)
    lines.append(f"dangling references (the kind was collected, the object is not there): {len(missing)}")
    lines += [
        f"  {row.referrer} refers to {row.missing} ({row.relation}, {row.via})" + (" (optional)" if row.optional else "")
        for row in missing.itertuples()
    ]
    return "\n".join(lines)


def register(app: typer.Typer) -> None:
    app.command("graph")(graph)
