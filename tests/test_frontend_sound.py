"""The speaker as sound: WAV files and the live stream, from the speaker's event log."""
from __future__ import annotations

import wave

import numpy as np
import pytest

from pcemu import Machine
from pcemu.frontend.sound import LiveSound, SquareWave, render, write_wav
from tests.machine_helpers import DISK1612, needs_originals


def read_wav(path) -> tuple[np.ndarray, int]:
    with wave.open(str(path), "rb") as wav:
        assert wav.getnchannels() == 1
        rate, width = wav.getframerate(), wav.getsampwidth()
        raw = wav.readframes(wav.getnframes())
    if width == 1:
        return np.frombuffer(raw, dtype=np.uint8).astype(float) - 128, rate
    return np.frombuffer(raw, dtype="<i2").astype(float), rate


def dominant_frequency(samples: np.ndarray, rate: int) -> float:
    spectrum = np.abs(np.fft.rfft(samples - samples.mean()))
    return float(np.fft.rfftfreq(len(samples), 1 / rate)[spectrum.argmax()])


@pytest.mark.parametrize("rate, width", [(44100, 2), (8000, 1)])
def test_a_wav_holds_each_programmed_frequency_where_it_was_played(tmp_path, rate, width):
    events = [(0.10, 440.0), (0.60, 0.0), (0.70, 1234.5), (1.10, 41144.2), (1.20, 0.0)]
    path = write_wav(events, 1.3, tmp_path / "tone.wav", rate=rate, sample_width=width)
    samples, got_rate = read_wav(path)
    assert got_rate == rate and len(samples) == round(1.3 * rate)
    assert dominant_frequency(samples[int(0.15 * rate):int(0.55 * rate)], rate) == pytest.approx(440, abs=3)
    assert dominant_frequency(samples[int(0.75 * rate):int(1.05 * rate)], rate) == pytest.approx(1234.5, abs=4)
    assert not samples[:int(0.099 * rate)].any()             # silent before the first note
    assert not samples[int(0.61 * rate):int(0.69 * rate)].any()   # and in the rest
    assert not samples[int(1.11 * rate):].any()              # 41 kHz is beyond hearing: silence


def test_a_wav_can_start_in_the_middle_of_a_note(tmp_path):
    events = [(0.0, 500.0), (2.0, 0.0)]
    samples, rate = read_wav(write_wav(events, 1.5, tmp_path / "mid.wav", rate=22050, start_seconds=1.0))
    assert len(samples) == round(0.5 * 22050)
    assert dominant_frequency(samples, rate) == pytest.approx(500, abs=4)


def test_streaming_in_pieces_gives_the_same_samples_as_one_render():
    events = [(0.01, 300.0), (0.123, 777.0), (0.2, 0.0), (0.25, 95.0), (0.4, 0.0)]
    whole = render(events, 0.5, 11025)
    synth = SquareWave(11025)
    pieces = []
    t = 0.0
    while t < 0.5:
        t = min(0.5, t + 0.0137)
        pieces.extend(synth.render_until(events, t))
    assert list(whole) == pieces


def test_a_square_wave_changes_pitch_without_resetting_its_phase_mid_tone():
    synth = SquareWave(8000, volume=1.0)
    out = synth.render_until([(0.0, 1000.0), (0.0005, 500.0)], 0.002)
    high, low = 32767, -32767
    # 1 kHz at 8 kHz: 4 high, 4 low; the change at sample 4 continues the low half at 500 Hz
    assert list(out[:4]) == [high] * 4 and list(out[4:12]) == [low] * 8


def test_bad_arguments_are_clear_errors(tmp_path):
    with pytest.raises(ValueError, match="before it starts"):
        write_wav([], 1.0, tmp_path / "x.wav", start_seconds=2.0)
    with pytest.raises(ValueError, match="8-bit"):
        write_wav([], 1.0, tmp_path / "x.wav", sample_width=3)


class FakeSpeaker:
    def __init__(self, events):
        self.events = events


