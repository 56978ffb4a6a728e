"""The two-phase correlations of one march, reduced to their dependence on quality and heat flux.

Who reads it: the segmented march (:mod:`.march`), three times per two-phase piece. Within one
march the mass flux, the geometry and the saturation properties are fixed, so each default
correlation is a constant times a power of what varies (module docstrings of
:mod:`workbench.correlations.plate_two_phase` and :mod:`.sides`)::

    Amalfi friction     dp/L   = K rho_m(x)^-0.525           (f_tp ~ We_m^-0.475, We_m ~ 1/rho_m)
    Longo, forced       h      = F (1 - x + x (rho_l/rho_g)^0.5)^0.445      (Re_eq^0.445)
    Longo, film         h      = K_film^(4/3) q^(-1/3)
    Amalfi, Bd < 4      h      = A rho_m(x)^-0.315 q^0.320   (We_m^0.315 Bo^0.320)
    Amalfi, Bd >= 4     h      = A x^0.135 q^0.198           (Re_g^0.135 Bo^0.198)

The constants are read from the floor's own functions at a reference quality and heat flux
(``K = rate(x_r) / rho_m(x_r)^-0.525`` and so on), so the kernel equals the floor at every
quality and flux to rounding (``tests/test_plate_march.py`` checks 1e-12), at a fraction of the
cost of calling it (one power instead of a correlation). Yan-Lin and Yan-Lio-Lin are called as
they are. The blends of :mod:`.sides` (Longo's branches, the single-phase edges) are applied
here in the same way.
"""

from __future__ import annotations

import math

from fluids.constants import g as GRAVITY

from workbench.components.exchangers.plate.sides import (
    LONGO_BLEND,
    X_BLEND,
    smoothstep,
    two_phase_film,
    two_phase_friction_rate,
)
from workbench.components.exchangers.plate.spec import PlateSpec
from workbench.correlations.plate_two_phase import (
    LONGO_RE_EQ_TRANSITION,
    plate_evaporation_amalfi,
)
from workbench.fluids.transport import SaturationTransport

__all__ = ["TwoPhaseKernel"]

_X_REF = 0.5
_Q_REF = 1.0e4


