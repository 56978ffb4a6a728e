"""The layer of :class:`~workbench.fluids.blend.backend.BlendBackend` above the blend's dome.

Every state at a pressure above the top of the blend's tables comes from here: refused between
that top and the cricondenbar (the dome is not tabulated there), exact HEOS above it
(:mod:`workbench.fluids.blend.supercritical`). Nearby states start from remembered ones through the
supercritical layer of the CoolProp backend (:mod:`~workbench.fluids.coolprop.supercritical`), whose
attributes this layer sets up (a blend backend does not run that layer's constructor).
"""

from __future__ import annotations

import math
from typing import Any

import CoolProp.CoolProp as CP

from workbench.errors import FluidPropertyError
from workbench.fluids.blend.supercritical import (
    CB_MARGIN,
    Root,
    cricondenbar,
    density_root,
    solve_t,
)
from workbench.fluids.blend.tables import BlendTables
from workbench.fluids.coolprop.backend import CoolPropBackend
from workbench.fluids.coolprop.newton import BY_H, BY_S, newton_rho_t
from workbench.fluids.coolprop.records import OP_PS, PHRecord
from workbench.fluids.coolprop.supercritical import SUPERCRITICAL, SUPERCRITICAL_LIQUID
from workbench.fluids.coolprop.supercritical_isobars import IsobarAnchors

__all__ = ["BlendAboveDome"]


