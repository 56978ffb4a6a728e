"""Air coils from their geometry: fin-and-tube condensers and evaporators, dry and wet (issue 40).

Modules, one job each: ``geometry`` (the ``geometry`` object parsed and checked once),
``air_side`` (air coefficient, fin efficiency and pressure drop at the operating point),
``tube_side`` (refrigerant film coefficient and friction), ``segment`` (one segment against
its share of the air, dry, partly wet or wet), ``march`` (the segments along the refrigerant
path) and ``component`` (the solver's condenser and evaporator variants).

May import: ``components.exchangers.coils``, ``components.base``, ``correlations``,
``fluids``, ``errors``, ``units``.
"""
