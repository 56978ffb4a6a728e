"""Hybrid search: keyword and semantic rankings fused with Reciprocal Rank Fusion in one SQL statement.

The statement (its SQL is in :mod:`workbench.notes.search_sql`) has two candidate branches and a
fusion step:

* **keyword**: Okapi BM25 over English stems with OR semantics (a long natural-language query
  ANDed word by word would match almost nothing). Each query word is stemmed (Snowball
  ``english_stem``); the postings of each stem (term counts in title and content, the note's
  lengths) are read from ``"NoteTerm"``, one index range per (owner, stem), and the collection
  statistics N and avgdl from ``"NoteCollection"``. Triggers keep both tables current from
  ``tsv`` (migration ``20260601090000``). Every statistic is the caller's own: one owner's notes
  never change another owner's ranking. Title occurrences count ``title_weight`` times, in the
  term frequency and in the length. Common English function words are dropped from the query.
* **semantic**: cosine distance ``<=>`` between the stored vectors and the query's, through the
  HNSW index, restricted to rows of the configured embedding model (and the caller's notes).
  ``hnsw.ef_search`` is raised to at least the branch's candidate count (the index returns at most
  ef_search rows) and ``hnsw.iterative_scan`` lets the index scan continue past rows the owner and
  model filters reject.
* **fusion**: ``score = w_k / (k + keyword_rank) + w_s / (k + semantic_rank)`` (a missing rank
  adds nothing), ties broken by note id, so the order is deterministic.

Titles and snippets of the hits are HTML-escaped; the only markup left is the ``<b>`` ... ``</b>``
around matched words of the snippet, so they can be shown as HTML as they are.

Similarity is never computed in Python: Python only splits the query into words and embeds it.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field, replace

import numpy as np
import psycopg

from workbench.errors import NoteStoreError
from workbench.notes.embeddings import EmbeddingProvider, provider_from_env, to_vector_literal
from workbench.notes.search_sql import (
    HEADLINE_OPTIONS,
    HIGHLIGHT_START,
    HIGHLIGHT_STOP,
    SNIPPET_SCAN_CHARS,
    SearchMode,
    build_search_sql,
)
from workbench.notes.text import text_problem

__all__ = [
    "MAX_LIMIT",
    "MAX_QUERY_CHARS",
    "SearchHit",
    "SearchMode",
    "SearchSettings",
    "build_search_sql",
    "escape_hit_text",
    "keyword_terms",
    "search",
]

MAX_QUERY_CHARS = 1000
MAX_LIMIT = 1000
_MAX_TERMS = 64
_DECIMAL = r"[-+]?\d+(?:\.\d+)+"
_FIGURE = re.compile(_DECIMAL)
"""A query word that is a figure: a number with decimals (``2.91``, ``-7.5``, ``3.53``)."""
_WORD = re.compile(_DECIMAL + r"|(?<![^\W_])[-+]\d+|[-+]\d+(?![^\W_])|[^\W_]+")
"""A query word: a decimal number with its sign (``2.91``, ``-7.5``), a signed integer (``-7``,
``IL-6``'s ``-6``), or a run of letters and digits. Numbers are cut as PostgreSQL's parser cuts
them for ``tsv`` (``to_tsvector('simple', 'COP 2.91 at -7 C')`` holds ``2.91`` and ``-7``), so a
figure in a query finds the notes that state it."""

# English function words, dropped from queries only (the index keeps every word).
STOP_WORDS = frozenset(
    """a about above after again against all am an and any are as at be because been before being
    below between both but by can could did do does doing down during each few for from further had
    has have having he her here hers herself him himself his how i if in into is it its itself just
    me more most my myself no nor not now of off on once only or other our ours ourselves out over
    own same she should so some such than that the their theirs them themselves then there these
    they this those through to too under until up very was we were what when where which while who
    whom why will with would you your yours yourself yourselves""".split()  # noqa: SIM905
)


@dataclass(frozen=True)
class SearchHit:
    """One search result.

    Attributes
    ----------
    id, external_id : str
        The note.
    title : str or None
        The note's title, HTML-escaped.
    snippet : str
        A passage of the first 3,000 characters of the content
        (:data:`~workbench.notes.search_sql.SNIPPET_SCAN_CHARS`), HTML-escaped, with the matched
        words in ``<b>`` tags (the only markup; keyword and hybrid modes), or the start of the
        content (semantic mode, or no matched word in that part).
    score : float
        RRF score (keyword or semantic mode: the same formula with one branch) [-].
    keyword_rank, semantic_rank : int or None
        1-based rank in each branch, None when the note was not among its candidates.
    keyword_score : float or None
        BM25 score of the note for the query (match strength of the keyword branch) [-], None
        when the note was not among the keyword candidates.
    semantic_similarity : float or None
        Cosine similarity between the note's and the query's embeddings, ``1 - (a <=> b)``
        [-], None when the note was not among the semantic candidates.
    """

    id: str
    external_id: str | None
    title: str | None
    snippet: str
    score: float
    keyword_rank: int | None
    semantic_rank: int | None
    keyword_score: float | None = None
    semantic_similarity: float | None = None


@dataclass(frozen=True)
class SearchSettings:
    """Tuning of the search.

    The fusion defaults (``rrf_k`` 10, ``keyword_weight`` 1.25, 50 candidates per branch) are the
    choice of a grid search on the SciFact dev split only (``benchmarks/bench_notes_scifact.py``:
    RRF k in 10, 20, 30, 60; keyword weight 1, 1.25, 1.5; 50, 100, 200 candidates; among the
    settings within 0.002 dev nDCG@10 of the best, the fewest candidates, then the smallest k).
    The holdout split was only measured. Candidates are raised to ``limit`` when that is larger,
    never lowered with a small ``limit``.

    Attributes
    ----------
    rrf_k : float
        RRF constant k [-].
    keyword_candidates, semantic_candidates : int
        Rows each branch hands to the fusion.
    keyword_weight, semantic_weight : float
        Branch weights in the fused score [-].
    bm25_k1, bm25_b : float
        BM25 term-frequency saturation and length normalisation [-].
    title_weight : float
        How many times an occurrence in the title counts [-].
    prefer_index_scans : bool
        ``SET LOCAL enable_seqscan = off`` for the statement: every access in it is by index
        (the postings of a stem are one range of ``"NoteTerm"``'s primary key), and the planner
        must not trade that for a scan of the whole table on a guess.
    figure_bonus : bool
        Hybrid mode treats a query's figures as exact values. A figure is a number written with
        decimals (``2.91``, ``3.53``, ``-7.5``); the embedding model cannot tell it from its
        neighbours (runs of one fluid read alike to it), so RRF alone lets a run that reads
        closer outrank the one with the figure asked for. With the bonus, a note holding ``n``
        of the query's figures (and among the keyword candidates) scores ``n * B + (keyword_weight
        + semantic_weight) / (rrf_k + keyword_rank)``, ``B = (keyword_weight + semantic_weight) /
        (rrf_k + 1)`` the largest fused score: notes with more of the figures come first, ordered
        among themselves by BM25 (which weighs how rare the figures and the other words are); the
        rest keep their RRF score, below. Scores stay in rank order. Whole numbers are not
        figures: a condition like ``-7`` (degrees) is shared by many notes, and identifiers such
        as ``IL-6`` hold one; counting signed whole numbers cost 0.011 nDCG@10 on the SciFact
        holdout (0.694 -> 0.683), decimals alone change nothing there (no query holds one).
    ef_search_min : int
        Lower bound of ``hnsw.ef_search`` (raised to ``semantic_candidates`` when smaller). The
        search breadth sets the recall of the HNSW branch: at 100,000 notes, recall@10 against
        exact search was 0.94 with 50 and 0.995 with 100.
    statement_timeout_ms : int
        ``SET LOCAL statement_timeout`` of the search [ms]; PostgreSQL cancels a longer one
        (``psycopg.errors.QueryCanceled``). 0: no limit.
    """

    rrf_k: float = 10.0
    keyword_candidates: int = 50
    semantic_candidates: int = 50
    keyword_weight: float = 1.25
    semantic_weight: float = 1.0
    bm25_k1: float = 1.2
    bm25_b: float = 0.75
    title_weight: float = 2.0
    ef_search_min: int = 100
    figure_bonus: bool = True
    prefer_index_scans: bool = True
    statement_timeout_ms: int = 0
    stop_words: frozenset[str] = field(default=STOP_WORDS, repr=False)

    def __post_init__(self) -> None:
        """Check the BM25 parameters and the title weight.

        Raises
        ------
        NoteStoreError
            ``bm25_k1`` or ``title_weight`` negative, or ``bm25_b`` outside [0, 1].
        """
        if not self.bm25_k1 >= 0:
            raise NoteStoreError(f"bm25_k1 must be >= 0, got {self.bm25_k1}")
        if not 0 <= self.bm25_b <= 1:
            raise NoteStoreError(f"bm25_b must be between 0 and 1, got {self.bm25_b}")
        if not self.title_weight >= 0:
            raise NoteStoreError(f"title_weight must be >= 0, got {self.title_weight}")

    def with_(self, **changes: object) -> SearchSettings:
        """A copy with some fields changed."""
        return replace(self, **changes)


def keyword_terms(query: str, stop_words: frozenset[str] = STOP_WORDS) -> list[str]:
    """The distinct lower-case words of a query, function words dropped (unless nothing is left).

    Numbers keep their sign and decimals as in the notes' ``tsv`` (see ``_WORD``): ``"COP 2.91
    at -7 C"`` gives ``["cop", "2.91", "-7", "c"]``.
    """
    words = list(dict.fromkeys(w.lower() for w in _WORD.findall(query)))
    kept = [w for w in words if w not in stop_words]
    return (kept or words)[:_MAX_TERMS]


def escape_hit_text(text: str | None, *, highlight: bool = False) -> str | None:
    """HTML-escape a title or snippet; with ``highlight`` the markers become ``<b>`` / ``</b>``."""
    if text is None:
        return None
    escaped = html.escape(text, quote=True)
    if highlight:
        escaped = escaped.replace(HIGHLIGHT_START, "<b>").replace(HIGHLIGHT_STOP, "</b>")
    return escaped


def search(
    conn: psycopg.Connection,
    query: str,
    *,
    owner: str | None,
    limit: int = 10,
    mode: SearchMode = "hybrid",
    provider: EmbeddingProvider | None = None,
    settings: SearchSettings | None = None,
    query_vector: np.ndarray | None = None,
) -> list[SearchHit]:
    """Search notes, best first.

    Parameters
    ----------
    conn : psycopg.Connection
        Autocommit connection (the search runs in its own short transaction).
    query : str
        Natural-language query, 1 to 1000 characters.
    owner : str or None
        Only this owner's notes; None searches every note (administrator).
    limit : int
        Number of hits, 1 to 1000.
    mode : {"hybrid", "keyword", "semantic"}
        Fused ranking, or one branch alone.
    provider : EmbeddingProvider, optional
        Embeds the query (semantic and hybrid); only rows of its ``model_id`` are compared.
    settings : SearchSettings, optional
        RRF constant, candidate counts, weights.
    query_vector : numpy.ndarray, optional
        The query's embedding by ``provider``, when the caller made it already (the service
        embeds before it takes a connection) [-].

    Raises
    ------
    NoteStoreError
        Empty or too long query, bad limit or mode.
    """
    settings = settings or SearchSettings()
    if not isinstance(query, str) or not query.strip():
        raise NoteStoreError("the search query is empty")
    problem = text_problem(query, "the search query")
    if problem:
        raise NoteStoreError(problem)
    if len(query) > MAX_QUERY_CHARS:
        raise NoteStoreError(
            f"the search query has {len(query)} characters; at most {MAX_QUERY_CHARS} are allowed"
        )
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LIMIT:
        raise NoteStoreError(f"limit must be between 1 and {MAX_LIMIT}, got {limit!r}")
    if mode not in ("hybrid", "keyword", "semantic"):
        raise NoteStoreError(f"unknown search mode {mode!r}; use hybrid, keyword or semantic")
    text = query.strip()
    terms = keyword_terms(text, settings.stop_words)
    if mode == "keyword" and not terms:
        return []
    params: dict[str, object] = {
        "owner": owner,
        "terms": terms,
        "k1": float(settings.bm25_k1),
        "b": float(settings.bm25_b),
        "title_w": float(settings.title_weight),
        "kw_n": max(settings.keyword_candidates, limit),
        "sem_n": max(settings.semantic_candidates, limit),
        "k": float(settings.rrf_k),
        "wk": float(settings.keyword_weight),
        "ws": float(settings.semantic_weight),
        "figures": [w for w in terms if settings.figure_bonus and _FIGURE.fullmatch(w)],
        "hl_chars": HIGHLIGHT_START + HIGHLIGHT_STOP,
        "hl_opts": HEADLINE_OPTIONS,
        "hl_scan": SNIPPET_SCAN_CHARS,
        "limit": limit,
    }
    if mode != "keyword":
        provider = provider or provider_from_env()
        if query_vector is None:
            query_vector = provider.embed_one(text)
        params["qvec"] = to_vector_literal(query_vector, source="search query")
        params["model"] = provider.model_id
    statement = build_search_sql(mode, owner_filter=owner is not None, keyword=bool(terms))
    ef_search = max(settings.ef_search_min, int(params["sem_n"]))
    with conn.transaction():
        # SET LOCAL through set_config(..., true): the values end with this transaction
        conn.execute(
            "SELECT set_config('hnsw.ef_search', %s, true),"
            " set_config('hnsw.iterative_scan', 'relaxed_order', true),"
            " set_config('enable_seqscan', %s, true),"
            " set_config('statement_timeout',"
            " coalesce(%s, current_setting('statement_timeout')), true)",
            (
                str(ef_search),
                "off" if settings.prefer_index_scans else "on",
                str(int(settings.statement_timeout_ms)) if settings.statement_timeout_ms else None,
            ),
        )
        rows = conn.execute(statement, params).fetchall()
    highlighted = bool(terms) and mode != "semantic"
    return [
        SearchHit(
            id=row[0],
            external_id=row[1],
            title=escape_hit_text(row[2]),
            snippet=escape_hit_text(row[3], highlight=highlighted) or "",
            score=row[4],
            keyword_rank=row[5],
            semantic_rank=row[6],
            keyword_score=row[7],
            semantic_similarity=row[8],
        )
        for row in rows
    ]
