"""The ``workbench`` command line. ``main.py`` only wires the command modules."""