class BlendAboveDome(CoolPropBackend):
    """States of a blend above its tables (module docstring); the base of the blend backend."""

    tables: BlendTables
    _t_min: float
    _t_max: float

    def _above_init(self) -> None:
        """Set up the remembered supercritical states (the attributes of the layer it skips)."""
        self._super = []
        self._isobars = IsobarAnchors()
        self._near_ps_super = None
        self._pt_last = None
        self._t_crit_k = self.T_crit
        self._rho_crit = 0.0  # the stable root is chosen by its Gibbs energy, not by rho_c
        self._p_single: float | None = None
        # the coldest tabulated liquid (the bubble point at the tables' lowest pressure): the
        # lowest temperature of a state above the dome, and above its density every liquid's
        self._t_low = float(self.tables.sat[0, 0, 0])
        self._rho_liquid = 1.05 * float(self.tables.sat[0, 3, 0])

    @property
    def p_single(self) -> float:
        """Lowest pressure [Pa] from which every state of the blend is single-phase.

        The cricondenbar of CoolProp's phase envelope, :data:`~workbench.fluids.blend.supercritical.
        CB_MARGIN` above (traced once, on first use: about 50 ms).
        """
        if self._p_single is None:
            state = self._new_state()
            self._p_single = cricondenbar(state, self.p_crit) * (1.0 + CB_MARGIN)
        return self._p_single

    def _new_state(self) -> Any:  # pragma: no cover - defined by the blend backend
        raise NotImplementedError

    def _above_check(self, p: float, what: str, **inputs: float) -> None:
        """Refuse a pressure between the tables' top and the single-phase region, with why."""
        if p < self.p_single:
            raise self.error(
                what,
                f"the pressure is above the top of the blend's tables ({self.p_max / 1e5:.4g} "
                f"bar, {self.p_max / self.p_crit:.2f} of the critical pressure "
                f"{self.p_crit / 1e5:.4g} bar) and below its cricondenbar "
                f"({self.p_single / 1e5:.4g} bar, where every state is single-phase): the "
                "dome is not tabulated there (CoolProp's (p, Q) flash of the mixture stops "
                "converging); keep a condenser below the tables' top or a gas cooler above "
                "the cricondenbar",
                p=p,
                **inputs,
            )

    def _phase_code(self, T: float) -> int:
        return SUPERCRITICAL if self.T_crit <= T else SUPERCRITICAL_LIQUID

    def _root(self, p: float, T: float, what: str) -> Root:
        """The stable single-phase HEOS state at (p, T); ``_as`` holds it afterwards."""
        self._flashes += 1
        found = density_root(self._as, self._phase_code(T), p, T, self._rho_liquid)
        if found is None:
            raise self.error(what, "no single-phase HEOS density converges", p=p, T=T)
        return found

    def _keep_root(self, p: float, T: float, root: Root) -> None:
        """Remember the (p, T) state ``_as`` holds as a start, with its slopes."""
        rho, h, _s, cp = root
        state = self._as
        try:
            rho_t = float(state.first_partial_deriv(CP.iDmass, CP.iT, CP.iP))
            h_p = float(state.first_partial_deriv(CP.iHmass, CP.iP, CP.iT))
        except ValueError:
            return
        self._keep_super((p, h, T, rho, 1.0 / cp, rho_t / cp))
        self._pt_last = (p, T, cp, h_p)

    def _above_t(self, p: float, target: float, index: int, name: str, what: str) -> float:
        """Temperature [K] where the isobar's enthalpy (``index`` 1) or entropy (2) is ``target``."""
        try:
            return solve_t(
                lambda t: self._root(p, t, what)[index], target, self._t_low, self._t_max
            )
        except ValueError as exc:
            raise self.error(what, f"the {name} is {exc}", p=p, **{name: target}) from None

    def _above_ph(self, p: float, h: float, what: str) -> PHRecord:
        """(p, h) record above the dome: from a remembered state, else Brent then Newton."""
        self._above_check(p, what, h=h)
        record = self._supercritical(p, h)
        if record is not None:
            return record
        T = self._above_t(p, h, 1, "h", what)
        rho, _h, s, _cp = self._root(p, T, what)
        phase = self._phase_code(T)
        self._ph_held = None
        self._flashes += 1
        found = newton_rho_t(self._as_ph, phase, p, h, BY_H, T, rho, self._t_min, self._t_max, True)
        if found is not None:
            T, rho, s, held, t_h, rho_h = found
            self._ph_held = (p, h) if held else None
            self._keep_super((p, h, T, rho, t_h, rho_h))
        return (T, s, rho, self._phase_code(T), math.nan)

    def _above_pt(self, p: float, T: float, what: str) -> float:
        """Enthalpy [J/kg] at (p, T) above the dome."""
        self._above_check(p, what, T=T)
        h = self._supercritical_h(p, T)
        if h is not None:
            return h
        root = self._root(p, T, what)
        self._keep_root(p, T, root)
        return root[1]

    def _above_ps(self, p: float, s: float, what: str) -> float:
        """Enthalpy [J/kg] at (p, s) above the dome (a compressor's isentropic discharge)."""
        key = (OP_PS, p, s)
        value: float | None = self._memo.get(key)
        if value is not None:
            return value
        self._above_check(p, what, s=s)
        h = self._supercritical_ps(p, s)
        if h is None:
            T = self._above_t(p, s, 2, "s", what)
            rho, h, _s, _cp = self._root(p, T, what)
            self._flashes += 1
            found = newton_rho_t(
                self._as_ph,
                self._phase_code(T),
                p,
                s,
                BY_S,
                T,
                rho,
                self._t_min,
                self._t_max,
                False,
            )
            self._ph_held = None
            if found is not None:
                T, rho, h = found[0], found[1], found[2]
            self._near_ps_super = (p, T, rho)
        return self._remember(key, h)  # type: ignore[no-any-return]

    def _above_bound(self, p: float, T: float, what: str) -> float:
        """``h_min`` or ``h_max`` [J/kg] above the dome: the state at the model's T limit.

        The lowest temperature is the coldest tabulated liquid's (the bubble point at the
        tables' lowest pressure), the range the blend backend covers below the dome too.
        """
        self._above_check(p, what)
        return self._root(p, max(T, self._t_low), what)[1]

    def h_pT_slopes(self, p: float, T: float) -> tuple[float, float, float] | None:
        """Enthalpy at (p, T) above the dome with ``cp`` and ``(dh/dp)_T``; else None.

        As :meth:`~workbench.fluids.coolprop.supercritical.CoolPropSupercritical.h_pT_slopes`: the
        enthalpy is :meth:`h_pT`'s; the slopes come with the state that found it.

        Raises
        ------
        FluidPropertyError
            As :meth:`h_pT`.
        """
        if not p > self.tables.p_max:
            return None
        h = float(self.h_pT(p, T))
        last = self._pt_last
        if last is None or last[0] != p or last[1] != T:
            self._keep_root(p, T, self._root(p, T, "h from (p, T)"))
            last = self._pt_last
        if last is None:
            raise FluidPropertyError(f"{self.name}: no slopes at p={p!r} Pa, T={T!r} K")
        return h, last[2], last[3]
