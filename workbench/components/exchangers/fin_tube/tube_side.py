"""The refrigerant side of a geometric coil: film coefficient and friction per tube length.

Who reads it: the segment march (:mod:`workbench.components.exchangers.fin_tube.march`), twice
per segment. Properties are read once per march (:func:`tube_fluid`, at the inlet pressure:
the saturated liquid and vapour and one single-phase anchor state on each side, the inlet
itself when it is outside the dome); a single-phase state inside the march takes its
transport properties interpolated linearly in enthalpy between the saturated state and the
anchor. Over a coil's pressure drop (a
few percent of the pressure) the saturated properties change by under 1 %.

Temperature ``T(p, h)`` without a flash per segment (:meth:`TubeFluid.temperature`), from the
saturation temperatures at the inlet pressure and their slopes ``dT/dp``:

* inside the dome: a pure fluid's ``T_dew(p_in) + dT_dew/dp (p - p_in)``; a blend's glide
  needs the backend's ``T(p, h)``;
* vapour: ``T_dew(p) + theta(h)``, ``theta`` the cubic Hermite curve through
  ``(h_v, 0)`` with slope ``1/c_p,v`` and an anchor state ``(h_a, T_a - T_dew)`` with its
  slope ``1/c_p,a``: the inlet when it is superheated (a condenser's desuperheating), else the
  vapour :data:`ANCHOR_K` above the dew point; liquid likewise below the bubble point.

Against the backend's flash the temperature is within 0.05 K along the example coils' paths
(tests/test_fin_tube_tube_side.py); the ports' states are the backend's own.

Film coefficient ``h_i`` [W/(m^2 K)] against the quality ``x = (h - h_l)/(h_v - h_l)`` at the
inlet pressure's saturation enthalpies (so extended below 0 and above 1):

* ``0 < x < 1``: boiling, Liu & Winterton (1991) at the wall superheat ``q''/h_i`` (the heat
  flux of the last evaluation, two fixed-point passes); condensing, Shah (1979);
* ``x <= 0`` and ``x >= 1``: Gnielinski with the local single-phase properties;
* blends: over ``1 - dx < x < 1`` and ``0 < x < dx`` (``dx`` = :data:`BLEND_QUALITY`) the two
  coefficients are mixed with the weight ``s = 3 t^2 - 2 t^3`` (``t`` the position in the band),
  so the coefficient and its slope are continuous across the saturation lines; a switch
  would put a jump into the forward-difference Jacobian. The band stands in for the
  dry-out region of an evaporator, where the two-phase coefficient falls to the vapour's.

Friction per length ``dp/dz`` [Pa/m]: Müller-Steinhagen & Heck (1986), or Friedel (1979) with
``geometry.two_phase_friction = "friedel"``, with the quality clamped to [0, 1] and the local
single-phase density and viscosity outside the dome; at ``x = 0`` and ``x = 1`` either is the
all-liquid and all-vapour friction, so single-phase friction joins it without a step. Acceleration and gravity are
neglected (docs/components.md).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import CoolProp.CoolProp as CP

from workbench.correlations.in_tube import (
    boiling_liu_winterton,
    condensation_shah,
    dp_friedel,
    dp_muller_steinhagen_heck,
    single_phase_gnielinski,
)
from workbench.fluids.base import FluidBackend
from workbench.fluids.transport import PhaseTransport, SaturationTransport, Transport

__all__ = [
    "BLEND_QUALITY",
    "TubeFluid",
    "film_coefficient",
    "friction_gradient",
    "molar_mass_g_mol",
    "tube_fluid",
]

BLEND_QUALITY = 0.05
"""Width of the quality bands next to x = 0 and x = 1 where the two-phase and single-phase
film coefficients are blended [-]."""


ANCHOR_K = 15.0
"""Distance from the saturation line of the single-phase anchor states when the inlet is not
one [K] (an evaporator's vapour, a condenser's liquid)."""


@dataclass(frozen=True)
class TubeFluid:
    """The refrigerant's properties for one march.

    Attributes
    ----------
    sat : SaturationTransport
        Saturated liquid and vapour at the inlet pressure.
    vapour_ref, liquid_ref : PhaseTransport
        Single-phase anchor states at the inlet pressure: the inlet itself when it is on that
        side of the dome, else :data:`ANCHOR_K` from the saturation line.
    h_vapour_ref, h_liquid_ref : float
        Their enthalpies [J/kg].
    molar_mass_g_mol : float
        Molar mass [g/mol].
    p_crit : float
        Critical pressure [Pa].
    fluid : FluidBackend
        The backend (a blend's temperature inside the dome).
    dt_dew_dp, dt_bubble_dp : float
        Slopes of the dew and bubble temperatures at the inlet pressure [K/Pa].
    dp_liquid_only, dp_vapour_only : float
        Friction gradients of the whole flow as saturated liquid and as saturated vapour in
        one tube (Müller-Steinhagen & Heck's ``A`` and ``B``) [Pa/m].
    friedel : bool
        Two-phase friction by Friedel (1979) instead of Müller-Steinhagen & Heck.
    """

    sat: SaturationTransport
    vapour_ref: PhaseTransport
    h_vapour_ref: float
    liquid_ref: PhaseTransport
    h_liquid_ref: float
    molar_mass_g_mol: float
    p_crit: float
    fluid: FluidBackend
    dt_dew_dp: float
    dt_bubble_dp: float
    dp_liquid_only: float
    dp_vapour_only: float
    friedel: bool = False

    def quality(self, h: float) -> float:
        """Quality extended outside the dome, ``(h - h_l)/(h_v - h_l)`` [-]."""
        return (h - self.sat.h_liq) / self.sat.h_fg

    def temperature(self, p: float, h: float) -> float:
        """Refrigerant temperature at ``(p, h)`` (module docstring) [K]."""
        sat = self.sat
        dp = p - sat.p
        if h >= sat.h_vap:
            t_dew = sat.vapour.t + self.dt_dew_dp * dp
            return t_dew + _hermite(
                h - sat.h_vap, sat.vapour, self.vapour_ref, self.h_vapour_ref - sat.h_vap
            )
        if h <= sat.h_liq:
            t_bub = sat.liquid.t + self.dt_bubble_dp * dp
            return t_bub + _hermite(
                h - sat.h_liq, sat.liquid, self.liquid_ref, self.h_liquid_ref - sat.h_liq
            )
        if self.fluid.zeotropic:
            return float(self.fluid.T_ph(p, h))
        return sat.vapour.t + self.dt_dew_dp * dp

    def film(
        self,
        p: float,
        h: float,
        m_tube: float,
        diameter: float,
        evaporating: bool,
        flux: float,
        h_guess: float,
    ) -> float:
        """Film coefficient at ``(p, h)`` [W/(m^2 K)] (:func:`film_coefficient`)."""
        return film_coefficient(self, h, m_tube, diameter, evaporating, flux, h_guess)

    def friction(self, p: float, h: float, m_tube: float, diameter: float) -> float:
        """Frictional pressure gradient at ``(p, h)`` [Pa/m] (:func:`friction_gradient`)."""
        return friction_gradient(self, h, m_tube, diameter)

    def phase(self, h: float) -> PhaseTransport:
        """Single-phase properties at ``h`` [J/kg]: linear in ``h`` from saturation to the anchor."""
        vapour = h >= self.sat.h_vap
        base = self.sat.vapour if vapour else self.sat.liquid
        h_base = self.sat.h_vap if vapour else self.sat.h_liq
        ref, h_ref = (
            (self.vapour_ref, self.h_vapour_ref) if vapour else (self.liquid_ref, self.h_liquid_ref)
        )
        t = (h - h_base) / (h_ref - h_base)
        return PhaseTransport(
            base.p,
            base.t + t * (ref.t - base.t),
            1.0 / (1.0 / base.rho + t * (1.0 / ref.rho - 1.0 / base.rho)),
            base.mu + t * (ref.mu - base.mu),
            base.k + t * (ref.k - base.k),
            base.cp + t * (ref.cp - base.cp),
        )


def _hermite(dh: float, base: PhaseTransport, ref: PhaseTransport, span: float) -> float:
    """Temperature from the saturation line at ``dh`` from it: the cubic Hermite curve [K].

    Through ``(0, 0)`` with slope ``1/c_p`` of the saturated state and ``(span, T_ref - T_sat)``
    with the anchor's slope; straight on with that slope beyond the anchor.
    """
    s = dh / span
    theta = ref.t - base.t
    if s >= 1.0:
        return theta + (dh - span) / ref.cp
    s2, s3 = s * s, s * s * s
    return (
        (s3 - 2.0 * s2 + s) * span / base.cp
        + (3.0 * s2 - 2.0 * s3) * theta
        + (s3 - s2) * span / ref.cp
    )


def molar_mass_g_mol(transport: Transport) -> float:
    """Molar mass of the transport's fluid, mole-averaged for a blend [g/mol]."""
    return 1000.0 * sum(
        x * float(CP.PropsSI("molar_mass", name))
        for name, x in zip(transport.components, transport.mole, strict=True)
    )


def tube_fluid(
    transport: Transport,
    p_in: float,
    h_in: float,
    t_in: float,
    molar_mass: float,
    m_tube: float,
    diameter: float,
    friedel: bool = False,
) -> TubeFluid:
    """Read the properties of one march at its inlet.

    Parameters
    ----------
    transport : Transport
        The fluid's transport properties (:func:`workbench.fluids.transport.transport_for`).
    p_in, h_in, t_in : float
        Inlet pressure [Pa], enthalpy [J/kg] and temperature [K].
    molar_mass : float
        Molar mass [g/mol].
    m_tube : float
        Mass flow in one tube [kg/s].
    diameter : float
        Inner diameter [m].
    friedel : bool
        Two-phase friction by Friedel instead of Müller-Steinhagen & Heck.

    Raises
    ------
    FluidPropertyError
        The inlet pressure is outside the two-phase range.
    """
    fl = transport.backend
    sat = transport.saturation(p_in)
    liq, vap = sat.liquid, sat.vapour
    if h_in > sat.h_vap + 100.0:
        vap_ref, h_vap_ref = transport.single_phase(p_in, t_in), h_in
    else:
        t = vap.t + ANCHOR_K
        vap_ref, h_vap_ref = transport.single_phase(p_in, t), float(fl.h_pT(p_in, t))
    if h_in < sat.h_liq - 100.0:
        liq_ref, h_liq_ref = transport.single_phase(p_in, t_in), h_in
    else:
        t = liq.t - ANCHOR_K
        liq_ref, h_liq_ref = transport.single_phase(p_in, t), float(fl.h_pT(p_in, t))
    a = dp_muller_steinhagen_heck(m_tube, 0.0, liq.rho, vap.rho, liq.mu, vap.mu, diameter, 1.0)
    b = dp_muller_steinhagen_heck(m_tube, 1.0, liq.rho, vap.rho, liq.mu, vap.mu, diameter, 1.0)
    return TubeFluid(
        sat,
        vap_ref,
        h_vap_ref,
        liq_ref,
        h_liq_ref,
        molar_mass,
        fl.p_crit,
        fl,
        float(fl.dTsat_dp(p_in)),
        float(fl.dTbubble_dp(p_in)) if fl.zeotropic else float(fl.dTsat_dp(p_in)),
        a,
        b,
        friedel,
    )


def _smoothstep(t: float) -> float:
    t = min(max(t, 0.0), 1.0)
    return t * t * (3.0 - 2.0 * t)


def _single_phase(props: PhaseTransport, mass_flux: float, diameter: float) -> float:
    re = mass_flux * diameter / props.mu
    return single_phase_gnielinski(re, props.prandtl, props.k, diameter)


def _two_phase(
    tf: TubeFluid,
    x: float,
    m_tube: float,
    diameter: float,
    evaporating: bool,
    flux: float,
    h_guess: float,
) -> float:
    liq, vap = tf.sat.liquid, tf.sat.vapour
    x = min(max(x, 0.0), 1.0)
    if not evaporating:
        return condensation_shah(
            m_tube, x, diameter, liq.rho, liq.mu, liq.k, liq.cp, tf.sat.p, tf.p_crit
        )
    h = h_guess
    for _ in range(2):
        h = boiling_liu_winterton(
            m_tube,
            x,
            diameter,
            liq.rho,
            vap.rho,
            liq.mu,
            liq.k,
            liq.cp,
            tf.molar_mass_g_mol,
            tf.sat.p,
            tf.p_crit,
            max(abs(flux), 1.0) / h,
        )
    return h


def film_coefficient(
    tf: TubeFluid,
    h: float,
    m_tube: float,
    diameter: float,
    evaporating: bool,
    flux: float,
    h_guess: float,
) -> float:
    """Refrigerant film coefficient at enthalpy ``h`` (module docstring) [W/(m^2 K)].

    Parameters
    ----------
    tf : TubeFluid
        The march's properties.
    h : float
        Local enthalpy [J/kg].
    m_tube : float
        Mass flow in one tube (one circuit) [kg/s].
    diameter : float
        Inner diameter [m].
    evaporating : bool
        Boiling (Liu & Winterton) rather than condensing (Shah) inside the dome.
    flux : float
        Heat flux of the last evaluation, for the boiling wall superheat [W/m^2].
    h_guess : float
        Start of the boiling fixed point (the last coefficient) [W/(m^2 K)].
    """
    x = tf.quality(h)
    mass_flux = m_tube / (math.pi * diameter**2 / 4.0)
    if x >= 1.0 or x <= 0.0:
        return _single_phase(tf.phase(h), mass_flux, diameter)
    h_tp = _two_phase(tf, x, m_tube, diameter, evaporating, flux, h_guess)
    if x > 1.0 - BLEND_QUALITY:
        s = _smoothstep((x - 1.0 + BLEND_QUALITY) / BLEND_QUALITY)
        return (1.0 - s) * h_tp + s * _single_phase(tf.sat.vapour, mass_flux, diameter)
    if x < BLEND_QUALITY:
        s = _smoothstep((BLEND_QUALITY - x) / BLEND_QUALITY)
        return (1.0 - s) * h_tp + s * _single_phase(tf.sat.liquid, mass_flux, diameter)
    return h_tp


def friction_gradient(tf: TubeFluid, h: float, m_tube: float, diameter: float) -> float:
    """Frictional pressure gradient at enthalpy ``h`` (module docstring) [Pa/m].

    Parameters
    ----------
    tf : TubeFluid
        The march's properties.
    h : float
        Local enthalpy [J/kg].
    m_tube : float
        Mass flow in one tube [kg/s].
    diameter : float
        Inner diameter [m].
    """
    x = tf.quality(h)
    liq, vap = tf.sat.liquid, tf.sat.vapour
    if x >= 1.0:
        vap = tf.phase(h)
        return dp_muller_steinhagen_heck(
            m_tube, 1.0, liq.rho, vap.rho, liq.mu, vap.mu, diameter, 1.0
        )
    if x <= 0.0:
        liq = tf.phase(h)
        return dp_muller_steinhagen_heck(
            m_tube, 0.0, liq.rho, vap.rho, liq.mu, vap.mu, diameter, 1.0
        )
    if tf.friedel:  # its multiplier is 1 at x = 0 and gives the all-vapour friction at x = 1
        return dp_friedel(m_tube, x, liq.rho, vap.rho, liq.mu, vap.mu, tf.sat.sigma, diameter, 1.0)
    # Müller-Steinhagen & Heck's interpolation between its two single-phase gradients (the
    # same formula as fluids.two_phase.Muller_Steinhagen_Heck, with A and B read once)
    a, b = tf.dp_liquid_only, tf.dp_vapour_only
    return float((a + 2.0 * (b - a) * x) * math.pow(1.0 - x, 1.0 / 3.0) + b * x**3)
