"""BM25 of the keyword branch against a pure-Python reference, and owner-isolated statistics.

The reference scores the same notes the textbook way (Robertson and Zaragoza 2009): per query
stem ``idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * dl / avgdl))`` with
``idf = ln(1 + (N - df + 0.5) / (df + 0.5))``, where a title occurrence counts ``title_weight``
times in tf and in the length, and N, df and avgdl come from the caller's notes only.
"""

from __future__ import annotations

import math
import random
import re

import psycopg
import pytest

from workbench.notes.search import SearchSettings, search
from workbench.notes.store import NoteInput, add_note, delete_note, import_notes, update_note

pytest_plugins = ["notes_fixtures"]
pytestmark = pytest.mark.db

# words whose Snowball stem is the word itself, plus the forms used below
STEM = {"leaks": "leak", "leaking": "leak", "traps": "trap"}

ALICE = [
    ("a1", "Oil trap", "oil oil trap at the riser"),
    ("a2", "Leak", "leaking valve near the oil cooler"),
    ("a3", "Riser", "the riser holds oil when the gas speed is low and oil stays"),
    ("a4", "Cooler", "cooler fan noise"),
    ("a5", "Traps", "two traps and one leak"),
]


def _words(text: str | None) -> list[str]:
    return [STEM.get(w, w) for w in re.findall(r"[a-z0-9]+", (text or "").lower())]


def reference_bm25(
    notes: list[tuple[str, str, str]], query: list[str], k1: float, b: float, tw: float
) -> dict[str, float]:
    """BM25 scores of ``notes`` (external id, title, content) for the query stems."""
    docs = {}
    for ext, title, content in notes:
        t, c = _words(title), _words(content)
        docs[ext] = (t, c, tw * len(t) + len(c))
    n = len(docs)
    avgdl = sum(d[2] for d in docs.values()) / n
    scores: dict[str, float] = {}
    for stem in dict.fromkeys(STEM.get(q, q) for q in query):
        holding = [e for e, (t, c, _) in docs.items() if stem in t or stem in c]
        df = len(holding)
        if not df:
            continue
        idf = math.log(1 + (n - df + 0.5) / (df + 0.5))
        for ext in holding:
            t, c, dl = docs[ext]
            tf = tw * t.count(stem) + c.count(stem)
            part = idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * dl / avgdl))
            scores[ext] = scores.get(ext, 0.0) + part
    return scores


def _keyword_scores(conn, query: str, owner: str, minilm, settings=None) -> dict[str, float]:
    hits = search(
        conn, query, owner=owner, mode="keyword", limit=100, provider=minilm, settings=settings
    )
    return {h.external_id: h.keyword_score for h in hits}


def test_bm25_reference_scores_on_a_small_corpus() -> None:
    # two notes, by hand: N = 2, "oil" in one of them: idf = ln(1 + 1.5 / 1.5) = ln 2
    notes = [("x", "", "oil oil"), ("y", "", "gas")]
    got = reference_bm25(notes, ["oil"], k1=1.2, b=0.75, tw=2.0)
    # tf = 2, dl = 2, avgdl = 1.5: ln 2 * 2 * 2.2 / (2 + 1.2 * (0.25 + 1)) = ln 2 * 4.4 / 3.5
    want = math.log(2) * 2 * 2.2 / (2 + 1.2 * (1 - 0.75 + 0.75 * 2 / 1.5))
    assert got == {"x": pytest.approx(want, rel=1e-15)}
    assert want == pytest.approx(0.87138503, rel=1e-7)


@pytest.mark.parametrize(
    ("query", "settings"),
    [
        ("oil leaks", SearchSettings()),
        ("oil trap riser", SearchSettings(title_weight=1.0)),
        ("cooler traps leaking oil", SearchSettings(bm25_k1=2.0, bm25_b=0.3, title_weight=3.0)),
    ],
)
def test_keyword_scores_equal_the_reference(
    migrated_conn: psycopg.Connection, minilm, query: str, settings: SearchSettings
) -> None:
    import_notes(migrated_conn, "alice", [NoteInput(t, c, e) for e, t, c in ALICE], provider=minilm)
    got = _keyword_scores(migrated_conn, query, "alice", minilm, settings)
    want = reference_bm25(
        ALICE, _words(query), settings.bm25_k1, settings.bm25_b, settings.title_weight
    )
    assert set(got) == set(want)
    for ext, score in want.items():
        assert got[ext] == pytest.approx(score, rel=1e-12), ext


def test_other_owners_never_shift_a_ranking(migrated_conn: psycopg.Connection, minilm) -> None:
    conn = migrated_conn
    import_notes(conn, "bob", [NoteInput(t, c, e) for e, t, c in ALICE], provider=minilm)
    before = _keyword_scores(conn, "oil leaks trap", "bob", minilm)
    rng = random.Random(3)
    words = ["oil", "leak", "trap", "riser", "pump", "gas", "fan", "coil", "brine", "ice"]
    flood = [
        NoteInput(f"Alice {i}", " ".join(rng.choices(words, k=rng.randint(3, 60))), f"f{i}")
        for i in range(300)
    ]
    import_notes(conn, "alice", flood, provider=minilm)
    after = _keyword_scores(conn, "oil leaks trap", "bob", minilm)
    assert after == before  # exactly: N, df and avgdl are bob's own
    want = reference_bm25(ALICE, ["oil", "leak", "trap"], 1.2, 0.75, 2.0)
    assert after == pytest.approx(want, rel=1e-12)
    # alice's statistics count her 300 notes
    stats = conn.execute('SELECT "ownerId", "notes" FROM "NoteCollection" ORDER BY 1').fetchall()
    assert stats == [("alice", 300), ("bob", len(ALICE))]


