-- Seasonal ratings kept in the run log (workbench.notes.runs.ratings, docs/seasonal.md).
--
-- A rating note is a "NoteRun" of kind 'rating': the rated scenario document, the rating's
-- figures as its summary (purpose 'seasonal rating': SCOP or SEER, eta_s, the test points) and
-- the test points table as CSV. Ratings stored before this migration were kept as kind 'sweep'
-- with that purpose (no sweep summary has it: a sweep's purpose is 'heating' or 'cooling'); they
-- become kind 'rating'.

ALTER TABLE "NoteRun" DROP CONSTRAINT "NoteRun_kind_check";
ALTER TABLE "NoteRun" ADD CONSTRAINT "NoteRun_kind_check"
    CHECK ("kind" IN ('run', 'sweep', 'calibration', 'rating'));
ALTER TABLE "NoteRun" DROP CONSTRAINT "NoteRun_csv_check";
ALTER TABLE "NoteRun" ADD CONSTRAINT "NoteRun_csv_check"
    CHECK (("kind" IN ('sweep', 'calibration', 'rating')) = ("csv" IS NOT NULL));
UPDATE "NoteRun" SET "kind" = 'rating'
    WHERE "kind" = 'sweep' AND "summary" ->> 'purpose' = 'seasonal rating';
