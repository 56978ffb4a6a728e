"""The zone model every exchanger shares: counterflow zones, profiles, the root in s, Jacobian parts.

Holds the epsilon-NTU / LMTD zone formulas (:mod:`.counterflow`), the zoned heat flow of a coil
(:mod:`.heat_flow`, :mod:`.zone_profile`), the coupled two-fluid profile and its Jacobian, the
one 1-D root in the position s (:mod:`.root`), the pinch check of a temperature profile
(:mod:`.profile`, :mod:`.profile_grid`), the fan-scaled UA and the step-share rule.

May import: ``components.base``, ``fluids``, ``errors``, ``units``; never an exchanger family.
"""
