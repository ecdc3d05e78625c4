"""The book's layout as a reader sees it, in headless Chromium at a phone's width (390 x 844, touch) and a
laptop's (1366 x 768): issue 42, item 5. With the fixtures of tests/test_browser.py (the book built from the
working tree, served from 127.0.0.1).

How big a figure's text is drawn: every figure of ``run.figure`` records, in its data file, the smallest font
it uses (``min_font_pt``, points; :func:`grok_lib.figure_files.legible` enlarges every text to it); the PNG
is saved at :data:`grok_lib.figure_files.PNG_DPI`, so that text is ``min_font_pt / 72 * PNG_DPI`` pixels of
the image, and drawn at that times the image's drawn width over its natural width (``img.naturalWidth``).

1. At 390 px every figure is readable: its text is drawn at least :data:`PHONE_MIN_PX`, or a visible
   "tap to enlarge" label sits right under it, and a tap on it opens the figure with its text at least
   :data:`PHONE_MIN_PX`.
2. At 390 px an interactive figure (Plotly) fits its box and answers a tap on a point with its values.
3. At 1366 px the findings box's figure is drawn with its text at least :data:`DESKTOP_MIN_PX`.
4. At 1366 px no figure, image or interactive figure is drawn over the header or the contents column: each,
   scrolled to the top of the screen, lies under the header across its whole width, and its box does not
   meet the contents column's box.
5. At 390 px no page scrolls sideways.
6. Screenshots (test-artifacts/screenshots): a figure at 390 px, and the same figure opened by a tap.
"""

import json
import urllib.request
from urllib.parse import urlparse

import pytest
from test_browser import INTERACTIVE, SHOTS, _pages, browser, site  # noqa: F401  (fixtures, shared)

from grok_lib.figure_files import PNG_DPI
from grok_lib.style import STYLE

pytestmark = pytest.mark.book

#: A phone's screen, touched. Not Chromium's mobile emulation (``is_mobile``): that widens the layout viewport
#: to whatever a page overflows to, so a page that scrolls sideways would not show it.
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True}
LAPTOP = {"viewport": {"width": 1366, "height": 768}}
#: The smallest text a figure may have as drawn on a phone (px), unless a tap opens it larger.
PHONE_MIN_PX = 9
#: The smallest text the findings box's figure may have as drawn on a laptop (px).
DESKTOP_MIN_PX = 11
#: For an image without a data file: the smallest font of the house style (points).
STYLE_MIN_PT = min(STYLE["font.size"], STYLE["legend.fontsize"], STYLE["axes.labelsize"])
#: The page whose figure at 390 px, and opened by a tap, goes to test-artifacts/screenshots.
SHOT_PAGE = "notebooks/paper_c/grok_time.html"


def _open_at(browser, url: str, device: dict):  # noqa: F811
    """``url`` opened in a fresh page with ``device``'s viewport; requests that leave loopback are blocked."""
    page = browser.new_page(**device)
    page.route("**/*", lambda r: r.continue_() if r.request.url.startswith(("data:", "blob:"))
               or urlparse(r.request.url).hostname in ("127.0.0.1", "localhost") else r.abort())
    page.goto(url, wait_until="networkidle")
    return page


# Each figure image of the article (not a gallery card, not an icon): its drawn and natural widths, its data
# file (the caption's JSON link; for the findings box's figure, the caption of the figure it links to) and,
# on a phone, the "tap to enlarge" label under it if one is shown.
_FIGURES_JS = """() => [...document.querySelectorAll('article.bd-article img')]
  .filter(i => !i.closest('.sd-card') && i.naturalWidth >= 100)
  .map((img, k) => {
    img.dataset.layoutTest = k;
    let fig = img.closest('figure');
    const link = img.closest('a[href^="#"]');
    if (!fig && link) { const t = document.getElementById(link.getAttribute('href').slice(1)); fig = t && (t.closest('figure') || t); }
    const data = fig && fig.querySelector('figcaption a[href$=".json"]');
    const r = img.getBoundingClientRect();
    const near = [...document.querySelectorAll('.figure-zoom-hint')].find(h => {
      const b = h.getBoundingClientRect();
      return b.width > 0 && b.height > 0 && getComputedStyle(h).visibility === 'visible' && b.left >= 0
        && b.right <= innerWidth + 1 && b.top >= r.bottom - 2 && b.top <= r.bottom + 48
        && /tap/i.test(h.textContent) && /enlarge/i.test(h.textContent); });
    if (near) near.dataset.layoutTest = k;
    return {k, src: (img.currentSrc || img.src).split('/').pop(), findings: img.classList.contains('findings-figure'),
            natural: img.naturalWidth, width: r.width, data: data ? data.href : null, hint: near ? near.textContent.trim() : null};
  })"""


