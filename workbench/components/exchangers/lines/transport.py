"""Viscosities and surface tension of the refrigerant in a line, from CoolProp.

Who reads it: :mod:`.model` (the friction of single- and two-phase flow, the drift velocity of
the void fraction). The :class:`~workbench.fluids.FluidBackend` interface carries no transport
properties; this module reads them from CoolProp's HEOS ``AbstractState`` of the backend's
fluid (a pure fluid, or the HEOS mixture of a blend), one state per line family and fluid,
memoised by exact inputs. Saturation properties at the bubble (``Q = 0``) and dew (``Q = 1``)
points of the pressure.

Raises :class:`~workbench.errors.FluidPropertyError` for a backend without CoolProp (the
analytic ``Test`` fluids): a line needs ``"fluid_backend": "CoolProp"``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import CoolProp.CoolProp as CP

from workbench.errors import FluidPropertyError
from workbench.fluids import FluidBackend

__all__ = ["LineTransport", "SaturationTransport", "line_transport"]


@dataclass(frozen=True)
class SaturationTransport:
    """Saturated liquid and vapour transport properties at one pressure.

    Attributes
    ----------
    mu_l, mu_g : float
        Liquid and vapour dynamic viscosities [Pa s].
    sigma : float
        Surface tension [N/m].
    """

    mu_l: float
    mu_g: float
    sigma: float


class LineTransport:
    """Transport properties of one fluid (see module docstring).

    Parameters
    ----------
    backend : FluidBackend
        A CoolProp (or blend) backend; its ``name`` is a CoolProp fluid string.

    Raises
    ------
    FluidPropertyError
        The backend is not CoolProp's, or CoolProp has no transport model for the fluid.
    """

    def __init__(self, backend: FluidBackend) -> None:
        self.backend = backend
        spec = getattr(backend, "spec", None)
        fluids = str(getattr(spec, "coolprop_fluids", None) or backend.name)
        if backend.backend_name != "CoolProp":
            raise FluidPropertyError(
                f"{backend.name} ({backend.backend_name}): a refrigerant line needs viscosities "
                'and surface tension, which only CoolProp gives; use "fluid_backend": "CoolProp"'
            )
        try:
            self._state = CP.AbstractState("HEOS", fluids)
            fractions = getattr(spec, "mole_fractions", None)
            if fractions:
                self._state.set_mole_fractions(list(fractions))
        except ValueError as exc:
            raise FluidPropertyError(
                f"{backend.name}: no CoolProp state for transport: {exc}"
            ) from None
        self._memo: dict[tuple[str, float, float], Any] = {}

    def saturation(self, p: float) -> SaturationTransport:
        """Saturated liquid and vapour viscosities and the surface tension at ``p`` [Pa].

        Raises
        ------
        FluidPropertyError
            CoolProp fails at that pressure.
        """
        memo = ("sat", p, 0.0)
        found = self._memo.get(memo)
        if found is not None:
            return found  # type: ignore[no-any-return]
        st = self._state
        try:
            st.update(CP.PQ_INPUTS, p, 0.0)
            mu_l, sigma = st.viscosity(), st.surface_tension()
            st.update(CP.PQ_INPUTS, p, 1.0)
            mu_g = st.viscosity()
        except ValueError as exc:
            raise FluidPropertyError(
                f"{self.backend.name}: saturation transport failed at p = {p:.6g} Pa: {exc}"
            ) from None
        out = SaturationTransport(float(mu_l), float(mu_g), float(sigma))
        self._remember(memo, out)
        return out

    def viscosity(self, p: float, t: float) -> float:
        """Dynamic viscosity of a single-phase state [Pa s] at ``p`` [Pa], ``t`` [K].

        Raises
        ------
        FluidPropertyError
            CoolProp fails at that state.
        """
        memo = ("mu", p, t)
        found = self._memo.get(memo)
        if found is not None:
            return float(found)
        try:
            self._state.update(CP.PT_INPUTS, p, t)
            mu = float(self._state.viscosity())
        except ValueError as exc:
            raise FluidPropertyError(
                f"{self.backend.name}: viscosity failed at p = {p:.6g} Pa, T = {t:.6g} K: {exc}"
            ) from None
        self._remember(memo, mu)
        return mu

    def _remember(self, memo: tuple[str, float, float], value: Any) -> None:
        if len(self._memo) > 4096:
            self._memo.clear()
        self._memo[memo] = value


def line_transport(backend: FluidBackend) -> LineTransport:
    """The transport properties of a backend's fluid (one object per backend, kept on it).

    Parameters
    ----------
    backend : FluidBackend
        The circuit's refrigerant backend.

    Returns
    -------
    LineTransport
        Reused by every line of that backend.

    Raises
    ------
    FluidPropertyError
        The backend has no CoolProp fluid.
    """
    found = backend.__dict__.get("_line_transport")
    if isinstance(found, LineTransport):
        return found
    made = LineTransport(backend)
    backend.__dict__["_line_transport"] = made
    return made
