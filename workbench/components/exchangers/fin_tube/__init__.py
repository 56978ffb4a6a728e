"""Air coils from their geometry: condensers, evaporators and gas coolers, dry and wet.

Fin-and-tube and microchannel coils (issue 40; docs/components.md "Coils from geometry").

Modules, one job each: ``geometry`` (the ``geometry`` object parsed and checked once),
``air_side`` (air coefficient, fin efficiency and pressure drop at the operating point),
``tube_side`` (refrigerant temperature, film coefficient and friction below the critical
pressure), ``supercritical`` (the same above it), ``segment`` (one segment against its share of the air, dry, partly wet or wet),
``march`` (the segments along the refrigerant path), ``outputs`` (results and warnings),
``hardware`` (what the variants share) and ``component`` (the solver's variants). The moist-air
formulas of the wet surface are in :mod:`workbench.correlations.saturated_air`.

May import: ``components.exchangers.coils``, ``components.exchangers.gas_cooler``,
``components.exchangers.zones``, ``components.base``, ``components.catalog``, ``correlations``,
``fluids``, ``errors``, ``units``.
"""
