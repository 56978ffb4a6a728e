"""Compressor: isentropic efficiency with a fixed, displacement or AHRI 540 map mass flow.

Equations (SI)::

    0 = m - z_flow * m_model                      (flow)
    0 = h_out - h_in - W / m                      (energy; adiabatic shell)

with ``W = z_power * m * (h2s - h_in) / eta_s`` and ``h2s = h(p_out, s(p_in, h_in))``, or
``W = z_power * P_map(S, D)`` for a map. The mass flow model is one of

* fixed:        ``m_model = mass_flow_kg_s``
* displacement: ``m_model = V_d * n * eta_v(n) * z_etav * rho(p_in, h_in)``
* AHRI 540 map: ``m_model = X(S, D) * rho(p_in, h_in) / rho_rated`` where
  ``X = C1 + C2 S + C3 D + C4 S^2 + C5 S D + C6 D^2 + C7 S^3 + C8 D S^2 + C9 S D^2 + C10 D^3``,
  S and D the saturated suction and discharge (dew) temperatures [degC], and ``rho_rated`` the
  suction density at S with the rating superheat (no correction when it is not given).

A variable-speed compressor (``min_speed_hz`` .. ``max_speed_hz``, the range the seasonal rating's
capacity control may use) may give efficiencies that vary with speed: with ``r = n / n_rated``
(``rated_speed_hz``, 50 Hz by default)::

    eta_s(n) = eta_s * (c0 + c1 r + c2 r^2)      (isentropic_speed_curve = [c0, c1, c2])
    eta_v(n) = eta_v * (d0 + d1 r + d2 r^2)      (volumetric_speed_curve = [d0, d1, d2])

A curve that is 1 at r = 1 keeps the rated efficiencies there; a typical scroll or rotary
compressor loses isentropic efficiency at both ends of its range and volumetric efficiency at low
speed (leakage over a longer time per revolution). Without the curves both are constant.

A compressor without a flow model (no ``mass_flow_kg_s``, ``displacement_m3`` or map) has no
flow equation: another component (an orifice valve) sets the flow.

References
----------
AHRI Standard 540-2020, Performance Rating of Positive Displacement Refrigerant Compressors.
"""

from __future__ import annotations

import numpy as np

from workbench.components.base import Component, Equation, StepFunction, register_component
from workbench.units import ZERO_CELSIUS_K

__all__ = ["ZERO_LIFT_RELATIVE", "Compressor", "ahri540", "lift_problems", "wet_suction_warnings"]

ZERO_LIFT_RELATIVE = 1e-7
"""A pressure lift below this fraction of the suction pressure [-] is zero lift: about 0.1 Pa
at 10 bar, the solver's pressure tolerance (1e-6 of its 1 bar scale), far below any real lift."""


def ahri540(coefficients: list[float], s_c: float, d_c: float) -> float:
    """Evaluate a 10-coefficient AHRI 540 polynomial.

    Parameters
    ----------
    coefficients : list of float
        C1..C10 [unit of the mapped quantity].
    s_c, d_c : float
        Saturated suction and discharge temperatures [degC].

    Returns
    -------
    float
        Mapped quantity [kg/s or W].
    """
    c = coefficients
    return (
        c[0]
        + c[1] * s_c
        + c[2] * d_c
        + c[3] * s_c**2
        + c[4] * s_c * d_c
        + c[5] * d_c**2
        + c[6] * s_c**3
        + c[7] * d_c * s_c**2
        + c[8] * s_c * d_c**2
        + c[9] * d_c**3
    )


