"""Hybrid search: keyword and semantic rankings fused with Reciprocal Rank Fusion in one SQL statement.

The statement has two candidate branches and a fusion step:

* **keyword**: Okapi BM25 over English stems, on the GIN-indexed ``tsv`` (``simple``
  configuration, title weight A, content weight B) with OR semantics (a long natural-language
  query ANDed word by word would match almost nothing). Each query word is stemmed (Snowball
  ``english_stem``) and expanded to every lexeme of the notes with the same stem, read from the
  ``"NoteLexeme"`` vocabulary that triggers keep current; so "vaccines" finds "vaccination"
  although ``tsv`` keeps words as written. The branch works term at a time: each form's notes
  come from the index, and ``ts_rank`` of that one lexeme (unit weights, no normalisation) is
  inverted to its count in the note (title occurrences count ``title_weight`` times). The
  forms of a stem add up to its term frequency; document frequencies count the caller's notes
  only (one owner's notes never change another owner's ranking), N is ``pg_class.reltuples``
  and the length is ``length(tsv)`` against its mean over the matched notes. Common English
  function words are dropped from the query (the index keeps them).
* **semantic**: cosine distance ``<=>`` between the stored vectors and the query's, through the
  HNSW index, restricted to rows of the configured embedding model (and the caller's notes).
  ``hnsw.ef_search`` is raised to at least the branch's candidate count (the index returns at most
  ef_search rows) and ``hnsw.iterative_scan`` lets the index scan continue past rows the owner and
  model filters reject.
* **fusion**: ``score = w_k / (k + keyword_rank) + w_s / (k + semantic_rank)`` (a missing rank
  adds nothing), ties broken by note id, so the order is deterministic.

Similarity is never computed in Python: Python only embeds the query text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Literal

import psycopg

from workbench.errors import NoteStoreError
from workbench.notes.embeddings import EmbeddingProvider, get_provider, to_vector_literal

__all__ = [
    "SearchMode",
    "SearchHit",
    "SearchSettings",
    "MAX_QUERY_CHARS",
    "MAX_LIMIT",
    "TS_RANK_C",
    "search",
    "keyword_terms",
    "tsquery_text",
    "build_search_sql",
]

SearchMode = Literal["hybrid", "keyword", "semantic"]
MAX_QUERY_CHARS = 1000
MAX_LIMIT = 1000
_MAX_TERMS = 64
_WORD = re.compile(r"[^\W_]+")

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
    id, external_id, title : str
        The note.
    snippet : str
        A passage of the content, with the matched words in ``<b>`` tags (keyword and hybrid
        modes) or the start of the content (semantic mode).
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
    """Tuning of the search (defaults chosen on the SciFact dev split, see docs/notes.md).

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
        ``SET LOCAL enable_seqscan = off`` for the statement. When a query word is frequent the
        planner may pick a sequential scan that detoasts and tests every ``tsv``; the GIN bitmap
        scan touches only the matching rows (on SciFact 21 ms against 33 ms per query). Every
        other access in the statement is by index anyway.
    ef_search_min : int
        Lower bound of ``hnsw.ef_search`` (raised to ``semantic_candidates`` when smaller). The
        search breadth sets the recall of the HNSW branch: at 100,000 notes, recall@10 against
        exact search was 0.94 with 50 and 0.995 with 100.
    """

    rrf_k: float = 60.0
    keyword_candidates: int = 50
    semantic_candidates: int = 50
    keyword_weight: float = 1.0
    semantic_weight: float = 1.0
    bm25_k1: float = 1.2
    bm25_b: float = 0.75
    title_weight: float = 2.0
    ef_search_min: int = 100
    prefer_index_scans: bool = True
    stop_words: frozenset[str] = field(default=STOP_WORDS, repr=False)

    def __post_init__(self) -> None:
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
    """The distinct lower-case words of a query, function words dropped (unless nothing is left)."""
    words = list(dict.fromkeys(w.lower() for w in _WORD.findall(query)))
    kept = [w for w in words if w not in stop_words]
    return (kept or words)[:_MAX_TERMS]


def tsquery_text(terms: list[str]) -> str:
    """``to_tsquery`` input matching any of the terms (OR); each term is a quoted lexeme."""
    return " | ".join(f"'{t}'" for t in terms)


# sum over i >= 1 of 1/i^2 = pi^2/6, as ts_rank writes it (src/backend/utils/adt/tsrank.c)
TS_RANK_C = 1.64493406685

_KEYWORD_CTE = """
stems AS MATERIALIZED (
    SELECT row_number() OVER (ORDER BY stem) AS s, stem
      FROM (SELECT DISTINCT "note_lexeme_stem"(w) AS stem
              FROM unnest(%(terms)s::text[]) AS w) AS d
),
forms AS MATERIALIZED (
    -- every form of the query's words that the notes contain (same English stem), each as a
    -- one-lexeme tsquery written verbatim in the tsquery input syntax (no re-parsing)
    SELECT st.s,
           ('''' || replace(replace(l."lexeme", '\\', '\\\\'), '''', '''''') || '''')::tsquery AS q
      FROM stems st JOIN "NoteLexeme" l ON l."stem" = st.stem
),
headline_query AS (
    -- the snippet highlights every form found, or else the query's words
    SELECT coalesce(tsquery_or_agg, to_tsquery('simple', %(tsq)s)) AS q
      FROM (SELECT string_agg(q::text, ' | ')::tsquery AS tsquery_or_agg FROM forms) AS a
),
tf AS MATERIALIZED (
    -- term at a time through the GIN index. ts_rank of one lexeme with unit weights and no
    -- normalisation is (sum over i = 1..tf of 1/i^2) / C: inverted, it gives the lexeme's count
    -- in the note (all of it, then the title alone: weight A). Forms of one stem add up.
    SELECT f.s, n.ctid AS tid, max(length(n.tsv))::float8 AS dl,
           sum(round(1 / (%(c)s * (1 - ts_rank('{{1,1,1,1}}', n.tsv, f.q, 0))) - 0.5)
               + (%(title_w)s - 1)
                 * round(1 / (%(c)s * (1 - ts_rank('{{0,0,0,1}}', n.tsv, f.q, 0))) - 0.5)) AS tf
      FROM forms f JOIN "Note" n ON n.tsv @@ f.q{owner_n}
     GROUP BY f.s, n.ctid
),
collection AS (
    -- N: all notes (pg_class.reltuples); mean length of the matched notes
    SELECT (SELECT CASE WHEN reltuples >= 1 THEN reltuples  -- -1: never analysed
                        ELSE greatest((SELECT count(*) FROM "Note"), 1) END
              FROM pg_class WHERE oid = '"Note"'::regclass)::float8 AS n,
           (SELECT avg(dl) FROM tf) AS avgdl
),
weights AS (
    -- BM25's idf from the document frequency of each stem among the caller's notes
    SELECT t.s, ln(1 + (greatest(c.n, count(*)) - count(*) + 0.5) / (count(*) + 0.5)) AS idf
      FROM tf t, collection c
     GROUP BY t.s, c.n
),
scored AS (
    SELECT t.tid,
           sum(w.idf * t.tf * (%(k1)s + 1)
               / (t.tf + %(k1)s * (1 - %(b)s + %(b)s * t.dl / c.avgdl))) AS r
      FROM tf t JOIN weights w ON w.s = t.s, collection c
     GROUP BY t.tid
),
kw AS MATERIALIZED (
    -- the best rows by score (with ties, so that the id order below decides among them)
    -- before the join back to the note ids
    SELECT n.id, s.r
      FROM (SELECT tid, r FROM scored ORDER BY r DESC
            FETCH FIRST (%(kw_n)s) ROWS WITH TIES) AS s
      JOIN "Note" n ON n.ctid = s.tid
     ORDER BY s.r DESC, n.id
     LIMIT %(kw_n)s
),
keyword AS (SELECT id, r, row_number() OVER (ORDER BY r DESC, id) AS rank FROM kw)"""

_SEMANTIC_CTE = """
sem AS MATERIALIZED (
    SELECT e."noteId" AS id, e.embedding <=> %(qvec)s::vector AS d
      FROM "NoteEmbedding" e{owner_join}
     WHERE e.model = %(model)s
     ORDER BY e.embedding <=> %(qvec)s::vector
     LIMIT %(sem_n)s
),
semantic AS (SELECT id, d, row_number() OVER (ORDER BY d, id) AS rank FROM sem)"""

_FUSE = {
    "hybrid": """
fused AS (
    SELECT coalesce(k.id, s.id) AS id, k.rank AS keyword_rank, s.rank AS semantic_rank,
           k.r AS keyword_score, 1 - s.d AS semantic_similarity,
           coalesce(%(wk)s / (%(k)s + k.rank), 0) + coalesce(%(ws)s / (%(k)s + s.rank), 0) AS score
      FROM keyword k FULL OUTER JOIN semantic s ON s.id = k.id
)""",
    "keyword": """
fused AS (
    SELECT id, rank AS keyword_rank, NULL::bigint AS semantic_rank,
           r AS keyword_score, NULL::float8 AS semantic_similarity, %(wk)s / (%(k)s + rank) AS score
      FROM keyword
)""",
    "semantic": """
fused AS (
    SELECT id, NULL::bigint AS keyword_rank, rank AS semantic_rank,
           NULL::float8 AS keyword_score, 1 - d AS semantic_similarity, %(ws)s / (%(k)s + rank) AS score
      FROM semantic
)""",
}

_SELECT = """
SELECT f.id, n."externalId", n.title, {snippet} AS snippet,
       f.score::float8, f.keyword_rank::int, f.semantic_rank::int,
       f.keyword_score::float8, f.semantic_similarity::float8
  FROM (SELECT * FROM fused ORDER BY score DESC, id LIMIT %(limit)s) f
  JOIN "Note" n ON n.id = f.id
 ORDER BY f.score DESC, f.id"""

_HEADLINE = (
    "ts_headline('simple', coalesce(n.content, ''), (SELECT q FROM headline_query),"
    " 'MaxWords=30, MinWords=12, MaxFragments=2, FragmentDelimiter=\" ... \"')"
)
_LEAD = "left(coalesce(n.content, ''), 200)"


def build_search_sql(mode: SearchMode, *, owner_filter: bool, keyword: bool = True) -> str:
    """The search statement for a mode (``keyword=False``: the query has no usable words)."""
    owner_n = ' AND n."ownerId" = %(owner)s' if owner_filter else ""
    owner_join = (
        ' JOIN "Note" n ON n.id = e."noteId" AND n."ownerId" = %(owner)s' if owner_filter else ""
    )
    parts = []
    if mode in ("hybrid", "keyword") and keyword:
        parts.append(_KEYWORD_CTE.format(owner_n=owner_n))
    if mode in ("hybrid", "semantic"):
        parts.append(_SEMANTIC_CTE.format(owner_join=owner_join))
    fuse_mode = mode if keyword or mode == "semantic" else "semantic"
    parts.append(_FUSE[fuse_mode])
    snippet = _HEADLINE if keyword and mode != "semantic" else _LEAD
    return "WITH" + ",".join(parts) + _SELECT.format(snippet=snippet)


def search(
    conn: psycopg.Connection,
    query: str,
    *,
    owner: str | None,
    limit: int = 10,
    mode: SearchMode = "hybrid",
    provider: EmbeddingProvider | None = None,
    settings: SearchSettings | None = None,
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

    Raises
    ------
    NoteStoreError
        Empty or too long query, bad limit or mode.
    """
    settings = settings or SearchSettings()
    text = query.strip() if isinstance(query, str) else ""
    if not text:
        raise NoteStoreError("the search query is empty")
    if len(query) > MAX_QUERY_CHARS:
        raise NoteStoreError(
            f"the search query has {len(query)} characters; at most {MAX_QUERY_CHARS} are allowed"
        )
    if not 1 <= limit <= MAX_LIMIT:
        raise NoteStoreError(f"limit must be between 1 and {MAX_LIMIT}, got {limit}")
    if mode not in _FUSE:
        raise NoteStoreError(f"unknown search mode {mode!r}; use hybrid, keyword or semantic")
    terms = keyword_terms(text, settings.stop_words)
    if mode == "keyword" and not terms:
        return []
    params: dict[str, object] = {
        "owner": owner,
        "tsq": tsquery_text(terms),
        "terms": terms,
        "c": TS_RANK_C,
        "k1": float(settings.bm25_k1),
        "b": float(settings.bm25_b),
        "title_w": float(settings.title_weight),
        "kw_n": max(settings.keyword_candidates, limit),
        "sem_n": max(settings.semantic_candidates, limit),
        "k": float(settings.rrf_k),
        "wk": float(settings.keyword_weight),
        "ws": float(settings.semantic_weight),
        "limit": limit,
    }
    if mode != "keyword":
        provider = provider or get_provider()
        params["qvec"] = to_vector_literal(provider.embed_one(text), source="search query")
        params["model"] = provider.model_id
    sql = build_search_sql(mode, owner_filter=owner is not None, keyword=bool(terms))
    ef_search = max(settings.ef_search_min, int(params["sem_n"]))
    with conn.transaction():
        # SET LOCAL through set_config(..., true): the values end with this transaction
        conn.execute(
            "SELECT set_config('hnsw.ef_search', %s, true),"
            " set_config('hnsw.iterative_scan', 'relaxed_order', true),"
            " set_config('enable_seqscan', %s, true)",
            (str(ef_search), "off" if settings.prefer_index_scans else "on"),
        )
        rows = conn.execute(sql, params).fetchall()
    return [SearchHit(*row) for row in rows]
