// The claims report's filter: buttons that show only the claims with one verdict, offline and without
// a library. It acts on the report's container (class "claims-report") and does nothing elsewhere.
document.addEventListener("DOMContentLoaded", () => {
  const report = document.querySelector("div.claims-report");
  if (!report) return;
  const verdicts = [["all", "all claims"], ["reproduced", "✓ reproduced"], ["not-reproduced", "✗ not reproduced"],
                    ["inconclusive", "? inconclusive"], ["not-tested-faithfully", "– not tested faithfully"]];
  const bar = document.createElement("div");
  bar.className = "claims-filter";
  bar.setAttribute("role", "group");
  bar.setAttribute("aria-label", "Show the claims with this verdict");
  const show = (which) => {
    report.querySelectorAll("tbody tr").forEach((tr) => {
      const v = tr.querySelector(".verdict");
      tr.hidden = which !== "all" && !(v && v.classList.contains("verdict-" + which));
    });
    // a page's table (and its heading line just before it) disappears when none of its rows is shown
    report.querySelectorAll("table").forEach((table) => {
      const any = [...table.querySelectorAll("tbody tr")].some((tr) => !tr.hidden);
      const box = table.closest(".pst-scrollable-table-container") || table;
      box.hidden = !any;
      const head = box.previousElementSibling;
      if (head && head.tagName === "P" && !head.classList.contains("claims-paper")) head.hidden = !any;
    });
    bar.querySelectorAll("button").forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.verdict === which)));
  };
  for (const [key, label] of verdicts) {
    const b = document.createElement("button");
    b.type = "button"; b.dataset.verdict = key; b.textContent = label;
    b.addEventListener("click", () => show(key));
    bar.appendChild(b);
  }
  report.prepend(bar);
  show("all");
});
