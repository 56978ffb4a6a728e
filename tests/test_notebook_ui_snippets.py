"""Snippets read as excerpts: fragments marked, cut words dropped, one-letter highlights gone."""

from __future__ import annotations

from types import SimpleNamespace

from workbench.notebook_ui.notes_panel import hit_strength
from workbench.notebook_ui.snippets import SEMANTIC_FLOOR, snippet_html, weak_match


def test_fragments_are_marked_as_excerpts_not_as_a_replaced_value():
    raw = (
        "Evaporator air inlet -7 °C, <b>evaporator</b> ... Result: COP heating 4.0, "
        "heating capacity 2.3 kW."
    )
    out = snippet_html(raw)
    assert "[…]" in out
    assert " ... " not in out
    assert out.startswith("Evaporator air inlet")
    assert out.endswith("2.3 kW.")
    assert "<b>evaporator</b>" in out


def test_a_snippet_cut_inside_a_sentence_shows_an_ellipsis_and_no_half_word():
    out = snippet_html("the suction line of the first stage was insula", cut=True)
    assert out == "… the suction line of the first stage was …"
    assert snippet_html("Oil return needs a trap at every riser.") == (
        "Oil return needs a trap at every riser."
    )


def test_one_letter_highlights_are_dropped_and_escaping_kept():
    out = snippet_html("the stage<b>'</b><b>s</b> air at <b>5</b> m/<b>s</b> &lt;script&gt;")
    assert "<b>s</b>" not in out
    assert "<b>5</b>" in out  # a number is a real match
    assert "<script>" not in out
    assert "&lt;script&gt;" in out


def test_weak_semantic_matches_say_so():
    weak = SimpleNamespace(semantic_similarity=SEMANTIC_FLOOR - 0.1)
    close = SimpleNamespace(semantic_similarity=SEMANTIC_FLOOR + 0.2)
    assert weak_match(weak)
    assert not weak_match(close)
    assert not weak_match(SimpleNamespace(semantic_similarity=None))
    assert hit_strength("semantic", weak).endswith("(weak match)")
    assert "weak" not in hit_strength("semantic", close)
