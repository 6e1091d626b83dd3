"""What a dump holds, as the `kda inspect` JSON contract, a short text, and a Jupyter summary."""

from __future__ import annotations

import html
from collections import Counter
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from analyzer.model.dump import ModeledDump


def _distribution(cluster: ModeledDump) -> dict[str, Any] | None:
    try:
        return cluster.distribution.to_dict()
    except ImportError:  # pragma: no cover - the stage is part of the package
        return None


def _virtual(cluster: ModeledDump) -> dict[str, Any] | None:
    try:
        return cluster.virtual.to_dict()
    except ImportError:  # pragma: no cover - the stage is part of the package
        return None


def summarize(cluster: ModeledDump, components: bool = True) -> dict[str, Any]:
    """The stable JSON contract of `kda inspect --format json` (without the components table
    when not asked: the text and HTML summaries do not show it, and it needs pandas)."""
    from analyzer.model.logsignatures import logs_without_pod

    r = cluster.ingest
    capture = cluster.capture_time
    logs_by_ns = Counter(log.namespace for log in r.logs)
    out: dict[str, Any] = {
        "name": cluster.name,
        "inputs": list(r.inputs),
        "formats": r.formats,
        "files": len(r.files),
        "objects_read": r.objects_read,
        "objects_total": len(r.objects),
        "objects_by_kind": r.objects_by_kind,
        # each file with what it gave (a folder of pasted tickets: which gave what, or nothing)
        "objects_by_file": r.objects_by_file,
        "duplicates": r.duplicates,
        "rejected": [x.to_dict() for x in r.rejections],
        "rejected_objects": len(r.object_rejections),
        "rejected_inputs": len(r.input_rejections),
        # objects kept as far as their paste goes (a describe cut mid-section): kept, not rejected
        "truncated": [x.to_dict() for x in r.truncated],
        "skipped": [x.to_dict() for x in r.skipped],
        "notes": r.object_notes,
        "coverage": {"present": r.coverage_present, "absent": r.coverage_absent,
                     "unreadable": r.coverage_unreadable},
        "warnings": r.warnings,
        "capture_time": capture.isoformat().replace("+00:00", "Z") if capture else None,
        # Which signal gave the capture time, how far to trust it, and its periods (stitched).
        "capture": cluster.capture.to_dict(),
        "server_version": r.server_version,
        "logs": {"containers": len(r.logs), "by_namespace": dict(sorted(logs_by_ns.items())),
                 # logs of pods the dump does not hold: left by an earlier capture
                 "without_pod": sorted({f"{log.namespace}/{log.pod}" for log in logs_without_pod(cluster)})},
        "generic_tables": len(r.generic_tables),
        # the nodes' journal lines read (`journalctl -u kubelet` pasted or collected): by host, by unit
        "node_journal": _journal_by_host(getattr(r, "node_journal", None) or ()),
    }
    dist = _distribution(cluster)
    if dist is not None:
        out["distribution"] = dist
        virtual = _virtual(cluster)
        if virtual is not None:
            out["virtual_cluster"] = virtual
    if dist is not None and components:
        try:
            comp = cluster.tables["components"]
            out["components"] = comp.astype(object).where(comp.notna(), None).to_dict("records")
        except KeyError:
            pass
    return out


