"""Refrigerant blends: the blend name and composition (:mod:`.spec`), the table backend and its tables.

May import: ``fluids.base``, ``fluids.spelling``, ``fluids.coolprop`` (tables are built from, and
fall back to, CoolProp), ``errors``, ``progress``.
"""