@pytest.fixture(scope="module")
def fonts(site):  # noqa: F811
    """The smallest font of a figure's data file (points), by its URL, read once."""
    cache = {}

    def font_pt(url):
        if url is None:
            return STYLE_MIN_PT
        if url not in cache:
            with urllib.request.urlopen(url) as r:
                cache[url] = json.loads(r.read())["min_font_pt"]
        return cache[url]
    return font_pt


def _drawn_px(font_pt: float, width: float, natural: float) -> float:
    """The drawn size (px) of text of ``font_pt`` points in a PNG of ``natural`` pixels drawn ``width`` px wide."""
    return font_pt / 72 * PNG_DPI * width / natural


@pytest.fixture(scope="module")
def phone(site, browser, fonts):  # noqa: F811
    """Every page loaded at 390 x 844 (a touch screen): how wide it scrolls, and each figure with the size of
    its text as drawn and, where a "tap to enlarge" label is shown, as drawn once a tap on that label opens it."""
    base, html = site
    SHOTS.mkdir(parents=True, exist_ok=True)
    seen = {}
    for rel in _pages(html):
        page = _open_at(browser, f"{base}/{rel}", PHONE)
        wide = page.evaluate("""() => [...document.querySelectorAll('body *')]
            .filter(e => e.getBoundingClientRect().right > innerWidth + 1 && !e.closest('.bd-sidebar-secondary, dialog')
                         && getComputedStyle(e).position !== 'fixed' && e.getBoundingClientRect().width > 0
                         && ![...e.children].some(c => c.getBoundingClientRect().right > innerWidth + 1))
            .slice(0, 4).map(e => e.tagName + '.' + e.className + ': ' + (e.textContent || '').trim().slice(0, 40))""")
        figures = page.evaluate(_FIGURES_JS)
        for fig in figures:
            fig["font_pt"] = fonts(fig["data"])
            fig["drawn_px"] = _drawn_px(fig["font_pt"], fig["width"], fig["natural"])
            if fig["hint"]:
                page.tap(f".figure-zoom-hint[data-layout-test='{fig['k']}']")
                page.wait_for_selector(".figure-zoom img", timeout=5000)
                big = page.evaluate("() => { const i = document.querySelector('.figure-zoom img');"
                                    " return [i.getBoundingClientRect().width, i.naturalWidth, i.complete]; }")
                fig["opened_px"] = _drawn_px(fig["font_pt"], big[0], big[1]) if big[1] else 0
                if rel == SHOT_PAGE and fig["k"] == figures[-1]["k"]:
                    page.screenshot(path=str(SHOTS / "390px__figure_enlarged__paper_c__grok_time.png"))
                page.keyboard.press("Escape")
                page.wait_for_selector(".figure-zoom", state="detached", timeout=5000)
        if rel == SHOT_PAGE and figures:
            page.locator(f"img[data-layout-test='{figures[-1]['k']}']").scroll_into_view_if_needed()
            page.evaluate("() => window.scrollBy(0, -60)")
            page.screenshot(path=str(SHOTS / "390px__figure__paper_c__grok_time.png"))
        seen[rel] = {"scroll_width": page.evaluate("document.documentElement.scrollWidth"),
                     "inner_width": page.evaluate("innerWidth"), "wide": wide, "figures": figures}
        page.close()
    return seen


def test_phone_every_figure_is_readable_or_says_a_tap_enlarges_it(phone):
    report, smallest = [], {}
    for rel, seen in phone.items():
        for fig in seen["figures"]:
            smallest[f"{rel} {fig['src']}"] = (round(fig["drawn_px"], 1), fig.get("opened_px") and round(fig["opened_px"], 1))
            if fig["drawn_px"] >= PHONE_MIN_PX:
                continue
            if not fig["hint"]:
                report.append(f"{rel}: {fig['src']} is drawn with {fig['drawn_px']:.1f} px text at 390 px, "
                              "and no 'tap to enlarge' label is shown under it")
            elif fig.get("opened_px", 0) < PHONE_MIN_PX:
                report.append(f"{rel}: {fig['src']} opened by a tap is drawn with {fig.get('opened_px', 0):.1f} px text")
    print("figures at 390 px (text px as drawn, once opened):", json.dumps(smallest, indent=0))
    assert smallest, "no figure found"
    assert not report, f"{len(report)} figures:\n" + "\n".join(report)


