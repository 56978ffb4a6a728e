"""The SQL of the hybrid search, in one place: the branches, the fusion and the final select.

Statements are composed with :mod:`psycopg.sql`: the pieces below are :class:`~psycopg.sql.SQL`
templates whose ``{name}`` slots take other pieces (never values), and whose values are named
``%(name)s`` parameters bound by psycopg at execution. No value is ever formatted into the text.

Parameters of the statement:

=================  ===========================================================================
``owner``          the caller (absent for the administrator's view over every owner)
``terms``          the query's distinct words (``text[]``)
``title_w``        how many times an occurrence in the title counts [-]
``k1``, ``b``      BM25 parameters [-]
``kw_n``           keyword candidates
``qvec``           the query vector, a pgvector literal (``'[0.1,...]'``) cast with ``::vector``
``model``          embedding model id; only its rows are compared
``sem_n``          semantic candidates
``k``, ``wk``,     RRF constant and branch weights [-]
``ws``
``figures``        the query's figures (numbers with decimals, ``text[]``; empty: plain RRF)
``hl_opts``        ``ts_headline`` options (highlight markers)
``hl_scan``        characters of the content the snippet is taken from (:data:`SNIPPET_SCAN_CHARS`)
``limit``          hits returned
=================  ===========================================================================
"""

from __future__ import annotations

from typing import Literal

from psycopg import sql

__all__ = [
    "HEADLINE_OPTIONS",
    "HIGHLIGHT_START",
    "HIGHLIGHT_STOP",
    "SNIPPET_SCAN_CHARS",
    "SearchMode",
    "build_search_sql",
]

SearchMode = Literal["hybrid", "keyword", "semantic"]

HIGHLIGHT_START = "\ue000"
HIGHLIGHT_STOP = "\ue001"
"""Markers ``ts_headline`` puts around matched words (two private-use characters, removed from
the content before highlighting), replaced by ``<b>`` and ``</b>`` after the snippet is
HTML-escaped."""
HEADLINE_OPTIONS = (
    f"StartSel={HIGHLIGHT_START}, StopSel={HIGHLIGHT_STOP}, MaxWords=30, MinWords=12, "
    'MaxFragments=2, FragmentDelimiter=" ... "'
)

SNIPPET_SCAN_CHARS = 3000
"""The snippet is taken from the first 3,000 characters of a note's content (about 450 words).
``ts_headline`` parses all the text it is given, about 0.4 us per character: over the whole of a
199,000-character note that is 80 ms per hit, 8 s for 100 hits; over this prefix at most 1.5 ms
per hit. A note whose matched words all lie further in gets the start of the prefix as its
snippet. PostgreSQL reads only the first chunks of a long (TOASTed) text for ``left``."""

# -- keyword branch: BM25 from the stored statistics ------------------------------------------

_OWNER_ROWS = {
    True: sql.SQL('WHERE "ownerId" = %(owner)s'),
    False: sql.SQL(""),
}

_KEYWORD = sql.SQL("""
stems AS MATERIALIZED (
    -- the query's words by English (Snowball) stem, as the notes' postings are keyed
    SELECT DISTINCT "note_lexeme_stem"(w) AS stem FROM unnest(%(terms)s::text[]) AS w
),
owners AS MATERIALIZED (
    -- the collection statistics: the caller's own (every owner's for the administrator)
    SELECT "ownerId" AS owner, "notes", "titleLength", "contentLength"
      FROM "NoteCollection" {owner_rows}
),
collection AS (
    SELECT greatest(sum("notes"), 1)::float8 AS n,
           greatest((%(title_w)s * sum("titleLength") + sum("contentLength"))
                    / greatest(sum("notes"), 1), 1)::float8 AS avgdl
      FROM owners
),
postings AS MATERIALIZED (
    -- one index range of "NoteTerm" per (owner, stem): term frequency and length of each note
    SELECT s.stem, t."noteId" AS id,
           (%(title_w)s * t."titleCount" + t."contentCount")::float8 AS tf,
           (%(title_w)s * t."titleLength" + t."contentLength")::float8 AS dl
      FROM owners o CROSS JOIN stems s
      JOIN "NoteTerm" t ON t."ownerId" = o.owner AND t."stem" = s.stem
),
weights AS (
    -- idf = ln(1 + (N - df + 0.5) / (df + 0.5)), df = the notes holding the stem
    SELECT p.stem, ln(1 + (greatest(c.n, count(*)) - count(*) + 0.5) / (count(*) + 0.5)) AS idf
      FROM postings p, collection c
     GROUP BY p.stem, c.n
),
scored AS (
    SELECT p.id,
           sum(w.idf * p.tf * (%(k1)s + 1)
               / (p.tf + %(k1)s * (1 - %(b)s + %(b)s * p.dl / c.avgdl))) AS r
      FROM postings p JOIN weights w ON w.stem = p.stem, collection c
     GROUP BY p.id
),
kw AS MATERIALIZED (
    SELECT id, r FROM scored ORDER BY r DESC, id LIMIT %(kw_n)s
),
figure_hits AS (
    -- how many of the query's figures each note holds (from the same postings)
    SELECT p.id, count(*) AS n
      FROM postings p
     WHERE p.stem IN (SELECT "note_lexeme_stem"(w) FROM unnest(%(figures)s::text[]) AS w)
     GROUP BY p.id
),
keyword AS (SELECT id, r, row_number() OVER (ORDER BY r DESC, id) AS rank FROM kw),
headline_query AS (
    -- every form of the query's stems that the notes contain, ORed, for ts_headline
    -- (NULL when there is none: the snippet is then the start of the content)
    SELECT string_agg('(' || q::text || ')', ' | ')::tsquery AS q
      FROM (SELECT plainto_tsquery('simple', l."lexeme") AS q
              FROM stems s JOIN "NoteLexeme" l ON l."stem" = s.stem) AS f
     WHERE numnode(q) > 0
)""")

