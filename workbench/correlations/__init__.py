"""Heat-transfer and pressure-drop correlations of exchanger hardware, as pure functions.

What it holds: the correlations that turn hardware (tubes, fins, plates, lines) and fluid
properties into heat-transfer coefficients, friction factors and pressure drops, each with its
source, its range of validity and its published accuracy in the docstring and in
docs/correlations.md. Where Caleb Bell's ``ht`` and ``fluids`` have a correlation, it is called
from there; what no library has (the air-side j and f factors of Wang and co-workers, the
louvered-fin factors of microchannel coils) is written from the papers.

What it may import: numpy, scipy, ``ht``, ``fluids``, CoolProp, psychrolib (humid air) and
:mod:`workbench.errors`.
Nothing of the scenario, the components or the solver: the geometric exchangers in
``workbench.components`` import these functions, never the reverse.

Modules (import them directly; the package imports none of them, so importing it costs nothing):
``fin_tube_geometry`` and ``microchannel`` (geometry records), ``wang_plain_louvered`` and
``wang_wavy`` (air-side j and f), ``validity`` (ranges), ``air_side`` (h, core pressure drop,
fin-type registry), ``fin_efficiency``, ``humid_air`` (psychrolib), ``saturated_air`` (the wet surface's moist air
in one call, with its analytic slope), ``wet_coil`` (enthalpy-potential coils)
and ``in_tube`` (refrigerant side, wrappers around ``ht`` and ``fluids``).
"""
