-- Undo the baseline: drops the note tables and everything in them.
DROP TABLE IF EXISTS "NoteEmbedding";
DROP TABLE IF EXISTS "Note";
