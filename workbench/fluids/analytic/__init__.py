"""The analytic test backend: fitted closed-form properties and their derivatives.

May import: ``fluids.base``, ``errors``; never another backend.
"""
