"""Reading notes from files: BEIR-style JSONL, CSV and folders of Markdown files.

=============  ================================================================================
source         mapping
=============  ================================================================================
``*.jsonl``    one object a line: ``_id`` (or ``id`` / ``external_id``) -> external id,
               ``title``, ``text`` (or ``content``) -> content; other keys are ignored
``*.csv``      a header row with ``title`` and ``content`` (or ``text``), optionally
               ``external_id`` (or ``_id`` / ``id``)
folder         every ``*.md`` below it: external id = path relative to the folder without
               ``.md``; title = the first ``# heading`` (else the file name); content = the rest.
               A symbolic link (file or folder) pointing outside the folder is refused: an
               import never reads files the folder does not hold
=============  ================================================================================

Errors name the file and line (or file) and the field.
"""

from __future__ import annotations

import csv
import json
import os
from pathlib import Path

from workbench.errors import NoteStoreError
from workbench.notes.store import NoteInput

__all__ = ["read_csv", "read_jsonl", "read_markdown_folder", "read_notes_file"]

_ID_KEYS = ("_id", "external_id", "id")
_CONTENT_KEYS = ("text", "content")


def _pick(obj: dict, keys: tuple[str, ...]) -> object:
    for key in keys:
        if key in obj and obj[key] is not None:
            return obj[key]
    return None


def _text_field(value: object, where: str, name: str) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise NoteStoreError(
            f"{where}: field {name!r} must be a string, got {type(value).__name__}"
        )
    return str(value)


def _record(obj: dict, where: str) -> NoteInput:
    title = _text_field(obj.get("title"), where, "title")
    content = _text_field(_pick(obj, _CONTENT_KEYS), where, "text")
    ext = _text_field(_pick(obj, _ID_KEYS), where, "_id")
    if not (title or content):
        raise NoteStoreError(f"{where}: a note needs a non-empty 'title' or 'text'")
    return NoteInput(title=title, content=content, external_id=ext or None, source=where)


def read_jsonl(path: Path) -> list[NoteInput]:
    """Notes from a JSON-lines file (blank lines are skipped)."""
    records = []
    with path.open(encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            where = f"{path}:{lineno}"
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                raise NoteStoreError(f"{where}: not valid JSON ({exc.msg})") from exc
            if not isinstance(obj, dict):
                raise NoteStoreError(f"{where}: expected a JSON object, got {type(obj).__name__}")
            records.append(_record(obj, where))
    return records


def read_csv(path: Path) -> list[NoteInput]:
    """Notes from a CSV file with a header row."""
    with path.open(encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh)
        header = set(reader.fieldnames or ())
        if "title" not in header and not header & set(_CONTENT_KEYS):
            raise NoteStoreError(
                f"{path}:1: the header needs 'title' and/or 'content' (or 'text'), "
                f"found {sorted(header)}"
            )
        return [
            _record({k: (v if v != "" else None) for k, v in row.items() if k}, f"{path}:{n}")
            for n, row in enumerate(reader, start=2)
        ]


def _markdown_record(file: Path, root: Path) -> NoteInput:
    text = file.read_text(encoding="utf-8")
    lines = text.splitlines()
    title, body = file.stem, text
    for i, line in enumerate(lines):
        if line.startswith("# "):
            title = line[2:].strip()
            body = "\n".join(lines[:i] + lines[i + 1 :])
            break
        if line.strip():
            break
    ext = file.relative_to(root).with_suffix("").as_posix()
    return _record({"title": title, "text": body.strip(), "_id": ext}, str(file))


def _markdown_files(folder: Path) -> list[Path]:
    """Every ``*.md`` below ``folder``, refusing links that lead out of it (sorted by path)."""
    root = folder.resolve()
    found = []
    for dirpath, dirnames, filenames in os.walk(folder, followlinks=False):
        for name in [*dirnames, *filenames]:
            path = Path(dirpath) / name
            if not path.is_symlink():
                continue
            target = path.resolve()
            if not target.is_relative_to(root):
                raise NoteStoreError(
                    f"{path}: a link to {target}, outside the folder {root}; refused "
                    "(links in an imported folder may only point inside it)"
                )
        # a linked folder that stays inside is reached through its real path
        dirnames[:] = [d for d in dirnames if not (Path(dirpath) / d).is_symlink()]
        found.extend(Path(dirpath) / f for f in filenames if f.endswith(".md"))
    return sorted(f for f in found if f.is_file())


def read_markdown_folder(folder: Path) -> list[NoteInput]:
    """Notes from every ``*.md`` file below a folder (sorted by path).

    Raises
    ------
    NoteStoreError
        A symbolic link below the folder points outside it (naming the link and its target).
    """
    return [_markdown_record(file, folder) for file in _markdown_files(folder)]


def read_notes_file(path: str | Path) -> list[NoteInput]:
    """Read notes from a ``.jsonl`` / ``.csv`` file or a folder of Markdown files.

    Raises
    ------
    NoteStoreError
        Missing path, unknown format, or a bad record (naming file, line and field).
    """
    path = Path(path)
    if path.is_dir():
        return read_markdown_folder(path)
    if not path.is_file():
        raise NoteStoreError(f"{path}: no such file or folder")
    suffix = path.suffix.lower()
    if suffix in (".jsonl", ".ndjson"):
        return read_jsonl(path)
    if suffix == ".csv":
        return read_csv(path)
    if suffix == ".md":
        return [_markdown_record(path, path.parent)]
    raise NoteStoreError(
        f"{path}: unknown format {suffix!r}; use .jsonl (BEIR), .csv or a folder of .md files"
    )
