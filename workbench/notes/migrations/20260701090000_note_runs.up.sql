-- Solved runs and sweeps kept beside their notes (workbench.notes.runs, docs/notes.md "Run log").
--
-- A run note is an ordinary "Note" (its title and content are what keyword and semantic search
-- read); "NoteRun" holds what cannot be read back from prose: the exact scenario document that
-- was solved, the result summary and, for a sweep, the table as CSV. One row per note at most,
-- deleted with its note. The owner is kept beside the note id and checked against the note by a
-- composite foreign key, so a run can never belong to another owner than its note (a change of
-- the note's owner carries the run along: ON UPDATE CASCADE). "Note" and "NoteEmbedding" keep
-- their contract columns; "Note" only gains the unique key the foreign key refers to.

ALTER TABLE "Note" ADD CONSTRAINT "Note_id_ownerId_key" UNIQUE ("id", "ownerId");

CREATE TABLE "NoteRun" (
    "noteId"       TEXT        PRIMARY KEY,
    "ownerId"      TEXT        NOT NULL,
    "kind"         TEXT        NOT NULL,
    -- the scenario document as JSON (queryable) and as the exact text written back by
    -- 'workbench notes scenario' (jsonb keeps neither key order nor formatting)
    "scenario"     JSONB       NOT NULL,
    "scenarioText" TEXT        NOT NULL,
    -- SolveResult figures, convergence and warnings (a run), or the sweep's summary (a sweep)
    "summary"      JSONB       NOT NULL,
    -- the sweep's table as CSV, one row per case (NULL for a single run)
    "csv"          TEXT,
    "createdAt"    TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT "NoteRun_kind_check" CHECK ("kind" IN ('run', 'sweep')),
    CONSTRAINT "NoteRun_scenario_check" CHECK (jsonb_typeof("scenario") = 'object'),
    CONSTRAINT "NoteRun_scenarioText_check" CHECK ("scenarioText"::jsonb = "scenario"),
    CONSTRAINT "NoteRun_summary_check" CHECK (jsonb_typeof("summary") = 'object'),
    CONSTRAINT "NoteRun_csv_check" CHECK (("kind" = 'sweep') = ("csv" IS NOT NULL)),
    CONSTRAINT "NoteRun_note_fkey" FOREIGN KEY ("noteId", "ownerId")
        REFERENCES "Note" ("id", "ownerId") ON DELETE CASCADE ON UPDATE CASCADE
);

-- an owner's run log, newest first
CREATE INDEX "NoteRun_ownerId_createdAt_idx" ON "NoteRun" ("ownerId", "createdAt" DESC);
