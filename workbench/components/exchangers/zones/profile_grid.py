"""The grid of a fine exchanger profile and the refinement of its minimum.

Helpers of :mod:`workbench.components.exchangers.zones.profile`: the fractions of the path the profile is
evaluated at (equal enthalpy steps plus the saturation points), and the minimisation that
locates the smallest temperature difference between grid points from the bracket the grid
already gives (:func:`_refine_minimum`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable

from workbench.fluids import FluidBackend

__all__ = ["CURVATURE_TOLERANCE_K", "GOLDEN", "REFINE_EVALUATIONS", "sample"]


def _grid(n: int, cuts: list[float]) -> list[float]:
    """``k / n`` for k = 0..n with the fractions ``cuts`` in (0, 1) added, sorted."""
    xs = {k / n for k in range(n + 1)}
    xs.update(c for c in cuts if 0.0 < c < 1.0)
    return sorted(xs)


def _saturation_cuts(
    fluid: FluidBackend, p_in: float, h_in: float, p_out: float, h_out: float
) -> list[float]:
    """Fractions of the path where it meets the saturated liquid and vapour lines."""
    if max(p_in, p_out) >= 0.999 * fluid.p_crit or h_out == h_in:
        return []
    cuts = []
    for sat in (fluid.h_liq, fluid.h_vap):
        # the saturation enthalpy moves with pressure along the path: two fixed-point steps
        x = 0.5
        for _ in range(3):
            h_sat = float(sat(p_in + x * (p_out - p_in)))
            x = (h_sat - h_in) / (h_out - h_in)
            if not 0.0 < x < 1.0:
                break
        if 0.0 < x < 1.0:
            cuts.append(x)
    return cuts


GOLDEN = 0.3819660112501051
"""The golden-section fraction ``(3 - sqrt(5)) / 2`` of a bracketed minimisation step."""

REFINE_EVALUATIONS = 40
"""At most this many profile evaluations locate the minimum between two grid segments."""


def _refine_minimum(
    f: Callable[[float], float],
    bracket: tuple[tuple[float, float], tuple[float, float], tuple[float, float]],
    xtol: float,
) -> tuple[float, float]:
    """The minimum of ``f`` inside a bracket ``a < b < c`` with ``f(b) <= f(a), f(c)``.

    Successive parabolic interpolation through the three best points (Brent's idea, started
    from the grid points already evaluated, so none is evaluated again), with a golden-section
    step whenever the parabola's vertex leaves the bracket or two parabolic steps in a row do
    not improve the minimum. It stops when the vertex falls within ``xtol`` of the best point
    (the parabola, accurate to third order there, puts the minimum within ``xtol``), when the
    bracket is narrower than ``2 xtol``, or after :data:`REFINE_EVALUATIONS` evaluations.

    Returns
    -------
    tuple of float
        ``(x, f(x))`` at the smallest value found.
    """
    (a, fa), (b, fb), (c, fc) = bracket
    misses = 0
    for _ in range(REFINE_EVALUATIONS):
        if c - a <= 2.0 * xtol:
            break
        num = (b - a) ** 2 * (fb - fc) - (b - c) ** 2 * (fb - fa)
        den = (b - a) * (fb - fc) - (b - c) * (fb - fa)
        u = b - 0.5 * num / den if den != 0.0 else math.nan
        parabolic = misses < 2 and a + xtol < u < c - xtol
        if parabolic and abs(u - b) < xtol:
            break
        if not parabolic:
            u = b + GOLDEN * ((c - b) if c - b > b - a else (a - b))
            misses = 0
        fu = f(u)
        if fu < fb:
            if u < b:
                c, fc = b, fb
            else:
                a, fa = b, fb
            b, fb = u, fu
            misses = 0
        else:
            if u < b:
                a, fa = u, fu
            else:
                c, fc = u, fu
            misses += 1
    return b, fb


CURVATURE_TOLERANCE_K = 1e-3
"""Where the profile's midpoint of a coarse segment departs from the chord by more than this
[K], the segment is evaluated at the full resolution (:func:`sample`)."""

Value = tuple[float, float, float, float]


def _curvature(xs: list[float], fs: list[float], i: int, kinks: set[float]) -> float | None:
    """Second derivative of the parabola through grid points ``i - 1, i, i + 1``.

    None at an end of the grid or at a kink (a saturation point: the three points lie on two
    smooth pieces).
    """
    if i <= 0 or i >= len(xs) - 1 or xs[i] in kinks:
        return None
    x0, x1, x2 = xs[i - 1], xs[i], xs[i + 1]
    return 2.0 * ((fs[i + 1] - fs[i]) / (x2 - x1) - (fs[i] - fs[i - 1]) / (x1 - x0)) / (x2 - x0)


def sample(
    dt_at: Callable[[float], Value], segments: int, cuts: list[float]
) -> tuple[list[float], list[Value]]:
    """The profile on the grid of ``segments`` steps, evaluated where it is not straight.

    The grid of ``segments / 4`` equal steps (plus ``cuts``) is evaluated first. A segment
    whose neighbouring points show no curvature (the parabolas through it and either
    neighbour, on the same side of every cut, put its midpoint within a quarter of
    :data:`CURVATURE_TOLERANCE_K` of the chord: an isobaric two-phase zone against a secondary
    stream is straight) stays whole. The others get their midpoint; one whose midpoint departs
    from the chord of its ends by more than :data:`CURVATURE_TOLERANCE_K` also gets its
    quarter points (the full resolution there). Where the profile is straight to that tolerance
    the conductance of one segment equals that of its halves to the same order (the
    logarithmic mean is exact for a linear difference), so the sums agree with the full grid.
    With fewer than 8 segments, or a number not divisible by 4, the full grid is evaluated.

    Returns
    -------
    tuple
        The fractions (sorted) and the value ``dt_at(x)`` at each.
    """
    if segments < 8 or segments % 4:
        xs = _grid(segments, cuts)
        return xs, [dt_at(x) for x in xs]
    coarse = _grid(segments // 4, cuts)
    values = {x: dt_at(x) for x in coarse}
    fs = [values[x][0] for x in coarse]
    kinks = set(cuts)
    xs = [coarse[0]]
    for j, (a, b) in enumerate(itertools.pairwise(coarse)):
        bends = [
            c
            for c in (_curvature(coarse, fs, j, kinks), _curvature(coarse, fs, j + 1, kinks))
            if c is not None
        ]
        if (
            bends
            and max(abs(c) for c in bends) * (b - a) ** 2 / 8.0 <= 0.25 * CURVATURE_TOLERANCE_K
        ):
            xs.append(b)
            continue
        m = 0.5 * (a + b)
        values[m] = dt_at(m)
        points = [m]
        if abs(values[m][0] - 0.5 * (values[a][0] + values[b][0])) > CURVATURE_TOLERANCE_K:
            q1, q3 = 0.5 * (a + m), 0.5 * (m + b)
            values[q1], values[q3] = dt_at(q1), dt_at(q3)
            points = [q1, m, q3]
        xs.extend(points)
        xs.append(b)
    return xs, [values[x] for x in xs]
