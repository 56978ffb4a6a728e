r"""What text the note store accepts: the one check shared by the library, the importers and the API.

PostgreSQL ``text`` holds any Unicode character but U+0000 (NUL), and UTF-8 cannot encode a lone
UTF-16 surrogate (U+D800 to U+DFFF, which JSON's ``"\ud800"`` escapes produce). A title, content,
external id, owner, note id or query holding one is refused with a message naming the field and
the character's position, before it reaches the database.
"""

from __future__ import annotations

import re

__all__ = ["MAX_ID_CHARS", "text_problem"]

MAX_ID_CHARS = 512
"""Longest note id or external id [characters]."""

_BAD = re.compile("[\x00\ud800-\udfff]")


def text_problem(value: str | None, name: str) -> str | None:
    """Why ``value`` cannot be stored (a NUL character or a lone surrogate), or None.

    Parameters
    ----------
    value : str or None
        The text (None is fine).
    name : str
        The field, named in the message (``"title"``, ``"body.notes[3].content"``).
    """
    if value is None:
        return None
    found = _BAD.search(value)
    if found is None:
        return None
    char = found.group()
    what = "a NUL character (U+0000)" if char == "\x00" else f"a lone surrogate (U+{ord(char):04X})"
    return (
        f"{name} holds {what} at position {found.start()}, which the database cannot store; "
        "remove it"
    )
