"""Hybrid search against the real database: modes, OR semantics, RRF, owners, HNSW settings."""

from __future__ import annotations

import json

import numpy as np
import psycopg
import pytest

from workbench.errors import NoteStoreError
from workbench.notes.embeddings import to_vector_literal
from workbench.notes.search import SearchSettings, keyword_terms, search
from workbench.notes.store import NoteInput, import_notes

pytest_plugins = ["notes_fixtures"]

pytestmark = pytest.mark.db

ALICE = [
    (
        "defrost",
        "Defrost heater failure",
        "The electric defrost heater on the freezer coil burned out; ice blocked the airflow.",
    ),
    (
        "oil",
        "Oil return in long risers",
        "Install an oil trap at the bottom of every suction riser taller than 3 m.",
    ),
    ("glide", "Zeotropic glide", "R407C shows roughly 7 K of temperature glide in the evaporator."),
    (
        "txv",
        "Expansion valve hunting",
        "The thermostatic expansion valve hunts when the bulb is mounted on top of the suction line.",
    ),
    (
        "fouling",
        "Condenser fouling",
        "Dirty condenser fins raised the head pressure by 4 bar in summer.",
    ),
    (
        "cop",
        "Heat pump COP",
        "Seasonal COP of the air-source heat pump dropped below 2.5 in January.",
    ),
    (
        "leak",
        "Refrigerant leak test",
        "Nitrogen pressure test at 25 bar held for 24 h before evacuation.",
    ),
    (
        "vfd",
        "Compressor speed control",
        "A variable frequency drive keeps the suction pressure steady at part load.",
    ),
]
BOB = [
    ("bob-defrost", "Defrost timer", "Bob's defrost timer note: start defrost every 6 hours."),
    ("bob-ice", "Coil icing", "Frost and ice on the evaporator coil of the walk-in cooler."),
]


@pytest.fixture(scope="module")
def conn(module_db_url: str, minilm):
    with psycopg.connect(module_db_url, autocommit=True) as c:
        import_notes(c, "alice", [NoteInput(t, b, e) for e, t, b in ALICE], provider=minilm)
        import_notes(c, "bob", [NoteInput(t, b, e) for e, t, b in BOB], provider=minilm)
        yield c


def _ext(hits) -> list[str]:
    return [h.external_id for h in hits]


def test_keyword_terms_or_query() -> None:
    terms = keyword_terms("Why does the evaporator coil keep icing up, the EVAPORATOR?")
    assert terms == ["evaporator", "coil", "keep", "icing"]
    assert keyword_terms("the of and") == ["the", "of", "and"]  # nothing but function words


def test_keyword_mode_ranks_matching_notes(conn: psycopg.Connection, minilm) -> None:
    hits = search(conn, "defrost heater", owner="alice", mode="keyword", provider=minilm)
    assert _ext(hits) == ["defrost"]
    assert hits[0].keyword_rank == 1
    assert hits[0].semantic_rank is None
    assert "<b>defrost</b>" in hits[0].snippet.lower()
    default = SearchSettings()
    assert hits[0].score == pytest.approx(default.keyword_weight / (default.rrf_k + 1))


def test_keyword_mode_uses_or_semantics_for_long_queries(conn: psycopg.Connection, minilm) -> None:
    query = "what should I do when the suction riser is too tall for oil to come back"
    hits = search(conn, query, owner="alice", mode="keyword", provider=minilm)
    assert hits
    assert hits[0].external_id == "oil"  # no note holds every word of the query
    for hit in hits:  # every hit matches at least one query word
        matched = conn.execute(
            "SELECT tsv @@ to_tsquery('simple', %s) FROM \"Note\" WHERE id = %s",
            (" | ".join(keyword_terms(query)), hit.id),
        ).fetchone()[0]
        assert matched


def test_semantic_mode_finds_paraphrase_without_shared_words(
    conn: psycopg.Connection, minilm
) -> None:
    query = "fluid mixture whose boiling temperature changes during evaporation"
    hits = search(conn, query, owner="alice", mode="semantic", limit=3, provider=minilm)
    assert hits[0].external_id == "glide"
    assert [h.semantic_rank for h in hits] == [1, 2, 3]
    assert all(h.keyword_rank is None for h in hits)