class TwoPhaseKernel:
    """Film coefficient and friction of the refrigerant's two-phase pieces in one march.

    Parameters
    ----------
    spec : PlateSpec
        The exchanger (its correlations).
    hot : bool
        True for condensation.
    mass_flux : float
        Refrigerant channel mass flux [kg/(m^2 s)].
    sat : SaturationTransport
        Saturated liquid and vapour at the march's inlet pressure.
    edge_films : tuple of float
        Single-phase coefficients of the saturated liquid and vapour [W/(m^2 K)].
    """

    def __init__(
        self,
        spec: PlateSpec,
        hot: bool,
        mass_flux: float,
        sat: SaturationTransport,
        edge_films: tuple[float, float],
    ) -> None:
        self.spec, self.hot, self.g, self.sat, self.edge = spec, hot, mass_flux, sat, edge_films
        liq, vap = sat.liquid, sat.vapour
        self.v_l, self.v_g = 1.0 / liq.rho, 1.0 / vap.rho
        rho_ref = self._rho_m(_X_REF)
        self.k_f = two_phase_friction_rate(spec, mass_flux, _X_REF, sat) / math.pow(rho_ref, -0.525)
        self.kind = "floor"
        dh = spec.hydraulic_diameter_m
        if hot and spec.condensation == "longo":
            self.kind = "longo"
            self.s = math.sqrt(liq.rho / vap.rho)
            self.re_lo = mass_flux * dh / liq.mu
            phi = spec.enlargement_factor
            self.forced0 = (
                1.875
                * phi
                * liq.k
                / dh
                * math.pow(self.re_lo, 0.445)
                * math.pow(liq.prandtl, 1.0 / 3.0)
            )
            k_film = (
                0.943
                * phi
                * math.pow(
                    liq.k**3
                    * liq.rho**2
                    * GRAVITY
                    * sat.h_fg
                    / (liq.mu * spec.geometry.plate_length_m),
                    0.25,
                )
            )
            self.film0 = math.pow(k_film, 4.0 / 3.0)
            self.log_blend = math.log(LONGO_BLEND)
        elif not hot and spec.evaporation == "amalfi":
            self.kind = "amalfi"
            h_ref = plate_evaporation_amalfi(
                mass_flux, _X_REF, dh, liq.rho, vap.rho, liq.mu, vap.mu, liq.k, sat.h_fg,
                sat.sigma, _Q_REF, spec.geometry.chevron_angle_deg,
            )  # fmt: skip
            bond = GRAVITY * (liq.rho - vap.rho) * dh**2 / sat.sigma
            self.micro = bond < 4.0
            if self.micro:
                self.a = h_ref / (math.pow(rho_ref, -0.315) * math.pow(_Q_REF, 0.320))
            else:
                self.a = h_ref / (math.pow(_X_REF, 0.135) * math.pow(_Q_REF, 0.198))

    def _rho_m(self, x: float) -> float:
        return 1.0 / (x * self.v_g + (1.0 - x) * self.v_l)

    def friction_rate(self, quality: float) -> float:
        """Amalfi's two-phase pressure drop per metre [Pa/m] (no correlation factor)."""
        x = min(max(quality, 1e-6), 1.0 - 1e-6)
        return self.k_f * math.pow(self._rho_m(x), -0.525)

    def film(self, quality: float, heat_flux: float) -> float:
        """The refrigerant film coefficient [W/(m^2 K)] (no correlation factor).

        Equal to :func:`~workbench.components.exchangers.plate.sides.two_phase_film` with the
        kernel's spec, mass flux, saturation record and edge films.
        """
        x = min(max(quality, 1e-6), 1.0 - 1e-6)
        q = max(abs(heat_flux), 1.0)
        if self.kind == "longo":
            ratio = 1.0 - x + x * self.s
            forced = self.forced0 * math.pow(ratio, 0.445)
            re_eq = self.re_lo * ratio
            t = (math.log(re_eq / LONGO_RE_EQ_TRANSITION) / self.log_blend + 1.0) / 2.0
            w = smoothstep(t)
            h_tp = (
                forced
                if w >= 1.0
                else w * forced + (1.0 - w) * self.film0 * math.pow(q, -1.0 / 3.0)
            )
        elif self.kind == "amalfi":
            if self.micro:
                h_tp = self.a * math.pow(self._rho_m(x), -0.315) * math.pow(q, 0.320)
            else:
                h_tp = self.a * math.pow(x, 0.135) * math.pow(q, 0.198)
        else:
            return two_phase_film(self.spec, self.hot, self.g, quality, self.sat, q, self.edge)
        if x < X_BLEND:
            w = smoothstep(x / X_BLEND)
            return w * h_tp + (1.0 - w) * self.edge[0]
        if x > 1.0 - X_BLEND:
            w = smoothstep((1.0 - x) / X_BLEND)
            return w * h_tp + (1.0 - w) * self.edge[1]
        return h_tp

    def film_friction(self, quality: float, heat_flux: float) -> tuple[float, float]:
        """:meth:`film` and :meth:`friction_rate` at one quality, sharing their common terms.

        Returns ``(h [W/(m^2 K)], dp/L [Pa/m])``, each equal to the method's own value (the
        same operations in the same order; the march's fixed point calls this).
        """
        x = min(max(quality, 1e-6), 1.0 - 1e-6)
        rho_m = 1.0 / (x * self.v_g + (1.0 - x) * self.v_l)
        rate = self.k_f * math.pow(rho_m, -0.525)
        kind = self.kind
        if kind == "amalfi":
            q = max(abs(heat_flux), 1.0)
            if self.micro:
                h_tp = self.a * math.pow(rho_m, -0.315) * math.pow(q, 0.320)
            else:
                h_tp = self.a * math.pow(x, 0.135) * math.pow(q, 0.198)
        elif kind == "longo":
            ratio = 1.0 - x + x * self.s
            forced = self.forced0 * math.pow(ratio, 0.445)
            t = (math.log(self.re_lo * ratio / LONGO_RE_EQ_TRANSITION) / self.log_blend + 1.0) / 2.0
            if t >= 1.0:
                h_tp = forced
            else:
                w = smoothstep(t)
                q = max(abs(heat_flux), 1.0)
                h_tp = w * forced + (1.0 - w) * self.film0 * math.pow(q, -1.0 / 3.0)
        else:
            return self.film(quality, heat_flux), rate
        if x < X_BLEND:
            w = smoothstep(x / X_BLEND)
            return w * h_tp + (1.0 - w) * self.edge[0], rate
        if x > 1.0 - X_BLEND:
            w = smoothstep((1.0 - x) / X_BLEND)
            return w * h_tp + (1.0 - w) * self.edge[1], rate
        return h_tp, rate
