"""The internal (suction-line) heat exchanger: component and counterflow model.

May import: ``components.exchangers.zones``, ``components.base``, ``fluids``, ``errors``, ``units``.
"""
