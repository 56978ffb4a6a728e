"""The air side of a geometric coil at its operating point: flow, coefficient, fin efficiency, drop.

Who reads it: the segment march (:mod:`workbench.components.exchangers.fin_tube.march`), which
gives every segment its area share of :class:`AirSide` (parallel air, as ACHP does: each
segment meets air at the coil's inlet state), and the coil's outputs.

Equations (SI; the floor's correlations in :mod:`workbench.correlations`):

* humid-air mass flow ``m_a`` (``secondary_mass_flow_kg_s`` times ``fan_speed``, or
  ``air_volume_flow_m3_s`` times the inlet density), dry-air flow ``m_da = m_a / (1 + W)``;
* ``Re_Dc = G D_c / mu`` with ``G = m_a / A_c``; ``j, f`` of the fin type (Wang and
  co-workers, :func:`~workbench.correlations.air_side.fin_tube_j_f`); a microchannel coil's
  ``Re_Lp = G L_p / mu`` and Chang & Wang's (or Kim & Bullard's) j with Chang's f
  (:func:`~workbench.correlations.air_side.microchannel_j_f`);
* ``h_o = c_air j G c_p / Pr^(2/3)`` (Colburn), ``c_air`` the ``air_side`` correlation factor;
* dry fin: ``m = sqrt(2 h_o / (k_f t_f))``, Schmidt's efficiency ``eta_f`` (a
  microchannel's straight fin: ``tanh(m L)/(m L)``), surface
  efficiency ``eta_o = 1 - (A_f/A_o)(1 - eta_f)``; the wet fin's efficiency per segment from
  :meth:`AirSide.wet_surface_efficiency` (``m_wet = m sqrt(b_w / c_p)``, Threlkeld);
* pressure drop: Kays & London's core equation with f, times the ``air_pressure_drop`` factor
  (dry-surface f: condensate's extra drop is not modelled, docs/components.md).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from workbench.components.exchangers.fin_tube.geometry import CoilGeometry
from workbench.correlations import humid_air as ha
from workbench.correlations.air_side import (
    core_pressure_drop,
    fin_tube_j_f,
    fin_tube_range_messages,
    heat_transfer_coefficient,
    microchannel_j_f,
    microchannel_range_messages,
)
from workbench.correlations.fin_efficiency import fin_parameter, surface_efficiency
from workbench.correlations.microchannel import MicrochannelGeometry
from workbench.correlations.saturated_air import moist_enthalpy

__all__ = ["AirInlet", "AirSide", "air_side"]


@dataclass(frozen=True)
class AirInlet:
    """The air entering a coil [SI].

    Attributes
    ----------
    t_k : float
        Dry-bulb temperature [K].
    w : float
        Humidity ratio [kg/kg_da].
    p_pa : float
        Air pressure [Pa].
    mass_flow_kg_s : float
        Humid-air mass flow through the whole coil [kg/s].
    """

    t_k: float
    w: float
    p_pa: float
    mass_flow_kg_s: float

    @property
    def dry_mass_flow_kg_s(self) -> float:
        """Dry-air flow ``m_a / (1 + W)`` [kg/s]."""
        return self.mass_flow_kg_s / (1.0 + self.w)

    @property
    def enthalpy_j_kg(self) -> float:
        """Moist-air enthalpy per kg of dry air [J/kg_da]."""
        return moist_enthalpy(self.t_k, self.w)

    @property
    def cp_j_kg_k(self) -> float:
        """Moist-air specific heat per kg of dry air [J/(kg_da K)]."""
        return ha.cp_moist(self.w)

    @property
    def dew_point_k(self) -> float:
        """Dew point [K]; -inf for dry air."""
        return ha.dew_point(self.t_k, self.w, self.p_pa) if self.w > 1e-7 else -math.inf


@dataclass(frozen=True)
class AirSide:
    """The coil's air side at its operating point (whole coil) [SI].

    Attributes
    ----------
    inlet : AirInlet
        The entering air.
    reynolds : float
        ``Re_Dc`` (a microchannel coil: ``Re_Lp``) [-].
    j, f : float
        Colburn and Fanning factors [-].
    h_w_m2_k : float
        Air-side coefficient with the ``air_side`` factor [W/(m^2 K)].
    fin_efficiency : float
        Dry fin efficiency [-].
    surface_efficiency : float
        Dry surface efficiency ``eta_o`` [-].
    conductance_w_k : float
        Dry air-side conductance ``eta_o h_o A_o`` of the whole coil [W/K].
    messages : tuple of str
        The fin correlation's range messages at this point.
    """

    inlet: AirInlet
    reynolds: float
    j: float
    f: float
    h_w_m2_k: float
    fin_efficiency: float
    surface_efficiency: float
    conductance_w_k: float
    messages: tuple[str, ...]
    _m_dry_per_m: float
    _fin_fraction: float
    _geometry: CoilGeometry

    def wet_surface_efficiency(self, saturation_slope_j_kg_k: float) -> float:
        """Surface efficiency of the wet surface at a saturated-air enthalpy slope ``b_w`` [-].

        Parameters
        ----------
        saturation_slope_j_kg_k : float
            ``dh_s/dT`` at the fin [J/(kg_da K)].
        """
        m_wet = self._m_dry_per_m * math.sqrt(saturation_slope_j_kg_k / self.inlet.cp_j_kg_k)
        return surface_efficiency(self._geometry.fin_efficiency(m_wet), self._fin_fraction)

    def pressure_drop(
        self, geometry: CoilGeometry, t_out_k: float, w_out: float, factor: float
    ) -> float:
        """Air-side pressure drop of the core [Pa], times ``factor``.

        Parameters
        ----------
        geometry : CoilGeometry
            The coil.
        t_out_k, w_out : float
            Mixed outlet temperature [K] and humidity ratio [kg/kg_da].
        factor : float
            The ``air_pressure_drop`` correlation factor [-].
        """
        g = geometry.fins
        inl = self.inlet
        rho_in = ha.density(inl.t_k, inl.w, inl.p_pa)
        rho_out = ha.density(t_out_k, w_out, inl.p_pa)
        dp = core_pressure_drop(
            self.f,
            inl.mass_flow_kg_s / g.min_flow_area_m2,
            g.air_area_m2 / g.min_flow_area_m2,
            g.sigma,
            rho_in,
            rho_out,
        )
        return factor * dp


def air_side(geometry: CoilGeometry, inlet: AirInlet, factor: float = 1.0) -> AirSide:
    """The air side of a coil at its inlet air (computed once per operating point).

    Parameters
    ----------
    geometry : CoilGeometry
        The coil.
    inlet : AirInlet
        Entering air.
    factor : float
        The ``air_side`` correlation factor multiplying ``h_o`` [-].

    Returns
    -------
    AirSide
        Coefficient, efficiencies and conductance at the inlet air's properties.
    """
    g = geometry.fins
    mu = ha.viscosity(inlet.t_k)
    k = ha.conductivity(inlet.t_k)
    cp = inlet.cp_j_kg_k / (1.0 + inlet.w)  # per kg of humid air
    pr = mu * cp / k
    mass_flux = inlet.mass_flow_kg_s / g.min_flow_area_m2
    if isinstance(g, MicrochannelGeometry):
        re = g.reynolds_louver(inlet.mass_flow_kg_s, mu)
        j, f = microchannel_j_f(g, re, geometry.j_correlation)
        messages = microchannel_range_messages(g, re, geometry.j_correlation)
    else:
        re = g.reynolds_collar(inlet.mass_flow_kg_s, mu)
        j, f = fin_tube_j_f(g, re)
        messages = fin_tube_range_messages(g, re)
    h = factor * heat_transfer_coefficient(j, mass_flux, cp, pr)
    m_fin = fin_parameter(h, g.fin_conductivity_w_m_k, g.fin_thickness_m)
    eta_f = geometry.fin_efficiency(m_fin)
    eta_o = surface_efficiency(eta_f, g.fin_area_fraction)
    return AirSide(
        inlet=inlet,
        reynolds=re,
        j=j,
        f=f,
        h_w_m2_k=h,
        fin_efficiency=eta_f,
        surface_efficiency=eta_o,
        conductance_w_k=eta_o * h * geometry.air_area_m2,
        messages=tuple(messages),
        _m_dry_per_m=m_fin,
        _fin_fraction=g.fin_area_fraction,
        _geometry=geometry,
    )
