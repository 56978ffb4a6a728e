"""The Jacobian block of a brazed plate exchanger: forward differences, one march a column.

A forward difference through :func:`~workbench.components.exchangers.plate.march.solve_plate`
would shoot again for every column (two or three marches each). The shooting's root moves with
the column's step ``d`` by the implicit function theorem, ``dT_so = -r(theta + d; T_so) /
(dr/dT_so)``, so each inlet column (mass flow, pressure, enthalpy) takes one march at the
solution's secondary outlet ``T_so`` and corrects it to first order::

    Q(theta + d)     = Q(theta + d; T_so)     + dQ/dT_so     dT_so
    p_out(theta + d) = p_out(theta + d; T_so) + dp_out/dT_so dT_so

with ``dQ/dT_so``, ``dp_out/dT_so`` and ``dr/dT_so`` from one march at ``T_so + dT`` (shared by
the columns): the march the shooting itself made nearest its root when one lies within
:data:`~workbench.components.exchangers.plate.march.NEIGHBOUR_SHARES` of the span
(:attr:`~workbench.components.exchangers.plate.records.MarchResult.neighbour`; 7 of the 10
Jacobians of the example's cold solve), else a march of its own at ``dT = 1e-6`` of the span. The three ``dT_so / d`` are kept: the next shooting at a new state starts from
``T_so`` moved along them (:meth:`~workbench.components.exchangers.plate.component.PlateCoil.predict_from`).
``dT_so`` is of the order of the step, so what is neglected is of the order of
its square: the quotient is the forward difference through the converged march to the
precision of the finite difference itself. The corrected march stands in the exchanger's memo
while its column's residuals are evaluated, and leaves it after. Every other column (the outlet
port, a factor a control loop drives) is differenced through the residuals as in
:meth:`workbench.components.base.Component.jacobian`.

Near the solution the three marches are skipped: when the inlet ``theta = (m, p, h)`` moved by
less than :data:`REUSE_SHARE` of itself (each component) since the last Jacobian that marched,
with the same factors and secondary inlet, the sensitivities ``S = d(Q, p_out, T_so) / d
theta`` of that Jacobian are updated by Broyden's rank-one formula with the two converged
marches (no march: ``S += (y - S s) s^T / s^T s`` in the relative inlet change ``s``, ``y``
the change of ``Q``, ``p_out``, ``T_so``) and stand in for the columns' marches. Only a
marched Jacobian is updated (never one updated already). On the example's cold solve this is
Newton's last step (the inlet moves about 1e-5 of itself, the one before about 4e-4):
2 Jacobians of 10 without marches, the same 5 iterations, results within about 1e-11.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from workbench.components.base import Component, StepFunction, difference_columns
from workbench.components.exchangers.plate.march import march, secondary_film
from workbench.errors import FluidPropertyError

__all__ = ["plate_jacobian"]

_DT_SHARE = 1e-6
"""Step of the secondary outlet temperature, as a share of the temperature span [-]."""

REUSE_SHARE = 1e-4
"""Largest relative change of each inlet unknown (m, p, h) since the last marched Jacobian for
which its sensitivities are updated instead of marched [-] (module docstring). Measured on the
bench_plate units: 1e-4 takes Newton's last Jacobian (the same 5 iterations); 1e-3 takes the
one before too and costs an iteration (6), 1e-2 two or three."""

Sensitivities = list[tuple[float, float, float]]
"""Per inlet column (m, p, h): ``dQ``, ``dp_out``, ``dT_so`` per unit of the column."""


def plate_jacobian(
    coil: Any, x: np.ndarray, f0: np.ndarray, step: StepFunction
) -> list[tuple[int, int, float]]:
    """Entries (row, column, value) of a plate exchanger's Jacobian block (module docstring).

    Parameters
    ----------
    coil : PlateCoil
        The exchanger, with its march converged at ``x``.
    x : numpy.ndarray
        The state (restored on return).
    f0 : numpy.ndarray
        The coil's residuals at ``x``.
    step : callable
        ``step(col, x_col)``: the forward step of a column.

    Returns
    -------
    list of tuple
        ``(local row, column, d residual / d x)`` for every nonzero derivative.
    """
    try:
        return _linearised(coil, x, f0, step)
    except (FluidPropertyError, ValueError, ZeroDivisionError, OverflowError):
        coil.jacobian_kept = None
        return Component.jacobian(coil, x, f0, step)


def _linearised(
    coil: Any, x: np.ndarray, f0: np.ndarray, step: StepFunction
) -> list[tuple[int, int, float]]:
    base = coil.march_at(x)
    pin = coil.ports["inlet"]
    n, m_sec, t_in = coil.n_coils, coil.secondary_flow(), coil.t_sec_in
    z_ua, z_dp = coil.factor(x, "z_ua"), coil.factor(x, "z_dp")
    sign = 1.0 if coil.refrigerant_is_hot else -1.0
    inlet = coil.port(x, "inlet")
    t_ref = float(coil.fluid.T_ph(inlet.p, inlet.h))
    if sign * (t_ref - t_in) <= 0.0:
        raise ValueError("no exchange: difference through the residuals")
    t_so = base.t_sec_out
    theta = (inlet.m, inlet.p, inlet.h)
    setting = (z_ua, z_dp, t_in, m_sec)
    kept = coil.jacobian_kept
    sens = _updated(kept, theta, setting, base) if kept is not None else None
    if sens is not None:
        dr = kept[5]
    else:
        dt = _DT_SHARE * abs(t_ref - t_in) * (-sign)  # towards the secondary inlet: inside
        moved = base.neighbour  # a march the shooting made near its root, if any
        if moved is not None:
            dt = moved.t_sec_out - t_so
        else:
            film = secondary_film(coil.plate, t_ref, t_in, m_sec)
            moved = march(
                coil.plate, inlet.p, inlet.h, inlet.m / n, t_in, m_sec, t_so + dt, z_ua, z_dp,
                film, base,
            )  # fmt: skip
        dr = (moved.t_sec_end - base.t_sec_end) / dt
        if not dr > 0.0:
            raise ValueError("the shooting's slope is not positive")
        dq = (moved.q - base.q) / dt
        dp_out = (moved.p_out - base.p_out) / dt
    entries: list[tuple[int, int, float]] = []
    measured: Sensitivities = []
    for i, col in enumerate((pin.m, pin.p, pin.h)):
        xi = x[col]
        d = step(col, xi)
        x[col] = xi + d
        key = None
        try:
            st = coil.port(x, "inlet")
            if sens is not None:  # the updated sensitivities, no march
                q = base.q + sens[i][0] * d
                lin = replace(
                    base,
                    q=q,
                    p_out=base.p_out + sens[i][1] * d,
                    t_sec_out=t_so + sens[i][2] * d,
                    h_out=st.h - sign * q / (st.m / n),
                )
            else:
                t_r = float(coil.fluid.T_ph(st.p, st.h))
                f1_film = secondary_film(coil.plate, t_r, t_in, m_sec)
                one = march(
                    coil.plate, st.p, st.h, st.m / n, t_in, m_sec, t_so, z_ua, z_dp, f1_film,
                    base,
                )  # fmt: skip
                # to the base's own miss of the root (below the shooting's tolerance), so the
                # quotient compares two states of the same accuracy
                shift = -(one.t_sec_end - base.t_sec_end) / dr
                q = one.q + dq * shift
                lin = replace(
                    one,
                    q=q,
                    p_out=one.p_out + dp_out * shift,
                    t_sec_out=t_so + shift,
                    t_sec_end=base.t_sec_end,
                    h_out=st.h - sign * q / (st.m / n),
                )
            key = coil.memo_key(x)
            coil.remember(key, lin)
            f1 = coil.residuals(x)
        finally:
            if key is not None:
                coil.forget(key)
            x[col] = xi
        measured.append(
            ((lin.q - base.q) / d, (lin.p_out - base.p_out) / d, (lin.t_sec_out - t_so) / d)
        )
        deriv = (f1 - f0) / d
        entries += [(int(r), col, float(deriv[r])) for r in np.nonzero(deriv)[0]]
    coil.predict_from(theta, t_so, [s[2] for s in measured], dr)
    # only a marched Jacobian is kept to be updated (an update is not updated again)
    coil.jacobian_kept = (theta, setting, base.q, base.p_out, t_so, dr, measured)
    if sens is not None:
        coil.jacobian_kept = None
    others = [c for c in coil.local_vars if c not in (pin.m, pin.p, pin.h)]
    return entries + difference_columns(coil.residuals, x, f0, step, others)


def _updated(
    kept: tuple[Any, ...], theta: tuple[float, float, float], setting: tuple[float, ...], base: Any
) -> Sensitivities | None:
    """The kept sensitivities moved to ``theta`` by Broyden's formula, or None (docstring).

    None unless each of ``m``, ``p``, ``h`` moved by less than :data:`REUSE_SHARE` of itself
    and the factors and the secondary inlet are the same.
    """
    theta0, setting0, q0, p_out0, t_so0, _dr, sens = kept
    if setting != setting0:
        return None
    rel = [(a - b) / b for a, b in zip(theta, theta0, strict=True)]
    if not max(abs(r) for r in rel) < REUSE_SHARE:
        return None
    s = np.array(rel)
    # the Jacobian of (Q, p_out, T_so) by the relative inlet change
    jac = np.array(sens).T * np.array(theta0)
    ss = float(s @ s)
    if ss > 0.0:
        y = np.array([base.q - q0, base.p_out - p_out0, base.t_sec_out - t_so0])
        jac = jac + np.outer(y - jac @ s, s) / ss
    per_unit = jac / np.array(theta)
    return [(float(a), float(b), float(c)) for a, b, c in per_unit.T]
