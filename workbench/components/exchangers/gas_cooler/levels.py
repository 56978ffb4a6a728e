"""The gas cooler's kept pressure levels: stepped ones and those moved from them in pressure.

Read by :mod:`workbench.components.exchangers.gas_cooler.model`. A :class:`TableCache` holds a gas
cooler's :class:`~workbench.components.exchangers.gas_cooler.isobar.IsobarLevel` s (one per pressure
level, each stepping its isobars once) and the :class:`ShiftedLevel` s made from them: a
pressure within :data:`~workbench.components.exchangers.gas_cooler.isobar.SHIFT_REACH` of a kept level
with pressure derivatives (the Jacobian's pressure column) gets that level's nodes moved to
first order in the pressure instead of new isobars (the module docstring of
:mod:`~workbench.components.exchangers.gas_cooler.isobar`).
"""

from __future__ import annotations

from collections import OrderedDict

from workbench.components.exchangers.gas_cooler.isobar import (
    LEVEL_TOLERANCE,
    IsobarLevel,
    TemperatureTable,
    keep_table,
)
from workbench.fluids import FluidBackend

__all__ = ["LEVELS_KEPT", "SHIFTED_KEPT", "ShiftedLevel", "TableCache"]

LEVELS_KEPT = 8
"""Pressure levels a gas cooler keeps (a solve visits a few: the start, the line search, the
Jacobian's pressure column at each)."""

SHIFTED_KEPT = 4
"""Shifted levels a cache keeps (the Jacobian's pressure column at the last iterates)."""


class ShiftedLevel:
    """A pressure level a hair from a kept one: that level's nodes moved to first order.

    Serves ``p_in`` within :data:`LEVEL_TOLERANCE` as an :class:`IsobarLevel` does, its tables
    those of ``base`` with every node ``(h_j, T_j)`` moved by ``(dh_j/dp, dT_j/dp) (p_in -
    base.p_in)`` (the module docstring); no pressure drop.

    Parameters
    ----------
    base : IsobarLevel
        The kept level, with pressure derivatives.
    p_in : float
        This level's pressure [Pa].
    """

    def __init__(self, base: IsobarLevel, p_in: float) -> None:
        self.base, self.p_in = base, p_in
        self.shift = p_in - base.p_in
        self._tables: OrderedDict[tuple[float, float], TemperatureTable] = OrderedDict()
        self._own: IsobarLevel | None = None  # stepped here when the base lost its derivatives

    def serves(self, p_in: float, dp: float, t_sec: float, segments: int) -> bool:
        """Whether this level makes the table at these inputs (any inlet enthalpy)."""
        base = self.base
        if dp != base.dp or t_sec != base.t_sec or segments != base.segments:
            return False
        return abs(p_in - self.p_in) <= LEVEL_TOLERANCE * abs(self.p_in)

    def table(self, fluid: FluidBackend, p_in: float, h_in: float, t_in: float) -> TemperatureTable:
        """The table from the moved ``h_lim`` to the inlet ``(h_in [J/kg], t_in [K])``.

        Raises
        ------
        FluidPropertyError
            A (p, T) flash failed while the base level's isobar was extended.
        """
        key = (p_in, h_in)
        found = self._tables.get(key)
        if found is not None:
            return found
        if self._own is None:
            moved = self.base.outlet.shifted_up_to(fluid, (h_in, t_in), self.shift)
            if moved is not None:
                hs, ts = moved
                return keep_table(self._tables, key, TemperatureTable(hs, ts, ts))
            # a slope failed further up the base isobar: step this level's own
            base = self.base
            h_lim = float(fluid.h_pT(p_in, base.t_sec))
            self._own = IsobarLevel.start(
                fluid, p_in, 0.0, base.t_sec, base.segments, h_lim, base.t_ref
            )
        return self._own.table(fluid, p_in, h_in, t_in)


class TableCache:
    """A gas cooler's temperature tables: one :class:`IsobarLevel` per pressure level.

    Below the critical pressure (tables with saturation points) whole tables are kept per
    inlet state in :attr:`tables`. :attr:`levels_built` counts the levels started (each
    steps up its isobars once, however many inlet states it serves), :attr:`levels_shifted`
    the :class:`ShiftedLevel` s made from them (no isobar stepped).
    """

    def __init__(self) -> None:
        self.levels: list[IsobarLevel] = []
        self.shifted: list[ShiftedLevel] = []
        self.tables: OrderedDict[tuple[float, ...], TemperatureTable] = OrderedDict()
        self.levels_built = 0
        self.levels_shifted = 0

    def level(
        self, p_in: float, dp: float, t_sec: float, segments: int
    ) -> IsobarLevel | ShiftedLevel | None:
        """The kept level that serves these inputs (the newest first), or None.

        A kept level within :data:`SHIFT_REACH` with pressure derivatives serves through a
        new :class:`ShiftedLevel` when no level serves exactly.
        """
        for level in reversed(self.levels):
            if level.serves(p_in, dp, t_sec, segments):
                return level
        for shifted in reversed(self.shifted):
            if shifted.serves(p_in, dp, t_sec, segments):
                return shifted
        for level in reversed(self.levels):
            if level.shifts_to(p_in, dp, t_sec, segments):
                made = ShiftedLevel(level, p_in)
                self.shifted.append(made)
                self.levels_shifted += 1
                if len(self.shifted) > SHIFTED_KEPT:
                    del self.shifted[0]
                return made
        return None

    def add(self, level: IsobarLevel) -> IsobarLevel:
        """Keep a new level (the oldest of :data:`LEVELS_KEPT` goes); return it."""
        self.levels.append(level)
        self.levels_built += 1
        if len(self.levels) > LEVELS_KEPT:
            del self.levels[0]
        return level
