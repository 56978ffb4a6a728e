"""Transport properties of a working fluid: viscosity, conductivity, heat capacity, surface tension.

The property backends (:class:`~workbench.fluids.base.FluidBackend`) give what a cycle needs:
states, saturation and their derivatives. Exchangers and lines built from their hardware also
need film coefficients and friction, so viscosity ``mu`` [Pa s], thermal conductivity ``k``
[W/(m K)], specific heat ``cp`` [J/(kg K)] and surface tension ``sigma`` [N/m]. This module reads
them from CoolProp's HEOS backend, memoised per state:

* **Pure fluids** (the ``CoolProp`` backend): CoolProp's own correlations (about 10 us a state).
* **Blends** (:class:`~workbench.fluids.blend.backend.BlendBackend`): CoolProp's mixture
  transport is slow (about 4 ms a state) and its liquid viscosity of R32/R125 is three times
  that of either component, so the components are mixed with simple rules instead, each
  component taken at the blend's temperature:

  - liquid: each component as saturated liquid at ``T`` (at ``(p, T)`` above its critical
    temperature); ``ln mu = sum x_i ln mu_i`` (Grunberg-Nissan without interaction, mole
    fractions ``x_i``), ``k = sum w_i k_i`` (mass fractions), ``sigma = sum x_i sigma_i``;
  - vapour: each component as a gas at its partial pressure ``y_i p`` (kept 0.1 % below its
    saturation pressure), ``mu`` and ``k`` by Herning-Zipperer,
    ``sum y_i sqrt(M_i) phi_i / sum y_i sqrt(M_i)``.

  Density and ``cp`` always come from the blend's own equation of state. These rules are
  within 5-15 % of measured blend viscosities and conductivities (Poling, Prausnitz, O'Connell,
  The Properties of Gases and Liquids, 5th ed., ch. 9-10), which is the accuracy of the film
  coefficient correlations that use them.
* **The analytic ``Test`` backend** has no transport properties: asking raises
  :class:`~workbench.errors.FluidPropertyError` naming the fluid.

Saturation records are memoised per pressure, single-phase records per ``(p, T)``; both memos
are bounded (:data:`MEMO_SIZE`), so a sweep does not grow them without end.
"""

from __future__ import annotations

import math
import weakref
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import CoolProp.CoolProp as CP

from workbench.errors import FluidPropertyError
from workbench.fluids.base import FluidBackend

__all__ = [
    "MEMO_SIZE",
    "PhaseTransport",
    "SaturationTransport",
    "Transport",
    "transport_for",
]

MEMO_SIZE = 4096
"""Records kept per memo (least recently used dropped first)."""


@dataclass(frozen=True)
class PhaseTransport:
    """Transport properties of one single-phase state.

    Attributes
    ----------
    p, t : float
        Pressure [Pa] and temperature [K].
    rho : float
        Density [kg/m3].
    mu : float
        Dynamic viscosity [Pa s].
    k : float
        Thermal conductivity [W/(m K)].
    cp : float
        Isobaric specific heat [J/(kg K)].
    """

    p: float
    t: float
    rho: float
    mu: float
    k: float
    cp: float

    @property
    def prandtl(self) -> float:
        """Prandtl number ``cp mu / k`` [-]."""
        return self.cp * self.mu / self.k


@dataclass(frozen=True)
class SaturationTransport:
    """Saturated liquid (bubble point) and vapour (dew point) at one pressure.

    Attributes
    ----------
    p : float
        Pressure [Pa].
    liquid, vapour : PhaseTransport
        The saturated liquid at its bubble temperature and the vapour at its dew temperature.
    h_liq, h_vap : float
        Their enthalpies [J/kg] (from the backend, so they match its states).
    sigma : float
        Surface tension [N/m] at the bubble temperature.
    """

    p: float
    liquid: PhaseTransport
    vapour: PhaseTransport
    h_liq: float
    h_vap: float
    sigma: float

    @property
    def h_fg(self) -> float:
        """Latent heat ``h_vap - h_liq`` [J/kg]."""
        return self.h_vap - self.h_liq


