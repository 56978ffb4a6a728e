-- Reindex jobs of the HTTP API, kept in the database so that every API process sees them (several
-- processes behind a load balancer, or uvicorn --workers). The process that runs a job writes its
-- progress after each batch; "backendPid" is the database session that holds the reindex advisory
-- lock while the job runs, so that a job whose process died is reported as failed.
CREATE TABLE "NoteReindexJob" (
    "id"         TEXT PRIMARY KEY,
    "state"      TEXT NOT NULL CHECK ("state" IN ('running', 'succeeded', 'failed')),
    "force"      BOOLEAN NOT NULL,
    "done"       INTEGER NOT NULL DEFAULT 0,
    "total"      INTEGER,
    "embedded"   INTEGER,
    "skipped"    INTEGER,
    "batches"    INTEGER,
    "error"      TEXT,
    "backendPid" INTEGER,
    "startedAt"  TIMESTAMPTZ NOT NULL DEFAULT now(),
    "finishedAt" TIMESTAMPTZ
);
CREATE INDEX "NoteReindexJob_startedAt_idx" ON "NoteReindexJob" ("startedAt");
