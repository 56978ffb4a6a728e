-- BM25 statistics stored where the keyword ranking of workbench.notes.search reads them.
--
-- "NoteTerm" holds, per note and English (Snowball) stem, how often the stem's forms occur in the
-- title (weight A of tsv) and in the content (the other weights), next to the note's title and
-- content lengths [words]; its primary key starts with the owner, so one owner's postings of a
-- stem are one index range (an index-only scan: the counts are INCLUDEd). "NoteCollection" holds,
-- per owner, the number of notes and the summed lengths. The document frequency of a stem is the
-- number of the owner's postings of it. Every statistic of a search is therefore the caller's own:
-- one owner's notes never shift another owner's ranking.
--
-- Both tables are derived from tsv (the contract's column, from its trigger) by statement-level
-- triggers in the writing transaction: a bulk COPY merge updates them in one pass. Counts come from
-- the positions of tsv, so they are exact up to 256 occurrences of one word form and within the
-- first 16,383 words of a note (PostgreSQL's tsvector limits).

CREATE TABLE "NoteTerm" (
    "ownerId"       TEXT    NOT NULL,
    "stem"          TEXT    NOT NULL,
    "noteId"        TEXT    NOT NULL,
    "titleCount"    INTEGER NOT NULL,
    "contentCount"  INTEGER NOT NULL,
    "titleLength"   INTEGER NOT NULL,
    "contentLength" INTEGER NOT NULL,
    CONSTRAINT "NoteTerm_pkey" PRIMARY KEY ("ownerId", "stem", "noteId")
        INCLUDE ("titleCount", "contentCount", "titleLength", "contentLength")
);

CREATE TABLE "NoteCollection" (
    "ownerId"       TEXT   PRIMARY KEY,
    "notes"         BIGINT NOT NULL,
    "titleLength"   BIGINT NOT NULL,
    "contentLength" BIGINT NOT NULL
);

-- Term counts of one tsv per stem: title = positions of weight A, content = the others (a lexeme
-- without positions, as in a hand-written or stripped tsvector, counts once in the content).
CREATE FUNCTION "note_term_counts"(tsv tsvector)
    RETURNS TABLE ("stem" TEXT, "titleCount" INTEGER, "contentCount" INTEGER)
    LANGUAGE sql STABLE STRICT PARALLEL SAFE
AS $$
    SELECT "note_lexeme_stem"(u.lexeme), sum(u.a)::integer, sum(u.n - u.a)::integer
      FROM (SELECT lexeme, coalesce(cardinality(weights), 1) AS n,
                   coalesce(cardinality(array_positions(weights, 'A')), 0) AS a
              FROM unnest(tsv)) AS u
     GROUP BY 1
$$;

-- Add (direction 1) or remove (direction -1) the postings and collection counts of some notes, given as
-- parallel arrays of owner, id and tsv. Collection rows are touched in owner order (no deadlock
-- between two statements that change several owners).
CREATE FUNCTION "note_terms_apply"(direction INTEGER, owners TEXT[], ids TEXT[], tsvs tsvector[])
    RETURNS void LANGUAGE sql
AS $$
    WITH notes AS (
        SELECT u.owner, u.id, u.tsv FROM unnest(owners, ids, tsvs) AS u(owner, id, tsv)
    ),
    terms AS MATERIALIZED (
        SELECT n.owner, n.id, t."stem", t."titleCount", t."contentCount"
          FROM notes n CROSS JOIN LATERAL "note_term_counts"(n.tsv) AS t
    ),
    lengths AS MATERIALIZED (
        SELECT id, sum("titleCount")::integer AS tl, sum("contentCount")::integer AS cl
          FROM terms GROUP BY id
    ),
    added AS (
        INSERT INTO "NoteTerm" ("ownerId", "stem", "noteId", "titleCount", "contentCount",
                                "titleLength", "contentLength")
        SELECT t.owner, t."stem", t.id, t."titleCount", t."contentCount", l.tl, l.cl
          FROM terms t JOIN lengths l ON l.id = t.id
         WHERE direction > 0
    ),
    removed AS (
        DELETE FROM "NoteTerm" x
         USING terms t
         WHERE direction < 0 AND x."ownerId" = t.owner AND x."stem" = t."stem" AND x."noteId" = t.id
    )
    INSERT INTO "NoteCollection" AS c ("ownerId", "notes", "titleLength", "contentLength")
    SELECT n.owner, direction * count(*), direction * coalesce(sum(l.tl), 0),
           direction * coalesce(sum(l.cl), 0)
      FROM notes n LEFT JOIN lengths l ON l.id = n.id
     GROUP BY n.owner
     ORDER BY n.owner
        ON CONFLICT ("ownerId") DO UPDATE
       SET "notes" = c."notes" + EXCLUDED."notes",
           "titleLength" = c."titleLength" + EXCLUDED."titleLength",
           "contentLength" = c."contentLength" + EXCLUDED."contentLength"
$$;

CREATE FUNCTION "note_terms_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM "note_terms_apply"(1, array_agg(n."ownerId"), array_agg(n."id"), array_agg(n."tsv"))
       FROM new_notes n;
    RETURN NULL;
END
$$;

-- Only rows whose owner, id or tsv changed (an update of "updatedAt" alone changes nothing).
CREATE FUNCTION "note_terms_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM "note_terms_apply"(-1, array_agg(o."ownerId"), array_agg(o."id"), array_agg(o."tsv"))
       FROM old_notes o
      WHERE NOT EXISTS (SELECT 1 FROM new_notes n
                         WHERE n."id" = o."id" AND n."ownerId" = o."ownerId"
                           AND n."tsv" IS NOT DISTINCT FROM o."tsv");
    PERFORM "note_terms_apply"(1, array_agg(n."ownerId"), array_agg(n."id"), array_agg(n."tsv"))
       FROM new_notes n
      WHERE NOT EXISTS (SELECT 1 FROM old_notes o
                         WHERE o."id" = n."id" AND o."ownerId" = n."ownerId"
                           AND o."tsv" IS NOT DISTINCT FROM n."tsv");
    RETURN NULL;
END
$$;

CREATE FUNCTION "note_terms_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM "note_terms_apply"(-1, array_agg(o."ownerId"), array_agg(o."id"), array_agg(o."tsv"))
       FROM old_notes o;
    RETURN NULL;
END
$$;

CREATE FUNCTION "note_terms_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    TRUNCATE "NoteTerm", "NoteCollection";
    RETURN NULL;
END
$$;

CREATE TRIGGER "note_terms_insert"
    AFTER INSERT ON "Note" REFERENCING NEW TABLE AS new_notes
    FOR EACH STATEMENT EXECUTE FUNCTION "note_terms_insert"();
CREATE TRIGGER "note_terms_update"
    AFTER UPDATE ON "Note" REFERENCING OLD TABLE AS old_notes NEW TABLE AS new_notes
    FOR EACH STATEMENT EXECUTE FUNCTION "note_terms_update"();
CREATE TRIGGER "note_terms_delete"
    AFTER DELETE ON "Note" REFERENCING OLD TABLE AS old_notes
    FOR EACH STATEMENT EXECUTE FUNCTION "note_terms_delete"();
CREATE TRIGGER "note_terms_truncate"
    AFTER TRUNCATE ON "Note"
    FOR EACH STATEMENT EXECUTE FUNCTION "note_terms_truncate"();

-- Backfill from the existing notes (the runner then runs VACUUM ANALYZE on the new tables).
SELECT "note_terms_apply"(1, array_agg("ownerId"), array_agg("id"), array_agg("tsv")) FROM "Note";
