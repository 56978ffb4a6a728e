"""Refrigerant lines: the line of an edge as a component of the Newton system (issue 41).

Holds :mod:`.geometry` (the tube, fittings and insulation as a frozen record computed once),
:mod:`.model` (pressure drop, heat gain and the state of a line at one operating point, with
transport properties from :mod:`workbench.fluids.transport`; pure of the solver) and
:mod:`.component` (``RefrigerantLine``: its two equations, outputs and oil-return warnings).
The solver inserts one per edge with a ``"line"`` (:mod:`workbench.solver.lines`); the line's
charge is read by :mod:`workbench.components.inventory`. See docs/lines.md.

May import: ``components.base``, ``components.catalog``, ``correlations``, ``fluids``,
``errors``, ``units``.
"""
