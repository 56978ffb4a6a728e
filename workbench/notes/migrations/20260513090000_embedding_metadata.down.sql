DROP INDEX IF EXISTS "NoteEmbedding_model_idx";
ALTER TABLE "NoteEmbedding" DROP COLUMN IF EXISTS "contentHash";
ALTER TABLE "NoteEmbedding" DROP COLUMN IF EXISTS "dimension";
ALTER TABLE "NoteEmbedding" DROP COLUMN IF EXISTS "model";
