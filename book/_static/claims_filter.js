// The claims report's filter: two rows of buttons, one that shows only one paper's claims and one that shows only
// the claims with one verdict; both apply together (Paper C and not reproduced: Paper C's claims that did not
// reproduce). Offline and without a library. It acts on the report's container (class "claims-report"), where each
// paper's claims follow its heading (p.claims-paper[data-paper]), and does nothing elsewhere.
document.addEventListener("DOMContentLoaded", () => {
  const report = document.querySelector("div.claims-report");
  if (!report) return;
  const verdicts = [["all", "all verdicts"], ["reproduced", "✓ reproduced"], ["not-reproduced", "✗ not reproduced"],
                    ["inconclusive", "? inconclusive"], ["not-tested-faithfully", "– not tested faithfully"]];
  // each block of the report belongs to the paper whose heading comes last before it
  const papers = [["all", "all papers"]];
  let current = null;
  for (const el of [...report.children]) {
    if (el.matches("p.claims-paper")) {
      current = el.dataset.paper;
      papers.push([current, "Paper " + current]);
    }
    if (current) el.dataset.paper = current;
  }
  report.querySelectorAll("tbody tr").forEach((tr) => {
    const box = tr.closest("[data-paper]");
    if (box) tr.dataset.paper = box.dataset.paper;
  });
  const state = {paper: "all", verdict: "all"};
  const bars = {};
  const show = () => {
    report.querySelectorAll("tbody tr").forEach((tr) => {
      const v = tr.querySelector(".verdict");
      tr.hidden = (state.verdict !== "all" && !(v && v.classList.contains("verdict-" + state.verdict)))
                  || (state.paper !== "all" && tr.dataset.paper !== state.paper);
    });
    // a page's table (and its heading line just before it) disappears when none of its rows is shown
    report.querySelectorAll("table").forEach((table) => {
      const any = [...table.querySelectorAll("tbody tr")].some((tr) => !tr.hidden);
      const box = table.closest(".pst-scrollable-table-container") || table;
      box.hidden = !any;
      const head = box.previousElementSibling;
      if (head && head.tagName === "P" && !head.classList.contains("claims-paper")) head.hidden = !any;
    });
    // a paper's heading (its counts) shows while the paper is chosen, or all are
    report.querySelectorAll("p.claims-paper").forEach((p) => {
      p.hidden = state.paper !== "all" && p.dataset.paper !== state.paper;
    });
    // further down the page the paper filter applies too: each paper's dropdown of the claims judged at several
    // settings (class claims-settings-a) and its block of the coverage table (claims-coverage-a), and the rows of
    // the other tables that start with a claim id ("A.fig1...")
    const other = (letter) => state.paper !== "all" && letter !== state.paper;
    document.querySelectorAll("article .claims-settings, article .claims-coverage").forEach((d) => {
      const m = [...d.classList].join(" ").match(/claims-(?:settings|coverage)-([a-z])\b/i);  // Sphinx writes lower-case
      if (m) d.hidden = other(m[1].toUpperCase());
    });
    document.querySelectorAll("article tbody tr").forEach((tr) => {
      if (report.contains(tr)) return;
      const id = tr.querySelector("td code");
      const m = id && id.textContent.match(/^([A-Z])\./);
      if (m) tr.hidden = other(m[1]);
    });
    for (const [key, bar] of Object.entries(bars)) {
      bar.querySelectorAll("button").forEach((b) => b.setAttribute("aria-pressed", String(b.dataset[key] === state[key])));
    }
  };
  const row = (key, items, label) => {
    const bar = document.createElement("div");
    bar.className = "claims-filter claims-filter-" + key;
    bar.setAttribute("role", "group");
    bar.setAttribute("aria-label", label);
    for (const [value, text] of items) {
      const b = document.createElement("button");
      b.type = "button"; b.dataset[key] = value; b.textContent = text;
      b.addEventListener("click", () => { state[key] = value; show(); });
      bar.appendChild(b);
    }
    bars[key] = bar;
    return bar;
  };
  // both rows in one box that stays below the header while the report scrolls (book/_static/pages.css)
  const box = document.createElement("div");
  box.className = "claims-filters";
  box.appendChild(row("paper", papers, "Show the claims of this paper"));
  box.appendChild(row("verdict", verdicts, "Show the claims with this verdict"));
  report.prepend(box);
  show();
});