@register_component
class Compressor(Component):
    """Compressor model (see module docstring for the equations)."""

    type_name = "Compressor"

    def configure(self) -> None:
        """Choose the flow model and the power model from the parameters given.

        Flow: ``map`` (``mass_flow_map_kg_s``), ``displacement`` (``displacement_m3``), ``fixed``
        (``mass_flow_kg_s``) or ``none``; power: ``map`` (``power_map_w``) or ``isentropic``.

        Raises
        ------
        SpecificationError
            A power map without a mass-flow map.
        """
        if self.has("mass_flow_map_kg_s"):
            self.flow_mode = "map"
        elif self.has("displacement_m3"):
            self.flow_mode = "displacement"
        elif self.has("mass_flow_kg_s"):
            self.flow_mode = "fixed"
        else:
            self.flow_mode = "none"
        self.power_mode = "map" if self.has("power_map_w") else "isentropic"
        if self.flow_mode != "map" and self.power_mode == "map":
            raise self.error("power_map_w needs mass_flow_map_kg_s (both come from one map)")
        par = self.params
        both = self.has("min_speed_hz") and self.has("max_speed_hz")
        if both and par["min_speed_hz"] > par["max_speed_hz"]:
            raise self.error(
                f"min_speed_hz {par['min_speed_hz']} is above max_speed_hz {par['max_speed_hz']}"
            )
        for key in ("isentropic_speed_curve", "volumetric_speed_curve"):
            if self.has(key) and self.speed_factor(key) <= 0:
                raise self.error(
                    f"{key} gives a factor {self.speed_factor(key):.4g} <= 0 at speed_hz "
                    f"{par.get('speed_hz')}; the efficiency must stay positive"
                )

    def speed_factor(self, key: str) -> float:
        """Multiplier of a speed curve at the current speed [-] (1 without the curve).

        Parameters
        ----------
        key : str
            ``isentropic_speed_curve`` or ``volumetric_speed_curve``.
        """
        if not self.has(key):
            return 1.0
        c = self.params[key]
        r = float(self.params.get("speed_hz", 50.0)) / float(
            self.params.get("rated_speed_hz", 50.0)
        )
        return float(c[0] + c[1] * r + c[2] * r * r)

    def isentropic_efficiency(self) -> float:
        """Isentropic efficiency at the current speed [-] (the given one without a curve)."""
        return float(self.params["isentropic_efficiency"]) * self.speed_factor(
            "isentropic_speed_curve"
        )

    def volumetric_efficiency(self) -> float:
        """Volumetric efficiency at the current speed [-] (the given one without a curve)."""
        return float(self.params["volumetric_efficiency"]) * self.speed_factor(
            "volumetric_speed_curve"
        )

    def equations(self) -> tuple[Equation, ...]:
        """``flow`` and ``energy``; only ``energy`` without a flow model."""
        if self.flow_mode == "none":
            return (Equation("energy", "enthalpy"),)
        return (Equation("flow", "mass"), Equation("energy", "enthalpy"))

    # -- models ----------------------------------------------------------------------------
    def _map_temperatures(self, p_in: float, p_out: float) -> tuple[float, float]:
        fl = self.fluid
        return fl.T_sat(p_in) - ZERO_CELSIUS_K, fl.T_sat(p_out) - ZERO_CELSIUS_K

    def model_mass_flow(self, x: np.ndarray) -> float:
        """Mass flow of the flow model before ``z_flow`` [kg/s]."""
        inlet, outlet = self.port(x, "inlet"), self.port(x, "outlet")
        par = self.params
        if self.flow_mode == "fixed":
            return float(par["mass_flow_kg_s"])
        rho = self.fluid.rho_ph(inlet.p, inlet.h)
        if self.flow_mode == "displacement":
            return float(
                par["displacement_m3"]
                * par["speed_hz"]
                * self.volumetric_efficiency()
                * self.factor(x, "z_etav")
                * rho
            )
        s_c, d_c = self._map_temperatures(inlet.p, outlet.p)
        m_map = ahri540(par["mass_flow_map_kg_s"], s_c, d_c)
        if "map_rating_superheat_k" in par:
            t_rated = s_c + ZERO_CELSIUS_K + par["map_rating_superheat_k"]
            if par["map_rating_superheat_k"] > 0:
                rho_rated = self.fluid.rho_ph(inlet.p, self.fluid.h_pT(inlet.p, t_rated))
            else:
                rho_rated = self.fluid.rho_ph(inlet.p, self.fluid.h_vap(inlet.p))
            m_map *= rho / rho_rated
        return m_map * self.factor(x, "z_etav")

    def power(self, x: np.ndarray) -> float:
        """Shaft power [W]."""
        inlet, outlet = self.port(x, "inlet"), self.port(x, "outlet")
        z_power = self.factor(x, "z_power")
        if self.power_mode == "map":
            s_c, d_c = self._map_temperatures(inlet.p, outlet.p)
            return z_power * ahri540(self.params["power_map_w"], s_c, d_c)
        h2s = self.fluid.h_ps(outlet.p, self.fluid.s_ph(inlet.p, inlet.h))
        return float(z_power * inlet.m * (h2s - inlet.h) / self.isentropic_efficiency())

    def residuals(self, x: np.ndarray) -> np.ndarray:
        """Flow [kg/s] and energy [J/kg] residuals, in the order of :meth:`equations`.

        Each is a ``0 = ...`` line of the module docstring.
        """
        inlet, outlet = self.port(x, "inlet"), self.port(x, "outlet")
        energy = outlet.h - inlet.h - self.power(x) / inlet.m
        if self.flow_mode == "none":
            return np.array([energy])
        flow = inlet.m - self.factor(x, "z_flow") * self.model_mass_flow(x)
        return np.array([flow, energy])

    def jacobian(
        self, x: np.ndarray, f0: np.ndarray, step: StepFunction
    ) -> list[tuple[int, int, float]]:
        """Analytic derivatives for the isentropic power model with a fixed or displacement flow.

        With ``dh = T ds + v dp`` (valid in and out of the dome): ``ds/dh_in = 1/T_in``,
        ``ds/dp_in = -v_in/T_in``, ``dh2s/ds = T_2s``, ``dh2s/dp_out = v_2s``. Maps and loops
        that drive a factor of this compressor fall back to finite differences.
        """
        if self.power_mode == "map" or self.flow_mode == "map" or self.factor_sources:
            return super().jacobian(x, f0, step)
        fl = self.fluid
        pin, pout = self.ports["inlet"], self.ports["outlet"]
        inlet, outlet = self.port(x, "inlet"), self.port(x, "outlet")
        t_in = fl.T_ph(inlet.p, inlet.h)
        v_in = 1.0 / fl.rho_ph(inlet.p, inlet.h)
        s_in = fl.s_ph(inlet.p, inlet.h)
        h2s = fl.h_ps(outlet.p, s_in)
        t_2s = fl.T_ph(outlet.p, h2s)
        v_2s = 1.0 / fl.rho_ph(outlet.p, h2s)
        k = self.factor(x, "z_power") / self.isentropic_efficiency()
        row = 0
        entries: list[tuple[int, int, float]] = []
        if self.flow_mode != "none":
            entries.append((0, pin.m, 1.0))
            if self.flow_mode == "displacement":
                par = self.params
                c = (
                    self.factor(x, "z_flow")
                    * par["displacement_m3"]
                    * par["speed_hz"]
                    * self.volumetric_efficiency()
                    * self.factor(x, "z_etav")
                )
                entries.append((0, pin.p, -c * fl.drho_dp_h(inlet.p, inlet.h)))
                entries.append((0, pin.h, -c * fl.drho_dh_p(inlet.p, inlet.h)))
            row = 1
        # energy: h_out - h_in - k (h2s - h_in)
        entries.append((row, pout.h, 1.0))
        entries.append((row, pin.h, -1.0 - k * (t_2s / t_in - 1.0)))
        entries.append((row, pin.p, k * t_2s * v_in / t_in))
        entries.append((row, pout.p, -k * v_2s))
        return entries

    def outputs(self, x: np.ndarray) -> dict[str, float | None]:
        """Shaft power, flow, discharge and suction state, pressure ratio, isentropic efficiency.

        ``power`` [W] is the mass flow times the enthalpy rise (adiabatic shell); ``massFlowRate``
        [kg/s]; ``pressure`` [Pa] and ``temperature`` [K] at the discharge; ``suction_pressure``
        [Pa]; ``pressure_ratio`` [-]; ``isentropic_efficiency`` [-] from the solved states (None at
        zero power).
        """
        inlet, outlet = self.port(x, "inlet"), self.port(x, "outlet")
        fl = self.fluid
        h2s = fl.h_ps(outlet.p, fl.s_ph(inlet.p, inlet.h))
        power = inlet.m * (outlet.h - inlet.h)
        return {
            "power": power,
            "massFlowRate": inlet.m,
            "pressure": outlet.p,
            "temperature": fl.T_ph(outlet.p, outlet.h),
            "suction_pressure": inlet.p,
            "pressure_ratio": outlet.p / inlet.p,
            "isentropic_efficiency": inlet.m * (h2s - inlet.h) / power if power else None,
        }

    def check(self, x: np.ndarray) -> list[str]:
        """A discharge pressure that is not above the suction pressure (zero lift included).

        A lift within :data:`ZERO_LIFT_RELATIVE` of the suction pressure is rounding, not a
        lift: the compressor does no work and moves no heat from cold to hot.
        """
        return lift_problems(self, x)

    def warnings(self, x: np.ndarray) -> list[str]:
        """A two-phase suction: liquid reaching the compressor."""
        return wet_suction_warnings(self, x)


