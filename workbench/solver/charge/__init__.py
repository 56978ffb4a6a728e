"""The charge block: refrigerant inventory of a solved system, its equations and its tables.

May import: the Newton core of ``solver`` (system), ``components`` (inventory), ``safety``,
``errors``.
"""