def test_live_sound_without_an_audio_device_is_silent_and_never_raises(monkeypatch):
    import pygame
    pygame.mixer.quit()
    monkeypatch.setenv("SDL_AUDIODRIVER", "no-such-driver")
    live = LiveSound(FakeSpeaker([(0.0, 440.0)]), start=0.0)
    assert not live.enabled
    live.update(0.5)
    live.skip(1.0)
    live.update(1.5)
    live.close()


def test_live_sound_feeds_the_mixer_with_the_speakers_wave(monkeypatch):
    import pygame
    pygame.mixer.quit()
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")          # a device that plays into nothing
    live = LiveSound(FakeSpeaker([(0.0, 440.0), (0.3, 0.0)]), start=0.0, rate=22050)
    try:
        if not live.enabled:
            pytest.skip("SDL has no dummy audio driver here")
        live.update(0.05)
        assert live.channel.get_busy()                      # a chunk is playing
        played = pygame.sndarray.array(live.channel.get_sound()) if hasattr(pygame, "sndarray") else None
        if played is not None:
            mono = played if played.ndim == 1 else played[:, 0]
            assert dominant_frequency(mono.astype(float), live.rate) == pytest.approx(440, abs=25)
        live.muted = True
        live.update(0.1)
        assert len(live._pending) == 0                      # muted: nothing more is queued
    finally:
        live.close()


@needs_originals
def test_ginrummys_opening_beep_is_2002_hz_in_the_wav(tmp_path):
    """The program's first sound: PIT channel 2 at 1193182/596 = 2002 Hz for about 55 ms."""
    m = Machine(disks=[f"B:{DISK1612}"])
    m.type("GINRUMMY{ENTER}{WAIT:COWBOY GIN?}{TICKS:9}")
    events = m.speaker.events
    tones = [(t, f) for t, f in events if 20 < f < 20000]
    assert tones, "GINRUMMY made no sound"
    start, frequency = tones[0]
    following = next(t for t, _f in events if t > start)
    path = write_wav(events, m.clock.seconds(), tmp_path / "opening.wav", rate=44100)
    samples, rate = read_wav(path)
    note = samples[int(start * rate) + 10:int(following * rate) - 10]
    assert len(note) > 0.02 * rate
    assert dominant_frequency(note, rate) == pytest.approx(frequency, rel=0.03)
    assert frequency == pytest.approx(1193182 / 596, rel=0.001)


@needs_originals
def test_the_opening_music_wav_holds_every_frequency_pit_channel_2_was_programmed_with(tmp_path):
    """From GINRUMMY's start to the dealt hands: the counts the program loaded into PIT
    channel 2 are seen at the PIT itself (not in the speaker's log); every note of the WAV
    long enough to hold three periods has, by FFT, its main frequency at one of them.
    (The 678 Hz note sounds for 5.1 ms, 3.5 periods: the 2,040 instructions between the
    OUT that starts it and the next.)"""
    m = Machine(disks=[f"B:{DISK1612}"])
    programmed = set()
    load = m.pit._load

    def spy(channel, count):
        if channel.index == 2:
            programmed.add(1193182 / (count or 0x10000))
        load(channel, count)
    m.pit._load = spy
    m.type("GINRUMMY{ENTER}{WAIT:COWBOY GIN?}S{WAIT:OPEN HANDS?}Y{WAIT:YOU'RE UP}")
    events = m.speaker.events
    samples, rate = read_wav(write_wav(events, m.clock.seconds(), tmp_path / "opening.wav"))
    audible = {f for f in programmed if 20 < f < 20000}
    heard = {}
    for (start, frequency), (end, _next) in zip(events, events[1:]):
        note = samples[int(start * rate) + 5:int(end * rate) - 5]
        if not 20 < frequency < 20000 or len(note) < 3 * rate / frequency:
            continue                                   # silence, or too few periods to measure
        spectrum = np.abs(np.fft.rfft(note - note.mean(), n=rate))     # zero-padded: 1 Hz bins
        peak = float(spectrum.argmax())
        nearest = min(audible, key=lambda f: abs(f - peak))
        assert abs(peak - nearest) <= 0.03 * nearest, (start, peak, sorted(audible))
        heard[round(nearest)] = peak
    assert {2002, 678, 100} <= set(heard), (heard, sorted(audible))    # the opening tune
