"""Templates to pages: the Jinja environments (HTML autoescaped, Markdown escaped by a finalizer)
and the diagrams embedded as data URIs (HTML) or written beside the page (Markdown)."""

from __future__ import annotations

import base64
import html
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from jinja2 import Environment, PackageLoader, Undefined, select_autoescape

from analyzer.report.template_cache import cache_for

if TYPE_CHECKING:
    from matplotlib.figure import Figure

# Characters that would turn a value into Markdown structure: tables, emphasis, links, code.
_MD_SPECIAL = re.compile(r"([\\`*\[\]|])")
MAX_SVG_BYTES = 500_000  # a diagram's SVG above this is embedded and written as PNG instead
_SVG_SIZE = re.compile(r'<svg[^>]*?width="([\d.]+)pt"[^>]*?height="([\d.]+)pt"')


class Raw(str):
    """Markdown the report wrote itself (a code fence, a link target): printed as is."""


def md_escape(value: Any) -> str:
    """A value as inert Markdown text: HTML escaped, table/emphasis/link syntax escaped, one line."""
    if isinstance(value, Raw):
        return str(value)
    if value is None:
        return "–"
    if value is True:
        return "yes"
    if value is False:
        return "no"
    text = html.escape(str(value), quote=False)
    text = _MD_SPECIAL.sub(r"\\\1", text)
    return " ".join(text.splitlines())


def md_code(text: str) -> Raw:
    """A fenced block that no run of tildes in the text can close early."""
    longest = max((len(m) for m in re.findall(r"~+", text)), default=0)
    fence = "~" * max(3, longest + 1)
    return Raw(f"{fence}\n{text.rstrip()}\n{fence}")


def md_link(target: str) -> Raw:
    """A relative link target, percent-encoded."""
    return Raw(quote(target))


@cache
def environment(kind: str) -> Environment:
    """The Jinja environment for "html" (autoescape on) or "md" (every value md-escaped)."""
    options: dict[str, Any] = {
        "loader": PackageLoader("analyzer.report", "templates"),
        # A fact a stage did not provide prints empty rather than failing the whole report.
        "undefined": Undefined,
        "keep_trailing_newline": True,
        "trim_blocks": True,
        "lstrip_blocks": True,
    }
    escaping = ("html", "html.j2")
    if kind == "html":
        env = Environment(autoescape=select_autoescape(enabled_extensions=escaping,
                                                       default_for_string=True, default=True),
                          **options)
        compiled_by = f"autoescape {escaping}"
    else:
        finalize: Callable[[Any], str] = md_escape
        env = Environment(autoescape=False, finalize=finalize, **options)
        compiled_by = f"finalize {finalize.__module__}.{finalize.__qualname__}"
    # What the compiled code depends on besides the source (escaping, finalizer, whitespace):
    # the cache's folder is named by it, so code compiled under other options is never read.
    switches = " ".join(f"{k}={v}" for k, v in options.items() if isinstance(v, bool))
    env.bytecode_cache = cache_for(f"{kind}; {compiled_by}; {switches}")
    if kind == "md":
        env.filters["md_code"] = md_code
        env.filters["md_link"] = md_link
        env.filters["raw"] = Raw  # a macro's output, already escaped value by value
    from analyzer.report import tables

    env.globals.update(render_table=tables.render_table, markdown_rows=tables.markdown_rows,
                       export_command=tables.export_command, table_script=tables.script,
                       MD_ROWS=tables.MD_ROWS)
    return env


@cache
def stylesheet() -> str:
    """The report's CSS, inlined into every page."""
    return resources.files("analyzer.report").joinpath("templates/style.css").read_text("utf-8")


def render_page(template: str, **context: Any) -> str:
    """Render one template (`*.html.j2` or `*.md.j2`) with the shared context."""
    from analyzer.version import __version__

    kind = "html" if template.endswith(".html.j2") else "md"
    text = environment(kind).get_template(template).render(css=stylesheet(), version=__version__,
                                                           **context)
    if kind == "md":  # templates leave blank runs where optional parts were skipped
        text = re.sub(r"\n{3,}", "\n\n", text).strip() + "\n"
    return text


@dataclass(slots=True)
class Diagram:
    """One rendered diagram: its SVG (or why it could not be drawn), its file and data URI."""

    id: str
    title: str
    svg: str = ""
    reason: str = ""
    png: bytes = field(default=b"", repr=False)  # instead of the SVG when that would be too big
    file: str = ""
    width: int = 0
    height: int = 0
    data_uri: str = field(default="", repr=False)


def draw(diagram_id: str, title: str, build: Callable[[], Figure]) -> Diagram:
    """Draw one diagram to SVG; a failure is kept as the reason instead of raised."""
    from analyzer.report.diagrams import NothingToDraw, figure_svg

    try:
        fig = build()
        svg = figure_svg(fig)
        if len(svg) > MAX_SVG_BYTES:  # a picture of very many shapes: a PNG of it stays small
            return _as_png(diagram_id, title, fig, svg)
    except NothingToDraw as exc:  # left out, and the page says why
        return Diagram(diagram_id, title, reason=f"nothing to draw: {exc}")
    except Exception as exc:  # one diagram failing must not lose the report
        return Diagram(diagram_id, title, reason=f"{type(exc).__name__}: {exc}")
    width, height = _svg_size(svg)
    encoded = base64.b64encode(svg.encode("utf-8")).decode("ascii")
    return Diagram(diagram_id, title, svg=svg, file=f"{diagram_id}.svg", width=width,
                   height=height, data_uri=f"data:image/svg+xml;base64,{encoded}")


def _as_png(diagram_id: str, title: str, fig: Figure, svg: str) -> Diagram:
    from analyzer.report.diagrams import figure_png

    png = figure_png(fig)
    width, height = _svg_size(svg)
    encoded = base64.b64encode(png).decode("ascii")
    return Diagram(diagram_id, title, png=png, file=f"{diagram_id}.png", width=width, height=height,
                   data_uri=f"data:image/png;base64,{encoded}")


def _svg_size(svg: str) -> tuple[int, int]:
    match = _SVG_SIZE.search(svg[:2000])
    if not match:
        return 0, 0
    # matplotlib sizes SVGs in points; the page lays them out in CSS pixels (96 per inch).
    return round(float(match.group(1)) * 4 / 3), round(float(match.group(2)) * 4 / 3)


def write_diagrams(diagrams: list[Diagram], directory: Path) -> list[Path]:
    """Write each drawn diagram (SVG, or PNG when its SVG is too big) beside the Markdown page;
    returns the files written."""
    written = []
    for d in diagrams:
        if d.svg:
            path = directory / d.file
            path.write_text(d.svg, encoding="utf-8")
            written.append(path)
        elif d.png:
            path = directory / d.file
            path.write_bytes(d.png)
            written.append(path)
    return written
