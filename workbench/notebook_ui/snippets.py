"""How a hit's snippet and match strength read in the notes panel and the run log.

The search returns a passage with the matched words in ``<b>`` tags (PostgreSQL's
``ts_headline``: up to two fragments joined by ``" ... "``), or in semantic mode the first
200 characters of the note. Read as-is, a fragment boundary looks like a value replaced by
"...", a cut ends mid-word, and a one-letter query token (the ``s`` of ``m/s``) lights up the
``s`` of ``stage's``. :func:`snippet_html` makes the passage read as excerpts:

- each fragment on its own, joined by a visible `` … `` ("[…]" where text is skipped);
- an ellipsis where a fragment starts or ends inside a sentence, a cut word dropped;
- highlights of a single letter removed (a unit's letter is not a match a person looks for);
- everything escaped except the highlight tags (:func:`safe_highlight`).

:func:`weak_match` flags a semantic hit below :data:`SEMANTIC_FLOOR`: the nearest notes are
always returned, however unrelated, so the panel says how close they are.
"""

from __future__ import annotations

import html
import re
from typing import Any

__all__ = ["SEMANTIC_FLOOR", "safe_highlight", "snippet_html", "weak_match"]

SEMANTIC_FLOOR = 0.3
"""Cosine similarity below which a semantic hit is shown as a weak match [-].

With the local MiniLM model, notes on the query's topic score 0.4-0.7 and unrelated ones
0.0-0.25."""

_FRAGMENTS = re.compile(r"\s\.\.\.\s")
_ONE_LETTER = re.compile(r"<b>([^\W\d_])</b>")
_ENDS_SENTENCE = (".", "!", "?", ":", ")", "]")


def safe_highlight(text: str | None) -> str:
    """HTML of a snippet: everything escaped except the ``<b>``/``</b>`` highlight tags.

    The text is decoded first (``&lt;`` -> ``<``), so a snippet the server has already
    escaped is not escaped twice, and one it has not is made safe here.
    """
    escaped = html.escape(html.unescape(text or ""), quote=True)
    return escaped.replace("&lt;b&gt;", "<b>").replace("&lt;/b&gt;", "</b>")


def _fragment(text: str, *, cut: bool) -> str:
    text = text.strip()
    if not text:
        return ""
    if cut and text[-1].isalnum() and " " in text:  # the last word was cut
        text = text.rsplit(" ", 1)[0].rstrip(",;")
    plain = re.sub(r"</?b>", "", text)
    head = "" if plain[:1].isupper() or not plain[:1].isalpha() else "… "
    tail = "" if plain.endswith(_ENDS_SENTENCE) else " …"
    return f"{head}{text}{tail}"


def snippet_html(text: str | None, *, cut: bool = False) -> str:
    """A snippet as HTML excerpts (see the module docstring).

    Parameters
    ----------
    text : str or None
        The hit's snippet (escaped or not; ``<b>`` highlight tags kept).
    cut : bool
        The snippet is a fixed-length start of the note (semantic mode): a word cut at its
        end is dropped.
    """
    safe = _ONE_LETTER.sub(r"\1", safe_highlight(text))
    parts = [_fragment(p, cut=cut) for p in _FRAGMENTS.split(safe)]
    parts = [p for p in parts if p]
    joined = " <span style='color:#888'>[…]</span> ".join(p.strip("… ") for p in parts)
    if not parts:
        return ""
    head = "… " if parts[0].startswith("… ") else ""
    tail = " …" if parts[-1].endswith(" …") else ""
    return f"{head}{joined}{tail}"


def weak_match(hit: Any) -> bool:
    """A semantic match below :data:`SEMANTIC_FLOOR` (False without a similarity)."""
    sim = getattr(hit, "semantic_similarity", None)
    return sim is not None and sim < SEMANTIC_FLOOR
