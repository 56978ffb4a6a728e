"""The gas cooler's heat flow linearised through its root (implicit function theorem).

The UA model's heat flow ``Q`` solves ``G(Q, u) = UA_req(Q, u) - UA(u) = 0``
(:mod:`workbench.components.exchangers.gas_cooler.model`), ``u`` the model inputs (inlet pressure and
enthalpy, mass flow, pressure drop, conductance, secondary inlet temperature and capacity
rate). While :meth:`GasCooler.jacobian <workbench.components.exchangers.gas_cooler.component.GasCooler.jacobian>`
differences its columns, a perturbed state gets the heat flow of the implicit function theorem
at the solved one: one profile evaluation per column where a root-find ran, as the coils'
Jacobian (:mod:`workbench.components.exchangers.coils.jacobian`). The root is linearised in the root
finder's coordinate ``s = -ln(1 - Q/Q_max)`` (:mod:`workbench.components.exchangers.zones.root`), in
which ``UA_req`` is nearly linear even when the heat flow sits at its end-temperature limit
(a large conductance: ``UA_req`` grows like ``-ln(Q_max - Q)``, and a step in ``Q`` would
miss by orders of magnitude)::

    G(s, u) = UA_req(Q_max(u) (1 - e^-s), u) - UA(u)
    ds = -(G(s0, u') - G(s0, u)) / (dG/ds),   dG/ds = dUA_req/dQ (Q_max - Q)
    Q' = Q_max(u') (1 - e^-(s0 + ds))

with ``dUA_req/dQ`` analytic (the profile's slope). A column that moves only the inlet
enthalpy keeps the table's nodes and moves its inlet node (one flash, no new table); a column
that moves the pressure uses that pressure level's table (without a pressure drop the kept
level's nodes moved to first order in the pressure,
:class:`~workbench.components.exchangers.gas_cooler.isobar.ShiftedLevel`). ``G`` and ``dG/dQ`` at the
solved state are the root-find's own last evaluation, carried by the
:class:`~workbench.components.exchangers.gas_cooler.model.GasCoolerResult`.
"""

from __future__ import annotations

import math
from typing import Any, Protocol

from workbench.components.exchangers.gas_cooler.model import (
    Conductance,
    GasCoolerResult,
    TableCache,
    TemperatureTable,
    conductance,
    table_of,
)
from workbench.fluids import FluidBackend

__all__ = ["CoolerParts", "Linearisation", "required_ua", "table_at"]


class CoolerParts(Protocol):
    """What the linearisation reads of a gas cooler: its fluid, parameters and table cache.

    :class:`~workbench.components.exchangers.gas_cooler.component.GasCooler` has them; naming
    them here keeps this module below the component that calls it.
    """

    @property
    def fluid(self) -> FluidBackend:
        """The refrigerant's property backend."""

    @property
    def params(self) -> dict[str, Any]:
        """The component's parameters (``profile_segments`` is read)."""

    @property
    def _tables(self) -> TableCache:
        """The cooler's cache of temperature tables."""


def required_ua(
    cooler: CoolerParts,
    key: tuple[float, ...],
    q: float,
    near: TemperatureTable | None = None,
    share: bool = False,
) -> Conductance:
    """Conductance the cooler's model needs for ``q`` [W] at inputs ``key``, and its slope.

    ``key`` as :meth:`GasCooler.model_inputs <workbench.components.exchangers.gas_cooler.component.GasCooler.model_inputs>`;
    ``near``: a table at the same pressures whose inlet node is moved to the inlet enthalpy;
    ``share``: ``q`` is a share of ``Q_max`` [-] (see
    :func:`~workbench.components.exchangers.gas_cooler.model.conductance`).
    """
    p, h, m, dp, _ua, t_sec, c_sec = key
    segments = int(cooler.params["profile_segments"])
    return conductance(
        cooler.fluid, p, dp, h, m, t_sec, c_sec, q, segments, cooler._tables, near, share
    )


def table_at(cooler: CoolerParts, key: tuple[float, ...]) -> TemperatureTable | None:
    """The cooler model's temperature table at inputs ``key``, None without a heat flow."""
    p, h, m, dp, _ua, t_sec, c_sec = key
    segments = int(cooler.params["profile_segments"])
    return table_of(cooler.fluid, p, dp, h, m, t_sec, c_sec, segments, cooler._tables)


class Linearisation:
    """The gas cooler's heat flow linearised through its root at one state (IFT, in ``s``)."""

    def __init__(
        self,
        key: tuple[float, ...],
        base: GasCoolerResult,
        g0: float,
        g_s: float,
        table: TemperatureTable | None,
    ) -> None:
        self.key, self.base, self.g0, self.g_s, self.table = key, base, g0, g_s, table
        self.share = base.q / base.q_max
        self.s0 = -math.log1p(-self.share)

    @classmethod
    def at(
        cls, cooler: CoolerParts, key: tuple[float, ...], base: GasCoolerResult
    ) -> Linearisation | None:
        """The linearisation at inputs ``key`` and solved ``base``, or None (no heat flow)."""
        q, q_max = base.q, base.q_max
        if not 0.0 < q < q_max:
            return None
        table: TemperatureTable | None = base.table
        if table is not None and not math.isnan(base.slope):
            # the root's own evaluation: the same table and profile at the same heat flow
            ua_req, slope = base.ua_required, base.slope
        else:
            found = required_ua(cooler, key, q)
            ua_req, slope, table = found.ua, found.slope, table_at(cooler, key)
        g0 = ua_req - key[4]
        g_s = slope * (q_max - q)
        if not (math.isfinite(g0) and math.isfinite(g_s) and g_s > 0.0):
            return None
        return cls(key, base, g0, g_s, table)

    def heat_flow(self, cooler: CoolerParts, key: tuple[float, ...]) -> GasCoolerResult | None:
        """The linearised result at inputs ``key`` (None: off the model's range there)."""
        same_pressures = key[0] == self.key[0] and key[3] == self.key[3]
        near = self.table if same_pressures and key[1] != self.key[1] else None
        found = required_ua(cooler, key, self.share, near, share=True)
        g1 = found.ua - key[4]
        if not math.isfinite(g1):
            return None
        s = self.s0 - (g1 - self.g0) / self.g_s
        if not 0.0 < s < 700.0:  # no heat flow in (0, q_max) there (and exp(-s) overflows)
            return None
        q = found.q_max * -math.expm1(-s)
        m, t_sec, c_sec = key[2], key[5], key[6]
        return GasCoolerResult(
            q,
            key[1] - q / m,
            t_sec + q / c_sec,
            self.base.min_dt,
            found.q_max,
            self.base.segments,
        )