def test_phone_no_page_scrolls_sideways(phone):
    report = {rel: f"{s['scroll_width']} px wide in {s['inner_width']} px: {s['wide']}"
              for rel, s in phone.items() if s["scroll_width"] > PHONE["viewport"]["width"]}
    assert len(phone) >= 20, sorted(phone)
    assert not report, "\n".join(f"{rel}: {why}" for rel, why in report.items())


# The screen position of point k of trace i of a Plotly figure.
_POINT_JS = """([id, i, k]) => { const gd = document.getElementById(id); const t = gd._fullData[i];
  const sp = gd._fullLayout._plots[t.xaxis + t.yaxis]; const r = gd.getBoundingClientRect();
  return [r.left + sp.xaxis._offset + sp.xaxis.c2p(t.x[k]), r.top + sp.yaxis._offset + sp.yaxis.c2p(t.y[k])]; }"""


@pytest.mark.parametrize("rel", sorted(INTERACTIVE))
def test_phone_interactive_figures_fit_their_box_and_answer_a_tap(site, browser, rel):  # noqa: F811
    from grok_lib.display import figure_label

    base, _ = site
    page = _open_at(browser, f"{base}/{rel}", PHONE)
    div = "plotly-" + figure_label(INTERACTIVE[rel])
    page.tap(f"details.interactive-figure:has(#{div}) > summary")
    page.wait_for_selector(f"#{div}.js-plotly-plot .main-svg", timeout=30000)
    page.wait_for_timeout(300)
    box = page.evaluate("""(id) => { const d = document.getElementById(id); const box = d.closest('details');
        const s = getComputedStyle(box); const b = box.getBoundingClientRect();
        const svg = d.querySelector('.main-svg').getBoundingClientRect();
        return {box: [b.left + parseFloat(s.borderLeftWidth), b.right - parseFloat(s.borderRightWidth)],
                plot: [svg.left, svg.right], scroller: [d.parentElement.scrollWidth, d.parentElement.clientWidth]}; }""", div)
    (b0, b1), (p0, p1) = box["box"], box["plot"]
    fits = p0 >= b0 - 1 and p1 <= b1 + 1 and p1 <= 391 and box["scroller"][0] <= box["scroller"][1] + 1
    n = page.evaluate("(id) => document.getElementById(id)._fullData.length", div)
    trace = next(i for i in range(n) if page.evaluate(
        "([id, i]) => { const t = document.getElementById(id)._fullData[i]; return t.visible === true && t.x.length > 4 && "
        "t.hoverinfo !== 'skip' && t.x.some(v => v !== null); }", [div, i]))
    k = page.evaluate("([id, i]) => { const x = document.getElementById(id)._fullData[i].x;"
                      " return x.findIndex(v => v !== null) + Math.floor(x.length / 3); }", [div, trace])
    x, y = page.evaluate(_POINT_JS, [div, trace, k])
    page.touchscreen.tap(x, y)
    page.wait_for_timeout(500)
    label = page.eval_on_selector(f"#{div} .hoverlayer", "e => e.textContent")
    page.screenshot(path=str(SHOTS / ("390px__interactive__" + rel.replace("/", "__") + ".png")))
    page.close()
    assert fits, f"the plot spans {p0:.0f}..{p1:.0f} px in a box of {b0:.0f}..{b1:.0f} px (scroll {box['scroller']})"
    assert 0 <= x <= 390 and label and any(c.isdigit() for c in label), f"no values on a tap at ({x:.0f}, {y:.0f}): {label!r}"


