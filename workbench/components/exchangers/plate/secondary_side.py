"""The water or brine side of a march: its enthalpy polynomial and its film coefficient.

Who reads it: :mod:`.segment` (every piece) and :mod:`.march` (the shooting builds the film
interpolation once per solve). ``cp``, ``h`` and ``T(h)`` are the polynomials of
:class:`~workbench.fluids.SecondaryFluid` without its array handling; the film coefficient is
Lagrange's quadratic through three exact evaluations over the shooting's bracket.
"""

from __future__ import annotations

from functools import lru_cache

from workbench.components.exchangers.plate.records import Outside, PlateModel
from workbench.components.exchangers.plate.sides import single_phase_film
from workbench.fluids import SecondaryFluid

__all__ = ["Liquid", "SecondaryFilm", "liquid_of", "secondary_film"]


class Liquid:
    """Scalar ``cp``, ``h`` and ``T(h)`` of the secondary from its polynomial (fast path).

    The same polynomials as :class:`~workbench.fluids.SecondaryFluid` without its array
    handling; ``T(h)`` by Newton from a nearby temperature. Outside the fluid's range it raises
    :class:`Outside` (the shooting reads it as the residual's sign).
    """

    def __init__(self, fluid: SecondaryFluid) -> None:
        self.c = fluid.coeffs
        self.hc = tuple(c / (i + 1) for i, c in enumerate(fluid.coeffs))
        self.t_min, self.t_max = fluid.T_min, fluid.T_max
        self._pairs = tuple(zip(reversed(self.c), reversed(self.hc), strict=True))

    def cp(self, t: float) -> float:
        """Heat capacity [J/(kg K)] at ``t`` [K]."""
        theta, out = t - 273.15, 0.0
        for c in reversed(self.c):
            out = out * theta + c
        return out

    def h(self, t: float) -> float:
        """Enthalpy [J/kg] at ``t`` [K] (zero at 273.15 K)."""
        theta, out = t - 273.15, 0.0
        for c in reversed(self.hc):
            out = out * theta + c
        return out * theta

    def t_h(self, h: float, t: float) -> float:
        """Temperature [K] at enthalpy ``h`` [J/kg] by Newton from ``t`` [K].

        Raises
        ------
        Outside
            The temperature leaves the fluid's range.
        """
        pairs = self._pairs
        for _ in range(30):
            # h(t) and cp(t) in one Horner pass (the same sums as :meth:`h` and :meth:`cp`)
            theta, h_t, cp = t - 273.15, 0.0, 0.0
            for c, hc in pairs:
                cp = cp * theta + c
                h_t = h_t * theta + hc
            step = (h_t * theta - h) / cp
            t -= step
            # Newton's error after a step is (cp' / 2 cp) step^2: 3e-4 / K for water, 4e-4 for
            # MPG30, 1e-3 for MEG50; below 1e-5 K a step leaves about 1e-13 K, the rounding
            if abs(step) < 1e-5 or abs(step) < 1e-12 * t:
                break
        if t < self.t_min - 1e-9:
            raise Outside(-1.0)
        if t > self.t_max + 1e-9:
            raise Outside(1.0)
        return t


@lru_cache(maxsize=16)
def liquid_of(fluid: SecondaryFluid) -> Liquid:
    """The :class:`Liquid` of a secondary fluid, made once (every march and film reads one)."""
    return Liquid(fluid)


class SecondaryFilm:
    """The secondary's film coefficient and Reynolds number, quadratic in temperature.

    Evaluated exactly (Martin or Muley-Manglik with the fluid's polynomials) at the ends and
    the middle of the shooting's bracket, once per solve, and interpolated by Lagrange's
    quadratic for every piece: over the few kelvin a secondary spans, its ``h`` is a smooth
    function of temperature (through the viscosity), reproduced to about 0.1 %.
    """

    def __init__(self, model: PlateModel, g_sec: float, lo: float, hi: float) -> None:
        st, liquid = model.secondary_transport, liquid_of(model.secondary)
        lo, hi = max(lo, liquid.t_min), min(hi, liquid.t_max)
        if hi - lo < 1e-3:
            lo, hi = lo - 5e-4, hi + 5e-4
        self.t = (lo, 0.5 * (lo + hi), hi)
        self.h: list[float] = []
        self.re: list[float] = []
        for t in self.t:
            h, re = single_phase_film(model.spec, g_sec, st.rho(t), st.mu(t), st.k(t), liquid.cp(t))
            self.h.append(h)
            self.re.append(re)

    def __call__(self, t: float) -> tuple[float, float]:
        """``(h [W/(m^2 K)], Re [-])`` at ``t`` [K]."""
        t0, t1, t2 = self.t
        w0 = (t - t1) * (t - t2) / ((t0 - t1) * (t0 - t2))
        w1 = (t - t0) * (t - t2) / ((t1 - t0) * (t1 - t2))
        w2 = (t - t0) * (t - t1) / ((t2 - t0) * (t2 - t1))
        h = w0 * self.h[0] + w1 * self.h[1] + w2 * self.h[2]
        re = w0 * self.re[0] + w1 * self.re[1] + w2 * self.re[2]
        return h, re


def secondary_film(
    model: PlateModel, t_ref_in: float, t_sec_in: float, m_sec: float
) -> SecondaryFilm:
    """The secondary's film coefficient by temperature over the shooting's bracket.

    Parameters
    ----------
    model : PlateModel
        The exchanger.
    t_ref_in : float
        Refrigerant inlet temperature [K] (one end of the bracket).
    t_sec_in : float
        Secondary inlet temperature [K] (the other end).
    m_sec : float
        Secondary mass flow of one exchanger [kg/s].

    Returns
    -------
    callable
        ``T [K] -> (h [W/(m^2 K)], Re [-])``, the quadratic :func:`solve_plate` marches with.
    """
    g = model.spec.geometry
    lo, hi = sorted((t_sec_in, t_ref_in))
    key = ("film", lo, hi, m_sec)  # the same bracket and flow: the same film (a Jacobian's m)
    found = model.inlet_memo.get(key)
    if found is None:
        g_sec = m_sec / (g.channels_secondary * g.channel_flow_area_m2)
        found = model.inlet_memo[key] = SecondaryFilm(model, g_sec, lo, hi)
    return found
