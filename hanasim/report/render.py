"""One document model, two renderings: HTML (charts embedded as base64, opens offline) and
Markdown (charts as PNG files next to it).  Both come from the same blocks, so they say the
same thing.

Blocks: ``Heading(level, text, anchor)``, ``Para(text)`` (``code`` in backticks),
``Bullets(items)``, ``Code(text)``, ``Table(frame, caption)`` (a DataFrame of strings),
``Image(path, alt, caption, png)`` (``path`` relative to the Markdown file).
"""
from __future__ import annotations

import base64
import html
import re
from dataclasses import dataclass, field

import pandas as pd


@dataclass
class Heading:
    level: int
    text: str
    anchor: str


@dataclass
class Para:
    text: str


@dataclass
class Bullets:
    items: list


@dataclass
class Code:
    text: str


@dataclass
class Table:
    frame: pd.DataFrame
    caption: str = ""
    anchor: str = ""
    align_right: set = field(default_factory=set)


@dataclass
class Image:
    path: str
    alt: str
    caption: str
    png: bytes
    anchor: str = ""


_CSS = """
body { font-family: -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif; color: #222;
       max-width: 1100px; margin: 2em auto; padding: 0 1.2em; line-height: 1.45; }
h1 { border-bottom: 2px solid #3b6ea8; padding-bottom: .2em; }
h2 { border-bottom: 1px solid #ccc; margin-top: 2em; }
h3 { margin-top: 1.6em; color: #2b4f78; }
table { border-collapse: collapse; margin: .6em 0 1.2em; font-size: 0.86em; }
caption { caption-side: top; text-align: left; font-style: italic; padding-bottom: .3em; }
th, td { border: 1px solid #d0d0d0; padding: .25em .55em; vertical-align: top;
         overflow-wrap: break-word; }
th { background: #eef2f7; text-align: left; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr:nth-child(even) td { background: #fafafa; }
code, pre { font-family: Menlo, Consolas, monospace; font-size: 0.9em; background: #f3f3f3; }
pre { padding: .7em; white-space: pre-wrap; overflow-wrap: anywhere;
      border-left: 3px solid #3b6ea8; }
figure { margin: 1em 0 2em; }
figure img { max-width: 100%; border: 1px solid #e3e3e3; }
figcaption { font-style: italic; font-size: 0.9em; color: #555; }
"""


def _inline_html(text: str) -> str:
    parts = re.split(r"(`[^`]*`)", text)
    out = []
    for part in parts:
        if part.startswith("`") and part.endswith("`") and len(part) >= 2:
            out.append(f"<code>{html.escape(part[1:-1])}</code>")
        else:
            out.append(html.escape(part))
    return "".join(out)


def _md_cell(text) -> str:
    s = str(text).replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")
    return s.replace("*", "\\*").replace("_", "\\_").replace("<", "&lt;")


def _md_text(text: str) -> str:
    parts = re.split(r"(`[^`]*`)", text)
    return "".join(p if p.startswith("`") else p.replace("*", "\\*").replace("_", "\\_")
                   for p in parts)


def to_html(title: str, blocks: list) -> str:
    body = []
    for b in blocks:
        if isinstance(b, Heading):
            body.append(f'<h{b.level} id="{html.escape(b.anchor)}">{html.escape(b.text)}'
                        f"</h{b.level}>")
        elif isinstance(b, Para):
            body.append(f"<p>{_inline_html(b.text)}</p>")
        elif isinstance(b, Bullets):
            items = "".join(f"<li>{_inline_html(i)}</li>" for i in b.items)
            body.append(f"<ul>{items}</ul>")
        elif isinstance(b, Code):
            body.append(f"<pre><code>{html.escape(b.text)}</code></pre>")
        elif isinstance(b, Table):
            body.append(_table_html(b))
        elif isinstance(b, Image):
            data = base64.b64encode(b.png).decode("ascii")
            anchor = f' id="{html.escape(b.anchor)}"' if b.anchor else ""
            body.append(f'<figure{anchor}><img src="data:image/png;base64,{data}" '
                        f'alt="{html.escape(b.alt)}"><figcaption>{_inline_html(b.caption)}'
                        "</figcaption></figure>")
        else:  # pragma: no cover
            raise TypeError(b)
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"<title>{html.escape(title)}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n"
            + "\n".join(body) + "\n</body>\n</html>\n")


def _table_html(t: Table) -> str:
    anchor = f' id="{html.escape(t.anchor)}"' if t.anchor else ""
    cap = f"<caption>{_inline_html(t.caption)}</caption>" if t.caption else ""
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in t.frame.columns)
    rows = []
    for rec in t.frame.itertuples(index=False):
        cells = []
        for col, val in zip(t.frame.columns, rec):
            cls = ' class="num"' if col in t.align_right else ""
            cells.append(f"<td{cls}>{html.escape(str(val))}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return (f"<table{anchor}>{cap}<thead><tr>{head}</tr></thead><tbody>"
            + "".join(rows) + "</tbody></table>")


def to_markdown(blocks: list) -> str:
    out = []
    for b in blocks:
        if isinstance(b, Heading):
            out.append(f"{'#' * b.level} {b.text}")
        elif isinstance(b, Para):
            out.append(_md_text(b.text))
        elif isinstance(b, Bullets):
            out.append("\n".join(f"- {_md_text(i)}" for i in b.items))
        elif isinstance(b, Code):
            out.append(f"```\n{b.text}\n```")
        elif isinstance(b, Table):
            lines = []
            if b.caption:
                lines.append(f"*{_md_text(b.caption)}*\n")
            cols = list(b.frame.columns)
            lines.append("| " + " | ".join(_md_cell(c) for c in cols) + " |")
            lines.append("| " + " | ".join("---:" if c in b.align_right else "---"
                                           for c in cols) + " |")
            for rec in b.frame.itertuples(index=False):
                lines.append("| " + " | ".join(_md_cell(v) for v in rec) + " |")
            out.append("\n".join(lines))
        elif isinstance(b, Image):
            out.append(f"![{b.alt}]({b.path})\n\n*{_md_text(b.caption)}*")
        else:  # pragma: no cover
            raise TypeError(b)
    return "\n\n".join(out) + "\n"
