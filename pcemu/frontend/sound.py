"""The PC speaker as sound: a square wave drawn from the speaker's event log.

``pcemu.devices.speaker.Speaker.events`` records every change of what the
speaker sounds, as (virtual seconds, frequency in Hz or 0 for silence).
``SquareWave`` turns that log into PCM samples, carrying its phase across
calls so a live stream and a WAV file sound the same.  Tones the cone cannot
follow (above the Nyquist limit of the output rate or 20 kHz; programs park
the timer at ~41 kHz to silence it) come out as silence.

``write_wav`` renders any stretch of a run to a WAV file (stdlib ``wave``).
``LiveSound`` streams the same samples to pygame's mixer in the window; with
no audio device it stays silent and never raises.
"""
from __future__ import annotations

import logging
import math
import sys
import wave
from array import array
from pathlib import Path
from typing import Sequence

log = logging.getLogger("pcemu.sound")

AUDIBLE_LIMIT_HZ = 20_000
DEFAULT_VOLUME = 0.3          # of full scale: a square wave is loud
Event = tuple[float, float]


class SquareWave:
    """Renders speaker events into signed 16-bit mono samples, in order, from ``start``."""

    def __init__(self, rate: int = 44100, start: float = 0.0, volume: float = DEFAULT_VOLUME) -> None:
        if rate <= 0:
            raise ValueError("the sample rate must be positive")
        self.rate = rate
        self.amplitude = int(32767 * max(0.0, min(volume, 1.0)))
        self.position = round(start * rate)      # absolute sample index reached
        self.frequency = 0.0
        self.phase = 0.0                         # in cycles, 0..1; the first half is high
        self._next_event = 0

    @property
    def seconds(self) -> float:
        return self.position / self.rate

    def render_until(self, events: Sequence[Event], end: float) -> array:
        """Samples from where the last call ended up to virtual time ``end``."""
        out = array("h")
        end_sample = round(end * self.rate)
        while True:
            self._apply_events_due(events, self.position)
            stop = end_sample
            if self._next_event < len(events):
                stop = min(stop, round(events[self._next_event][0] * self.rate))
            if stop > self.position:
                self._tone(out, stop - self.position)
                self.position = stop
            if self.position >= end_sample:
                return out

    def skip_to(self, events: Sequence[Event], end: float) -> None:
        """Move to ``end`` without producing samples (keeping the tone the events set)."""
        end_sample = round(end * self.rate)
        self._apply_events_due(events, end_sample)
        self.position = max(self.position, end_sample)

    def _apply_events_due(self, events: Sequence[Event], limit: int) -> None:
        """Take in every event at or before sample ``limit``."""
        while self._next_event < len(events):
            when, frequency = events[self._next_event]
            if round(when * self.rate) > limit:
                return
            if self.frequency <= 0 < frequency:
                self.phase = 0.0                  # a tone starting from silence starts high
            self.frequency = frequency
            self._next_event += 1

    def _audible(self) -> bool:
        return 0 < self.frequency < min(AUDIBLE_LIMIT_HZ, self.rate / 2)

    def _tone(self, out: array, count: int) -> None:
        if count <= 0:
            return
        if not self._audible():
            out.extend(array("h", [0]) * count)
            return
        step = self.frequency / self.rate          # cycles a sample
        phase = self.phase
        high, low = self.amplitude, -self.amplitude
        left = count
        while left > 0:
            boundary = 0.5 if phase < 0.5 else 1.0
            run = max(1, math.ceil((boundary - phase) / step - 1e-9))
            run = min(run, left)
            out.extend(array("h", [high if phase < 0.5 else low]) * run)
            left -= run
            phase += run * step
            phase -= math.floor(phase)
        self.phase = phase


def render(events: Sequence[Event], end: float, rate: int = 44100, start: float = 0.0,
           volume: float = DEFAULT_VOLUME) -> array:
    """Samples of the speaker from ``start`` to ``end`` seconds (virtual time)."""
    synth = SquareWave(rate, start=0.0, volume=volume)
    synth.skip_to(events, start)
    return synth.render_until(events, end)


