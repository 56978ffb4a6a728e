"""Zone-by-zone counterflow heat transfer between a refrigerant and a secondary stream.

The refrigerant path from inlet to outlet enthalpy is cut at the saturated liquid and vapour
enthalpies into zones (desuperheating, two-phase, subcooled for a condenser; two-phase,
superheated for an evaporator). In each zone both capacity rates are constant, so the zone
is a counterflow exchanger whose required conductance follows from epsilon-NTU::

    eps = Q / (C_min (T_hot,in - T_cold,in)),   NTU = ln((1 - Cr eps) / (1 - eps)) / (1 - Cr),
    UA_zone = NTU * C_min                       (NTU = eps / (1 - eps) when Cr = 1)

which for counterflow is identical to ``UA_zone = Q / LMTD`` (used here: it covers the
two-phase limit Cr = 0 without a special case; :mod:`workbench.components.exchangers.zones.counterflow`). The
heat flow of the whole exchanger is the ``Q`` in ``(0, Q_max)`` for which the zones'
conductances add up to the available UA, where ``Q_max`` is the pinch limit (the refrigerant
outlet reaching the secondary inlet temperature, or the secondary outlet reaching the
refrigerant inlet temperature). Temperatures never cross: a zone with a non-positive temperature
difference at either end needs an infinite UA.

How ``Q`` is found: the exchangers' one root
(:func:`~workbench.components.exchangers.zones.root.newton_in_s`) on ``UA_zones / UA - 1`` in
the variable ``s = -ln(1 - Q / Q_max)``, with the exact derivative ``dUA_zones/dQ`` (the LMTD
partials, and ``dT/dh`` of the refrigerant at the moving outlet), Newton's method inside a
bracket that bisects when a step leaves it. Near the pinch ``UA_zones`` grows like
``-ln(Q_max - Q)``, which is nearly linear in ``s``, and far from it ``s`` is nearly
``Q / Q_max``: from a nearby start (the last solution) two or three evaluations reach ``Q`` to
1e-12 of ``Q_max``, each one property call at the outlet. :func:`coil_heat_flow_sensitivity` gives the derivatives of ``Q`` with
respect to pressure, inlet enthalpy, mass flow, UA and secondary capacity rate by the implicit
function theorem, ``dQ/dx = -(dUA_zones/dx) / (dUA_zones/dQ)``, from derivatives at states the
solve already has: the coil's Jacobian without finite differences through the root-find.

References
----------
Incropera, DeWitt, Bergman, Lavine, Fundamentals of Heat and Mass Transfer, 6th ed., sec. 11.4
(epsilon-NTU, counterflow). Moving-boundary zone models as in Bell, Quoilin, Lemort, "Compact
heat exchanger models", 2015.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from workbench.components.exchangers.zones.counterflow import (
    counterflow_effectiveness,
    counterflow_ntu,
    counterflow_ua,
    find_root,
)
from workbench.components.exchangers.zones.coupled_profile import CoupledResult, coupled_heat_flow
from workbench.components.exchangers.zones.root import ROOT_TOLERANCE, bracketed_root, newton_in_s
from workbench.components.exchangers.zones.zone_profile import (
    ZoneProfile,
    enthalpy_at,
    merge_zones,
    zone_name,
)
from workbench.fluids import FluidBackend

__all__ = [
    "PINCHED",
    "Q_TOLERANCE",
    "CoilSensitivity",
    "CoupledResult",
    "ZoneResult",
    "coil_heat_flow",
    "coil_heat_flow_sensitivity",
    "counterflow_effectiveness",
    "counterflow_ntu",
    "counterflow_ua",
    "coupled_heat_flow",
    "enthalpy_at",
    "find_root",
]

Q_TOLERANCE = ROOT_TOLERANCE
"""The coil's root (:func:`~workbench.components.exchangers.zones.root.newton_in_s`) stops on a
step that leaves an error below this share of the pinch limit ``Q_max`` (the one tolerance of
every exchanger's root)."""


@dataclass(frozen=True)
class ZoneResult:
    """Heat flow of a coil and its zones.

    Attributes
    ----------
    q : float
        Heat flow [W] (positive from the hot to the cold stream).
    h_out : float
        Refrigerant outlet enthalpy [J/kg].
    t_secondary_out : float
        Secondary outlet temperature [K].
    zones : list of tuple
        ``(name, q [W], ua [W/K])`` per zone in refrigerant flow order.
    min_dt : float
        Smallest hot-minus-cold temperature difference at any zone boundary [K].
    q_max : float
        Pinch limit of the heat flow [W].
    """

    q: float
    h_out: float
    t_secondary_out: float
    zones: list[tuple[str, float, float]]
    min_dt: float
    q_max: float


@dataclass(frozen=True)
class CoilSensitivity:
    """Derivatives of a coil's heat flow ``Q`` [W] at its solution (implicit function theorem).

    Attributes
    ----------
    p : float
        dQ/dp [W/Pa] (refrigerant pressure).
    h_in : float
        dQ/dh_in [kg/s] (refrigerant inlet enthalpy).
    m : float
        dQ/dm [J/kg] (refrigerant mass flow).
    ua : float
        dQ/dUA [K] (available conductance).
    c_sec : float
        dQ/dC_sec [K] (secondary capacity rate).
    """

    p: float
    h_in: float
    m: float
    ua: float
    c_sec: float


def coil_heat_flow(
    fluid: FluidBackend,
    p: float,
    h_in: float,
    m: float,
    t_sec_in: float,
    c_sec: float,
    ua: float,
    refrigerant_is_hot: bool,
    q_guess: float | None = None,
    *,
    share_guess: float | None = None,
    q_predicted: float | None = None,
) -> ZoneResult:
    """Heat flow of a counterflow coil with refrigerant zones.

    Parameters
    ----------
    fluid : FluidBackend
        Refrigerant properties.
    p : float
        Refrigerant pressure [Pa] (pressure drop neglected inside the zone model).
    h_in : float
        Refrigerant inlet enthalpy [J/kg].
    m : float
        Refrigerant mass flow [kg/s], > 0.
    t_sec_in : float
        Secondary inlet temperature [K].
    c_sec : float
        Secondary capacity rate m_sec * cp [W/K], >= 0.
    ua : float
        Available conductance [W/K], >= 0.
    refrigerant_is_hot : bool
        True for a condenser (refrigerant gives heat), False for an evaporator.
    q_guess : float, optional
        A nearby heat flow [W] (the last solution): Newton starts there, which saves most
        evaluations during a solve.
    share_guess : float, optional
        A nearby ``q / q_max`` (the last solution's, when its inputs changed): a better start
        than ``q_guess`` near the pinch, where ``q`` follows ``q_max``. Used when given.
    q_predicted : float, optional
        The heat flow [W] predicted to first order from a nearby solution and its
        derivatives (:meth:`workbench.components.exchangers.coils.component.Coil.zones`): the start when it is
        inside ``(0, Q_max)``, before ``share_guess`` and ``q_guess``.

    Returns
    -------
    ZoneResult
        Heat flow and zone details; ``q = 0`` when the streams cannot exchange heat in the
        right direction (the caller reports it).
    """
    prof = ZoneProfile(fluid, p, h_in, m, t_sec_in, c_sec, refrigerant_is_hot)
    sign = prof.sign
    q_hi = prof.pinch_limit()
    if q_hi <= 0.0 or ua <= 0.0 or c_sec <= 0.0 or m <= 0.0:
        return ZoneResult(0.0, h_in, t_sec_in, [], sign * (prof.t_in - t_sec_in), max(q_hi, 0.0))
    if q_predicted is not None and 0.0 < q_predicted < q_hi:
        q = q_predicted
    elif share_guess is not None and 0.0 < share_guess < 1.0:
        q = share_guess * q_hi
    elif q_guess is not None and 0.0 < q_guess < q_hi:
        q = q_guess
    else:  # all two-phase (Cr = 0): eps = 1 - exp(-NTU) on the secondary side
        q = q_hi * min(max(1.0 - math.exp(-ua / c_sec), 0.05), 0.95)
    last: list[tuple[float, list[float], list[float], list[float]]] = []

    def residual(q: float) -> tuple[float, float | None]:
        """``UA_zones / UA - 1`` and its slope [1/W]; the evaluation is kept for the zones."""
        hs, ts = prof.points(q)
        dts = prof.differences(hs, ts)
        total, qs = prof.conductance(hs, dts)
        last[:] = [(q, hs, dts, qs)]
        if math.isinf(total):
            return math.inf, None
        return total / ua - 1.0, prof.slope(hs, dts) / ua

    found = newton_in_s(residual, q_hi, q)
    if found is None:
        found = bracketed_root(residual, q_hi, q)
        residual(found)
    q_eval, hs, dts, qs = last[0]
    qs[-1] += found - q_eval  # a last step taken without evaluating: the outlet zone takes it
    q = found
    names = [zone_name(0.5 * (hs[k] + hs[k + 1]), prof.h_liq, prof.h_vap) for k in range(len(qs))]
    zones = merge_zones(
        [
            (name, qk, counterflow_ua(qk, dts[k], dts[k + 1]))
            for k, (name, qk) in enumerate(zip(names, qs))
        ]
    )
    return ZoneResult(q, h_in - sign * q / m, t_sec_in + sign * q / c_sec, zones, min(dts), q_hi)


PINCHED = 1e-6
"""A heat flow within this share of ``Q_max`` is at the pinch: its derivatives are those of
``Q_max`` (the implicit-function derivatives divide two values that grow without bound)."""


def _pinch_sensitivity(prof: ZoneProfile) -> CoilSensitivity:
    """Derivatives of the pinch limit ``Q_max`` (see :meth:`ZoneProfile.pinch_limit`)."""
    fluid, p, h_in, sign, m, c = prof.fluid, prof.p, prof.h_in, prof.sign, prof.m, prof.c_sec
    if not prof.outlet_pinches():  # Q_max = sign C_sec (T_in - T_sec,in)
        return CoilSensitivity(
            p=sign * c * float(fluid.dT_dp_h(p, h_in)),
            h_in=sign * c * float(fluid.dT_dh_p(p, h_in)),
            m=0.0,
            ua=0.0,
            c_sec=sign * (prof.t_in - prof.t_sec_in),
        )
    # Q_max = sign m (h_in - h_lim(p)), h_lim the refrigerant at the secondary inlet temperature
    h_lim = prof.limit_enthalpy()
    dp = 1e-6 * p
    shifted = ZoneProfile(fluid, p + dp, h_in, m, prof.t_sec_in, c, prof.hot)
    dh_lim = (shifted.limit_enthalpy() - h_lim) / dp
    return CoilSensitivity(
        p=-sign * m * dh_lim, h_in=sign * m, m=sign * (h_in - h_lim), ua=0.0, c_sec=0.0
    )


def coil_heat_flow_sensitivity(
    fluid: FluidBackend,
    p: float,
    h_in: float,
    m: float,
    t_sec_in: float,
    c_sec: float,
    ua: float,
    refrigerant_is_hot: bool,
    q: float,
) -> CoilSensitivity:
    """Derivatives of the heat flow ``q`` [W] that :func:`coil_heat_flow` returned.

    Parameters are those of :func:`coil_heat_flow` and its result ``q``. The zones are
    rebuilt at ``q`` (the backend remembers those states) and differentiated with
    ``dT/dh`` and ``dT/dp`` at the inlet and outlet and the saturation line's slopes
    (``dh_liq/dp``, ``dh_vap/dp``, ``dT_bubble/dp``, ``dT_dew/dp``) where a zone boundary is
    on it. All zero when the coil exchanges no heat; at the pinch (``q`` within
    :data:`PINCHED` of ``Q_max``) the derivatives of ``Q_max``.
    """
    if q <= 0.0 or ua <= 0.0 or c_sec <= 0.0 or m <= 0.0:
        return CoilSensitivity(0.0, 0.0, 0.0, 0.0, 0.0)
    prof = ZoneProfile(fluid, p, h_in, m, t_sec_in, c_sec, refrigerant_is_hot)
    sign = prof.sign
    q_hi = prof.pinch_limit()
    hs, ts = prof.points(q)
    dts = prof.differences(hs, ts)
    total_q = prof.slope(hs, dts) if all(d > 0.0 for d in dts) else 0.0
    if q >= (1.0 - PINCHED) * q_hi or not total_q > 0.0:
        return _pinch_sensitivity(prof)
    n = len(hs)
    h_out = hs[-1]
    th_in, th_out = float(fluid.dT_dh_p(p, h_in)), float(fluid.dT_dh_p(p, h_out))
    inner = [0.0] * (n - 2)
    # inlet enthalpy: the inlet and (at fixed q) the outlet move together
    d_h = prof.tangent(hs, dts, [1.0, *inner, 1.0], [th_in, *inner, th_out])
    # mass flow: the outlet moves by sign q / m^2
    dh_m = sign * q / (m * m)
    d_m = prof.tangent(hs, dts, [0.0, *inner, dh_m], [0.0, *inner, th_out * dh_m], dm=1.0)
    # secondary capacity rate
    d_c = prof.tangent(hs, dts, [0.0] * n, [0.0] * n, dc=1.0)
    # pressure: saturation boundaries move along the dome, T(p, h) at the ends
    dh_p = [0.0] * n
    dt_p = [float(fluid.dT_dp_h(p, h_in)), *inner, float(fluid.dT_dp_h(p, h_out))]
    for j in range(1, n - 1):
        dh_p[j], dt_p[j] = prof.cut_slopes(hs[j])
    d_p = prof.tangent(hs, dts, dh_p, dt_p)
    return CoilSensitivity(
        p=-d_p / total_q,
        h_in=-d_h / total_q,
        m=-d_m / total_q,
        ua=1.0 / total_q,
        c_sec=-d_c / total_q,
    )