# Scrolled so that element k's top is just under the top of the screen: whether it is drawn in the header's band
# (sampled along the band, across the element's width) and whether its box meets the contents column's box.
_OVER_JS = """(k) => {
  const el = document.querySelector(`[data-layout-test="${k}"]`);
  const top = el.getBoundingClientRect().top + scrollY;
  window.scrollTo(0, top - 8);
  const r = el.getBoundingClientRect();
  const shown = e => { if (!e) return null; const s = getComputedStyle(e); const b = e.getBoundingClientRect();
    return s.display !== 'none' && s.visibility === 'visible' && b.width > 0 && b.height > 0 && b.left < innerWidth
           && b.right > 0 ? b : null; };
  const out = [];
  const head = shown(document.querySelector('.bd-header-article')) || shown(document.querySelector('.bd-header'));
  if (head) {
    const y = Math.max(r.top, head.top) + 4;
    for (let x = Math.max(r.left, 0) + 2; x < Math.min(r.right, innerWidth); x += 24) {
      const hit = document.elementFromPoint(x, y);
      if (hit && (hit === el || el.contains(hit))) {
        out.push(`drawn over the header at x = ${Math.round(x)} px (the header spans ${Math.round(head.left)}..${Math.round(head.right)} px)`); break; }
    }
  }
  const side = shown(document.getElementById('pst-secondary-sidebar'));
  if (side && r.left < side.right && r.right > side.left && r.top < side.bottom && r.bottom > side.top)
    out.push(`over the contents column: ${Math.round(r.left)}..${Math.round(r.right)} px, the column ${Math.round(side.left)}..${Math.round(side.right)} px`);
  if (r.right > innerWidth + 1) out.push(`past the screen's right edge: ${Math.round(r.right)} px`);
  return out;
}"""


@pytest.fixture(scope="module")
def laptop(site, browser, fonts):  # noqa: F811
    """Every page loaded at 1366 x 768: its findings box's figure with the size of its text as drawn, and each
    figure, image and interactive figure (the dropdowns opened) checked against the header and the contents column."""
    base, html = site
    seen = {}
    for rel in _pages(html):
        page = _open_at(browser, f"{base}/{rel}", LAPTOP)
        if page.evaluate("() => document.querySelectorAll('details.interactive-figure').length"):
            page.evaluate("() => document.querySelectorAll('details.interactive-figure').forEach(d => { d.open = true; })")
            page.wait_for_load_state("networkidle")
            page.wait_for_timeout(300)
        figures = page.evaluate(_FIGURES_JS)
        for fig in figures:
            fig["drawn_px"] = _drawn_px(fonts(fig["data"]), fig["width"], fig["natural"])
        n = page.evaluate("""(start) => { let k = start;
            for (const e of document.querySelectorAll('article.bd-article figure, article.bd-article .grok-plotly, article.bd-article details.interactive-figure'))
              if (e.getBoundingClientRect().width > 0) e.dataset.layoutTest = k++;
            return k; }""", len(figures))
        over = {}
        for k in range(n):
            problems = page.evaluate(_OVER_JS, k)
            if problems:
                what = page.evaluate("(k) => { const e = document.querySelector(`[data-layout-test='${k}']`);"
                                     " return e.tagName + '.' + e.className.split(' ')[0] + (e.id ? '#' + e.id : '') +"
                                     " (e.src ? ' ' + e.src.split('/').pop() : ''); }", k)
                over[what] = problems
        if rel == SHOT_PAGE:
            page.evaluate("() => window.scrollTo(0, 0)")
            page.screenshot(path=str(SHOTS / "1366px__paper_c__grok_time.png"))
            page.evaluate(_OVER_JS, [f["k"] for f in figures if not f["findings"]][0])
            page.screenshot(path=str(SHOTS / "1366px__scrolled__paper_c__grok_time.png"))
        seen[rel] = {"figures": figures, "over": over}
        page.close()
    return seen


def test_laptop_the_findings_box_figure_is_legible(laptop):
    report, measured = [], {}
    for rel, seen in laptop.items():
        for fig in seen["figures"]:
            if fig["findings"]:
                measured[rel] = (round(fig["width"]), round(fig["drawn_px"], 1))
                if fig["drawn_px"] < DESKTOP_MIN_PX:
                    report.append(f"{rel}: the findings box draws {fig['src']} {fig['width']:.0f} px wide, "
                                  f"its text {fig['drawn_px']:.1f} px")
    print("findings figures at 1366 px (drawn width, text px):", json.dumps(measured, indent=0))
    assert len(measured) >= 15, measured
    assert not report, "\n".join(report)


def test_laptop_no_figure_over_the_header_or_the_contents_column(laptop):
    report = {rel: seen["over"] for rel, seen in laptop.items() if seen["over"]}
    assert not report, "\n".join(f"{rel}:\n  " + "\n  ".join(f"{what}: {'; '.join(p)}" for what, p in over.items())
                                 for rel, over in report.items())
