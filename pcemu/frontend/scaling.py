"""Integer scale factors that keep the monitor's 4:3 picture.

A CGA dot is much narrower than a scan line is tall (640x200 filled a 4:3
tube, so a line is 2.4 dots high); an MDA line is about 1.54 dots high.
Scaling each axis by its own whole number keeps every dot the same size and
sharp; the pair is chosen to come as close to 4:3 as the space allows.
"""
from __future__ import annotations

import math

DISPLAY_ASPECT = 4 / 3
ASPECT_TOLERANCE = 0.2          # |log| of the shape error accepted before looking at size
MAX_FACTOR = 16


def pixel_aspect(active_width: int, active_height: int) -> float:
    """Width of one dot over the height of one line when the active area fills 4:3."""
    return DISPLAY_ASPECT * active_height / active_width


def shape_error(dot_scale: int, line_scale: int, aspect: float) -> float:
    """How far (as |log| of the ratio) a dot_scale x line_scale picture is from true shape."""
    return abs(math.log(dot_scale / (line_scale * aspect)))


def integer_scale(width: int, height: int, aspect: float, max_width: int,
                  max_height: int) -> tuple[int, int]:
    """(dot scale, line scale) for a width x height frame in max_width x max_height.

    The largest picture whose shape is within ASPECT_TOLERANCE of true; if no
    such pair fits, the truest shape that fits; (1, 1) if nothing fits at all.
    """
    fitting = [(a, b) for a in range(1, MAX_FACTOR + 1) for b in range(1, 2 * MAX_FACTOR + 1)
               if a * width <= max_width and b * height <= max_height]
    if not fitting:
        return 1, 1
    good = [p for p in fitting if shape_error(*p, aspect) <= ASPECT_TOLERANCE]
    if good:
        return max(good, key=lambda p: (p[0] * p[1], -shape_error(*p, aspect)))
    return min(fitting, key=lambda p: (shape_error(*p, aspect), -(p[0] * p[1])))


def placement(width: int, height: int, aspect: float, target_width: int,
              target_height: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """((x, y), (w, h)) of the scaled frame centred in the target."""
    a, b = integer_scale(width, height, aspect, target_width, target_height)
    w, h = width * a, height * b
    return ((target_width - w) // 2, (target_height - h) // 2), (w, h)
