"""The notes panel without a browser, on a throwaway database of the embedded PostgreSQL.

Each test does what a person does in the panel (type a path and click Import, type a query and
click Search) by setting the widgets' values and clicking their buttons, then reads the panel.
"""

from __future__ import annotations

import ipywidgets as w
import psycopg
import pytest

from workbench.errors import NoteStoreError
from workbench.notebook_ui import NoteSearchPanel
from workbench.notebook_ui.notes_panel import hit_strength, safe_highlight
from workbench.notes import add_note, count_notes, create_pool

pytest_plugins = ["notes_fixtures"]
pytestmark = pytest.mark.db


def _widgets(widget, kind, found=None):
    found = [] if found is None else found
    if isinstance(widget, kind):
        found.append(widget)
    for child in getattr(widget, "children", ()):
        _widgets(child, kind, found)
    return found


def _button(panel, name):
    return next(b for b in _widgets(panel.widget, w.Button) if b.description == name)


def _text(panel, placeholder_start):
    return next(
        t
        for t in _widgets(panel.widget, w.Text)
        if (t.placeholder or "").startswith(placeholder_start)
    )


@pytest.fixture
def panel(fresh_db_url, minilm):
    panel = NoteSearchPanel(fresh_db_url, "alice", provider=minilm, limit=3)
    yield panel
    panel.close()


def test_safe_highlight_keeps_only_the_highlight_tags():
    raw = "a <script>x</script> & <b>oil</b> <img src=x onerror=alert(1)>"
    out = safe_highlight(raw)
    assert "<script" not in out
    assert "<img" not in out
    assert "&lt;script&gt;" in out
    assert "<b>oil</b>" in out
    assert "&amp;" in out
    # a snippet the server already escaped is not escaped twice
    assert safe_highlight("a &lt;script&gt; &amp; <b>oil</b>") == safe_highlight(
        "a <script> & <b>oil</b>"
    )


def test_panel_refuses_an_open_connection(fresh_db_url, minilm):
    with (
        psycopg.connect(fresh_db_url, autocommit=True) as conn,
        pytest.raises(TypeError, match="not an open connection"),
    ):
        NoteSearchPanel(conn, "alice", provider=minilm)


def test_panel_empty_import_path_is_refused(panel):
    _text(panel, "folder").value = "   "
    _button(panel, "Import").click()
    assert "no import path" in panel._status.value
    assert panel.count() == 0
    with pytest.raises(NoteStoreError, match="no import path"):
        panel.import_folder("")


def test_panel_import_path_resolves_like_the_notebook_parameter(panel, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a kernel started elsewhere than the repository
    _text(panel, "folder").value = "notebooks/sample_notes"
    _button(panel, "Import").click()
    assert "imported 8 notes" in panel._status.value
    assert panel.count() == 8
    _button(panel, "Import").click()  # idempotent
    assert "0 new, 0 updated, 8 unchanged" in panel._status.value
    assert panel.count() == 8


def test_panel_search_survives_a_closed_notebook_connection(panel, fresh_db_url):
    panel.import_folder("notebooks/sample_notes")
    with psycopg.connect(fresh_db_url, autocommit=True) as conn:  # the notebook's own
        conn.execute("select 1")
    assert conn.closed
    query = _text(panel, "search")
    query.value = "why does the evaporator ice up"
    _button(panel, "Search").click()
    assert panel.last["hybrid"][0].title == "Evaporator frosting at low suction temperature"
    assert "Evaporator frosting" in panel._columns["hybrid"].value


def test_panel_status_follows_the_last_search(panel):
    panel.import_folder("notebooks/sample_notes")
    query = _text(panel, "search")
    query.value = ""
    _button(panel, "Search").click()
    assert "the search query is empty" in panel._status.value
    query.value = "oil trap in the suction riser"
    _button(panel, "Search").click()
    assert "empty" not in panel._status.value
    assert "3 keyword, 3 semantic, 3 hybrid hits" in panel._status.value


def test_panel_columns_show_each_branch_match_strength(panel):
    panel.import_folder("notebooks/sample_notes")
    hits = panel.search_all("oil trap in the suction riser")
    top_kw, top_sem = hits["keyword"][0], hits["semantic"][0]
    assert top_kw.keyword_score is not None
    assert top_kw.keyword_score > 0
    assert 0 < top_sem.semantic_similarity <= 1
    assert f"BM25 {top_kw.keyword_score:.2f}" in panel._columns["keyword"].value
    assert f"cosine {top_sem.semantic_similarity:.3f}" in panel._columns["semantic"].value
    assert f"RRF {hits['hybrid'][0].score:.4f}" in panel._columns["hybrid"].value
    assert "RRF" not in panel._columns["keyword"].value + panel._columns["semantic"].value
    # keyword scores fall with rank (they are match strengths, not near-equal RRF values)
    scores = [h.keyword_score for h in hits["keyword"]]
    assert scores == sorted(scores, reverse=True)
    assert scores[0] > 1.2 * scores[-1]
    assert hit_strength("semantic", top_kw).startswith("cosine")


def test_panel_renders_titles_and_snippets_safely(panel, fresh_db_url, minilm):
    with psycopg.connect(fresh_db_url, autocommit=True) as conn:
        add_note(
            conn,
            "alice",
            "<script>alert('t')</script> oil & <b>riser</b>",
            "Oil <img src=x onerror=alert(1)> returns up the suction riser when the gas is fast.",
            provider=minilm,
        )
    panel.search_all("oil suction riser")
    for mode in ("keyword", "semantic", "hybrid"):
        html_text = panel._columns[mode].value
        assert "<script" not in html_text, mode
        assert "<img" not in html_text, mode
        assert "&lt;script&gt;" in html_text, mode
    assert "<b>" in panel._columns["keyword"].value  # highlights kept
    assert panel.table()["hybrid"][1].startswith("<script>alert")  # plain text in the table


def test_panel_uses_a_given_pool_and_leaves_it_open(fresh_db_url, minilm):
    pool = create_pool(fresh_db_url, min_size=1, max_size=2)
    try:
        panel = NoteSearchPanel(pool, "bob", provider=minilm)
        panel.import_folder("notebooks/sample_notes")
        panel.close()
        with pool.connection() as conn:  # still open
            assert count_notes(conn, owner="bob") == 8
    finally:
        pool.close()


def test_panel_reindex_and_validate_buttons(panel):
    panel.import_folder("notebooks/sample_notes")
    _button(panel, "Reindex").click()
    assert "reindex: 0 embedded, 8 current" in panel._status.value
    _button(panel, "Validate").click()
    assert "8 notes, all good" in panel._status.value
