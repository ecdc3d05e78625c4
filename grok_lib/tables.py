"""Tables for notebook output, as Markdown for the book (:func:`show`) and as fixed-width text
(:func:`format_table`); both stable, so nbval can compare them."""

from __future__ import annotations

import math
from typing import Sequence


def format_value(value) -> str:
    """Epoch-like numbers as integers, NaN as 'never', small or large floats in e-notation."""
    if isinstance(value, float) and math.isnan(value):
        return "never"
    if isinstance(value, float) and value.is_integer() and abs(value) >= 10:
        return str(int(value))
    if isinstance(value, float):
        return f"{value:.2e}" if (value != 0 and not 1e-2 <= abs(value) < 1e3) else f"{value:.3g}"
    return str(value)


def format_table(rows: Sequence[dict]) -> str:
    """A fixed-width table with one column per key of the first row."""
    if not rows:
        return "(no rows)"
    keys = list(rows[0])
    cells = [[format_value(r[k]) for k in keys] for r in rows]
    widths = [max(len(k), *(len(c[i]) for c in cells)) for i, k in enumerate(keys)]
    line = lambda items: "  ".join(s.rjust(w) for s, w in zip(items, widths))  # noqa: E731
    return "\n".join([line(keys), line(["-" * w for w in widths])] + [line(c) for c in cells])


def _cell(value) -> str:
    return format_value(value).replace("|", "\\|").replace("\n", " ")


#: Column names written in ASCII for the plain-text tables, typeset in the book's Markdown tables
#: (longest first, so ``ln(a)/(l lr)`` is not read as ``ln(a)/l``).
MATH_NAMES = (
    ("4 ln(a)/(1-b2)", r"$4\ln\alpha/(1-\beta_2)$"),
    ("ln(a)/(l lr)", r"$\ln\alpha/(\lambda\,\mathrm{lr})$"),
    ("ln(a)/l", r"$\ln\alpha/\lambda$"),
    ("1/ln(a)", r"$1/\ln\alpha$"),
    ("t_train", r"$t_{\mathrm{train}}$"),
    ("t_test", r"$t_{\mathrm{test}}$"),
    ("N_tr", r"$N_{\mathrm{tr}}$"),
    ("L_tr", r"$\mathcal{L}_{\mathrm{tr}}$"),
    ("L_gen", r"$\mathcal{L}_{\mathrm{gen}}$"),
    ("λ_eff", r"$\lambda_{\mathrm{eff}}$"),
    ("d_out", r"$d_{\mathrm{out}}$"),
    ("T_cls", r"$T_{\mathrm{cls}}$"),
    ("T_rep", r"$T_{\mathrm{rep}}$"),
    ("T_grok", r"$T_{\mathrm{grok}}$"),
    ("‖E‖_F", r"$\|E\|_F$"),
)


def math_name(name: str) -> str:
    """A column name with its ASCII maths typeset (:data:`MATH_NAMES`), for Markdown."""
    out, i = [], 0
    while i < len(name):
        for plain, tex in MATH_NAMES:
            if name.startswith(plain, i) and (i == 0 or not name[i - 1].isalnum()):
                out.append(tex)
                i += len(plain)
                break
        else:
            out.append(name[i])
            i += 1
    return "".join(out)


def markdown_table(rows: Sequence[dict], headers: dict | None = None) -> str:
    """A Markdown table with one column per key of the first row (values as :func:`format_value`
    writes them); ``headers`` renames columns (Markdown, e.g. ``$\\ln\\alpha/\\lambda$``)."""
    if not rows:
        return "*(no rows)*"
    keys = list(rows[0])
    headers = headers or {}
    lines = ["| " + " | ".join(headers.get(k, math_name(str(k))).replace("|", "\\|") for k in keys) + " |",
             "|" + "|".join("---:" if _numeric(rows, k) else "---" for k in keys) + "|"]
    lines += ["| " + " | ".join(_cell(r[k]) for k in keys) + " |" for r in rows]
    return "\n".join(lines)


#: The book's text column at a 1280 px window, in CSS pixels (see grok_lib.display).
COLUMN_PX = 688


