"""The CoolProp backend's ``AbstractState`` objects, its memo, counted flashes and saturation records.

The base layer of :class:`~workbench.fluids.coolprop.backend.CoolPropBackend` (design in that
module's docstring): every flash goes through :meth:`CoolPropCore._flash` (one counted update,
errors naming the inputs), every remembered value through :meth:`CoolPropCore._remember` (or
the same two lines inline where a method call would cost a tenth of the work), and saturation
states through :meth:`CoolPropCore._pq`, which records T, h, s and rho of one (p, Q) flash.
"""

from __future__ import annotations

from typing import Any

import CoolProp.CoolProp as CP

from workbench.errors import FluidPropertyError
from workbench.fluids.base import FluidBackend, fmt_inputs
from workbench.fluids.coolprop.records import (
    MEMO_SIZE,
    NEAR_ISOBAR,
    OP_PQ,
    PQ,
    SAT_H,
    SAT_T,
    SatRecord,
    fluid_constants,
    is_bad,
)

__all__ = ["CoolPropCore"]

SatSlopes = tuple[float, float, float, float]


class CoolPropCore(FluidBackend):
    """The ``AbstractState`` objects, memo, flashes and saturation records of one fluid.

    Parameters
    ----------
    fluid : str
        Fluid name CoolProp understands (already resolved by :func:`get_backend`).
    tabular : bool
        Use ``BICUBIC&HEOS`` tables instead of the ``HEOS`` equation of state.

    Raises
    ------
    FluidPropertyError
        CoolProp cannot make an ``AbstractState`` for the fluid.
    """

    backend_name = "CoolProp"

    def __init__(self, fluid: str, tabular: bool = False) -> None:
        super().__init__()
        self.name = fluid
        self.tabular = tabular
        self.cp_backend = "BICUBIC&HEOS" if tabular else "HEOS"
        try:
            consts = fluid_constants(self.cp_backend, fluid)
            self._as = CP.AbstractState(self.cp_backend, fluid)
            self._as_ph = CP.AbstractState(self.cp_backend, fluid)
            self._as_check = CP.AbstractState(self.cp_backend, fluid)  # polishes (p, h) flashes
        except ValueError as exc:
            raise self.error("creating the AbstractState", str(exc)) from None
        self.T_crit = consts.T_crit
        self.p_crit = consts.p_crit
        self.p_min = consts.p_min
        self.p_max = consts.p_max
        self._t_min = consts.t_min
        self._t_max = consts.t_max
        self._pure = consts.pure
        self._melting = consts.melting
        # per quality: the last saturation record flashed, (p, record, its slopes along the
        # saturation line, computed when first needed)
        self._sat_anchor: dict[float, tuple[float, SatRecord, SatSlopes | None]] = {}
        self._memo: dict[tuple[int, float, float], Any] = {}

    def error(self, what: str, reason: str, /, **inputs: Any) -> FluidPropertyError:
        """:class:`FluidPropertyError` naming fluid, CoolProp backend string, operation, inputs."""
        return FluidPropertyError(
            f"{self.name} ({self.backend_name} {self.cp_backend}): {what} failed for "
            f"{fmt_inputs(**inputs)}: {reason}"
        )

    # == the memo and the flashes =================================================================
    def _remember(self, key: tuple[int, float, float], value: Any) -> Any:
        """Store ``value`` under ``key`` (dropping the oldest entry when full); return it."""
        memo = self._memo
        if len(memo) >= MEMO_SIZE:
            del memo[next(iter(memo))]
        memo[key] = value
        return value

    def _flash(
        self, state: Any, pair: Any, a: float, b: float, what: str, /, **inputs: Any
    ) -> None:
        """Update ``state`` with the input ``pair`` (one counted flash); errors name the inputs."""
        self._flashes += 1
        try:
            state.update(pair, a, b)
        except ValueError as exc:
            raise self.error(what, str(exc).strip(), **inputs) from None

    # == saturation records =======================================================================
    def _pq(self, p: float, q: float, what: str) -> SatRecord:
        """The record of the saturation flash at ``p`` and quality ``q`` (remembered or new).

        A pressure within :data:`NEAR_ISOBAR` of the last one flashed at this quality (a solved
        coil's outlet differs from its inlet by rounding, and a profile along it asks for every
        pressure in between) gets that record moved to first order along the saturation line
        (:meth:`_sat_slopes`), without a flash: the second-order term is 1e-18 of the value.
        """
        key = (OP_PQ, p, q)
        memo = self._memo
        record: SatRecord | None = memo.get(key)
        if record is not None:
            return record
        anchor = self._sat_anchor.get(q)
        if anchor is not None and abs(anchor[0] - p) <= NEAR_ISOBAR * p and not self.tabular:
            p0, base, slopes = anchor
            if slopes is None:
                slopes = self._sat_slopes(p0, q, what)
                self._sat_anchor[q] = (p0, base, slopes)
            if slopes is not None:
                dp = p - p0
                record = (
                    base[0] + slopes[0] * dp,
                    base[1] + slopes[1] * dp,
                    base[2] + slopes[2] * dp,
                    base[3] + slopes[3] * dp,
                )
                if len(memo) >= MEMO_SIZE:
                    del memo[next(iter(memo))]
                memo[key] = record
                return record
        state = self._as
        self._flashes += 1
        try:
            state.update(PQ, p, q)
        except ValueError as exc:
            raise self.error(what, str(exc).strip(), p=p, q=q) from None
        T = state.T()
        h = state.hmass()
        s = state.smass()
        rho = state.rhomass()
        if T != T or h != h or s != s or rho != rho:  # NaN
            raise self.error(what, f"CoolProp returned T={T}, h={h}, s={s}", p=p, q=q)
        record = (T, h, s, rho)
        if len(memo) >= MEMO_SIZE:
            del memo[next(iter(memo))]
        memo[key] = record
        self._sat_anchor[q] = (p, record, None)
        return record

    def _sat_slopes(self, p: float, q: float, what: str) -> SatSlopes | None:
        """d(T, h, s, rho)/dp along the saturation line at ``p`` (None if CoolProp fails).

        Pure fluids: CoolProp's saturation derivatives after a (p, Q) update. Blends: central
        differences of two (p, Q) updates 1e-6 p apart (CoolProp's own derivative of a
        pseudo-pure blend is 0.5 % off its flashes, see :meth:`_sat_deriv`).
        """
        state = self._as
        keys = (CP.iT, CP.iHmass, CP.iSmass, CP.iDmass)
        try:
            if self._pure:
                self._flash(state, PQ, p, q, what, p=p, q=q)
                d = tuple(float(state.first_saturation_deriv(k, CP.iP)) for k in keys)
            else:
                dp = 1e-6 * p
                self._flash(state, PQ, p + dp, q, what, p=p + dp, q=q)
                up = (state.T(), state.hmass(), state.smass(), state.rhomass())
                self._flash(state, PQ, p - dp, q, what, p=p - dp, q=q)
                down = (state.T(), state.hmass(), state.smass(), state.rhomass())
                d = tuple((a - b) / (2.0 * dp) for a, b in zip(up, down))
        except (FluidPropertyError, ValueError):
            return None
        if any(is_bad(v) for v in d):
            return None
        return d[0], d[1], d[2], d[3]

    def _sat_deriv(self, op: int, p: float, q: float, of: Any, what: str) -> float:
        """d(of)/dp along the saturation line at ``p`` and quality ``q``, remembered under ``op``."""
        key = (op, p, q)
        value = self._memo.get(key)
        if value is not None:
            return value  # type: ignore[no-any-return]
        if not self._pure:
            # Blends (pseudo-pure R410A...): CoolProp's Clapeyron-based saturation derivative
            # disagrees with its own PQ flashes by up to 0.5 %; differentiate the flashes.
            dp = 1e-4 * p
            above = self._pq(p + dp, q, what)
            below = self._pq(p - dp, q, what)
            field = SAT_T if of == CP.iT else SAT_H
            value = (above[field] - below[field]) / (2.0 * dp)
        else:
            self._flash(self._as, PQ, p, q, what, p=p, q=q)
            try:
                value = self._as.first_saturation_deriv(of, CP.iP)
            except ValueError as exc:
                raise self.error(what, str(exc).strip(), p=p, q=q) from None
        if is_bad(value):
            raise self.error(what, f"CoolProp returned {value}", p=p, q=q)
        return self._remember(key, value)  # type: ignore[no-any-return]