def write_wav(events: Sequence[Event], end_seconds: float, path: str | Path, rate: int = 44100,
              start_seconds: float = 0.0, sample_width: int = 2,
              volume: float = DEFAULT_VOLUME) -> Path:
    """Write the speaker from start_seconds to end_seconds as a mono WAV file.

    ``sample_width`` 2 gives 16-bit samples, 1 gives 8-bit (half the size).
    """
    if end_seconds < start_seconds:
        raise ValueError(f"the WAV would end ({end_seconds} s) before it starts ({start_seconds} s)")
    if sample_width not in (1, 2):
        raise ValueError("sample_width is 1 (8-bit) or 2 (16-bit)")
    samples = render(events, end_seconds, rate, start_seconds, volume)
    if sample_width == 1:
        data = bytes((s >> 8) + 128 for s in samples)       # WAV 8-bit is unsigned
    else:
        if samples.itemsize != 2:
            samples = array("h", samples)
        if sys.byteorder == "big":
            samples.byteswap()
        data = samples.tobytes()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(sample_width)
        out.setframerate(rate)
        out.writeframes(data)
    return path


class LiveSound:
    """Streams the speaker to pygame's mixer as virtual time passes.

    Each ``update`` renders the speaker up to the machine's virtual time and
    keeps one chunk queued on a mixer channel, so the sound runs a frame or
    two behind the picture.  Audio that piles up (turbo, a stall) beyond
    ``max_latency`` is dropped rather than played late.
    """

    def __init__(self, speaker, start: float, rate: int = 44100, max_latency: float = 0.15,
                 volume: float = DEFAULT_VOLUME) -> None:
        self.speaker = speaker
        self.enabled = False
        self.muted = False
        self.channel = None
        self._pending = array("h")
        self._channels = 1
        self.max_latency = max_latency
        try:
            import pygame
            if not pygame.mixer.get_init():
                pygame.mixer.init(frequency=rate, size=-16, channels=1, buffer=512)
            rate, size, channels = pygame.mixer.get_init()
            if size != -16:
                raise RuntimeError(f"the mixer opened with {size}-bit samples")
            self._channels = channels
            self.channel = pygame.mixer.Channel(0)
            self.enabled = True
        except Exception as exc:                 # no device, no driver: play nothing
            log.info("no sound: %s", exc)
        self.rate = rate
        self.synth = SquareWave(rate, start=0.0, volume=volume)
        self.synth.skip_to(speaker.events, start)

    def update(self, now: float) -> None:
        """Render up to virtual time ``now`` and keep the mixer fed."""
        samples = self.synth.render_until(self.speaker.events, now)
        if not self.enabled:
            return
        if not self.muted:
            self._pending.extend(samples)
        limit = int(self.max_latency * self.rate)
        if len(self._pending) > limit:
            del self._pending[:len(self._pending) - limit]
        self._feed()

    def skip(self, now: float) -> None:
        """Jump to ``now`` silently (pause, turbo)."""
        self.synth.skip_to(self.speaker.events, now)
        self._pending = array("h")

    def _feed(self) -> None:
        import pygame
        channel = self.channel
        if not self._pending or channel.get_queue() is not None:
            return
        data = self._pending
        self._pending = array("h")
        if self._channels > 1:
            data = array("h", [s for s in data for _ in range(self._channels)])
        try:
            sound = pygame.mixer.Sound(buffer=data.tobytes())
            if channel.get_busy():
                channel.queue(sound)
            else:
                channel.play(sound)
        except pygame.error as exc:             # the device went away: go quiet
            log.info("sound stopped: %s", exc)
            self.enabled = False

    def close(self) -> None:
        if self.enabled:
            try:
                import pygame
                pygame.mixer.quit()
            except Exception:
                pass
            self.enabled = False