def test_hybrid_scores_are_rrf_of_branch_ranks(conn: psycopg.Connection, minilm) -> None:
    settings = SearchSettings(rrf_k=20, keyword_weight=1.5, semantic_weight=0.8)
    hits = search(
        conn, "ice on the evaporator coil", owner=None, limit=10, provider=minilm, settings=settings
    )
    assert len(hits) == 10  # every note: alice's and bob's
    for hit in hits:
        expected = sum(
            w / (20 + r)
            for w, r in ((1.5, hit.keyword_rank), (0.8, hit.semantic_rank))
            if r is not None
        )
        assert hit.score == pytest.approx(expected)
    keys = [(-h.score, h.id) for h in hits]
    assert keys == sorted(keys)  # best first, ties by id
    assert hits[0].external_id == "bob-ice"  # matched by both branches
    assert hits[0].keyword_rank == 1
    assert hits[0].semantic_rank == 1
    kw = search(
        conn, "ice on the evaporator coil", owner=None, mode="keyword", limit=10, provider=minilm
    )
    sem = search(
        conn, "ice on the evaporator coil", owner=None, mode="semantic", limit=10, provider=minilm
    )
    by_id = {h.id: h for h in hits}
    for i, h in enumerate(kw, start=1):
        assert by_id[h.id].keyword_rank == i
    for i, h in enumerate(sem, start=1):
        assert by_id[h.id].semantic_rank == i


def test_hits_carry_branch_match_strengths(conn: psycopg.Connection, minilm) -> None:
    query = "ice on the evaporator coil"
    hits = search(conn, query, owner=None, limit=10, provider=minilm)
    kw = search(conn, query, owner=None, mode="keyword", limit=10, provider=minilm)
    sem = search(conn, query, owner=None, mode="semantic", limit=10, provider=minilm)
    # BM25 scores fall with the keyword rank; similarities fall with the semantic rank
    assert [h.keyword_score for h in kw] == sorted((h.keyword_score for h in kw), reverse=True)
    assert all(h.keyword_score > 0 and h.semantic_similarity is None for h in kw)
    sims = [h.semantic_similarity for h in sem]
    assert sims == sorted(sims, reverse=True)
    assert all(-1 <= s <= 1 for s in sims)
    # the similarity is the cosine of the stored and the query embeddings
    qvec = np.asarray(json.loads(to_vector_literal(minilm.embed_one(query))), dtype=float)
    for h in sem[:3]:
        stored = conn.execute(
            'SELECT embedding::text FROM "NoteEmbedding" WHERE "noteId" = %s', (h.id,)
        ).fetchone()[0]
        v = np.asarray(json.loads(stored), dtype=float)
        cos = float(v @ qvec / (np.linalg.norm(v) * np.linalg.norm(qvec)))
        assert h.semantic_similarity == pytest.approx(cos, abs=1e-5)
    # hybrid hits carry the branch values of the notes the branches found
    by_kw = {h.id: h.keyword_score for h in kw}
    for h in hits:
        assert (h.keyword_score is None) == (h.keyword_rank is None)
        assert (h.semantic_similarity is None) == (h.semantic_rank is None)
        if h.id in by_kw:
            assert h.keyword_score == pytest.approx(by_kw[h.id])


def test_weights_change_the_fusion(conn: psycopg.Connection, minilm) -> None:
    q = "defrost of the frozen coil"
    only_kw = search(
        conn, q, owner=None, provider=minilm, settings=SearchSettings(semantic_weight=0.0)
    )
    assert only_kw[0].keyword_rank == 1


def test_owner_scope(conn: psycopg.Connection, minilm) -> None:
    for mode in ("hybrid", "keyword", "semantic"):
        alice = search(
            conn, "defrost timer ice", owner="alice", mode=mode, limit=20, provider=minilm
        )
        assert alice
        assert all(not e.startswith("bob") for e in _ext(alice))
        bob = search(conn, "defrost timer ice", owner="bob", mode=mode, limit=20, provider=minilm)
        assert set(_ext(bob)) <= {"bob-defrost", "bob-ice"}
    assert search(conn, "defrost", owner="carol", provider=minilm) == []


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"query": "   "}, "the search query is empty"),
        ({"query": "x" * 1001}, "1001 characters; at most 1000"),
        ({"query": "ok", "limit": 0}, "limit must be between 1 and 1000"),
        ({"query": "ok", "mode": "fuzzy"}, "unknown search mode 'fuzzy'"),
    ],
)
def test_search_rejects_bad_input(
    conn: psycopg.Connection, minilm, kwargs: dict, message: str
) -> None:
    with pytest.raises(NoteStoreError, match=message):
        search(conn, owner="alice", provider=minilm, **{"limit": 10, "mode": "hybrid", **kwargs})


