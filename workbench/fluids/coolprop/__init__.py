"""The CoolProp backend: HEOS states, memo records, isobar tables, Newton inversions, supercritical.

May import: ``fluids.base``, ``errors``; never another backend.
"""
