"""Machines that move or throttle the refrigerant: compressors and expansion valves.

May import: ``components.base``, ``components.catalog``, ``components.junctions`` (the injection
compressor is a junction of two inlets), ``fluids``, ``errors``, ``units``.
"""
