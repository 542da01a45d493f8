"""A straight meteor's SQR statement (line 990: `D = SQR(DX^2 + DY^2)`): the table of what the
original's runtime spends on its DX and DY.

The runtime's `^` and SQR are not transcribed; games_py/meteors/sqr_cost.py holds the
statement's instruction count for each whole |DX| and DY, as sqr_probe.py measured it in a
bare Unicorn from a copy of the machine; the Python game costs a straight meteor's start with
it.  Until this table one number stood for all pairs, and the statement's 50-instruction spread
put seed 7's two-minute random:13 a tick off.
"""
from __future__ import annotations

import random

from games_py.meteors import sqr_cost, sqr_probe
from tests.machine_helpers import DISK1612, needs_originals


@needs_originals
def test_the_sqr_statements_table_is_what_the_original_spends() -> None:
    """Forty pairs drawn over the whole range, DX of both signs: the runtime's count equals
    the table's, and its D equals the Python game's SQR (checked inside ``measure``)."""
    draw = random.Random(990)
    pairs = [(draw.choice([-1, 1]) * draw.randint(1, 79), draw.randint(1, 23)) for _ in range(40)]
    pairs += [(-79, 23), (1, 1), (79, 1)]
    counts = sqr_probe.measure(str(DISK1612), pairs)
    assert len(set(counts.values())) > 5            # the statement's cost does vary
    for (dx, dy), count in counts.items():
        assert sqr_cost.sqr_line(dx, dy) == count, (dx, dy)
        assert sqr_cost.sqr_line(-dx, dy) == count, (dx, dy)
