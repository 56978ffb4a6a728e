DROP TRIGGER IF EXISTS "note_lexeme_update" ON "Note";
DROP TRIGGER IF EXISTS "note_lexeme_insert" ON "Note";
DROP FUNCTION IF EXISTS "note_lexeme_collect"();
DROP TABLE IF EXISTS "NoteLexeme";
DROP FUNCTION IF EXISTS "note_lexeme_stem"(TEXT);
ALTER TABLE "Note" ALTER COLUMN "tsv" SET STORAGE EXTENDED;
