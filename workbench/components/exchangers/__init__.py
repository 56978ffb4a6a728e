"""Heat exchangers: one folder per family, above the zone model they share.

Holds :mod:`.zones` (the zoned counterflow model, temperature profiles, the 1-D root, the fan
and step rules every exchanger uses), :mod:`.coils` (condenser, evaporator), :mod:`.gas_cooler`
(transcritical gas cooler) and :mod:`.ihx` (internal heat exchanger). A new family
(fin-and-tube coils from geometry, brazed plates, refrigerant lines) is a new folder here.

May import: ``components.base``, ``components.catalog``, ``fluids``, ``errors``, ``units``. A
family folder imports :mod:`.zones`, never another family.
"""
