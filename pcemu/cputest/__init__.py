"""Grading the CPU layer against the SingleStepTests 80286 real-mode suite.

``suite`` reads the test files, ``masks`` says which FLAGS bits a test may not
compare (the bits Intel documents as undefined), ``runner`` runs one test
through the project's own :class:`pcemu.cpu.Cpu` and compares, and ``report``
turns results into pass rates per instruction form.  See docs/cpu.md.
"""
