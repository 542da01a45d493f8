"""The chips on their own: PIC, PIT, keyboard controller, CMOS, CGA status, speaker port."""
from __future__ import annotations

import datetime as dt

from pcemu.devices.cga import CgaCard
from pcemu.devices.cmos import CmosRtc
from pcemu.devices.kbc import KeyboardController
from pcemu.devices.pic import InterruptControllers, Pic8259
from pcemu.devices.pit import Pit8253


def test_pic_priorities_masks_and_eoi():
    pic = Pic8259(0x20, 0x08)
    pic.write(0x21, 0x00)
    pic.raise_irq(3)
    pic.raise_irq(1)
    assert pic.highest_pending() == 1
    assert pic.acknowledge(1) == 0x09
    assert pic.highest_pending() is None          # IRQ 3 waits behind IRQ 1 in service
    pic.write(0x20, 0x20)                         # non-specific EOI
    assert pic.highest_pending() == 3
    pic.write(0x21, 0x08)                         # mask IRQ 3
    assert pic.highest_pending() is None
    pic.write(0x20, 0x0B)                         # OCW3: read ISR
    assert pic.read(0x20) == 0


def test_pic_initialisation_sets_the_vector_base():
    pics = InterruptControllers()
    master = pics.master
    for port, value in ((0x20, 0x11), (0x21, 0x50), (0x21, 0x04), (0x21, 0x01), (0x21, 0x00)):
        master.write(port, value)
    pics.slave.imr = 0
    pics.raise_irq(0)
    assert pics.acknowledge() == 0x50
    pics.raise_irq(9)                             # through the cascade on IRQ 2
    master.end_of_interrupt()
    assert pics.acknowledge() == 0x71


def test_pit_counter_latch_and_irq0_period():
    now = [0]
    changes = []
    pit = Pit8253(lambda: now[0], lambda: changes.append(0), lambda: changes.append(2))
    pit.write(0x43, 0x36)                         # channel 0, lo/hi, mode 3
    pit.write(0x40, 0x00)
    pit.write(0x40, 0x08)                         # reload 0800h, as BASIC's PLAY does
    assert changes == [0]
    assert pit.next_irq0_after(0) == 0x800
    assert pit.next_irq0_after(0x800) == 0x1000
    now[0] = 100
    pit.write(0x43, 0x00)                         # latch channel 0
    now[0] = 900                                  # later reads still give the latched value
    low, high = pit.read(0x40), pit.read(0x40)
    assert (high << 8 | low) == (0x800 - 2 * 100) & 0xFFFF


def test_pit_channel2_gate_restarts_the_count():
    now = [50]
    pit = Pit8253(lambda: now[0], lambda: None, lambda: None)
    pit.write(0x43, 0xB6)
    pit.write(0x42, 0x54)
    pit.write(0x42, 0x02)
    pit.set_gate2(True)
    assert pit.channels[2].start == 50 and pit.channels[2].reload == 0x254


def test_keyboard_controller_offers_one_byte_at_a_time():
    raised = []
    scheduled = []
    kbc = KeyboardController(lambda: raised.append(1), lambda delay, action: scheduled.append(action), 10)
    kbc.send_scancodes([0x1E, 0x9E])
    scheduled.pop(0)()
    assert raised == [1] and kbc.read(0x64) & 1
    assert kbc.read(0x60) == 0x1E
    assert not kbc.read(0x64) & 1
    scheduled.pop(0)()
    assert kbc.read(0x60) == 0x9E and kbc.idle()


def test_keyboard_controller_self_test_and_reset_acknowledge():
    kbc = KeyboardController(lambda: None, lambda delay, action: action(), 0)
    kbc.write(0x64, 0xAA)
    assert kbc.read(0x60) == 0x55
    kbc.write(0x60, 0xFF)                         # reset the keyboard: FA then AA
    assert kbc.read(0x60) == 0xFA
    assert kbc.read(0x60) == 0xAA


def test_cmos_clock_reads_bcd_time_and_date():
    cmos = CmosRtc(lambda: dt.datetime(1988, 3, 14, 23, 59, 58))
    def reg(i):
        cmos.write(0x70, i)
        return cmos.read(0x71)
    assert (reg(4), reg(2), reg(0)) == (0x23, 0x59, 0x58)
    assert (reg(9), reg(8), reg(7), reg(0x32)) == (0x88, 0x03, 0x14, 0x19)
    assert reg(0x15) | reg(0x16) << 8 == 640


