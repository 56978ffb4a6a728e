"""Brazed plate heat exchangers built from their hardware (issue 41).

A condenser or evaporator whose parameters carry ``"geometry": {"kind": "brazed_plate", ...}``
is modelled by this family: :mod:`.spec` reads and checks the geometry dict, :mod:`.sides` gives
the film coefficients and pressure drops of the refrigerant and the water or brine side from
:mod:`workbench.correlations.plate_single_phase` and :mod:`workbench.correlations.plate_two_phase`
(:mod:`.kernel`: the same within one march, fast), :mod:`.march` is the counterflow segmented
march with its shooting on the secondary outlet temperature (its records in :mod:`.records`,
one piece in :mod:`.segment`, the secondary in :mod:`.secondary_side`), :mod:`.jacobian` its
Jacobian, :mod:`.marching` what the components share, :mod:`.component` the component classes (subclasses of the coils' ``Condenser`` and
``Evaporator``, so their saturation, superheat and subcooling specs stay the same; the one place a
family builds on another, see docs/components.md). The cascade exchanger of a thermal coupling
(both sides refrigerant) is :mod:`.cascade` (its pieces, area and root on the coupled profile)
with :mod:`.stream_side` (one refrigerant stream's films and friction); its Newton block is
:mod:`workbench.solver.plate_coupling`.

May import: ``components.exchangers.coils`` (the classes it extends), ``components.exchangers.zones``,
``components.base``, ``components.catalog``, ``correlations``, ``fluids``, ``errors``, ``units``.
"""
