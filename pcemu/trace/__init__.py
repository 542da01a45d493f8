"""Traces of original programs running in the machine, and tools to compare them.

Generic, for any program: ``qbasic`` watches a QuickBASIC program at its
statements; ``events`` is the envelope every game's trace follows; ``diff``
compares two traces.  The tracers of particular games live with the games and
reach ``pcemu trace`` through the ``pcemu.tracers`` entry points.
"""
