"""Tables for notebook output, as Markdown for the book (:func:`show`) and as fixed-width text
(:func:`format_table`); both stable, so nbval can compare them."""

from __future__ import annotations

import math
import re
from typing import Callable, Sequence


def format_value(value) -> str:
    """Epoch-like numbers as integers, NaN as 'never', small or large floats in e-notation, booleans as
    yes / no, lists as [a, b] and an empty one as 'none' (a reader's words, not Python's)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (tuple, list)):  # a setting that is a list: its items, or "none" (not Python's "()")
        return "[" + ", ".join(format_value(v) for v in value) + "]" if value else "none"
    if isinstance(value, float) and math.isnan(value):
        return "never"
    if isinstance(value, float) and value.is_integer() and abs(value) >= 10:
        return str(int(value))
    if isinstance(value, float):
        return f"{value:.2e}" if (value != 0 and not 1e-4 <= abs(value) < 1e3) else f"{value:.3g}"
    return str(value)


#: Below this a printed loss or gap of order-one quantities is float64 rounding noise: its digits move
#: with the CPU's arithmetic, so tables do not print its digits (see :data:`PRINT_FLOOR`).
NOISE_FLOOR = 1e-12

#: Tables print a loss with digits only above this, two decades over :data:`NOISE_FLOOR`: a printed value
#: then never sits where the CPU's last bits could carry it across the floor (or change its digits).
PRINT_FLOOR = 100 * NOISE_FLOOR


def at_resolution(value: float, resolution: float, fmt: str = ".1e") -> str:
    """``value`` as printed where the digits below ``resolution`` are rounding noise, not data:
    ``< 1e-10`` when ``|value| < resolution`` (its sign and digits would change with the CPU's
    arithmetic), else ``value`` with ``fmt``."""
    return f"< {resolution:.0e}" if abs(value) < resolution else f"{value:{fmt}}"


def listed(items: Sequence[str]) -> str:
    """'a, b and c' (one item: itself): a list as the prose says it."""
    return ", ".join(items[:-1]) + " and " + items[-1] if len(items) > 1 else items[0]


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
    text = format_value(value)
    # a phrase has its maths typeset; a single word may be a parameter's name, to be typed as it is
    text = typeset(text) if isinstance(value, str) and " " in text else sci(text)
    return text.replace("|", "\\|").replace("\n", " ")


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
    ("‖E‖_F", r"$\Vert E\Vert_F$"),  # \Vert: in a table an escaped pipe loses its backslash
    ("|U|2", r"$\Vert U\Vert_2$"),  # the spectral norms (the gradient chapter's columns)
    ("|W|2", r"$\Vert W\Vert_2$"),
    ("E(A_*)", r"$E(A_*)$"),
    ("polish |grad|", "gradient norm after polishing"),
    # Python names of settings and key numbers, as words
    ("final_train_loss", "final train loss"),
    ("final_test_loss", "final test loss"),
    ("final_test_acc", "final test accuracy"),
    ("weight_decay", "λ"),  # every page that tabulates it calls the weight decay λ
    ("train_frac", "training fraction"),
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
    lines = ["| " + " | ".join(headers.get(k, typeset(str(k))).replace("|", "\\|") for k in keys) + " |",
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
        width += 9 * max(words, *(_shown_length(format_value(r[k])) for r in rows)) + 17
    return width


def _shown_length(text: str) -> int:
    """Characters a value takes on the page, where :func:`sci` shows ``1.71e-07`` as 1.71 × 10⁻⁷."""
    def typeset_length(m: re.Match) -> int:
        exponent = len(m[3].lstrip("0") or "0") + (m[2] == "-")
        return (0 if m[1] in ("1", "1.0") else len(m[1]) + 3) + 2 + exponent

    return len(_SCI.sub(lambda m: "x" * typeset_length(m), text))


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
    (r"\bgamma(?= function| law)", "Γ"),  # the gamma function's name, not the letter gamma
    (r"\bgamma\b", "γ"),
    (r"\bGamma\b", "Γ"),
    (r"\bDelta\b", "Δ"),
    (r"\btheta\b", "θ"),
    (r"\bsigma_n\b", "σₙ"),
    (r"\bnu\b", "ν"),
    (r"\bL_CE\b", r"$L_{\mathrm{CE}}$"),
    (r"\bT_KL\b", r"$T_{\mathrm{KL}}$"),
    (r"\|\|([^|]+)\|\|", "‖\\1‖"),  # a norm; Unicode bars, since pipes split table cells
    (r"\bln\(a2/a1\)", "ln(α₂/α₁)"),
    (r"\bln\(a\)", "ln α"),
    (r"\balpha\b", "α"),
    (r"\bOmega u Omega\^T\b", "Ω ∪ Ωᵀ"),
    (r"\bOmega\b", "Ω"),
    (r"(?<=\w)\^T\b", "ᵀ"),
    (r"\bσ_n\b", "σₙ"),
    (r"\bsigma\b", "σ"),
    (r"\bsqrt ?(\d+)", "√\\1"),
    (r"\bL s\^\(2-2/L\)", r"$L\,s^{2-2/L}$"),
    (r"(?<=[^\s\d])\^2\b", "²"),
    (r"(?<=\S) x (?=\S)", " × "),  # a product written with the letter x
    (r"\+-", "±"),
    (r"(?<![\w.{^-])(\d+(?:\.\d+)?k?)-(\d+(?:\.\d+)?k?)(?![\w/.-])", "\\1–\\2"),  # a range: en dash
    (r"\be\^\((?:−|-)λt\)", r"$e^{-\lambda t}$"),
    (r"\bN\((0, [^()]*)\)", r"$\\mathcal{N}(\1)$"),  # a normal distribution
    (r"(?<=\w)->(?=\w)", "→"),
    (r" -> ", " → "),
    (r"(?<=→ )inf\b", "∞"),
    (r"<=", "≤"),
    (r">=", "≥"),
)


_MATH_OR_CODE = re.compile(r"(\$[^$]+\$|`[^`]+`)")
_SCI = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)e([+-]?)(\d+)\b")
_CLOCK = re.compile(r"\bT_(cls|rep|grok)(?:\(([^()]*)\))?")
_WORD = re.compile(r"(?<!\\)\b([A-Za-z]{2,})\b")


def _outside_math(text: str, fn: Callable[[str], str]) -> str:
    """``fn`` applied to the parts of ``text`` outside ``$...$`` maths and backtick code."""
    return "".join(part if _MATH_OR_CODE.fullmatch(part) else fn(part) for part in _MATH_OR_CODE.split(text))


def _sci_tex(m: re.Match) -> str:
    mantissa, exponent = m[1], ("-" if m[2] == "-" else "") + str(int(m[3]))
    return f"10^{{{exponent}}}" if mantissa in ("1", "1.0") else f"{mantissa} \\times 10^{{{exponent}}}"


def sci(text: str) -> str:
    """Numbers in e-notation (``3.9e-04``, ``1e-4``) as powers of ten in maths, outside existing maths."""
    return _outside_math(str(text), lambda part: _SCI.sub(lambda m: f"${_sci_tex(m)}$", part))


def _clock_tex(m: re.Match) -> str:
    arg = m[2]
    if arg is not None:  # words upright, % escaped, e-notation as powers of ten
        arg = _SCI.sub(_sci_tex, _WORD.sub(r"\\mathrm{\1}", arg).replace("%", r"\%"))
        arg = arg.replace("ε", r"\varepsilon").replace("η", r"\eta")
    return f"$T_{{\\mathrm{{{m[1]}}}}}" + (f"({arg})" if arg is not None else "") + "$"


def clocks(text: str) -> str:
    """The clocks ``T_cls(1e-4)``, ``T_rep(f)``, ``T_grok(95%)`` as maths, their arguments included."""
    return _outside_math(str(text), lambda part: _CLOCK.sub(_clock_tex, part))


def _symbols(part: str) -> str:
    for pattern, symbol in SYMBOLS:
        # a literal replacement (the TeX in it is not a template), unless it refers to a group
        repl = (lambda m, s=symbol: m.expand(s)) if "\\1" in symbol else (lambda _m, s=symbol: s)
        part = re.sub(pattern, repl, part)
    return part


#: An ASCII power with a braced exponent (``e^{−Γ(t)}``, ``alpha e^{-lambda t}``): base and exponent, outside maths.
_POWER = re.compile(r"(?<![\\\w$])([A-Za-z0-9]+|\))\^\{([^{}$`]+)\}")


def powers(part: str) -> str:
    """ASCII powers with a braced exponent as maths (``e^{−Γ(t)}`` -> ``$e^{−Γ(t)}$``): a step of :func:`typeset`,
    which applies it outside existing maths and code, so the braces never reach the page as text."""
    return _POWER.sub(lambda m: f"${m[1]}^{{{m[2]}}}$", part)


def typeset(text: str) -> str:
    """A claim text or column name for the book's Markdown: its ASCII maths (:data:`SYMBOLS`, the
    clocks, the names of :data:`MATH_NAMES`, e-notation) as symbols, outside the ``$...$`` and the
    code it already has; maths separated only by " / " becomes one formula. The records keep the
    text as measured; only what the page shows changes."""
    out = str(text)
    for step in (math_name, _symbols, clocks, sci, powers):
        out = _outside_math(out, step)
    return out.replace("$ / $", " / ")
