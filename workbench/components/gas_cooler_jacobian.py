"""The gas cooler's heat flow linearised through its root (implicit function theorem).

The UA model's heat flow ``Q`` solves ``G(Q, u) = UA_req(Q, u) - UA(u) = 0``
(:mod:`workbench.components.gas_cooler_model`), ``u`` the model inputs (inlet pressure and
enthalpy, mass flow, pressure drop, conductance, secondary inlet temperature and capacity
rate). While :meth:`GasCooler.jacobian <workbench.components.gas_cooler.GasCooler.jacobian>`
differences its columns, a perturbed state gets ``Q + dQ`` with ``dQ = -(G(Q, u') - G(Q, u)) /
(dG/dQ)`` at the solved ``Q``: one profile evaluation per column where a root-find ran, as the
coils' Jacobian (:mod:`workbench.components.coil_jacobian`). A column that moves only the inlet
enthalpy keeps the table's nodes and moves its inlet node (one flash, no new table).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from workbench.components.gas_cooler_model import (
    GasCoolerResult,
    TemperatureTable,
    required_conductance,
    table_of,
)

if TYPE_CHECKING:
    from workbench.components.gas_cooler import GasCooler

__all__ = ["Linearisation", "required_ua", "table_at"]


def required_ua(
    cooler: GasCooler, key: tuple[float, ...], q: float, near: TemperatureTable | None = None
) -> float:
    """Conductance [W/K] the cooler's model needs for ``q`` [W] at inputs ``key``.

    ``key`` as :meth:`GasCooler.model_inputs <workbench.components.gas_cooler.GasCooler.model_inputs>`;
    ``near``: a table at the same pressures whose inlet node is moved to the inlet enthalpy
    (see :func:`~workbench.components.gas_cooler_model.required_conductance`).
    """
    p, h, m, dp, _ua, t_sec, c_sec = key
    segments = int(cooler.params["profile_segments"])
    return required_conductance(
        cooler.fluid, p, dp, h, m, t_sec, c_sec, q, segments, cooler._tables, near
    )


def table_at(cooler: GasCooler, key: tuple[float, ...]) -> TemperatureTable | None:
    """The cooler model's temperature table at inputs ``key``, None without a heat flow."""
    p, h, m, dp, _ua, t_sec, c_sec = key
    segments = int(cooler.params["profile_segments"])
    return table_of(cooler.fluid, p, dp, h, m, t_sec, c_sec, segments, cooler._tables)


class Linearisation:
    """The gas cooler's heat flow linearised through its root at one state (IFT)."""

    def __init__(
        self,
        key: tuple[float, ...],
        base: GasCoolerResult,
        g0: float,
        g_q: float,
        table: TemperatureTable | None,
    ) -> None:
        self.key, self.base, self.g0, self.g_q, self.table = key, base, g0, g_q, table

    @classmethod
    def at(
        cls, cooler: GasCooler, key: tuple[float, ...], base: GasCoolerResult
    ) -> Linearisation | None:
        """The linearisation at inputs ``key`` and solved ``base``, or None (no heat flow)."""
        q = base.q
        if not q > 0.0:
            return None
        dq = 1e-6 * q
        g0 = required_ua(cooler, key, q) - key[4]
        g_lo = required_ua(cooler, key, q - dq) - key[4]
        if not (math.isfinite(g0) and math.isfinite(g_lo)) or g0 == g_lo:
            return None
        return cls(key, base, g0, (g0 - g_lo) / dq, table_at(cooler, key))

    def heat_flow(self, cooler: GasCooler, key: tuple[float, ...]) -> GasCoolerResult | None:
        """The linearised result at inputs ``key`` (None: off the model's range there)."""
        q0 = self.base.q
        same_pressures = key[0] == self.key[0] and key[3] == self.key[3]
        near = self.table if same_pressures and key[1] != self.key[1] else None
        g1 = required_ua(cooler, key, q0, near) - key[4]
        if not math.isfinite(g1):
            return None
        q = q0 - (g1 - self.g0) / self.g_q
        m, t_sec, c_sec = key[2], key[5], key[6]
        return GasCoolerResult(
            q,
            key[1] - q / m,
            t_sec + q / c_sec,
            self.base.min_dt,
            self.base.q_max,
            self.base.segments,
        )
