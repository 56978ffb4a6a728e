"""Benchmark scripts: speed and accuracy tables for ``docs/benchmarks.md``.

Run one from the checkout's root as a module, ``python -m benchmarks.bench_examples``; the
scripts share their helpers through modules of this package (:mod:`benchmarks.bench_docs`: the
machine line and the section writer; :mod:`benchmarks.bench_notes_common`: the note-search
database and embedding cache; :mod:`benchmarks.bench_ua`: the UA cases), never by editing
``sys.path``.
"""