class _LRU:
    """A bounded memo (least recently used dropped first)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.data: OrderedDict[tuple[float, ...], Any] = OrderedDict()

    def get(self, key: tuple[float, ...]) -> Any:
        value = self.data.get(key)
        if value is not None:
            self.data.move_to_end(key)
        return value

    def put(self, key: tuple[float, ...], value: Any) -> None:
        self.data[key] = value
        if len(self.data) > self.size:
            self.data.popitem(last=False)


class Transport:
    """Transport properties of one backend's fluid (build it with :func:`transport_for`).

    Parameters
    ----------
    backend : FluidBackend
        The working fluid's property backend: ``CoolProp`` (pure) or a blend.

    Raises
    ------
    FluidPropertyError
        The backend has no transport properties (the analytic ``Test`` backend).
    """

    def __init__(self, backend: FluidBackend) -> None:
        self.backend = backend
        spec = getattr(backend, "spec", None)
        if backend.backend_name != "CoolProp" and spec is None:
            raise FluidPropertyError(
                f"{backend.name} ({backend.backend_name}): no transport properties (viscosity, "
                "conductivity); exchangers and lines from their geometry need the CoolProp backend"
            )
        if spec is not None:  # a blend: components mixed by the rules of the module docstring
            self.components: tuple[str, ...] = tuple(spec.components)
            self.mole: tuple[float, ...] = tuple(spec.mole_fractions)
            self.mass: tuple[float, ...] = tuple(spec.mass_fractions)
        else:
            self.components, self.mole, self.mass = (backend.name,), (1.0,), (1.0,)
        try:
            self._states = [CP.AbstractState("HEOS", c) for c in self.components]
        except ValueError as exc:
            raise FluidPropertyError(
                f"{backend.name}: no transport properties in CoolProp: {exc}"
            ) from None
        self._molar = [s.molar_mass() for s in self._states]
        self._t_crit = [s.T_critical() for s in self._states]
        self._sat = _LRU(MEMO_SIZE)
        self._phase = _LRU(MEMO_SIZE)

    @property
    def pure(self) -> bool:
        """True for a pure fluid (CoolProp's own transport properties)."""
        return len(self.components) == 1

    def _fail(self, what: str, exc: Exception) -> FluidPropertyError:
        return FluidPropertyError(f"{self.backend.name}: transport properties {what}: {exc}")

    def single_phase(self, p: float, t: float) -> PhaseTransport:
        """Transport properties of the single-phase state ``(p, t)`` [Pa, K].

        Raises
        ------
        FluidPropertyError
            CoolProp cannot evaluate the state (the message names fluid, pressure and
            temperature).
        """
        key = (p, t)
        found: PhaseTransport | None = self._phase.get(key)
        if found is not None:
            return found
        try:
            h = float(self.backend.h_pT(p, t))
            rho = float(self.backend.rho_ph(p, h))
            cp = 1.0 / float(self.backend.dT_dh_p(p, h))
            if self.pure:
                st = self._states[0]
                st.update(CP.DmassT_INPUTS, rho, t)
                mu, k = st.viscosity(), st.conductivity()
            else:
                liquid = h < float(self.backend.h_liq(p))
                mu, k = self._liquid_mix(p, t) if liquid else self._vapour_mix(p, t)
        except (ValueError, FluidPropertyError) as exc:
            raise self._fail(f"at p = {p:.6g} Pa, T = {t:.6g} K", exc) from None
        record = PhaseTransport(p, t, rho, mu, k, cp)
        self._phase.put(key, record)
        return record

    def saturation(self, p: float) -> SaturationTransport:
        """Saturated liquid and vapour transport properties at pressure ``p`` [Pa].

        Raises
        ------
        FluidPropertyError
            ``p`` is outside the two-phase range (at or above the critical pressure).
        """
        key = (p,)
        found: SaturationTransport | None = self._sat.get(key)
        if found is not None:
            return found
        b = self.backend
        try:
            h_l, h_v = float(b.h_liq(p)), float(b.h_vap(p))
            t_l, t_v = float(b.T_bubble(p)), float(b.T_sat(p))
            cp_l = 1.0 / float(b.dT_dh_p(p, h_l - 1.0))
            cp_v = 1.0 / float(b.dT_dh_p(p, h_v + 1.0))
            rho_l, rho_v = float(b.rho_ph(p, h_l)), float(b.rho_ph(p, h_v))
            if self.pure:
                st = self._states[0]
                st.update(CP.PQ_INPUTS, p, 0.0)
                mu_l, k_l, sigma = st.viscosity(), st.conductivity(), st.surface_tension()
                st.update(CP.PQ_INPUTS, p, 1.0)
                mu_v, k_v = st.viscosity(), st.conductivity()
            else:
                mu_l, k_l = self._liquid_mix(p, t_l)
                mu_v, k_v = self._vapour_mix(p, t_v)
                sigma = self._sigma_mix(t_l)
        except (ValueError, FluidPropertyError) as exc:
            raise self._fail(f"at saturation, p = {p:.6g} Pa", exc) from None
        record = SaturationTransport(
            p,
            PhaseTransport(p, t_l, rho_l, mu_l, k_l, cp_l),
            PhaseTransport(p, t_v, rho_v, mu_v, k_v, cp_v),
            h_l,
            h_v,
            sigma,
        )
        self._sat.put(key, record)
        return record

    # -- mixing rules of a blend (module docstring) --------------------------------------------
    def _component_liquid(self, i: int, p: float, t: float) -> Any:
        st = self._states[i]
        if t < self._t_crit[i]:
            st.update(CP.QT_INPUTS, 0.0, t)
        else:
            st.update(CP.PT_INPUTS, p, t)
        return st

    def _liquid_mix(self, p: float, t: float) -> tuple[float, float]:
        ln_mu, k = 0.0, 0.0
        for i, (x, w) in enumerate(zip(self.mole, self.mass)):
            st = self._component_liquid(i, p, t)
            ln_mu += x * math.log(st.viscosity())
            k += w * st.conductivity()
        return math.exp(ln_mu), k

    def _vapour_mix(self, p: float, t: float) -> tuple[float, float]:
        num_mu = num_k = den = 0.0
        for i, y in enumerate(self.mole):
            st = self._states[i]
            p_i = y * p
            if t < self._t_crit[i]:
                st.update(CP.QT_INPUTS, 1.0, t)
                p_i = min(p_i, 0.999 * st.p())
            st.update(CP.PT_INPUTS, p_i, t)
            weight = y * math.sqrt(self._molar[i])
            num_mu += weight * st.viscosity()
            num_k += weight * st.conductivity()
            den += weight
        return num_mu / den, num_k / den

    def _sigma_mix(self, t: float) -> float:
        sigma = 0.0
        for i, x in enumerate(self.mole):
            if t < self._t_crit[i]:
                st = self._states[i]
                st.update(CP.QT_INPUTS, 0.0, t)
                sigma += x * st.surface_tension()
        return sigma


_BY_BACKEND: weakref.WeakKeyDictionary[FluidBackend, Transport] = weakref.WeakKeyDictionary()


def transport_for(backend: FluidBackend) -> Transport:
    """The :class:`Transport` of a backend (one per backend object, built on first use).

    Raises
    ------
    FluidPropertyError
        The backend has no transport properties (the analytic ``Test`` backend).
    """
    found = _BY_BACKEND.get(backend)
    if found is None:
        found = Transport(backend)
        _BY_BACKEND[backend] = found
    return found
