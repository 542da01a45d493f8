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
