"""A Newton step keeps a share of each exchanger's driving temperature difference.

An exchanger's heat flow turns sharply where its driving difference closes: a UA coil whose
saturation temperature reaches its secondary inlet (an evaporator at or above its air), a
cascade exchanger whose two saturation temperatures meet. From a start where the exchanger
is pinched (its heat flow set by the secondary's or the other stream's capacity, hardly by the
difference) the linearised model extrapolates freely, and Newton's full step closes or reverses
the difference, where the heat flow collapses and the trial is rejected, twice or three times.
:func:`kept_fraction` shortens a step so that at least :data:`GAP_KEPT` of the difference
stays, like the pressure (at most 50 % per step) and mass-flow bounds of
:func:`workbench.solver.newton.limit_step`, which calls the components' and couplings'
``step_fraction`` methods (:meth:`workbench.components.exchangers.coils.component.Coil.step_fraction`,
:meth:`workbench.solver.couplings.ThermalCoupling.step_fraction`).
"""

from __future__ import annotations

from collections.abc import Callable

from workbench.errors import FluidPropertyError

__all__ = ["GAP_KEPT", "kept_fraction"]

GAP_KEPT = 0.45
"""Share of an exchanger's driving temperature difference that a Newton step keeps at least
[-]. Measured (``benchmarks/bench_step_share.py``, docs/benchmarks.md; cold solves): on 285
variants of the examples' UA coils (secondary inlet -6 to +6 K, ua 0.5-2 x) residual
evaluations 3,341 -> 2,219 and iterations 1,622 -> 1,467 with two more solves converged; on
243 cascade variants 2,365 -> 2,119 and 1,618 -> 1,575. 0.55 does about as well, 0.3 helps
less, 0.7 saves evaluations but costs iterations; 0.45 costs none of the examples an
iteration."""


def kept_fraction(gap: Callable[[float], float], alpha: float) -> float:
    """The largest fraction up to ``alpha`` of a step that keeps :data:`GAP_KEPT` of a gap.

    Parameters
    ----------
    gap : callable
        The driving temperature difference [K] at a fraction ``t`` of the step (``gap(0)`` at
        the current point), positive while the exchanger works in its direction.
    alpha : float
        The fraction the other bounds allow [-].

    Returns
    -------
    float
        ``alpha``, or less where the difference at ``alpha`` would fall below
        :data:`GAP_KEPT` of its current value (interpolated linearly in the fraction: a
        bound, not a root); ``alpha`` where the difference is not positive now or a
        saturation temperature does not exist at the trial (a pressure above the critical
        point: the trial's own evaluation decides).
    """
    try:
        now = gap(0.0)
        if not now > 0.0:
            return alpha
        trial = gap(alpha)
    except (FluidPropertyError, ValueError, ZeroDivisionError, OverflowError):
        return alpha
    if trial >= GAP_KEPT * now:
        return alpha
    return alpha * (1.0 - GAP_KEPT) * now / (now - trial)
