"""Starts for the CoolProp backend's single-phase Newton states: the last state per isobar.

A solver asks for many single-phase states along a few isobars (a coil's or a cascade
exchanger's profile, the compressor's and valves' states), and every Newton iterate moves the
pressures a little. :class:`CoolPropIsobars` keeps the last state Newton found on each side
of the dome per pressure (:data:`NEAR_ISOBARS` pressures: a cascade's two circuits alternate
between four on one backend), with its ``(dT/dh)_p`` and ``(drho/dh)_p``: the next state on
that isobar starts from it to first order, whichever pressures were asked for in between.
A start from a neighbouring isobar (the first state on a new one, moved beside its dome) cut
the (rho, T) updates of a cascade solve by another 15 % but was dropped: the state kept from
an earlier solve on a lent backend then decides the last bits of a result, and a solve must
give the same numbers whichever backend it is lent (``tests/test_solver_ownership.py``).
The Newton iterations' own ``(dT/dh)_p`` are kept for
the slope of a root-find (:meth:`~workbench.fluids.coolprop.backend.CoolPropBackend.
dT_dh_p_estimate`).
"""

from __future__ import annotations

from workbench.fluids.coolprop.records import (
    NEAR_ISOBAR,
    SAT_RHO,
    SAT_T,
    SatRecord,
)
from workbench.fluids.coolprop.supercritical import CoolPropSupercritical

__all__ = [
    "NEAR_ISOBARS",
    "SLOPES_KEPT",
    "CoolPropIsobars",
    "Near",
    "on_its_side",
]

Near = tuple[float, float, float, float, float, float, SatRecord]
"""The last single-phase (p, h) state Newton found on one side of the dome: p, h, T, rho,
dT/dh, drho/dh and the saturation record of p on that side (a first-order start on the isobar)."""

_ROUNDING = 1e-12
"""Relative rounding allowed when a Newton state is checked against its side of the dome."""

SLOPES_KEPT = 64
"""Newton slopes (dT/dh)_p kept for :meth:`CoolPropBackend.dT_dh_p_estimate` (all dropped when
full: they serve the profile evaluated just before)."""

NEAR_ISOBARS = 8
"""Pressures per side of the dome whose last Newton state is kept as a start (a cascade's two
circuits and their coils' profiles alternate between four pressures on one backend)."""


class CoolPropIsobars(CoolPropSupercritical):
    """The last single-phase Newton state per isobar and side of the dome (module docstring).

    Parameters
    ----------
    fluid : str
        Fluid name CoolProp understands (already resolved by :func:`get_backend`).
    tabular : bool
        Use ``BICUBIC&HEOS`` tables instead of the ``HEOS`` equation of state.
    """

    def __init__(self, fluid: str, tabular: bool = False) -> None:
        super().__init__(fluid, tabular)
        self._near_liq: Near | None = None
        self._near_vap: Near | None = None

    # the last Newton state per exact pressure on each side (insertion order: the oldest goes
    # first); None until the first (a subclass that does not call this __init__ starts so)
    _pool_liq: dict[float, Near] | None = None
    _pool_vap: dict[float, Near] | None = None
    # (dT/dh)_p of recent Newton states at their last update (a step below 1e-7 before the
    # state): slopes for iterations (see dT_dh_p_estimate); a new dict when full
    _slopes_seen: dict[tuple[float, float], float] | None = None

    def _near_on(self, p: float, liquid: bool) -> Near | None:
        """The last Newton state on the isobar of ``p`` [Pa] on one side of the dome, or None.

        The last state on that side when its pressure is within :data:`NEAR_ISOBAR` of ``p``,
        else the last one at exactly ``p`` (kept for :data:`NEAR_ISOBARS` pressures).
        """
        near = self._near_liq if liquid else self._near_vap
        if near is not None and abs(near[0] - p) <= NEAR_ISOBAR * p:
            return near
        pool = self._pool_liq if liquid else self._pool_vap
        return pool.get(p) if pool else None

    def _keep_near(self, near: Near, liquid: bool) -> None:
        """Keep ``near`` as the last state on its side and at its pressure."""
        if liquid:
            self._near_liq = near
            pool = self._pool_liq
            if pool is None:
                pool = self._pool_liq = {}
        else:
            self._near_vap = near
            pool = self._pool_vap
            if pool is None:
                pool = self._pool_vap = {}
        p = near[0]
        if p not in pool and len(pool) >= NEAR_ISOBARS:
            del pool[next(iter(pool))]
        pool[p] = near


def on_its_side(T: float, rho: float, sat: SatRecord, liquid: bool) -> bool:
    """Whether a Newton state (T [K], rho [kg/m3]) lies on its side of the dome.

    Colder and denser than the saturated liquid ``sat``, or hotter and lighter than the
    saturated vapour; a state within :data:`_ROUNDING` of the saturated one passes (a
    profile's end at zero subcooling is the saturated state, to the last bit or two).
    """
    if liquid:
        return sat[SAT_T] * (1.0 + _ROUNDING) >= T and rho >= sat[SAT_RHO] * (1.0 - _ROUNDING)
    return sat[SAT_T] * (1.0 - _ROUNDING) <= T and rho <= sat[SAT_RHO] * (1.0 + _ROUNDING)