def test_statistics_follow_inserts_updates_and_deletes(
    migrated_conn: psycopg.Connection, minilm
) -> None:
    conn = migrated_conn
    notes = list(ALICE)
    import_notes(conn, "alice", [NoteInput(t, c, e) for e, t, c in notes], provider=minilm)
    ids = dict(conn.execute('SELECT "externalId", id FROM "Note"').fetchall())
    extra = add_note(conn, "alice", "Pump", "oil pump leak", external_id="a6", provider=minilm)
    notes.append(("a6", "Pump", "oil pump leak"))
    update_note(conn, ids["a1"], owner="alice", content="no words of interest", provider=minilm)
    notes[0] = ("a1", "Oil trap", "no words of interest")
    delete_note(conn, ids["a4"], owner="alice")
    notes = [n for n in notes if n[0] != "a4"]
    conn.execute('UPDATE "Note" SET "updatedAt" = now()')  # no text change: nothing moves
    got = _keyword_scores(conn, "oil leak trap cooler", "alice", minilm)
    want = reference_bm25(notes, ["oil", "leak", "trap", "cooler"], 1.2, 0.75, 2.0)
    assert set(got) == set(want)
    assert extra.external_id in got
    for ext, score in want.items():
        assert got[ext] == pytest.approx(score, rel=1e-12), ext
    # the stored statistics equal a recomputation from tsv
    stored = conn.execute(
        'SELECT "ownerId", "notes", "titleLength", "contentLength" FROM "NoteCollection"'
    ).fetchall()
    recomputed = conn.execute(
        'SELECT n."ownerId", count(DISTINCT n.id), coalesce(sum(t."titleCount"), 0),'
        ' coalesce(sum(t."contentCount"), 0)'
        ' FROM "Note" n LEFT JOIN LATERAL note_term_counts(n.tsv) t ON true GROUP BY 1'
    ).fetchall()
    assert stored == recomputed
    # moving a note to another owner moves its postings and counts
    conn.execute('UPDATE "Note" SET "ownerId" = %s WHERE id = %s', ("carol", ids["a2"]))
    assert _keyword_scores(conn, "leaking valve", "carol", minilm).keys() == {"a2"}
    assert "a2" not in _keyword_scores(conn, "leaking valve", "alice", minilm)
    counts = dict(conn.execute('SELECT "ownerId", "notes" FROM "NoteCollection"').fetchall())
    assert counts == {"alice": len(notes) - 1, "carol": 1}


def test_statistics_migration_backfills_and_rolls_back(fresh_db_url: str) -> None:
    from workbench.notes.migrations import migrate, rollback

    with psycopg.connect(fresh_db_url, autocommit=True) as conn:
        migrate(conn, to="20260514090000")
        for owner in ("alice", "bob"):
            for ext, title, content in ALICE:
                conn.execute(
                    'INSERT INTO "Note" ("ownerId", "externalId", title, content)'
                    " VALUES (%s, %s, %s, %s)",
                    (owner, ext, title, content),
                )
        assert "20260601090000" in migrate(conn, to="20260601090000")
        postings = conn.execute(
            'SELECT "ownerId", stem, "titleCount", "contentCount" FROM "NoteTerm"'
            ' WHERE "noteId" IN (SELECT id FROM "Note" WHERE "externalId" = %s)'
            " ORDER BY 1, 2",
            ("a1",),
        ).fetchall()
        # "Oil trap" / "oil oil trap at the riser": oil 1 + 2, trap 1 + 1
        expected = [("at", 0, 1), ("oil", 1, 2), ("riser", 0, 1), ("the", 0, 1), ("trap", 1, 1)]
        assert postings == [(o, *row) for o in ("alice", "bob") for row in expected]
        lengths = conn.execute(
            'SELECT DISTINCT "titleLength", "contentLength" FROM "NoteTerm" t'
            ' JOIN "Note" n ON n.id = t."noteId" WHERE n."externalId" = %s',
            ("a1",),
        ).fetchall()
        assert lengths == [(2, 6)]
        assert conn.execute('SELECT sum("notes") FROM "NoteCollection"').fetchone()[0] == 10
        rollback(conn, steps=1)
        assert conn.execute("SELECT to_regclass('\"NoteTerm\"')").fetchone()[0] is None
        conn.execute('DELETE FROM "Note" WHERE "externalId" = %s', ("a1",))  # no trigger left
        migrate(conn)
        assert conn.execute('SELECT sum("notes") FROM "NoteCollection"').fetchone()[0] == 8
