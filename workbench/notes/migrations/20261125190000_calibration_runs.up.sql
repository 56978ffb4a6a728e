-- Calibrations kept in the run log (workbench.notes.runs.calibrations, docs/calibration.md).
--
-- A calibration note is a "NoteRun" of kind 'calibration': the calibrated scenario document
-- (the fitted values set), the fit's summary (values, intervals, unidentifiable parameters,
-- failed points) and the residuals per point and quantity as CSV, like a sweep's table.

ALTER TABLE "NoteRun" DROP CONSTRAINT "NoteRun_kind_check";
ALTER TABLE "NoteRun" ADD CONSTRAINT "NoteRun_kind_check"
    CHECK ("kind" IN ('run', 'sweep', 'calibration'));
ALTER TABLE "NoteRun" DROP CONSTRAINT "NoteRun_csv_check";
ALTER TABLE "NoteRun" ADD CONSTRAINT "NoteRun_csv_check"
    CHECK (("kind" IN ('sweep', 'calibration')) = ("csv" IS NOT NULL));
