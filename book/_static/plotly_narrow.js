/* On a small screen (600 px or less) an interactive figure's panels are drawn one under the other, each the
   column's full width, instead of side by side (two or three panels in a 323 px column left each about 130 px,
   with their axis titles drawn over each other). The page's figures (grok_lib/interactive.py) read their Plotly
   spec from a JSON <script> when the reader opens them; this rewrites that spec first: each panel's box (its
   axes' domains) becomes one row of a column, the titles written in the figure's frame (paper annotations)
   move with their panel, and the figure is given the height its rows and its legend need.
   Nothing changes on a wider screen. */
(function () {
  "use strict";
  var SMALL = "(max-width: 600px)";
  var PANEL_PX = 240, GAP_PX = 90, TOP_PX = 40, BOTTOM_PX = 80, LEGEND_ROW_PX = 26;

  function axisId(key) { return key.replace("axis", ""); }  // "yaxis3" -> "y3"

  function stack(spec, width) {
    var L = spec.layout, keys = Object.keys(L);
    var panels = keys.filter(function (k) { return /^xaxis\d*$/.test(k) && !L[k].overlaying && L[k].domain; })
      .map(function (k) {
        var yk = "yaxis" + String(L[k].anchor || "y").slice(1), y = L[yk];
        if (!y || !y.domain) return null;
        return {x: L[k], y: y, yid: axisId(yk), old: [L[k].domain[0], y.domain[0], L[k].domain[1], y.domain[1]]};
      })
      .filter(Boolean);
    if (panels.length < 2) return null;
    panels.sort(function (a, b) {  // reading order: the top row first, each row left to right
      var dt = b.old[3] - a.old[3];
      return Math.abs(dt) > 0.02 ? dt : a.old[0] - b.old[0];
    });
    var n = panels.length, h = n * PANEL_PX + (n - 1) * GAP_PX;
    panels.forEach(function (p, i) {
      var top = 1 - i * (PANEL_PX + GAP_PX) / h, bottom = top - PANEL_PX / h;
      p.box = [0, bottom, 1, top];
      p.x.domain = [0, 1];
      p.y.domain = [round(bottom), round(top)];
      keys.forEach(function (k) {  // a twin axis overlaying this panel's y axis
        if (/^yaxis\d*$/.test(k) && L[k].overlaying === p.yid) L[k].domain = p.y.domain.slice();
      });
    });
    (L.annotations || []).forEach(function (a) {
      if (a.xref !== "paper" || a.yref !== "paper") return;
      var best = null, gap = Infinity;
      panels.forEach(function (p) {
        if (a.x < p.old[0] - 0.02 || a.x > p.old[2] + 0.02) return;
        var d = a.y > p.old[3] ? a.y - p.old[3] : a.y < p.old[1] ? p.old[1] - a.y : 0;
        if (d < gap) { gap = d; best = p; }
      });
      if (!best) return;
      var o = best.old, b = best.box;
      a.x = round(b[0] + (a.x - o[0]) / (o[2] - o[0] || 1) * (b[2] - b[0]));
      a.y = round(b[1] + (a.y - o[1]) / (o[3] - o[1] || 1) * (b[3] - b[1]));
    });
    var names = spec.data.filter(function (t) { return t.showlegend; })
      .map(function (t) { return String(t.name || "").replace(/<[^>]+>|&\w+;/g, "x"); });
    var rows = names.length ? Math.ceil(names.reduce(function (s, m) { return s + 46 + 7.5 * m.length; }, 0) / width) : 0;
    return TOP_PX + h + BOTTOM_PX + rows * LEGEND_ROW_PX;
  }

  function round(v) { return Math.round(v * 1e4) / 1e4; }

  function narrow() {
    if (!window.matchMedia(SMALL).matches) return;
    var width = Math.max(200, Math.min(window.innerWidth, 600) - 60);
    document.querySelectorAll(".grok-plotly").forEach(function (div) {
      var source = document.getElementById(div.id + "-spec");
      if (!source || div.classList.contains("js-plotly-plot")) return;  // already drawn: left as it is
      try {
        var spec = JSON.parse(source.textContent), height = stack(spec, width);
        if (!height) return;
        source.textContent = JSON.stringify(spec);
        div.style.minWidth = "0";
        div.style.aspectRatio = "auto";
        div.style.height = height + "px";
      } catch (err) {
        console.warn("plotly_narrow: figure " + div.id + " left side by side:", err);
      }
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", narrow);
  else narrow();
})();
