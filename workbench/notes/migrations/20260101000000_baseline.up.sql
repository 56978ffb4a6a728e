-- Baseline: the legacy schema of the note app before vector search.
-- Embeddings are JSON text (an array of 1536 numbers) and ranking happened in application code.

CREATE TABLE "Note" (
    "id"         TEXT PRIMARY KEY DEFAULT gen_random_uuid()::text,
    "ownerId"    TEXT NOT NULL,
    "title"      TEXT,
    "content"    TEXT,
    "externalId" TEXT,
    "createdAt"  TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt"  TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- Idempotent imports: an external id is unique per owner (NULLs are allowed many times).
CREATE UNIQUE INDEX "Note_ownerId_externalId_key" ON "Note" ("ownerId", "externalId");

CREATE TABLE "NoteEmbedding" (
    "id"        TEXT PRIMARY KEY DEFAULT gen_random_uuid()::text,
    "noteId"    TEXT NOT NULL UNIQUE REFERENCES "Note" ("id") ON DELETE CASCADE,
    "embedding" TEXT
);
