"""One refrigerant stream in one side of a brazed plate pack: its film coefficient and friction.

Who reads it: the cascade plate exchanger (:mod:`.cascade`), where both sides carry a
refrigerant (the hot stream condenses, the cold one evaporates). The plate condenser and
evaporator march their one refrigerant stream with :class:`~.segment.Marcher`; this is the
same choice of correlations for a stream at a given state, without the march's secondary:

* **two phase**: the stream's :class:`~.kernel.TwoPhaseKernel` (condensation for the hot
  stream, Longo or Yan-Lio-Lin; evaporation for the cold one, Amalfi or Yan-Lin; Amalfi's
  friction for both), blended to the saturated liquid's and vapour's single-phase
  coefficients at the quality edges (:data:`~.sides.X_BLEND`), at the piece's mean quality
  and heat flux;
* **single phase** (vapour or liquid): :func:`~.sides.phase_film` and
  :func:`~.sides.single_phase_friction_rate` with ``rho``, ``mu``, ``k``, ``cp`` linear in
  temperature between the saturated state and the state at the far temperature of the zone
  (as :meth:`~.segment.Marcher.phase_props`: the hotter inlet for vapour, the colder for
  liquid), read at :func:`~.segment.smooth_max` of the temperature and the saturation line.

Mass flux ``G = m / (N_side b W)`` with the side's channel count; the correlation factors
multiply the film coefficient and the friction (``refrigerant_side`` /
``refrigerant_pressure_drop`` for the hot stream, ``secondary_side`` /
``secondary_pressure_drop`` for the cold one: the cold stream takes the secondary's channels).
SI throughout; film coefficients on the corrugated area [W/(m^2 K)], friction per metre of
port-to-port length [Pa/m].
"""

from __future__ import annotations

from workbench.components.exchangers.plate.kernel import TwoPhaseKernel
from workbench.components.exchangers.plate.segment import smooth_max
from workbench.components.exchangers.plate.sides import phase_film, single_phase_friction_rate
from workbench.components.exchangers.plate.spec import PlateSpec
from workbench.fluids.transport import PhaseTransport, Transport

__all__ = ["StreamSide"]


class StreamSide:
    """A refrigerant stream at its inlet pressure and mass flow in one side of the plates.

    Parameters
    ----------
    spec : PlateSpec
        The exchanger.
    transport : Transport
        Transport properties of the stream's fluid.
    hot : bool
        True for the condensing (hot) stream, in the refrigerant channels; False for the
        evaporating (cold) one, in the secondary channels.
    p : float
        Pressure of the stream [Pa] (its inlet's: the profile's temperatures are taken there).
    m : float
        Mass flow of the stream [kg/s], positive.
    t_far : tuple of float
        Far temperatures of the vapour and the liquid zone [K] (the hotter and the colder of
        the two inlets).

    Attributes
    ----------
    mass_flux : float
        Channel mass flux ``G`` [kg/(m^2 s)].
    kernel : TwoPhaseKernel
        The two-phase film and friction at this mass flux and pressure (no factors).
    f_film, f_dp : float
        The stream's correlation factors on its film coefficient and friction [-].
    h_liq, h_vap : float
        Saturated liquid and vapour enthalpies at ``p`` [J/kg] (transport's records).
    """

    def __init__(
        self,
        spec: PlateSpec,
        transport: Transport,
        hot: bool,
        p: float,
        m: float,
        t_far: tuple[float, float],
    ) -> None:
        g = spec.geometry
        self.spec, self.transport, self.hot, self.p = spec, transport, hot, p
        channels = g.channels_refrigerant if hot else g.channels_secondary
        self.mass_flux = m / (channels * g.channel_flow_area_m2)
        name = "refrigerant" if hot else "secondary"
        self.f_film = spec.factor(f"{name}_side")
        self.f_dp = spec.factor(f"{name}_pressure_drop")
        self.sat = transport.saturation(p)
        self.h_liq, self.h_vap = self.sat.h_liq, self.sat.h_vap
        edge = (
            phase_film(spec, self.mass_flux, self.sat.liquid)[0],
            phase_film(spec, self.mass_flux, self.sat.vapour)[0],
        )
        self.kernel = TwoPhaseKernel(spec, hot, self.mass_flux, self.sat, edge)
        self.far = {
            "superheated": transport.single_phase(p, max(t_far[0], self.sat.vapour.t + 1.0)),
            "subcooled": transport.single_phase(p, min(t_far[1], self.sat.liquid.t - 1.0)),
        }

    def zone(self, h: float) -> str:
        """``superheated``, ``two-phase`` or ``subcooled`` at enthalpy ``h`` [J/kg]."""
        if h >= self.h_vap:
            return "superheated"
        if h <= self.h_liq:
            return "subcooled"
        return "two-phase"

    def quality(self, h: float) -> float:
        """Vapour quality at ``h`` [-] (outside ``[0, 1]`` in single phase)."""
        return (h - self.h_liq) / (self.h_vap - self.h_liq)

    def props(self, zone: str, t: float) -> PhaseTransport:
        """Single-phase properties at ``t`` [K], linear between the saturated and the far state."""
        near = self.sat.vapour if zone == "superheated" else self.sat.liquid
        far = self.far[zone]
        t_eval = smooth_max(t, near.t) if zone == "superheated" else -smooth_max(-t, -near.t)
        w = min(max((t_eval - near.t) / (far.t - near.t), 0.0), 1.0)
        return PhaseTransport(
            near.p,
            t_eval,
            near.rho + w * (far.rho - near.rho),
            near.mu + w * (far.mu - near.mu),
            near.k + w * (far.k - near.k),
            near.cp + w * (far.cp - near.cp),
        )

    def single_phase(self, zone: str, t: float) -> tuple[float, float]:
        """Film coefficient [W/(m^2 K)] and friction [Pa/m] of a single-phase state, factors in."""
        pr = self.props(zone, t)
        h = phase_film(self.spec, self.mass_flux, pr)[0]
        rate = single_phase_friction_rate(self.spec, self.mass_flux, pr.rho, pr.mu)
        return self.f_film * h, self.f_dp * rate

    def density(self, h: float, t: float) -> float:
        """Density at enthalpy ``h`` and temperature ``t`` [kg/m^3] (homogeneous in two phase)."""
        zone = self.zone(h)
        if zone == "two-phase":
            x = self.quality(h)
            return 1.0 / (x / self.sat.vapour.rho + (1.0 - x) / self.sat.liquid.rho)
        return self.props(zone, t).rho
