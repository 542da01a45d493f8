"""Traces of original programs running in the machine, and tools to compare them.

``qbasic`` watches a QuickBASIC program at its statements; ``ginrummy``
traces Tommy's Gin Rummy; ``diff`` compares two traces; ``sweep`` compares
the original's first deals with the Python game's over many start times.
"""