def estimated_width(rows: Sequence[dict], headers: dict | None = None) -> int:
    """About how wide (CSS pixels) the book draws the Markdown table of ``rows``: per column its
    longest value or the longest word of its header (headers wrap, values do not), at about 9 px
    a character plus the cell's padding."""
    headers = headers or {}
    width = 0
    for k in rows[0]:
        words = max((len(w) for w in str(k).split()), default=1)
        width += 9 * max(words, *(len(format_value(r[k])) for r in rows)) + 17
    return width


def _numeric(rows: Sequence[dict], key) -> bool:
    return all(isinstance(r[key], (int, float)) and not isinstance(r[key], bool) for r in rows)


class Table:
    """Rows shown as a Markdown table in the book (``text/markdown``) and as the fixed-width table of
    :func:`format_table` in plain text; what :func:`show` returns."""

    def __init__(self, rows: Sequence[dict], headers: dict | None = None, caption: str = ""):
        self.rows, self.headers, self.caption = list(rows), dict(headers or {}), caption

    def _repr_markdown_(self) -> str:
        table = markdown_table(self.rows, self.headers)
        if self.rows and estimated_width(self.rows, self.headers) > COLUMN_PX:
            table = f"```{{container}} full-width\n{table}\n```"  # the book's wide layout, like wide figures
        return f"{self.caption}\n\n{table}" if self.caption else table

    def _repr_html_(self) -> str:
        """The table for Jupyter (which renders HTML before Markdown; the book renders the Markdown)."""
        import html

        if not self.rows:
            return "<p><em>(no rows)</em></p>"
        keys = list(self.rows[0])
        head = "".join(f"<th>{html.escape(str(k))}</th>" for k in keys)
        body = "".join("<tr>" + "".join(f"<td>{html.escape(format_value(r[k]))}</td>" for k in keys) + "</tr>"
                       for r in self.rows)
        caption = f"<p>{html.escape(self.caption)}</p>" if self.caption else ""
        return f"{caption}<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"

    def __repr__(self) -> str:
        table = format_table(self.rows)
        return f"{self.caption}\n{table}" if self.caption else table

    def _repr_pretty_(self, p, cycle):
        p.text(repr(self))


def show(rows: Sequence[dict], headers: dict | None = None, caption: str = "") -> Table:
    """Key numbers for the book: ``tables.show(figures.x_table(...))`` as a cell's last expression
    (or in ``display(...)``) replaces ``print(tables.format_table(...))``."""
    return Table(rows, headers, caption)


#: ASCII names in claim texts (statements, measured values, tolerances) and their symbols, for the
#: book's Markdown: written as words where a symbol was not at hand, shown as the symbol.
SYMBOLS = (
    (r"\|\|grad_U\|\|", r"$\Vert\nabla_U\Vert$"),  # no pipes: they split table cells
    (r"\|\|grad_E\|\|", r"$\Vert\nabla_E\Vert$"),  # no pipes: they split table cells
    (r"\|\|grad_W\|\|", r"$\Vert\nabla_W\Vert$"),  # no pipes: they split table cells
    (r"\bR\^2\b", "R²"),
    (r"\beps\b", "ε"),
    (r"\beta\b", "η"),
    (r"\blambda\b", "λ"),
    (r"\bgamma0\b", "γ₀"),
    (r"\bgamma\b", "γ"),
    (r"\bGamma\b", "Γ"),
    (r"\bDelta\b", "Δ"),
    (r"\btheta\b", "θ"),
    (r"\bsigma_n\b", "σₙ"),
    (r"\bnu\b", "ν"),
    (r"\bL_CE\b", r"$L_{\mathrm{CE}}$"),
    (r"\bT_KL\b", r"$T_{\mathrm{KL}}$"),
    (r" -> ", " → "),
    (r"<=", "≤"),
    (r">=", "≥"),
)


def typeset(text: str) -> str:
    """A claim text for the book's Markdown: its ASCII maths (:data:`SYMBOLS`, and the names of
    :data:`MATH_NAMES`) as symbols, outside the ``$...$`` it already has. The records keep the
    text as measured; only what the page shows changes."""
    import re

    parts = re.split(r"(\$[^$]+\$)", str(text))
    out = []
    for part in parts:
        if part.startswith("$") and part.endswith("$") and len(part) > 1:
            out.append(part)
            continue
        for pattern, symbol in SYMBOLS:
            part = re.sub(pattern, lambda _m, s=symbol: s, part)
        out.append(math_name(part))
    return "".join(out)