def test_cga_status_bits_move_so_polling_loops_end():
    card = CgaCard(lambda: 1000, 1_200_000)
    values = {card.read(0x3DA) for _ in range(20_000)}
    assert any(v & 0x08 for v in values) and any(not v & 0x08 for v in values)
    assert any(v & 0x01 for v in values) and any(not v & 0x01 for v in values)


def _counting_channel0(count: int, mode_word: int = 0x36):
    """Channel 0 loaded with ``count`` at PIT clock 0 after a control word, as the BIOS does."""
    now, changes = [0], []
    pit = Pit8253(lambda: now[0], lambda: changes.append(now[0]), lambda: None)
    pit.write(0x43, mode_word)
    pit.write(0x40, count & 0xFF)
    pit.write(0x40, count >> 8)
    return pit, now, changes


def _write_count(pit, count: int) -> None:
    pit.write(0x40, count & 0xFF)
    pit.write(0x40, count >> 8)


def test_pit_mode3_count_without_control_word_waits_for_the_high_halfs_end():
    pit, now, changes = _counting_channel0(0)          # 65536: BIOS's 18.2 Hz
    now[0] = 1000                                       # in the high half (0..32767)
    _write_count(pit, 0x800)                            # BASIC's music, no control word
    assert changes == [0, 1000]
    assert pit.channels[0].reload == 0x10000            # not yet
    # the low half is counted with the new count: the first edge 1024 after 32768
    assert pit.next_irq0_after(1000) == 32768 + 0x400
    assert pit.channels[0].output(32767) and not pit.channels[0].output(32768)
    assert pit.next_irq0_after(32768 + 0x400) == 32768 + 0x400 + 0x800
    assert pit.channels[0].reload == 0x800


def test_pit_mode3_count_without_control_word_in_the_low_half_waits_for_the_cycles_end():
    pit, now, _ = _counting_channel0(0x800)
    now[0] = 0x800 * 3 + 0x500                          # in a low half
    _write_count(pit, 0)                                # the music's end: back to 65536
    assert pit.next_irq0_after(now[0]) == 0x800 * 4     # the old cycle's own edge
    assert pit.next_irq0_after(0x800 * 4) == 0x800 * 4 + 0x10000
    # reads before the edge count the old cycle down, after it the new one
    assert pit.channels[0].value(0x800 * 4 - 2) == (0x800 - 2 * (0x3FE)) & 0xFFFF
    assert pit.channels[0].value(0x800 * 4 + 10) == (0x10000 - 20) & 0xFFFF


def test_pit_mode2_count_without_control_word_waits_for_the_cycles_end():
    pit, now, _ = _counting_channel0(1000, mode_word=0x34)
    now[0] = 2500
    _write_count(pit, 300)
    assert pit.next_irq0_after(2500) == 3000
    assert pit.next_irq0_after(3000) == 3300
    assert pit.channels[0].value(2999) == 1


def test_pit_count_after_a_control_word_loads_at_once():
    pit, now, _ = _counting_channel0(0)
    now[0] = 1000
    pit.write(0x43, 0x36)
    _write_count(pit, 0x800)
    assert pit.channels[0].start == 1000 and pit.channels[0].reload == 0x800
    assert pit.next_irq0_after(1000) == 1000 + 0x800


def test_pit_channel2_count_without_control_word_reaches_the_speaker_when_loaded():
    now, heard, scheduled = [0], [], []
    pit = Pit8253(lambda: now[0], lambda: None,
                  lambda: heard.append((now[0], pit.channels[2].reload)),
                  lambda at, action: scheduled.append((at, action)))
    pit.write(0x43, 0xB6)                          # channel 2, lo/hi, mode 3
    pit.write(0x42, 0x00)
    pit.write(0x42, 0x10)                          # 1000h: loaded at once
    pit.set_gate2(True)
    assert heard[-1] == (0, 0x1000) and not scheduled
    now[0] = 0x1000 * 2 + 0x900                    # a low half: the cycle ends at 3000h
    pit.write(0x42, 0x00)
    pit.write(0x42, 0x04)                          # the next note, no control word
    assert pit.channels[2].reload == 0x1000 and [at for at, _ in scheduled] == [0x3000]
    now[0] = 0x3000
    scheduled[0][1]()
    assert heard[-1] == (0x3000, 0x400)
    # a rising gate loads a waiting count at once
    now[0] = 0x3100
    pit.write(0x42, 0x00)
    pit.write(0x42, 0x02)
    pit.set_gate2(False)
    pit.set_gate2(True)
    assert pit.channels[2].reload == 0x200 and pit.channels[2].pending is None
