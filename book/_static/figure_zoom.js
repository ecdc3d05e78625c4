/* On a small screen (600 px or less) a tap on a figure opens it full size over the page: the PNG at
   its drawn size (half its 200 dpi pixels), scrolled and pinch-zoomed freely; × or Escape closes it.
   Under each figure a label says so ("Tap to enlarge", shown on small screens only, book.css): at 390 px a
   figure's text is drawn 4-6 px tall, legible only opened. Gallery cards (.sd-card) keep their links.
   No dependencies. */
(function () {
  "use strict";
  var SMALL = "(max-width: 600px)";
  var FIGURES = "article img.book-figure, article figure img, article img.findings-figure";

  function close(overlay) { overlay.remove(); document.body.style.overflow = ""; }

  function open(img) {
    var overlay = document.createElement("div");
    overlay.className = "figure-zoom";
    overlay.setAttribute("role", "dialog");
    overlay.setAttribute("aria-label", img.alt || "figure");
    overlay.style.cssText = "position:fixed;inset:0;z-index:2000;overflow:auto;background:rgba(0,0,0,.88);" +
      "touch-action:auto;-webkit-overflow-scrolling:touch";
    var big = document.createElement("img");
    big.src = img.currentSrc || img.src;
    big.alt = img.alt;
    big.style.cssText = "display:block;max-width:none;background:#fff;margin:3em 0 1em;width:" +
      Math.max(window.innerWidth, Math.round(img.naturalWidth / 2)) + "px";
    var shut = document.createElement("button");
    shut.type = "button";
    shut.textContent = "×";
    shut.setAttribute("aria-label", "close the figure");
    shut.style.cssText = "position:fixed;top:.4em;right:.4em;z-index:2001;font-size:2em;line-height:1;" +
      "width:1.6em;height:1.6em;border:0;border-radius:50%;background:#fff;color:#000;cursor:pointer";
    shut.addEventListener("click", function () { close(overlay); });
    overlay.append(shut, big);
    document.body.append(overlay);
    document.body.style.overflow = "hidden";
    shut.focus();
  }

  // the label under each figure (a button: it opens the figure too, and is reached by the keyboard)
  function label(img) {
    var hint = document.createElement("button");
    hint.type = "button";
    hint.className = "figure-zoom-hint";
    hint.innerHTML = '<span aria-hidden="true">\u2922</span> Tap to enlarge';
    hint.setAttribute("aria-label", "enlarge the figure" + (img.alt ? ": " + img.alt : ""));
    hint.addEventListener("click", function (e) { e.preventDefault(); open(img); });
    var after = img.closest("a") || img;
    after.insertAdjacentElement("afterend", hint);
  }
  function labels() {
    document.querySelectorAll(FIGURES).forEach(function (img) { if (!img.closest(".sd-card")) label(img); });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", labels);
  else labels();

  document.addEventListener("click", function (e) {
    var img = e.target.closest && e.target.closest(FIGURES);
    if (!img || img.closest(".sd-card") || !window.matchMedia(SMALL).matches) return;
    e.preventDefault();  // Sphinx wraps a scaled image in a link to the PNG: stay on the page instead
    open(img);
  });
  document.addEventListener("keydown", function (e) {
    var overlay = document.querySelector(".figure-zoom");
    if (overlay && e.key === "Escape") close(overlay);
  });
})();
