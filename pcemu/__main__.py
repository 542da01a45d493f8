"""``python -m pcemu`` is the ``pcemu`` command."""
from pcemu.cli import main

main()
