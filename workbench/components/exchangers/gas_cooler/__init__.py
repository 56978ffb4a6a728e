"""The transcritical gas cooler: component, isobar tables, profile, heat-flow model and Jacobian.

May import: ``components.exchangers.zones``, ``components.base``, ``fluids``, ``errors``, ``units``.
"""
