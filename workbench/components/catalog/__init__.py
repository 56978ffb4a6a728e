"""The catalog: every component type declared as data (ports, parameters with units, outputs, factors).

Holds :mod:`.types` (``ComponentSpec``, ``ParamSpec``), :mod:`.specs` (the table and
:func:`~.specs.get_spec`) and the junction and vessel entries. The scenario validator and the
solver read it; it is light on purpose.

May import: nothing of ``workbench`` outside this folder.
"""
