-- Which model made each embedding, its native dimension (before zero padding to 1536) and a hash
-- of the text it was made from, so that reindex skips current rows and validate finds stale ones.
ALTER TABLE "NoteEmbedding" ADD COLUMN "model" TEXT;
ALTER TABLE "NoteEmbedding" ADD COLUMN "dimension" INTEGER
    CHECK ("dimension" IS NULL OR "dimension" BETWEEN 1 AND 1536);
ALTER TABLE "NoteEmbedding" ADD COLUMN "contentHash" TEXT;
CREATE INDEX "NoteEmbedding_model_idx" ON "NoteEmbedding" ("model");
