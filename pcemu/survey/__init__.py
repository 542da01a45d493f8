"""``pcemu survey``: run a library of DOS programs headless and compare their screens.

A survey takes disk images (raw or PCjs JSON, or folders of them, or the list of a
corpus file), runs each runnable program in its own process for a fixed span of
virtual time, and records what became of it (`outcome.py`), its text screens at
fixed times and the services pcemu lacks that it asked for (`child.py`, run by
`runner.py` through `pcemu.sweep`).  Given DOSBox's screens (a truth file), each
program is scored by the share of DOSBox's words found on pcemu's screen
(`score.py`).  The records are written as JSON Lines and as one self-contained
HTML page (`html_report.py`).  See the README's "Surveying a folder of images or
PCjs JSON" and docs/archivists.md.
"""