def test_semantic_branch_only_compares_the_configured_model(
    migrated_conn: psycopg.Connection, minilm
) -> None:
    conn = migrated_conn
    import_notes(conn, "alice", [NoteInput(t, b, e) for e, t, b in ALICE], provider=minilm)
    conn.execute(
        'UPDATE "NoteEmbedding" SET model = %s WHERE "noteId" = (SELECT id FROM "Note" WHERE "externalId" = %s)',
        ("openai/other-model", "glide"),
    )
    hits = search(
        conn,
        "temperature glide of zeotropic blends",
        owner="alice",
        mode="semantic",
        limit=8,
        provider=minilm,
    )
    assert "glide" not in _ext(hits)
    assert len(hits) == 7
    hybrid = search(conn, "temperature glide of zeotropic blends", owner="alice", provider=minilm)
    glide = next(h for h in hybrid if h.external_id == "glide")
    assert glide.keyword_rank == 1
    assert glide.semantic_rank is None


def test_ef_search_and_iterative_scan_return_every_candidate(
    migrated_conn: psycopg.Connection, minilm
) -> None:
    conn = migrated_conn
    crowd = [
        NoteInput(f"Log entry {i}", f"Routine inspection number {i} of unit {i % 7}", f"c{i}")
        for i in range(150)
    ]
    import_notes(conn, "crowd", crowd, provider=minilm)
    import_notes(conn, "carol", [NoteInput(t, b, e) for e, t, b in ALICE[:5]], provider=minilm)
    settings = SearchSettings(semantic_candidates=120)
    hits = search(
        conn,
        "inspection",
        owner="crowd",
        mode="semantic",
        limit=120,
        provider=minilm,
        settings=settings,
    )
    assert len(hits) == 120  # more than the default hnsw.ef_search of 40
    carol = search(
        conn, "unit inspection log", owner="carol", mode="semantic", limit=5, provider=minilm
    )
    assert sorted(_ext(carol)) == sorted(e for e, _, _ in ALICE[:5])
    # without the settings the HNSW scan stops at ef_search (40) rows: that is what they fix
    vec = conn.execute(
        'SELECT embedding::text FROM "NoteEmbedding" e JOIN "Note" n ON n.id = e."noteId"'
        " WHERE n.\"externalId\" = 'c3'"
    ).fetchone()[0]
    with conn.transaction():
        conn.execute("SET LOCAL enable_seqscan = off")
        plain = conn.execute(
            'SELECT "noteId" FROM "NoteEmbedding" ORDER BY embedding <=> %s::vector LIMIT 120',
            (vec,),
        ).fetchall()
    assert len(plain) == 40


def test_keyword_branch_weighs_rare_words_higher(migrated_conn: psycopg.Connection, minilm) -> None:
    conn = migrated_conn
    common = [
        NoteInput(f"Compressor log {i}", "compressor compressor running normally", f"c{i}")
        for i in range(12)
    ]
    rare = NoteInput("Maintenance", "the scroll set was replaced", "rare")
    import_notes(conn, "alice", [*common, rare], provider=minilm)
    hits = search(
        conn, "compressor scroll", owner="alice", mode="keyword", limit=20, provider=minilm
    )
    assert hits[0].external_id == "rare"  # one rare word beats a frequent word repeated
    assert len(hits) == 13
    conn.execute('ANALYZE "Note", "NoteTerm"')  # with planner statistics the order is the same
    again = search(
        conn, "compressor scroll", owner="alice", mode="keyword", limit=20, provider=minilm
    )
    assert [h.id for h in again] == [h.id for h in hits]


