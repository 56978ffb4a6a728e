-- Ratings go back to what they were before this migration: kind 'sweep' (a rating has its test
-- points as CSV, as a sweep has its table; its summary's purpose 'seasonal rating' tells it
-- apart, and the up migration turns it into 'rating' again). Nothing is dropped.
ALTER TABLE "NoteRun" DROP CONSTRAINT "NoteRun_kind_check";
ALTER TABLE "NoteRun" DROP CONSTRAINT "NoteRun_csv_check";
UPDATE "NoteRun" SET "kind" = 'sweep'
    WHERE "kind" = 'rating';
ALTER TABLE "NoteRun" ADD CONSTRAINT "NoteRun_kind_check"
    CHECK ("kind" IN ('run', 'sweep', 'calibration'));
ALTER TABLE "NoteRun" ADD CONSTRAINT "NoteRun_csv_check"
    CHECK (("kind" IN ('sweep', 'calibration')) = ("csv" IS NOT NULL));
