"""Pictures of the screen (PNG), drawn from video memory and the card's registers."""
from __future__ import annotations

from pathlib import Path


def render_surface_png(machine, path: Path) -> None:
    from pcemu.frontend.display import save_screenshot
    save_screenshot(machine, path)
