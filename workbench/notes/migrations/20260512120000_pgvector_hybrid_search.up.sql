-- 20260512120000: native vectors and full-text search, in the three ordered phases of the contract.
-- The runner first refuses legacy JSON values that are not arrays of 1536 numbers (naming the
-- note ids), so every conversion below succeeds; the whole file runs in one transaction.

-- Phase 1: the vector extension (before any schema change that uses it).
CREATE EXTENSION IF NOT EXISTS vector;

-- Phase 2: NoteEmbedding.embedding from JSON text to vector(1536).
ALTER TABLE "NoteEmbedding" ADD COLUMN "embedding_vector" vector(1536);
UPDATE "NoteEmbedding"
   SET "embedding_vector" = ("embedding"::jsonb)::text::vector(1536)
 WHERE "embedding" IS NOT NULL;
ALTER TABLE "NoteEmbedding" DROP COLUMN "embedding";
ALTER TABLE "NoteEmbedding" RENAME COLUMN "embedding_vector" TO "embedding";
ALTER TABLE "NoteEmbedding" ADD COLUMN "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;
CREATE INDEX "NoteEmbedding_embedding_hnsw_idx" ON "NoteEmbedding"
    USING hnsw ("embedding" vector_cosine_ops) WITH (m = 16, ef_construction = 64);

-- Phase 3: Note.tsv (title weight A, content weight B, 'simple' configuration), kept current by a trigger.
ALTER TABLE "Note" ADD COLUMN "tsv" tsvector;
UPDATE "Note"
   SET "tsv" = setweight(to_tsvector('simple', coalesce("title", '')), 'A')
            || setweight(to_tsvector('simple', coalesce("content", '')), 'B');
CREATE INDEX "Note_tsv_idx" ON "Note" USING gin ("tsv");

CREATE FUNCTION "note_tsv_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW."tsv" := setweight(to_tsvector('simple', coalesce(NEW."title", '')), 'A')
              || setweight(to_tsvector('simple', coalesce(NEW."content", '')), 'B');
    RETURN NEW;
END
$$;

CREATE TRIGGER "note_tsv_update"
    BEFORE INSERT OR UPDATE OF "title", "content" ON "Note"
    FOR EACH ROW EXECUTE FUNCTION "note_tsv_update"();
