"""The builder's run log without a browser: Store run, related notes under the results, from_note.

The tests click the form's own buttons and read what it shows, on a real database with the real
local model.
"""

from __future__ import annotations

import ipywidgets as w
import psycopg
import pytest
from run_log_corpus import heat_pump

import workbench
from workbench.errors import NoteNotFoundError, NoteStoreError, RunNotFoundError
from workbench.notebook_ui import ScenarioBuilder
from workbench.notebook_ui.notes_access import NotesAccess
from workbench.notes import add_note, count_notes, get_run, list_runs

pytest_plugins = ["notes_fixtures"]
pytestmark = pytest.mark.db


def _find(widget, cls: str):
    if cls in getattr(widget, "_dom_classes", ()):
        return widget
    for child in getattr(widget, "children", ()):
        found = _find(child, cls)
        if found is not None:
            return found
    return None


@pytest.fixture
def db(fresh_db_url):
    return fresh_db_url


@pytest.fixture
def notes(db, minilm):
    with psycopg.connect(db, autocommit=True) as conn:
        from workbench.notes import migrate

        migrate(conn)
        return {
            "propane": add_note(
                conn,
                "alice",
                "R290 (propane) charge limits",
                "Propane is flammable: keep the charge under the EN 378 limit, no ignition "
                "sources near the evaporator.",
                provider=minilm,
            ),
            "ua": add_note(
                conn,
                "alice",
                "Exchanger heat balance does not close",
                "When the heat transfer of a condenser cannot close, the UA and the secondary "
                "flow ask for more heat than the temperatures allow: check the secondary inlet "
                "temperature against the saturation temperature, or raise the UA.",
                provider=minilm,
            ),
            "oil": add_note(
                conn, "alice", "Oil return", "Trap at every suction riser.", provider=minilm
            ),
        }


def _builder(db, minilm, doc=None, **kw) -> ScenarioBuilder:
    return ScenarioBuilder(
        doc or heat_pump("R290", 7.0), owner="alice", database=db, provider=minilm, **kw
    )


def test_store_run_button_keeps_the_solved_run_as_a_note(db, notes, minilm):
    b = _builder(db, minilm)
    store = _find(b.widget, "wb-store-run")
    assert isinstance(store, w.Button)
    assert store.disabled  # nothing solved yet
    b.set_parameter("evaporator", "air_inlet_temp_c", -7.0)
    b._solve_button.click()
    assert b.result.converged
    assert not store.disabled
    store.click()
    status = _find(b.widget, "wb-run-status").value
    assert "stored as note" in status
    assert b.last_run.id in status
    with psycopg.connect(db, autocommit=True) as conn:
        run = get_run(conn, b.last_run.id, owner="alice")
    assert run.scenario == b.document
    assert run.summary["summary"] == b.result.summary
    assert "Changed from the document as opened: evaporator.air_inlet_temp_c 7 -> -7." in (
        run.content
    )
    b.close()


def test_store_after_an_edit_offers_to_solve_first_and_stores_each_solve_once(db, notes, minilm):
    b = _builder(db, minilm)
    store = _find(b.widget, "wb-store-run")
    b.solve()
    first = b.store_run()
    assert (store.description, store.disabled) == ("Stored", True)
    assert b.store_run().id == first.id  # the same solve again: the same note
    assert "already stored as note" in _find(b.widget, "wb-run-status").value
    b.set_parameter("evaporator", "fan_speed", 0.5)  # after the solve
    assert (store.description, store.disabled) == ("Solve and store", False)
    with pytest.raises(NoteStoreError, match="press Solve first"):
        b.store_run()
    store.click()  # solves the form as it is, then stores that run
    assert b.last_run.id != first.id
    assert b.last_run.scenario["circuits"][0]["components"][3]["fan_speed"] == 0.5
    assert b.last_run.summary["summary"] == b.result.summary
    with psycopg.connect(db, autocommit=True) as conn:
        assert count_notes(conn, owner="alice") == len(notes) + 2
    b.set_parameter("evaporator", "fan_speed", 1.4)  # an invalid form cannot be solved
    assert (store.description, store.disabled) == ("Solve and store", True)
    b.close()


def test_related_notes_show_under_the_results(db, notes, minilm):
    b = _builder(db, minilm)
    children = list(b.widget.children)
    results = children.index(b._results)
    run_log = next(i for i, c in enumerate(children) if "wb-run-log" in c._dom_classes)
    assert run_log == results + 1  # right under the results
    b.solve()
    assert b.related_hits[0].id == notes["propane"].id
    shown = _find(b.widget, "wb-related").value
    assert "Related notes" in shown
    assert "R290 (propane) charge limits" in shown
    assert shown.index("<li") < shown.index("R290 (propane) charge limits") < shown.index("</li>")
    b.close()


def test_a_failed_solve_shows_the_notes_on_its_hint(db, notes, minilm):
    doc = heat_pump("R290", 7.0)
    doc["solver"] = {"strategy": "newton", "max_iterations": 2}
    b = _builder(db, minilm, doc)
    b._solve_button.click()
    assert not b.result.converged
    assert b.result.worst_residuals[0][0] == "condenser.heat_transfer"
    assert b.related_hits[0].id == notes["ua"].id
    shown = _find(b.widget, "wb-related").value
    assert "Notes that match the hint" in shown
    assert "Exchanger heat balance does not close" in shown
    # a refused solve clears them
    b.set_parameter("evaporator", "fan_speed", 1.4)
    with pytest.raises(workbench.errors.ScenarioError):
        b.solve()
    assert _find(b.widget, "wb-related").value == ""
    assert b.related_hits == []
    assert _find(b.widget, "wb-store-run").disabled
    b.close()


