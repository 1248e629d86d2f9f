"""Garbage collection of the daphne process, tuned for the live tables.

Every move builds thousands of short-lived dicts (each seat's view and context), so CPython's default
young-generation threshold (700 allocations) runs a collection every few pushes, and each full collection
walks every object of the process: Django, the templates, every open socket. Measured with bench/load.py
(150 tables, 2026-11-30): p99 from 212–328 ms down to 64–70 ms at the same CPU per move. Objects alive once
the site is loaded are frozen (never collected), and collections run less often.
"""

import gc
import os

THRESHOLDS = (50_000, 20, 100)


def tune_gc() -> None:
    if os.environ.get("GC_DEFAULTS"):  # to measure against CPython's defaults
        return
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
