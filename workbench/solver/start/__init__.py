"""Where Newton starts: the cold initial guess, its balance of branches, warm starts and the tangent.

May import: the Newton core of ``solver`` (system, newton, controls, results), its extensions,
``solver.charge``, ``components``, ``fluids``, ``errors``, ``units``.
"""
