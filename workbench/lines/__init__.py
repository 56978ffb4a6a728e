"""Refrigerant line analyses above the solver: line sizing (issue 41, docs/lines.md).

:func:`size` proposes the smallest standard copper tube for the line of one edge that keeps its
saturation-temperature drop within a limit at full capacity and the vapour fast enough to
return oil at minimum capacity, and says what it costs in charge. It calls
:func:`workbench.solve`; the solver never imports this package.
"""

from __future__ import annotations

from workbench.lines.sizing import MIN_CAPACITY_FRACTION, LineSizing, size

__all__ = ["MIN_CAPACITY_FRACTION", "LineSizing", "size"]
