"""Film coefficients and pressure-drop rates of the two sides of a brazed plate exchanger.

Who reads it: the segmented march (:mod:`.march`), per piece of plate. Every function is a thin
layer over the floor of :mod:`workbench.correlations.plate_single_phase` and
:mod:`workbench.correlations.plate_two_phase` (the correlations, their papers and ranges are
there and in docs/correlations_plates_lines.md); what is added here is what a march needs:

* **Single phase** (water or brine side everywhere; refrigerant vapour and liquid):
  ``h = Nu k / D_h`` with ``Nu`` of Martin (VDI) or Muley-Manglik at the channel mass flux
  ``G = m / (N_side b W)``; friction ``dp/L = f G^2 / (2 rho D_h)``.
* **Two phase**: evaporation (Amalfi or Yan-Lin) and condensation (Longo or Yan-Lio-Lin) at the
  piece's mean quality and heat flux; friction of Amalfi for both.
* **Longo made smooth**: Longo switches at ``Re_eq = 1600`` from the gravity-controlled film
  (``h = 0.943 phi [k^3 rho^2 g h_lv / (mu dT_w L)]^(1/4)``) to forced convection. With
  ``dT_w = q / h`` the film branch is explicit in the heat flux,
  ``h = K^(4/3) q^(-1/3)``, ``K = 0.943 phi [k^3 rho^2 g h_lv / (mu L)]^(1/4)``; the two branches
  are blended by a smoothstep in ``ln Re_eq`` over ``1600 / 1.15 .. 1600 * 1.15``
  (:data:`LONGO_BLEND`), so ``h`` is continuous in the quality and the state: the march must be
  smooth for the solver's finite differences.
* **Blend to single phase near the saturation lines**: the two-phase coefficient goes over to
  the single-phase coefficient of the saturated liquid (``x -> 0``) or vapour (``x -> 1``) by a
  smoothstep over the quality bands ``[0, X_BLEND]`` and ``[1 - X_BLEND, 1]``
  (:data:`X_BLEND` = 0.05), so ``h`` has no jump where a zone ends (the correlations fitted
  inside the dome say nothing of its edges; the blend also stands in for the dryout of an
  evaporator's last few percent of quality).

Units: SI everywhere, ``h`` in W/(m^2 K) on the corrugated (enlarged) area, pressure-drop rates
in Pa per metre of port-to-port length.
"""

from __future__ import annotations

import math

from fluids.constants import g as GRAVITY

from workbench.components.exchangers.plate.spec import PlateSpec
from workbench.correlations.plate_single_phase import (
    plate_friction_factor,
    plate_nusselt,
    plate_reynolds,
)
from workbench.correlations.plate_two_phase import (
    LONGO_RE_EQ_TRANSITION,
    plate_condensation_yan_lio_lin,
    plate_equivalent_reynolds,
    plate_evaporation_amalfi,
    plate_evaporation_yan_lin,
    plate_two_phase_friction_amalfi,
)
from workbench.fluids.transport import PhaseTransport, SaturationTransport

__all__ = [
    "LONGO_BLEND",
    "X_BLEND",
    "condensation_longo_smooth",
    "single_phase_film",
    "single_phase_friction_rate",
    "smoothstep",
    "two_phase_film",
    "two_phase_friction_rate",
]

X_BLEND = 0.05
"""Quality band at each saturation line over which the two-phase coefficient is blended to the
single-phase one [-]."""

LONGO_BLEND = 1.15
"""Longo's film and forced-convection branches are blended over ``Re_eq`` in
``1600 / LONGO_BLEND .. 1600 * LONGO_BLEND`` [-]."""


def smoothstep(t: float) -> float:
    """``3 t^2 - 2 t^3`` on ``[0, 1]``, 0 below and 1 above [-] (C1 continuous)."""
    if t <= 0.0:
        return 0.0
    if t >= 1.0:
        return 1.0
    return t * t * (3.0 - 2.0 * t)


def single_phase_film(
    spec: PlateSpec, mass_flux: float, rho: float, mu: float, k: float, cp: float
) -> tuple[float, float]:
    """Single-phase film coefficient and Reynolds number of one channel.

    Parameters
    ----------
    spec : PlateSpec
        The exchanger (its geometry and single-phase correlation).
    mass_flux : float
        Channel mass flux ``G`` [kg/(m^2 s)].
    rho, mu, k, cp : float
        Density [kg/m^3], viscosity [Pa s], conductivity [W/(m K)] and heat capacity
        [J/(kg K)] at the bulk temperature.

    Returns
    -------
    tuple of float
        ``h`` [W/(m^2 K)] (no correlation factor) and ``Re`` [-].
    """
    del rho
    g = spec.geometry
    dh = spec.hydraulic_diameter_m
    re = plate_reynolds(mass_flux, dh, mu)
    nu = plate_nusselt(
        re, cp * mu / k, g.chevron_angle_deg, spec.enlargement_factor, spec.single_phase
    )
    return nu * k / dh, re


def single_phase_friction_rate(spec: PlateSpec, mass_flux: float, rho: float, mu: float) -> float:
    """Single-phase channel pressure drop per metre of port-to-port length [Pa/m].

    ``f G^2 / (2 rho D_h)`` with the Darcy ``f`` of the spec's correlation.
    """
    g = spec.geometry
    dh = spec.hydraulic_diameter_m
    f = plate_friction_factor(
        plate_reynolds(mass_flux, dh, mu),
        g.chevron_angle_deg,
        spec.enlargement_factor,
        spec.single_phase,
    )
    return f * mass_flux**2 / (2.0 * rho * dh)


