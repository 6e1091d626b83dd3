"""The fleet report's pictures (matplotlib, no pyplot state): dumps per distribution and Kubernetes
minor version as a heatmap, and the versions each common component runs at across the dumps."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from typing import Any

from matplotlib.figure import Figure

from analyzer.report.diagrams import _style, fit_label, set_title

TOP_COMPONENTS = 25  # components drawn, the most common first
VERSION_COLOURS = ["#4c78a8", "#f58518", "#54a24b", "#e45756", "#72b7b2", "#eeca3b", "#b279a2",
                   "#ff9da6", "#9d755d"]
OTHER_COLOUR = "#bab0ac"


def _minor_key(version: str) -> tuple[int, int, str]:
    match = re.match(r"v(\d+)\.(\d+)", version)
    return (int(match[1]), int(match[2]), "") if match else (10**6, 0, version)  # unknown last


def version_heatmap(report: Mapping[str, Any]) -> Figure:
    """Dumps per distribution (rows) and Kubernetes minor version (columns), counts in the cells."""
    with _style():
        dists = list(report["distributions"])
        minors = sorted({m for d in dists for m in report["distributions"][d]["kubernetes_minor_versions"]},
                        key=_minor_key)
        if not dists or not minors:
            raise ValueError("no dumps to draw")
        counts = [[report["distributions"][d]["kubernetes_minor_versions"].get(m, 0) for m in minors]
                  for d in dists]
        fig = Figure(figsize=(max(4.5, 1.6 + 0.75 * len(minors)), 1.3 + 0.38 * len(dists)))
        ax = fig.add_subplot()
        image = ax.imshow(counts, cmap="Blues", aspect="auto", vmin=0)
        top = max(max(row) for row in counts) or 1
        for y, row in enumerate(counts):
            for x, n in enumerate(row):
                if n:
                    ax.text(x, y, str(n), ha="center", va="center", fontsize=8,
                            color="white" if n > top * 0.55 else "#111111")
        ax.set_xticks(range(len(minors)), minors, fontsize=8)
        ax.set_yticks(range(len(dists)), [f"{d} ({report['distributions'][d]['dumps']})" for d in dists],
                      fontsize=8)
        ax.set_title("Dumps by distribution and Kubernetes minor version")
        ax.tick_params(length=0)
        for spine in ax.spines.values():
            spine.set_visible(False)
        fig.colorbar(image, ax=ax, fraction=0.04, pad=0.02).ax.tick_params(labelsize=7)
        fig.tight_layout()
        return fig


def component_versions(report: Mapping[str, Any], top: int = TOP_COMPONENTS) -> Figure:
    """The most common components, each a bar of the share of its dumps per version (the most
    used versions apart, the rest as one "other" part), with how many dumps run it."""
    with _style():
        versions: dict[str, Counter[str]] = {}
        for dist in report["distributions"].values():
            for comp in dist["components"]:
                versions.setdefault(comp["component"], Counter()).update(comp["versions"])
        ranked = sorted(versions, key=lambda c: (-sum(versions[c].values()), c))[:top]
        if not ranked:
            raise ValueError("no components in these dumps")
        fig = Figure(figsize=(10, 1.3 + 0.32 * len(ranked)))
        ax = fig.add_axes((0.2, 0.9 / (1.3 + 0.32 * len(ranked)), 0.7, 0.32 * len(ranked) / (1.3 + 0.32 * len(ranked))))
        axis_points = 0.7 * 10 * 72  # the axes' width in points: 100% of a bar
        for y, comp in enumerate(ranked):
            total = sum(versions[comp].values())
            items = sorted(versions[comp].items(), key=lambda kv: (-kv[1], kv[0]))
            parts = items[: len(VERSION_COLOURS)]
            rest = items[len(VERSION_COLOURS):]
            if rest:
                parts.append((f"{len(rest)} other versions", sum(n for _, n in rest)))
            left = 0.0
            for i, (version, n) in enumerate(parts):
                share = n / total
                colour = VERSION_COLOURS[i] if i < len(VERSION_COLOURS) and not (rest and i == len(parts) - 1) else OTHER_COLOUR
                ax.barh(y, share, left=left, color=colour, edgecolor="white", linewidth=0.6)
                room = share * axis_points - 4
                if room > 14:
                    label = ax.text(left + share / 2, y, fit_label("", version, "", room, 7),
                                    ha="center", va="center", fontsize=7,
                                    color="#111111" if colour == OTHER_COLOUR else "white")
                    set_title(label, f"{comp} {version}: {n} of {total} dumps")
                left += share
            ax.text(1.01, y, f"{total} dumps", va="center", fontsize=7.5, color="#333333")
        ax.set_xlim(0, 1)
        ax.set_yticks(range(len(ranked)), [fit_label("", c, "", 130, 8) for c in ranked], fontsize=8)
        ax.invert_yaxis()
        ax.xaxis.set_major_formatter(lambda v, _: f"{v:.0%}")
        ax.set_xlabel("share of the dumps that run the component")
        more = f" (the {top} most common of {len(versions)})" if len(versions) > top else ""
        ax.set_title(f"Component versions across the dumps{more}")
        ax.spines[["top", "right"]].set_visible(False)
        return fig
