"""Ranges of validity of the correlations, and the check that names what falls outside.

Who reads it: every correlation module declares its paper's range as a tuple of
:class:`Bound`, and the geometric coils turn what :func:`out_of_range` returns into warnings in
the result (STYLE.md: "a geometry outside a correlation's range is a warning in the result,
naming the quantity and the range"). Nothing here raises: a correlation used outside its data
still gives a number, and the caller decides.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

__all__ = ["Bound", "out_of_range"]


@dataclass(frozen=True)
class Bound:
    """The range one input of a correlation was fitted on.

    Parameters
    ----------
    key : str
        Name of the quantity, the geometry's contract key where there is one
        (``fins_per_m``, ``banks``) or a derived name (``collar_diameter_m``, ``reynolds_dc``).
    low, high : float
        Smallest and largest value in the paper's data, in the unit of ``key`` (SI).
    """

    key: str
    low: float
    high: float


def out_of_range(values: Mapping[str, float], bounds: Sequence[Bound], source: str) -> list[str]:
    """Messages for the inputs outside a correlation's range, one per input.

    Parameters
    ----------
    values : mapping of str to float
        The inputs by key [SI units of each key]; keys without a bound are ignored, bounds
        without a value are skipped.
    bounds : sequence of Bound
        The correlation's range.
    source : str
        The correlation's name for the message, e.g. ``"Wang, Chi & Chang (2000)"``.

    Returns
    -------
    list of str
        ``"<key> = <value> outside <low>–<high> (<source>)"`` for each input outside; empty
        when all are inside.
    """
    messages = []
    for bound in bounds:
        if bound.key not in values:
            continue
        value = float(values[bound.key])
        # a relative tolerance so that a value printed at the bound is inside it
        tol = 1e-9 * max(abs(bound.low), abs(bound.high))
        if value < bound.low - tol or value > bound.high + tol:
            messages.append(
                f"{bound.key} = {value:.4g} outside {bound.low:.4g}–{bound.high:.4g} ({source})"
            )
    return messages