def test_keyword_branch_matches_every_form_of_a_word(
    migrated_conn: psycopg.Connection, minilm
) -> None:
    conn = migrated_conn
    notes = [
        NoteInput("Defrosting schedule", "Coils are defrosted every six hours.", "forms"),
        NoteInput("Defrost", "Hot gas defrost of the display cases.", "exact"),
        NoteInput("Frost", "Frost on the coil of the walk-in.", "other"),
    ]
    import_notes(conn, "alice", notes, provider=minilm)
    vocabulary = dict(conn.execute('SELECT lexeme, stem FROM "NoteLexeme"').fetchall())
    assert vocabulary["defrosting"] == vocabulary["defrosted"] == vocabulary["defrost"] == "defrost"
    hits = search(conn, "defrosts", owner="alice", mode="keyword", provider=minilm)
    assert sorted(_ext(hits)) == ["exact", "forms"]  # no note has "defrosts" itself
    assert vocabulary["frost"] == "frost"  # another word, not a form of "defrost"
    # the snippet highlights the forms found, not only the word as typed
    forms = next(h for h in hits if h.external_id == "forms")
    assert "<b>defrosted</b>" in forms.snippet
    # lexemes such as "r-404a" or "-19" become one-lexeme queries verbatim (no re-parsing)
    odd = NoteInput("Odd", "O'Brien's R-404A retrofit: covid-19 \\\\ path\\to a:b", "odd")
    import_notes(conn, "alice", [odd], provider=minilm)
    assert conn.execute(
        "SELECT count(*) FROM \"NoteLexeme\" WHERE lexeme IN ('r-404a', '-19')"
    ).fetchone() == (2,)
    hits = search(conn, "covid 404a retrofitted", owner="alice", mode="keyword", provider=minilm)
    assert _ext(hits) == ["odd"]
    # updates and single inserts keep the vocabulary current (statement-level triggers)
    conn.execute(
        "UPDATE \"Note\" SET content = 'Evaporators iced up twice.' WHERE \"externalId\" = 'other'"
    )
    hits = search(conn, "evaporator icing", owner="alice", mode="keyword", provider=minilm)
    assert _ext(hits) == ["other"]


def test_bm25_ranks_by_frequency_length_and_title(
    migrated_conn: psycopg.Connection, minilm
) -> None:
    conn = migrated_conn
    filler = " ".join(f"word{i}" for i in range(40))
    notes = [
        NoteInput("Log", "glycol leak found. " + filler, "once_long"),
        NoteInput("Log", "glycol leak found.", "once_short"),
        NoteInput("Log", "glycol glycol glycol leak found. " + filler, "thrice_long"),
        NoteInput("Glycol", "leak found. " + filler, "title_long"),
        NoteInput("Log", "nothing relevant here", "none"),
    ]
    import_notes(conn, "alice", notes, provider=minilm)
    hits = search(conn, "glycol", owner="alice", mode="keyword", provider=minilm)
    order = _ext(hits)
    assert "none" not in order
    assert len(order) == 4
    # a shorter note outranks a longer one with the same count; more occurrences outrank one
    assert order.index("once_short") < order.index("once_long")
    assert order.index("thrice_long") < order.index("once_long")
    # a title occurrence counts twice (title_weight 2) ...
    assert order.index("title_long") < order.index("once_long")
    # ... and once with title_weight 1, which ties it with the content occurrence (id order)
    flat = search(
        conn,
        "glycol",
        owner="alice",
        mode="keyword",
        provider=minilm,
        settings=SearchSettings(title_weight=1.0),
    )
    scores = {h.external_id: h.score for h in flat}
    ranks = {h.external_id: h.keyword_rank for h in flat}
    assert abs(ranks["title_long"] - ranks["once_long"]) == 1
    assert scores["once_short"] > scores["once_long"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"bm25_k1": -0.1}, "bm25_k1 must be >= 0"),
        ({"bm25_b": 1.5}, "bm25_b must be between 0 and 1"),
        ({"title_weight": float("nan")}, "title_weight must be >= 0"),
    ],
)
def test_search_settings_reject_bad_bm25_parameters(change: dict, message: str) -> None:
    with pytest.raises(NoteStoreError, match=message):
        SearchSettings().with_(**change)
