-- What the BM25 keyword ranking of workbench.notes.search needs beyond the contract's tsv.
--
-- 1. tsv kept in the row (storage MAIN: compressed or moved out of line only when the row would
--    not fit a page). The ranking reads tsv of every matching note; out of line, each read costs a
--    TOAST index lookup (on SciFact abstracts 30 ms against 5 ms per query). Existing values are
--    rewritten so that they move back into the row: touching title fires the contract's
--    note_tsv_update trigger, which recomputes tsv (its one definition).
ALTER TABLE "Note" ALTER COLUMN "tsv" SET STORAGE MAIN;
UPDATE "Note" SET "title" = "title";

-- 2. The vocabulary of tsv with each lexeme's English (Snowball) stem, so that a query word
--    expands to every form of it that the notes contain ("vaccines" also finds "vaccine" and
--    "vaccination") while tsv keeps the contract's 'simple' configuration. Statement-level
--    triggers keep it current (one pass over the new rows of a bulk COPY). Lexemes of deleted or
--    edited notes stay: a form that no note has any more matches nothing.
CREATE FUNCTION "note_lexeme_stem"(lexeme TEXT) RETURNS TEXT
    LANGUAGE sql STABLE STRICT PARALLEL SAFE
    RETURN coalesce((ts_lexize('english_stem', lexeme))[1], lexeme);

CREATE TABLE "NoteLexeme" (
    "lexeme" TEXT PRIMARY KEY,
    "stem" TEXT NOT NULL
);
CREATE INDEX "NoteLexeme_stem_idx" ON "NoteLexeme" ("stem");

INSERT INTO "NoteLexeme" ("lexeme", "stem")
SELECT v.l, "note_lexeme_stem"(v.l)
  FROM (SELECT DISTINCT unnest(tsvector_to_array("tsv")) AS l FROM "Note") AS v;

CREATE FUNCTION "note_lexeme_collect"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO "NoteLexeme" ("lexeme", "stem")
    SELECT v.l, "note_lexeme_stem"(v.l)
      FROM (SELECT DISTINCT unnest(tsvector_to_array(c."tsv")) AS l FROM changed_notes c) AS v
     WHERE NOT EXISTS (SELECT 1 FROM "NoteLexeme" x WHERE x."lexeme" = v.l)
     ORDER BY v.l
        ON CONFLICT ("lexeme") DO NOTHING;
    RETURN NULL;
END
$$;

CREATE TRIGGER "note_lexeme_insert"
    AFTER INSERT ON "Note" REFERENCING NEW TABLE AS changed_notes
    FOR EACH STATEMENT EXECUTE FUNCTION "note_lexeme_collect"();
CREATE TRIGGER "note_lexeme_update"
    AFTER UPDATE ON "Note" REFERENCING NEW TABLE AS changed_notes
    FOR EACH STATEMENT EXECUTE FUNCTION "note_lexeme_collect"();
