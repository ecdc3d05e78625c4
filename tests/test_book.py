"""The book builds strictly (-W --keep-going) from the committed notebooks, with no network."""

import pytest


@pytest.mark.book
def test_book_builds_strictly(built_book):
    code, log, html = built_book
    assert code == 0, log[-6000:]
    assert (html / "index.html").exists()
    page = (html / "notebooks" / "paper_a" / "fig1_loss_curves.html").read_text()
    assert "<img" in page and "Key numbers" in page
    assert "&lt;Figure size" not in page  # no figure repr leaking as text


@pytest.mark.book
def test_api_reference_is_generated_from_docstrings(built_book):
    code, log, html = built_book
    assert code == 0, log[-6000:]
    api = (html / "book" / "api.html").read_text()
    for name in ("ModAddConfig", "make_split", "RunStore", "stable_rank", "figure1"):
        assert f'id="grok_lib.' in api and name in api, name


@pytest.mark.book
def test_math_is_served_from_the_book(built_book):
    code, log, html = built_book
    assert code == 0, log[-6000:]
    page = (html / "book" / "intro.html").read_text()
    assert "_static/mathjax/tex-chtml.js" in page
    assert "cdn.jsdelivr" not in page and "mathjax@" not in page
    assert (html / "_static" / "mathjax" / "output" / "chtml" / "fonts" / "woff-v2").is_dir()