def test_from_note_reopens_a_run_and_re_solves_to_its_figures(db, notes, minilm):
    first = _builder(db, minilm)
    first.set_parameter("evaporator", "air_inlet_temp_c", -3.0)
    first.solve()
    run = first.store_run()
    first.close()
    b = ScenarioBuilder.from_note(run.id, owner="alice", database=db, provider=minilm)
    assert b.document == run.scenario
    assert b.source_note == run.id
    assert "opened from note" in _find(b.widget, "wb-run-status").value
    assert b._fluid.value == "R290"
    result = b.solve()
    for key, value in b.stored_summary["summary"].items():
        assert result.summary[key] == pytest.approx(value, rel=1e-9, abs=1e-9), key
    # the note it came from is not listed as related to itself
    assert run.id not in {h.id for h in b.related_hits}
    # a second run stored from it lists its changes against that note
    b.set_parameter("evaporator", "air_inlet_temp_c", 2.0)
    b.solve()
    second = b.store_run()
    assert f"Changed from the run of note {run.id}: evaporator.air_inlet_temp_c -3 -> 2." in (
        second.content
    )
    b.close()
    with pytest.raises(NoteNotFoundError):
        ScenarioBuilder.from_note(run.id, owner="bob", database=db, provider=minilm)
    with pytest.raises(RunNotFoundError):
        ScenarioBuilder.from_note(notes["oil"].id, owner="alice", database=db, provider=minilm)


def test_builder_without_owner_has_no_run_log_and_no_database(minilm):
    b = ScenarioBuilder(heat_pump("R290", 7.0))
    box = _find(b.widget, "wb-run-log")
    assert box.layout.display == "none"
    b.solve()
    assert b.related_hits == []
    assert _find(b.widget, "wb-related").value == ""
    with pytest.raises(NoteStoreError, match="has no run log"):
        b.store_run()


def test_an_unreachable_database_never_breaks_the_form(minilm, tmp_path):
    url = f"postgresql://postgres@/nothing?host={tmp_path}&connect_timeout=1"
    b = ScenarioBuilder(
        heat_pump("R290", 7.0),
        owner="alice",
        database=NotesAccess(url, provider=minilm, lazy=True, migrate=False, timeout_s=2),
    )
    result = b.solve()
    assert result.converged
    assert "related notes unavailable" in _find(b.widget, "wb-related").value
    _find(b.widget, "wb-store-run").click()
    assert "not stored" in _find(b.widget, "wb-run-status").value


def test_list_runs_sees_builder_runs(db, notes, minilm):
    b = _builder(db, minilm)
    b.solve()
    b.store_run(external_id="hp-7")
    with psycopg.connect(db, autocommit=True) as conn:
        assert [r.note.external_id for r in list_runs(conn, owner="alice")] == ["hp-7"]
        assert count_notes(conn, owner="alice") == 4
    b.close()


def test_reopen_button_opens_a_stored_run_in_the_same_form(db, notes, minilm):
    b = _builder(db, minilm)
    b.set_parameter("evaporator", "air_inlet_temp_c", -3.0)
    b.solve()
    run = b.store_run()
    pick, button = _find(b.widget, "wb-reopen-pick"), _find(b.widget, "wb-reopen")
    assert run.id in [value for _label, value in pick.options]
    assert pick.value == run.id  # the run just stored is picked
    assert not button.disabled
    b.set_parameter("evaporator", "air_inlet_temp_c", 9.0)
    b.solve()
    pick.value = run.id
    button.click()
    assert b.document == run.scenario
    assert b.source_note == run.id
    assert "opened from note" in _find(b.widget, "wb-run-status").value
    assert b.result is None  # nothing of the other solve is left
    again = b.solve()
    for key, value in run.summary["summary"].items():
        assert again.summary[key] == pytest.approx(value, rel=1e-9, abs=1e-9), key
    b.close()


def test_the_search_panel_offers_reopen_for_run_notes(db, notes, minilm):
    from workbench.notebook_ui import NoteSearchPanel

    b = _builder(db, minilm)
    b.set_parameter("evaporator", "air_inlet_temp_c", -7.0)
    b.solve()
    run = b.store_run()
    panel = NoteSearchPanel(db, "alice", provider=minilm, limit=5)
    hits = panel.search_all("R290 heat pump run evaporator air -7")
    found = [note_id for _title, note_id in panel.run_hits(hits)]
    assert found == [run.id]  # the plain notes (propane, UA, oil) are not runs
    row = _find(panel.widget, "wb-notes-reopen")
    assert not row.disabled
    assert _find(panel.widget, "wb-notes-reopen-pick").value == run.id
    row.click()
    reopened = panel.reopened
    assert reopened is not None
    assert reopened.source_note == run.id
    assert reopened.document == b.document
    assert "opened from note" in reopened._run_status.value
    # a search with no run among its hits hides the row
    panel.search_all("oil trap suction riser", limit=1)
    assert _find(panel.widget, "wb-notes-reopen").disabled