def lift_problems(compressor: Component, x: np.ndarray) -> list[str]:
    """The problem of a compressor that does not raise the pressure, or none.

    Parameters
    ----------
    compressor : Component
        Any compressor with ``inlet`` (suction) and ``outlet`` (discharge) ports.
    x : numpy.ndarray
        The system's unknowns (SI).

    Returns
    -------
    list of str
        One message naming the compressor, both pressures [bar] and the lift [Pa], or none.
    """
    inlet, outlet = compressor.port(x, "inlet"), compressor.port(x, "outlet")
    lift = outlet.p - inlet.p
    label = f"{type(compressor).__name__} {compressor.name!r}"
    if lift < -ZERO_LIFT_RELATIVE * inlet.p:
        return [
            f"{label}: discharge pressure {outlet.p / 1e5:.3f} bar is below the "
            f"suction pressure {inlet.p / 1e5:.3f} bar"
        ]
    if lift <= ZERO_LIFT_RELATIVE * inlet.p:
        return [
            f"{label}: zero pressure lift (discharge {outlet.p / 1e5:.3f} bar, suction "
            f"{inlet.p / 1e5:.3f} bar, difference {lift:.2g} Pa): the compressor does no work and "
            "no heat is moved from cold to hot; the condensing (or gas cooler) temperature must "
            "be above the evaporating temperature"
        ]
    return []


def wet_suction_warnings(compressor: Component, x: np.ndarray) -> list[str]:
    """The warning for a two-phase state at a compressor's ``inlet`` port (none when dry).

    Parameters
    ----------
    compressor : Component
        Any compressor with an ``inlet`` (suction) port.
    x : numpy.ndarray
        The system's unknowns (SI).

    Returns
    -------
    list of str
        One message naming the component's type, name and the suction quality [-], or none.
    """
    inlet = compressor.port(x, "inlet")
    q = compressor.fluid.quality_ph(inlet.p, inlet.h)
    if q is not None and not np.isnan(q) and q < 1.0 - 1e-6:
        return [
            f"{type(compressor).__name__} {compressor.name!r}: suction is two-phase "
            f"(quality {q:.4f}); liquid reaches the compressor"
        ]
    return []
