"""Condensers and evaporators: the zoned coil component, its checks, Jacobian and zone memory.

May import: ``components.exchangers.zones``, ``components.base``, ``fluids``, ``errors``, ``units``.
"""