# -- semantic branch: cosine distance through the HNSW index -----------------------------------

_OWNER_JOIN = {
    True: sql.SQL(' JOIN "Note" n ON n.id = e."noteId" AND n."ownerId" = %(owner)s'),
    False: sql.SQL(""),
}

_SEMANTIC = sql.SQL("""
sem AS MATERIALIZED (
    SELECT e."noteId" AS id, e.embedding <=> %(qvec)s::vector AS d
      FROM "NoteEmbedding" e{owner_join}
     WHERE e.model = %(model)s
     ORDER BY e.embedding <=> %(qvec)s::vector
     LIMIT %(sem_n)s
),
semantic AS (SELECT id, d, row_number() OVER (ORDER BY d, id) AS rank FROM sem)""")

# -- fusion: Reciprocal Rank Fusion -------------------------------------------------------------

_FUSE = {
    "hybrid": sql.SQL("""
rrf AS (
    SELECT coalesce(k.id, s.id) AS id, k.rank AS keyword_rank, s.rank AS semantic_rank,
           k.r AS keyword_score, 1 - s.d AS semantic_similarity,
           coalesce(%(wk)s / (%(k)s + k.rank), 0) + coalesce(%(ws)s / (%(k)s + s.rank), 0) AS rrf
      FROM keyword k FULL OUTER JOIN semantic s ON s.id = k.id
),
fused AS (
    -- RRF; a note holding n of the query's figures (exact values, see
    -- SearchSettings.figure_bonus) scores (wk + ws) * (n / (k + 1) + 1 / (k + keyword rank))
    SELECT r.*,
           CASE WHEN f.n > 0 AND r.keyword_rank IS NOT NULL
                THEN (%(wk)s + %(ws)s) * (f.n / (%(k)s + 1) + 1 / (%(k)s + r.keyword_rank))
                ELSE r.rrf END AS score
      FROM rrf r LEFT JOIN figure_hits f ON f.id = r.id
)"""),
    "keyword": sql.SQL("""
fused AS (
    SELECT id, rank AS keyword_rank, NULL::bigint AS semantic_rank, r AS keyword_score,
           NULL::float8 AS semantic_similarity, %(wk)s / (%(k)s + rank) AS score
      FROM keyword
)"""),
    "semantic": sql.SQL("""
fused AS (
    SELECT id, NULL::bigint AS keyword_rank, rank AS semantic_rank, NULL::float8 AS keyword_score,
           1 - d AS semantic_similarity, %(ws)s / (%(k)s + rank) AS score
      FROM semantic
)"""),
}

# -- the hits: note fields and the snippet -------------------------------------------------------

_LEAD = sql.SQL("left(coalesce(n.content, ''), 200)")
_SNIPPET = {
    # the markers are removed from the content first, so the only ones left are ts_headline's
    True: sql.SQL(
        "coalesce(ts_headline('simple',"
        " translate(left(coalesce(n.content, ''), %(hl_scan)s), %(hl_chars)s, ''),"
        " (SELECT q FROM headline_query), %(hl_opts)s), {lead})"
    ).format(lead=_LEAD),
    False: _LEAD,
}

_SELECT = sql.SQL("""
SELECT f.id, n."externalId", n.title, {snippet} AS snippet,
       f.score::float8, f.keyword_rank::int, f.semantic_rank::int,
       f.keyword_score::float8, f.semantic_similarity::float8
  FROM (SELECT * FROM fused ORDER BY score DESC, id LIMIT %(limit)s) f
  JOIN "Note" n ON n.id = f.id
 ORDER BY f.score DESC, f.id""")


def build_search_sql(mode: SearchMode, *, owner_filter: bool, keyword: bool = True) -> sql.Composed:
    """The search statement of a mode.

    Parameters
    ----------
    mode : {"hybrid", "keyword", "semantic"}
        Both branches fused, or one alone.
    owner_filter : bool
        Restrict to ``%(owner)s`` (False: every owner, the administrator's view).
    keyword : bool
        False when the query has no usable words: the keyword branch is left out.
    """
    parts = []
    with_keyword = keyword and mode in ("hybrid", "keyword")
    if with_keyword:
        parts.append(_KEYWORD.format(owner_rows=_OWNER_ROWS[owner_filter]))
    if mode in ("hybrid", "semantic"):
        parts.append(_SEMANTIC.format(owner_join=_OWNER_JOIN[owner_filter]))
    fuse_mode = mode if keyword or mode == "semantic" else "semantic"
    parts.append(_FUSE[fuse_mode])
    return sql.Composed(
        [
            sql.SQL("WITH"),
            sql.SQL(",").join(parts),
            _SELECT.format(snippet=_SNIPPET[with_keyword]),
        ]
    )
