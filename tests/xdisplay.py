"""A private Xvfb server for the window tests: a real X display, not SDL's dummy driver.

Use ``x_display`` as a fixture (import it into the test module).  It skips with the
reason when Xvfb is not installed (Debian package xvfb) or does not start.
"""
from __future__ import annotations

import os
import select
import shutil
import subprocess
import time

import pytest


@pytest.fixture(scope="module")
def x_display():
    """Start Xvfb for one test module; DISPLAY points at it while the tests run."""
    if not shutil.which("Xvfb"):
        pytest.skip("Xvfb is not installed (Debian package xvfb): the window tests need an X display")
    read_end, write_end = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write_end), "-screen", "0", "1280x1024x24",
                               "-nolisten", "tcp"], pass_fds=(write_end,),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write_end)
    number = b""
    deadline = time.monotonic() + 10
    while not number.endswith(b"\n") and time.monotonic() < deadline:
        ready, _, _ = select.select([read_end], [], [], 0.5)
        if ready:
            chunk = os.read(read_end, 16)
            if not chunk:
                break
            number += chunk
    os.close(read_end)
    if not number.strip():
        server.kill()
        pytest.skip("Xvfb did not start")
    saved = {k: os.environ.get(k) for k in ("DISPLAY", "SDL_VIDEODRIVER", "SDL_AUDIODRIVER")}
    os.environ["DISPLAY"] = f":{number.decode().strip()}"
    os.environ.pop("SDL_VIDEODRIVER", None)
    os.environ["SDL_AUDIODRIVER"] = "dummy"            # sound is exercised, silently
    try:
        yield os.environ["DISPLAY"]
    finally:
        import pygame                                   # close any window before the server goes,
        pygame.display.quit()                           # or Xlib's IO error handler exits the run
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        server.terminate()
        server.wait(10)