def _evidence_shown(evidence: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The evidence a reader is shown, counted rows first; a row not counted because a
    stronger fingerprint of the same signal matched the same value says nothing new (AKS's
    `aks-...-vmssNNNNNN` and `aks...` node-name patterns both match one node name).

    >>> rows = [{"signal": "n", "value": "aks-a-1-vmss000000", "counted": True},
    ...         {"signal": "w", "value": "azure-cns-x", "counted": False},
    ...         {"signal": "n", "value": "aks-a-1-vmss000000", "counted": False}]
    >>> [(e["signal"], e["counted"]) for e in _evidence_shown(rows)]
    [('n', True), ('w', False)]
    """
    said = {(e["signal"], e["value"]) for e in evidence if e.get("counted", True)}
    return [e for e in sorted(evidence, key=lambda e: not e.get("counted", True))
            if e.get("counted", True) or (e["signal"], e["value"]) not in said]


def _speaks_for(evidence: dict[str, Any], verdict: str) -> str:
    """Which distribution a row speaks for or against, where that is not the verdict's plain
    support (a row against it; the rows of a candidate the verdict set aside).

    >>> _speaks_for({"distribution": "aks", "weight": -8.0}, "unknown"), _speaks_for({"distribution": "aks", "weight": 5.0}, "aks")
    (' (against aks)', '')
    """
    dist = evidence.get("distribution") or ""
    if (evidence.get("weight") or 0) < 0:
        return f" (against {dist})"
    return f" (for {dist})" if dist and dist != verdict else ""


def _runner_up_lines(runner_up: dict[str, Any] | None, shown: list[dict[str, Any]]) -> list[str]:
    """The runner-up, its score and the rows that made it, less those the verdict's lines said.

    >>> row = {"signal": "node_annotation_key", "value": "oci.oraclecloud.com/compartment-id",
    ...        "object": "core/Node//n1", "weight": 4.0, "distribution": "oke"}
    >>> _runner_up_lines({"name": "oke", "score": 4.0, "evidence": [row], "evidence_total": 1}, [])
    ['  runner-up: oke (score 4.00):', '    - node_annotation_key: oci.oraclecloud.com/compartment-id (core/Node//n1)']
    """
    if not runner_up:
        return []
    # (a row for another distribution is another row, though it read the same value on the same
    # object: minikube's storage-provisioner Pod says docker-desktop too)
    said = {(e["signal"], e["value"], e["object"], e.get("distribution")) for e in shown}
    rows = [e for e in runner_up.get("evidence") or []
            if (e["signal"], e["value"], e["object"], e.get("distribution")) not in said]
    total = runner_up.get("evidence_total") or 0
    head = f"  runner-up: {runner_up['name']} (score {runner_up['score']:.2f})"
    if not rows:
        return [head]
    more = total - len(runner_up.get("evidence") or [])
    besides = ", besides the rows above" if len(rows) < len(runner_up.get("evidence") or []) else ""
    return [head + besides + ":",
            *(f"    - {e['signal']}: {e['value']} ({e['object']})" + _speaks_for(e, runner_up["name"])
              for e in rows),
            *([f"    ... and {more} lighter counted row(s), not kept"] if more > 0 else [])]


def summary_text(cluster: ModeledDump) -> str:
    """A short human summary for the terminal."""
    s = summarize(cluster, components=False)
    lines = [f"{s['name']}: {s['objects_total']} objects from {s['files']} files "
             f"({', '.join(s['formats']) or 'no known format'})"]
    lines += [f"WARNING: {w}" for w in s["warnings"]]
    if s.get("distribution"):
        d = s["distribution"]
        lines.append(f"distribution: {d['name']} (confidence {d['confidence']:.2f})")
        shown = _evidence_shown(d.get("evidence", []))[:5]
        for ev in shown:
            lines.append(f"  - {ev['signal']}: {ev['value']} ({ev['object']})"
                         + ("" if ev.get("counted", True) else " (not counted)") + _speaks_for(ev, d["name"]))
        lines += _runner_up_lines(d.get("runner_up"), shown)
        # Why the verdict is what it is: several clusters in one input, a virtual cluster's host.
        lines += [f"  note: {note}" for note in d.get("notes") or []]
    virtual = s.get("virtual_cluster") or {}
    if virtual.get("name"):
        lines.append(f"virtual cluster: {virtual['name']} (its control plane runs in a host cluster)")
        lines += [f"  - {e}" for e in virtual["evidence"][:5]]
    lines.append(f"capture time: {cluster.capture.describe()}")
    if cluster.capture.where:
        lines.append(f"  from {cluster.capture.where}")
    lines.append("objects by kind:")
    for kind, n in s["objects_by_kind"].items():
        lines.append(f"  {kind:<32} {n:>7}")
    lines += _by_file(s["objects_by_file"])
    cut = f" ({len(s['truncated'])} truncated)" if s["truncated"] else ""
    lines.append(f"objects read {s['objects_read']} = kept {s['objects_total']}{cut} + duplicates "
                 f"{s['duplicates']} + rejected {s['rejected_objects']}"
                 + (f" (and {s['rejected_inputs']} inputs, files or passages of text not read)"
                    if s["rejected_inputs"] else ""))
    lines += _listing("rejected", [f"{_where(r)}: {r['reason']}" for r in s["rejected"]], 20)
    lines += _listing("truncated, kept as far as the paste goes",
                      [f"{_where(t)}: {t['reason']}" for t in s["truncated"]], 20)
    lines += _listing("skipped, holding no objects", [f"{_where(x)}: {x['reason']}" for x in s["skipped"]], 10)
    lines += _listing("notes on objects kept",
                      [f"{_where(n)} {n['object']}: {n['note']}" for n in s["notes"]], 10)
    lines.append("coverage: present " + (", ".join(s["coverage"]["present"]) or "-"))
    lines.append("          absent  " + (", ".join(s["coverage"]["absent"]) or "-"))
    if s["coverage"]["unreadable"]:
        lines.append("          present, not read as objects " + ", ".join(s["coverage"]["unreadable"]))
    lines.append(f"logs: {s['logs']['containers']} container logs")
    orphans = s["logs"].get("without_pod") or []
    if orphans:
        named = ", ".join(orphans[:5]) + (f" and {len(orphans) - 5} more" if len(orphans) > 5 else "")
        lines.append(f"      of {len(orphans)} pod(s) the dump does not hold ({named}): left by an earlier "
                     "capture, or taken at another time; read apart from the state the dump shows")
    journals = s.get("node_journal") or {}
    if journals:
        said = [f"{host} ({', '.join(f'{unit} {count}' for unit, count in units.items())})"
                for host, units in list(journals.items())[:5]]
        lines.append(f"node journal: {sum(sum(u.values()) for u in journals.values())} line(s) of "
                     + ", ".join(said) + (f" and {len(journals) - 5} more host(s)" if len(journals) > 5 else ""))
    return "\n".join(lines) + "\n"


# A dump of a few files (a folder of pasted tickets, a transcript beside a bundle) says what each
# gave; one of many files (a support bundle's) leaves that to --format json.
_FILES_LISTED = 20


def _by_file(files: list[dict[str, Any]]) -> list[str]:
    """`objects by file`: each file's kept objects by kind and its rejections, where 2 to
    _FILES_LISTED files were read.

    >>> _by_file([{"source": "a.md", "format": "transcript", "objects": {"Event": 1, "Pod": 5}, "rejected": 0},
    ...           {"source": "b.txt", "format": "kubectl-text", "objects": {}, "rejected": 2}])
    ['objects by file:', '  a.md (transcript): 6 (Event 1, Pod 5)', '  b.txt (kubectl-text): 0, 2 rejected']
    """
    if not 2 <= len(files) <= _FILES_LISTED:
        return []
    lines = ["objects by file:"]
    for f in files:
        kept = sum(f["objects"].values())
        kinds = ", ".join(f"{kind} {n}" for kind, n in f["objects"].items())
        lines.append(f"  {f['source']} ({f['format']}): {kept}" + (f" ({kinds})" if kinds else "")
                     + (f", {f['rejected']} rejected" if f["rejected"] else ""))
    return lines


def _journal_by_host(journal: Any) -> dict[str, dict[str, int]]:
    """Journal lines counted by host, then unit, both sorted."""
    counts: Counter[tuple[str, str]] = Counter((line.host, line.unit) for line in journal)
    by_host: dict[str, dict[str, int]] = {}
    for (host, unit), count in sorted(counts.items()):
        by_host.setdefault(host, {})[unit] = count
    return by_host


def _where(entry: dict[str, Any]) -> str:
    return entry["source"] + (f" [{entry['location']}]" if entry["location"] else "")


def _listing(title: str, entries: list[str], limit: int) -> list[str]:
    """A titled, indented list of at most `limit` entries (none at all when empty)."""
    if not entries:
        return []
    more = [f"  ... and {len(entries) - limit} more (see --format json)"] if len(entries) > limit else []
    return [f"{title} ({len(entries)}):", *(f"  {e}" for e in entries[:limit]), *more]


def summary_html(cluster: ModeledDump) -> str:
    """Compact HTML for Jupyter: counts by kind, distribution, coverage, rejections."""
    s = summarize(cluster, components=False)
    e = html.escape
    rows = "".join(f"<tr><td>{e(k)}</td><td style='text-align:right'>{n}</td></tr>"
                   for k, n in s["objects_by_kind"].items())
    dist = s.get("distribution")
    dist_html = (f"<p><b>Distribution:</b> {e(dist['name'])} "
                 f"(confidence {dist['confidence']:.2f})</p>" if dist else "")
    rej = s["rejected"]
    rej_html = ""
    if rej:
        items = "".join(f"<li>{e(r['source'])} {e(r['location'])}: {e(r['reason'])}</li>" for r in rej[:10])
        rej_html = f"<details><summary>{len(rej)} rejected</summary><ul>{items}</ul></details>"
    if cut := s["truncated"]:
        items = "".join(f"<li>{e(t['source'])} {e(t['location'])}: {e(t['reason'])}</li>" for t in cut[:10])
        rej_html += f"<details><summary>{len(cut)} truncated, kept as far as the paste goes</summary><ul>{items}</ul></details>"
    if s["notes"]:
        items = "".join(f"<li>{e(n['object'])}: {e(n['note'])}</li>" for n in s["notes"][:10])
        rej_html += f"<details><summary>{len(s['notes'])} notes on objects kept</summary><ul>{items}</ul></details>"
    warn_html = "".join(f"<p><b>Warning:</b> {e(w)}</p>" for w in s["warnings"])
    return (
        f"<div>{warn_html}<p><b>{e(s['name'])}</b>: {s['objects_total']} objects, "
        f"formats {e(', '.join(s['formats']))}, captured {e(cluster.capture.describe())}</p>"
        f"{dist_html}<table><tr><th>kind</th><th>count</th></tr>{rows}</table>"
        f"<p><b>Not covered:</b> {e(', '.join(s['coverage']['absent']) or 'nothing')}</p>{rej_html}</div>"
    )
