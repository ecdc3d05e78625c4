// Search-result snippets are cut from each page's HTML text, where the maths is still TeX
// source ("\(T_{\mathrm{rep}} / T_{\mathrm{cls}}(10^{-4})\)"): MathJax typesets only the page
// that is open. This wraps Sphinx's Search.htmlToText so that each maths element of a fetched
// page is read as plain symbols ("T_rep / T_cls(10⁻⁴)") before the snippet is taken.
(() => {
  const SYMBOLS = {
    alpha: "α", beta: "β", gamma: "γ", Gamma: "Γ", delta: "δ", Delta: "Δ", epsilon: "ε",
    varepsilon: "ε", eta: "η", theta: "θ", kappa: "κ", lambda: "λ", mu: "μ", nu: "ν", pi: "π",
    rho: "ρ", sigma: "σ", Sigma: "Σ", tau: "τ", phi: "φ", varphi: "φ", omega: "ω", ell: "ℓ",
    nabla: "∇", partial: "∂", infty: "∞", Vert: "‖", lVert: "‖", rVert: "‖", "|": "‖",
    le: "≤", leq: "≤", ge: "≥", geq: "≥", ne: "≠", neq: "≠", approx: "≈", sim: "~", propto: "∝",
    times: "×", cdot: "·", cdots: "⋯", ldots: "…", dots: "…", to: "→", mapsto: "↦",
    rightarrow: "→", top: "ᵀ", sum: "Σ", prod: "Π", in: "∈", pm: "±", mp: "∓", sqrt: "√",
    langle: "⟨", rangle: "⟩", ast: "*", star: "*", bmod: "mod", mid: "|",
  };
  // spacing and sizing commands that carry no text
  const SILENT = new Set(["big", "Big", "bigl", "bigr", "Bigl", "Bigr", "left", "right", "displaystyle",
                          "tfrac", "dfrac", "qquad", "quad", "nonumber", "tag", "limits", "begin", "end",
                          "aligned", "mathrm", "mathcal", "mathbb", "mathbf", "mathit", "operatorname", "text"]);
  const CHROME = ".bd-header-article, .bd-sidebar-secondary, .prev-next-area, .cell_input, .bd-footer-content";
  const SUPERSCRIPTS = { "0": "⁰", "1": "¹", "2": "²", "3": "³", "4": "⁴", "5": "⁵", "6": "⁶", "7": "⁷",
                         "8": "⁸", "9": "⁹", "-": "⁻", "−": "⁻", "+": "⁺", "p": "ᵖ", "T": "ᵀ", "n": "ⁿ" };
  const SUBSCRIPTS = { "0": "₀", "1": "₁", "2": "₂", "3": "₃", "4": "₄", "5": "₅", "6": "₆", "7": "₇",
                       "8": "₈", "9": "₉" };

  const script = (text, table, marker) => {
    const chars = [...text];
    return chars.every((c) => c in table) ? chars.map((c) => table[c]).join("")
      // a word-like script keeps a space after it, so that "Σ_tr t" does not read "Σ_trt"
      : marker + (/^[A-Za-z0-9]+$/.test(text) ? (text.length > 1 ? text + " " : text) : `(${text})`);
  };

  // One TeX formula as plain text: commands to symbols, \frac{a}{b} to a/b, scripts to Unicode
  // where every character has a form, braces dropped.
  const texToText = (tex) => {
    let s = tex.trim().replace(/^\\[([]|\\[)\]]$/g, "").replace(/^\$+|\$+$/g, "")
      .replace(/\\(?:begin|end)\s*\{[^{}]*\}/g, " ").replace(/\\\\/g, " ")  // environments and line breaks: layout only
      .replace(/\\\{/g, "\u0001").replace(/\\\}/g, "\u0002");  // literal braces survive the groups' removal
    const group = "\\{([^{}]*)\\}";
    for (let i = 0; i < 4; i++) {  // innermost groups first, a few levels deep
      s = s.replace(new RegExp(`\\\\(?:mathrm|text|textrm|mathit|mathbf|boldsymbol|operatorname|mathcal)\\s*${group}`, "g"), "$1")
        .replace(new RegExp(`\\\\mathbb\\s*${group}`, "g"), (_, x) => ({ R: "ℝ", Z: "ℤ", N: "ℕ", E: "𝔼" }[x] || x))
        .replace(new RegExp(`\\\\[dt]?frac\\s*${group}\\s*${group}`, "g"), (_, a, b) => `${a}/${b}`)
        .replace(new RegExp(`\\\\sqrt\\s*${group}`, "g"), (_, x) => `√(${x})`)
        .replace(new RegExp(`\\^\\s*${group}`, "g"), (_, x) => script(x.trim(), SUPERSCRIPTS, "^"))
        .replace(new RegExp(`_\\s*${group}`, "g"), (_, x) => script(x.trim(), SUBSCRIPTS, "_"));
    }
    s = s.replace(/\\([A-Za-z]+)\s*/g, (m, name) => (name in SYMBOLS ? SYMBOLS[name] + " "
        : SILENT.has(name) ? "" : name + " "))
      .replace(/\\([|,;:! ])/g, (_, c) => (c === "|" ? "‖" : " "))
      .replace(/\\([%#&$_])/g, "$1")
      .replace(/&/g, "").replace(/\^ᵀ/g, "ᵀ")
      .replace(/\^([0-9A-Za-z+\-−])/g, (_, c) => script(c, SUPERSCRIPTS, "^"))
      .replace(/_([0-9])/g, (_, c) => script(c, SUBSCRIPTS, "_"))
      .replace(/[{}]/g, "")
      .replace(/\s+([)\],.;:^_]|[⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺ᵖᵀⁿ₀₁₂₃₄₅₆₇₈₉])/g, "$1")
      .replace(/([(\[])\s+/g, "$1")
      .replace(/\s+/g, " ")
      .replace(/\u0001\s*/g, "{").replace(/\s*\u0002/g, "}");
    return s.trim();
  };

  const install = () => {
    if (typeof Search === "undefined" || !Search.htmlToText || Search.htmlToText.readsMath) return;
    const original = Search.htmlToText;
    const readsMath = (htmlString, anchor) => {
      const doc = new DOMParser().parseFromString(htmlString, "text/html");
      // the theme's page header and contents sidebar and the notebooks' code are inside the
      // main element too: a snippet should be the page's prose
      doc.querySelectorAll(CHROME).forEach((el) => el.remove());
      doc.querySelectorAll(".math, mjx-container").forEach((el) => {
        el.textContent = texToText(el.textContent);
      });
      return original(doc.documentElement.outerHTML, anchor);
    };
    readsMath.readsMath = true;
    Search.htmlToText = readsMath;
  };
  window.bookTexToText = texToText;  // for the browser test
  install();
  document.addEventListener("DOMContentLoaded", install);
})();
