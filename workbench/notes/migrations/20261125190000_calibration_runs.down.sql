-- Refuses while calibration notes exist (delete them first): nothing is dropped silently.
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM "NoteRun" WHERE "kind" = 'calibration') THEN
        RAISE EXCEPTION 'calibration notes exist in "NoteRun"; delete them before rolling back 20261125190000';
    END IF;
END
$$;
ALTER TABLE "NoteRun" DROP CONSTRAINT "NoteRun_kind_check";
ALTER TABLE "NoteRun" ADD CONSTRAINT "NoteRun_kind_check" CHECK ("kind" IN ('run', 'sweep'));
ALTER TABLE "NoteRun" DROP CONSTRAINT "NoteRun_csv_check";
ALTER TABLE "NoteRun" ADD CONSTRAINT "NoteRun_csv_check"
    CHECK (("kind" = 'sweep') = ("csv" IS NOT NULL));