def condensation_longo_smooth(
    spec: PlateSpec, mass_flux: float, quality: float, sat: SaturationTransport, heat_flux: float
) -> float:
    """Longo et al. (2015) condensation with its two branches blended (module docstring).

    Parameters
    ----------
    spec : PlateSpec
        The exchanger.
    mass_flux : float
        Channel mass flux [kg/(m^2 s)].
    quality : float
        Vapour quality [-].
    sat : SaturationTransport
        Saturated liquid and vapour at the pressure.
    heat_flux : float
        Heat flux on the corrugated area, positive [W/m^2].

    Returns
    -------
    float
        Heat-transfer coefficient [W/(m^2 K)].
    """
    g = spec.geometry
    liq, vap = sat.liquid, sat.vapour
    dh, phi = spec.hydraulic_diameter_m, spec.enlargement_factor
    re_eq = plate_equivalent_reynolds(mass_flux, quality, dh, liq.rho, vap.rho, liq.mu)
    forced = 1.875 * phi * liq.k / dh * math.pow(re_eq, 0.445) * math.pow(liq.prandtl, 1.0 / 3.0)
    t = (math.log(re_eq / LONGO_RE_EQ_TRANSITION) / math.log(LONGO_BLEND) + 1.0) / 2.0
    w = smoothstep(t)
    if w >= 1.0:
        return forced
    k_film = (
        0.943
        * phi
        * math.pow(liq.k**3 * liq.rho**2 * GRAVITY * sat.h_fg / (liq.mu * g.plate_length_m), 0.25)
    )
    film = math.pow(k_film, 4.0 / 3.0) * math.pow(max(heat_flux, 1.0), -1.0 / 3.0)
    return w * forced + (1.0 - w) * film


def _two_phase_raw(
    spec: PlateSpec,
    hot: bool,
    mass_flux: float,
    quality: float,
    sat: SaturationTransport,
    heat_flux: float,
) -> float:
    g = spec.geometry
    liq, vap = sat.liquid, sat.vapour
    dh, q = spec.hydraulic_diameter_m, max(heat_flux, 1.0)
    if hot:
        if spec.condensation == "longo":
            return condensation_longo_smooth(spec, mass_flux, quality, sat, q)
        return plate_condensation_yan_lio_lin(
            mass_flux, quality, dh, liq.rho, vap.rho, liq.mu, liq.k, liq.cp
        )
    if spec.evaporation == "amalfi":
        return plate_evaporation_amalfi(
            mass_flux, quality, dh, liq.rho, vap.rho, liq.mu, vap.mu, liq.k, sat.h_fg,
            sat.sigma, q, g.chevron_angle_deg,
        )  # fmt: skip
    return plate_evaporation_yan_lin(
        mass_flux, quality, dh, liq.rho, vap.rho, liq.mu, liq.k, sat.h_fg, liq.cp, q
    )


def two_phase_film(
    spec: PlateSpec,
    hot: bool,
    mass_flux: float,
    quality: float,
    sat: SaturationTransport,
    heat_flux: float,
    edge_films: tuple[float, float],
) -> float:
    """Two-phase film coefficient of the refrigerant, blended to single phase at the edges.

    Parameters
    ----------
    spec : PlateSpec
        The exchanger (its correlations).
    hot : bool
        True for condensation, False for evaporation.
    mass_flux : float
        Channel mass flux [kg/(m^2 s)].
    quality : float
        Mean vapour quality of the piece [-].
    sat : SaturationTransport
        Saturated liquid and vapour at the pressure.
    heat_flux : float
        Heat flux on the corrugated area [W/m^2] (its magnitude is used).
    edge_films : tuple of float
        Single-phase coefficients of the saturated liquid and of the saturated vapour at the
        same mass flux [W/(m^2 K)].

    Returns
    -------
    float
        Film coefficient [W/(m^2 K)] (no correlation factor).
    """
    x = min(max(quality, 1e-6), 1.0 - 1e-6)
    h_tp = _two_phase_raw(spec, hot, mass_flux, x, sat, abs(heat_flux))
    if x < X_BLEND:
        w = smoothstep(x / X_BLEND)
        return w * h_tp + (1.0 - w) * edge_films[0]
    if x > 1.0 - X_BLEND:
        w = smoothstep((1.0 - x) / X_BLEND)
        return w * h_tp + (1.0 - w) * edge_films[1]
    return h_tp


def two_phase_friction_rate(
    spec: PlateSpec, mass_flux: float, quality: float, sat: SaturationTransport
) -> float:
    """Two-phase channel pressure drop per metre, Amalfi et al. (2016) [Pa/m].

    ``2 f_tp G^2 / (rho_m D_h)``, ``rho_m`` homogeneous; the quality is kept inside
    ``[1e-6, 1 - 1e-6]`` (the correlation's Weber number and density ratio stay finite).
    """
    g = spec.geometry
    liq, vap = sat.liquid, sat.vapour
    x = min(max(quality, 1e-6), 1.0 - 1e-6)
    dh = spec.hydraulic_diameter_m
    f_tp = plate_two_phase_friction_amalfi(
        mass_flux, x, dh, liq.rho, vap.rho, sat.sigma, g.chevron_angle_deg
    )
    rho_m = 1.0 / (x / vap.rho + (1.0 - x) / liq.rho)
    return 2.0 * f_tp * mass_flux**2 / (rho_m * dh)


def phase_film(spec: PlateSpec, mass_flux: float, props: PhaseTransport) -> tuple[float, float]:
    """:func:`single_phase_film` from a transport record ``(h [W/(m^2 K)], Re [-])``."""
    return single_phase_film(spec, mass_flux, props.rho, props.mu, props.k, props.cp)
