"""Where streams meet, part or are held: junction base, mixer, splitter, flash tank, vessels.

May import: ``components.base``, ``components.catalog``, ``fluids``, ``errors``, ``units``.
"""
