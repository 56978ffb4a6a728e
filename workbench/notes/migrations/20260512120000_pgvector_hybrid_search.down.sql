-- Undo 20260512120000 in the contract's rollback order. Data is kept: vectors become JSON arrays.
DROP INDEX IF EXISTS "NoteEmbedding_embedding_hnsw_idx";
DROP INDEX IF EXISTS "Note_tsv_idx";
DROP TRIGGER IF EXISTS "note_tsv_update" ON "Note";
DROP FUNCTION IF EXISTS "note_tsv_update"();

-- Schema reset: the legacy columns. pgvector prints '[1,2.5,-3]', which is a JSON array.
ALTER TABLE "NoteEmbedding" ALTER COLUMN "embedding" TYPE TEXT USING "embedding"::text;
ALTER TABLE "NoteEmbedding" DROP COLUMN "updatedAt";
ALTER TABLE "Note" DROP COLUMN "tsv";
