/* Native fast paths for pcemu's CPU hooks: the same work the Python hooks do,
 * without crossing into Python for the two hottest events.
 *
 *  - Software interrupts (INT n, INT 3, INTO) that are not machine traps and
 *    not CPU faults are vectored through the real-mode IVT exactly as
 *    pcemu/cpu.py's Cpu.deliver_interrupt does (push FLAGS masked as a 286
 *    reads them, CS, IP; clear IF and TF; load CS:IP from the IVT).
 *  - IN from the CGA status port 3DAh is answered from the beam clock exactly
 *    as pcemu/devices/cga.py and crtc.py compute it.
 *
 *  - Instructions are counted by a code hook on every instruction, which ends
 *    the slice exactly where emu_start's own count would (Unicorn's counter is
 *    the same kind of hook); knowing the count at every instruction is what
 *    lets the hook skip idle loops.
 *  - Idle loops: a slice may watch one address (where the last slice was
 *    interrupted).  When the CPU reaches it twice with the same registers and no
 *    memory write, port access or Python call in between that changed
 *    anything, every later pass would repeat that one exactly until something
 *    outside the CPU changes memory, which can only happen at the slice's end.
 *    So the whole passes that fit before the slice ends are counted as run
 *    without running them: the state at the end of the slice is the same.
 *
 * Everything else (and everything, when Python listeners or port watchers are
 * attached) is handed to the Python callbacks, so behaviour is identical with
 * or without this library; only the cost differs.  Every IN is counted here,
 * because the machine's time within a slice counts port reads.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <unicorn/unicorn.h>

/* Everything that is CPU state apart from memory: 32-bit registers (a 386
 * instruction could change only the upper halves), FLAGS, segments, x87, SSE. */
static const int probe_ids[] = {
    UC_X86_REG_EAX, UC_X86_REG_EBX, UC_X86_REG_ECX, UC_X86_REG_EDX, UC_X86_REG_ESI,
    UC_X86_REG_EDI, UC_X86_REG_EBP, UC_X86_REG_ESP, UC_X86_REG_EIP, UC_X86_REG_EFLAGS,
    UC_X86_REG_CS, UC_X86_REG_DS, UC_X86_REG_ES, UC_X86_REG_SS, UC_X86_REG_FS, UC_X86_REG_GS,
    UC_X86_REG_FPSW, UC_X86_REG_FPCW, UC_X86_REG_FPTAG,
    UC_X86_REG_ST0, UC_X86_REG_ST1, UC_X86_REG_ST2, UC_X86_REG_ST3,
    UC_X86_REG_ST4, UC_X86_REG_ST5, UC_X86_REG_ST6, UC_X86_REG_ST7,
    UC_X86_REG_XMM0, UC_X86_REG_XMM1, UC_X86_REG_XMM2, UC_X86_REG_XMM3,
    UC_X86_REG_XMM4, UC_X86_REG_XMM5, UC_X86_REG_XMM6, UC_X86_REG_XMM7, UC_X86_REG_MXCSR,
};
#define PROBE_REGS ((int)(sizeof(probe_ids) / sizeof(probe_ids[0])))
/* A probe gives up after this many instructions, or passes, without finding a loop. */
#define PROBE_SPAN 1024
#define PROBE_VISITS 16
/* Distinct bytes a pass may write (an idle pass writes the same few stack words). */
#define LOG_BYTES 256

typedef void (*intr_fallback)(uc_engine *uc, uint32_t intno, void *user);
typedef uint32_t (*in_fallback)(uc_engine *uc, uint32_t port, int size, void *user);
typedef void (*out_fallback)(uc_engine *uc, uint32_t port, int size, uint32_t value, void *user);

struct fast_state {
    uint8_t *mem;                 /* the 1 MB guest memory */
    intr_fallback on_interrupt;   /* Python: traps, faults, watched interrupts */
    in_fallback on_in;            /* Python: every port but the status port */
    int64_t clock_now;            /* the machine's clock at the start of the slice */
    int64_t port_reads;           /* INs executed in this slice */
    int64_t beam_base;            /* BeamClock._base */
    int64_t beam_reads;           /* BeamClock.reads */
    double frame;                 /* instructions per video frame */
    int32_t status_port;          /* 0x3DA, or -1: Python answers it */
    int32_t scanlines;
    int32_t visible_lines;
    int32_t reserved;
    uint64_t native_interrupts;   /* statistics */
    uint64_t native_status_reads;
    uint8_t native[256];          /* 1: deliver this vector here */
    /* Statement breakpoints: a QuickBASIC program has an INT 3 before every
     * statement.  When int3_segment >= 0, an INT 3 from that code segment is
     * handed to Python only if the offset of the INT 3 (IP - 1) has its bit set
     * in int3_break; the others are delivered here and counted. */
    int32_t int3_segment;
    int32_t reserved2;
    uint64_t int3_passed;         /* INT 3s from int3_segment delivered here */
    uint8_t int3_break[8192];     /* one bit per offset in int3_segment */
    /* Counting (see the top of this file). */
    int64_t budget;               /* instructions this slice may run */
    int64_t executed;             /* instructions run, or skipped as idle, in this slice */
    /* Idle-loop probe (one watched address per slice; see probe_visit). */
    int64_t watch;                /* linear address watched, or -1 */
    int64_t visit_at;             /* executed at the last pass through watch */
    uint64_t visit_int3;          /* int3_passed at that pass */
    uint64_t visit_native;        /* native_interrupts at that pass */
    int32_t changed;              /* a port, a Python call or a log overflow since then */
    int32_t visits;
    int32_t written;              /* bytes in the write log */
    int32_t reserved3;
    uint64_t skipped;             /* statistics: instructions skipped, loops skipped */
    uint64_t loops_skipped;
    uint32_t log_address[LOG_BYTES];  /* each byte written since the last pass, once... */
    uint8_t log_old[LOG_BYTES];       /* ...with its value at that pass */
    uint8_t visit_regs[PROBE_REGS * 16];
    /* INT 10h functions 02h, 08h and 09h in text modes, answered here exactly as
     * bios/video.py's set_cursor_position, read_char_attr and write_char_attr
     * answer them, when no Python listener watches services. */
    int64_t video_trap;           /* linear address of the INT 10h ROM trap, or -1 */
    uint8_t *crtc;                /* the video card's 6845 registers (18 bytes) */
    uint64_t native_services;     /* services answered here */
    out_fallback on_out;          /* Python: every OUT */
    /* The master 8259's in-service register (pcemu/devices/pic.py keeps it in a C
     * int): when pic_native is set (no port watcher must see them), a
     * non-specific EOI (OUT 20h, 20h) clears its lowest bit here, as
     * Pic8259.end_of_interrupt does, and port 21h reads and sets the mask
     * (master_imr) unless an initialisation sequence is under way (master_init). */
    int32_t *master_isr;
    uint64_t native_eois;         /* statistics */
    /* Timer chaining (see pcemu_run_slice): with ``chain`` set, a slice that ends
     * with nothing for Python to do goes on into the next one here, raising and
     * delivering IRQ 0 at its due time as Machine._run_slice and step would. */
    int32_t chain;                /* 1: allowed (Python re-decides after each of its calls) */
    int32_t irq0_pending;         /* the master's IRR bit 0... */
    int32_t other_irr;            /* ...and its others, which C never changes */
    int64_t max_slice;            /* machine.MAX_SLICE */
    int64_t timer_due;            /* instruction count of the next IRQ 0, or -1 */
    int64_t other_due;            /* the next other device event, or -1 (none) */
    int64_t ips;                  /* instructions per virtual second */
    int64_t pit_start;            /* channel 0, in mode 2 or 3: where its count began... */
    int64_t pit_reload;           /* ...and its period, in PIT clocks */
    int32_t irq0_vector;          /* the master 8259's vector base */
    int32_t auto_eoi;             /* the master acknowledges without setting ISR */
    int64_t if_poll_slice;        /* machine.IF_POLL_SLICE */
    int64_t if_wait_at;           /* Machine._if_wait_at, or -1 */
    int64_t chain_end;            /* no slice starts at or after this count (-1: any may) */
    int64_t slice_budget;         /* out: the budget of the slice that ended last */
    int64_t chain_instructions;   /* out: instructions of the slices run before it... */
    uint64_t chain_fires;         /* ...and the IRQ 0s raised there */
    uint64_t chained_slices;      /* statistics: slices run on, IRQ 0s delivered, */
    uint64_t chain_irq0s;         /* and short slices waiting for STI */
    uint64_t chain_sti_waits;
    int32_t *master_imr;          /* the master 8259's mask register (a C int)... */
    int32_t *master_init;         /* ...and its initialisation step, 0 when running */
    int32_t pic_native;
    int32_t reserved5;
    uint64_t native_mask_accesses;  /* statistics */
};

#define FLAG_TF 0x0100
#define FLAG_IF 0x0200

/* While a probe watches: remember the value each byte had at the last pass,
 * before it is first written (the write hook and put_byte call this). */
static void log_write(struct fast_state *s, uint64_t address, int size)
{
    if (s->watch < 0 || s->changed)
        return;
    for (int i = 0; i < size; i++) {
        uint32_t a = (uint32_t)(address + i) & 0xFFFFF;
        int j = 0;
        while (j < s->written && s->log_address[j] != a)
            j++;
        if (j < s->written)
            continue;
        if (s->written == LOG_BYTES) {
            s->changed = 1;
            return;
        }
        s->log_address[j] = a;
        s->log_old[j] = s->mem[a];
        s->written++;
    }
}

static void put_byte(struct fast_state *s, uint32_t address, uint8_t byte)
{
    log_write(s, address, 1);
    s->mem[address & 0xFFFFF] = byte;
}

static void put_word(struct fast_state *s, uint32_t base, uint32_t offset, uint32_t word)
{
    put_byte(s, base + (offset & 0xFFFF), word & 0xFF);
    put_byte(s, base + ((offset + 1) & 0xFFFF), (word >> 8) & 0xFF);
}

/* Enter interrupt ``vector`` as the 286 does (Cpu.deliver_interrupt, return IP = IP). */
void pcemu_deliver(uc_engine *uc, struct fast_state *s, uint32_t intno)
{
    int ids[5] = {UC_X86_REG_FLAGS, UC_X86_REG_CS, UC_X86_REG_IP, UC_X86_REG_SS, UC_X86_REG_SP};
    uint64_t v[5] = {0, 0, 0, 0, 0};
    void *ptrs[5] = {&v[0], &v[1], &v[2], &v[3], &v[4]};
    uc_reg_read_batch(uc, ids, ptrs, 5);
    uint32_t flags = (uint32_t)((v[0] & 0x0FD5) | 0x0002);
    uint32_t cs = v[1] & 0xFFFF, ip = v[2] & 0xFFFF, ss = v[3] & 0xFFFF, sp = v[4] & 0xFFFF;
    uint32_t base = ss << 4;
    put_word(s, base, sp - 2, flags);
    put_word(s, base, sp - 4, cs);
    put_word(s, base, sp - 6, ip);
    uint8_t *ivt = s->mem + (intno & 0xFF) * 4;
    uint64_t new_sp = (sp - 6) & 0xFFFF;
    uint64_t new_flags = flags & ~(FLAG_IF | FLAG_TF);
    uint64_t new_ip = ivt[0] | (ivt[1] << 8);
    uint64_t new_cs = ivt[2] | (ivt[3] << 8);
    uc_reg_write(uc, UC_X86_REG_SP, &new_sp);
    uc_reg_write(uc, UC_X86_REG_FLAGS, &new_flags);
    uc_reg_write(uc, UC_X86_REG_CS, &new_cs);
    uc_reg_write(uc, UC_X86_REG_IP, &new_ip);
}

/* BIOS data area fields (bios/bda.py). */
#define BDA_VIDEO_MODE 0x449
#define BDA_COLUMNS 0x44A
#define BDA_PAGE_SIZE 0x44C
#define BDA_PAGE_OFFSET 0x44E
#define BDA_CURSORS 0x450
#define BDA_ACTIVE_PAGE 0x462

static uint32_t get_word(const uint8_t *mem, uint32_t address)
{
    return mem[address & 0xFFFFF] | (mem[(address + 1) & 0xFFFFF] << 8);
}

/* INT 10h AH=02h: the page's cursor in the BIOS data area, and the 6845's if shown. */
static void video_set_cursor(struct fast_state *s, uint32_t page, uint32_t row, uint32_t col)
{
    uint8_t *mem = s->mem;
    uint32_t at = BDA_CURSORS + 2 * (page & 7);
    mem[at] = col & 0xFF;
    mem[at + 1] = row & 0xFF;
    if ((page & 7) == mem[BDA_ACTIVE_PAGE]) {
        uint32_t columns = get_word(mem, BDA_COLUMNS);
        if (columns == 0)
            columns = 80;
        uint32_t address = (get_word(mem, BDA_PAGE_OFFSET) >> 1) + row * columns + col;
        s->crtc[0x0E] = (address >> 8) & 0xFF;
        s->crtc[0x0F] = address & 0xFF;
    }
}

/* The address of the cell under ``page``'s cursor and the page's end, as
 * bios/video.py's cell_address and page_base compute them; 0 in a graphics
 * mode (4-6), which Python draws and reads. */
static int text_cursor_cell(const uint8_t *mem, uint32_t page, int64_t *cell, int64_t *page_end)
{
    uint32_t mode = mem[BDA_VIDEO_MODE];
    if (mode == 4 || mode == 5 || mode == 6)
        return 0;
    uint32_t columns = get_word(mem, BDA_COLUMNS);
    if (columns == 0)
        columns = 80;
    uint32_t cursor = get_word(mem, BDA_CURSORS + 2 * (page & 7));
    int64_t page_size = get_word(mem, BDA_PAGE_SIZE);
    int64_t base = (mode == 7 ? 0xB0000 : 0xB8000) + (int64_t)page * page_size;
    *cell = base + (int64_t)((cursor >> 8) * columns + (cursor & 0xFF)) * 2;
    *page_end = base + page_size;
    return 1;
}

/* INT 10h AH=09h in a text mode: CX copies of AL and BL from the page's cursor on. */
static int video_write_cells(struct fast_state *s, uint32_t page, uint32_t ch, uint32_t attr,
                             int64_t count)
{
    int64_t start, end;
    if (!text_cursor_cell(s->mem, page, &start, &end))
        return 0;
    int64_t room = end - start;
    int64_t fits = room >= 0 ? room / 2 : -((-room + 1) / 2);   /* Python's floor division */
    if (count > fits)
        count = fits;
    for (int64_t i = 0; i < count; i++) {
        s->mem[(start + 2 * i) & 0xFFFFF] = ch;
        s->mem[(start + 2 * i + 1) & 0xFFFFF] = attr;
    }
    return 1;
}

/* INT 10h AH=08h in a text mode: AX = the character and attribute at the page's cursor. */
static int video_read_cell(uc_engine *uc, struct fast_state *s, uint32_t page)
{
    int64_t cell, end;
    if (!text_cursor_cell(s->mem, page, &cell, &end))
        return 0;
    uint64_t ax = get_word(s->mem, (uint32_t)(cell & 0xFFFFF));
    uc_reg_write(uc, UC_X86_REG_AX, &ax);
    return 1;
}

/* The INT FEh at the INT 10h ROM trap: answer functions 02h, 08h and 09h here if possible. */
static int video_service(uc_engine *uc, struct fast_state *s)
{
    int ids[6] = {UC_X86_REG_CS, UC_X86_REG_IP, UC_X86_REG_AX, UC_X86_REG_BX, UC_X86_REG_CX,
                  UC_X86_REG_DX};
    uint64_t v[6] = {0, 0, 0, 0, 0, 0};
    void *ptrs[6] = {&v[0], &v[1], &v[2], &v[3], &v[4], &v[5]};
    uc_reg_read_batch(uc, ids, ptrs, 6);
    uint32_t at = (((uint32_t)v[0] << 4) + (((uint32_t)v[1] - 2) & 0xFFFF)) & 0xFFFFF;
    if ((int64_t)at != s->video_trap)
        return 0;
    uint32_t ah = (v[2] >> 8) & 0xFF, al = v[2] & 0xFF, bh = (v[3] >> 8) & 0xFF, bl = v[3] & 0xFF;
    if (ah == 0x02)
        video_set_cursor(s, bh, (v[5] >> 8) & 0xFF, v[5] & 0xFF);
    else if (ah == 0x08) {
        if (!video_read_cell(uc, s, bh))
            return 0;
    } else if (ah != 0x09 || !video_write_cells(s, bh, al, bl, (int64_t)(v[4] & 0xFFFF)))
        return 0;
    s->changed = 1;                   /* the screen is no idle loop's business */
    s->native_services++;
    return 1;
}

static void hook_interrupt(uc_engine *uc, uint32_t intno, void *user)
{
    struct fast_state *s = user;
    if (intno == 0xFE && s->video_trap >= 0 && video_service(uc, s))
        return;
    if (intno == 3 && s->int3_segment >= 0) {
        int ids[2] = {UC_X86_REG_CS, UC_X86_REG_IP};
        uint64_t v[2] = {0, 0};
        void *ptrs[2] = {&v[0], &v[1]};
        uc_reg_read_batch(uc, ids, ptrs, 2);
        uint32_t at = (uint32_t)(v[1] - 1) & 0xFFFF;
        if ((v[0] & 0xFFFF) == (uint32_t)s->int3_segment && !(s->int3_break[at >> 3] & (1u << (at & 7)))) {
            pcemu_deliver(uc, s, intno);
            s->int3_passed++;
            return;
        }
    }
    if (!s->native[intno & 0xFF]) {
        s->changed = 1;               /* Python may change anything */
        s->on_interrupt(uc, intno, 0);
        return;
    }
    pcemu_deliver(uc, s, intno);
    s->native_interrupts++;
}

static uint32_t cga_status(struct fast_state *s)
{
    int64_t now = s->clock_now + s->port_reads * 3;          /* Machine._instr_now */
    if (now != s->beam_base) {                               /* BeamClock.phase */
        s->beam_base = now;
        s->beam_reads = 0;
    }
    s->beam_reads += 1;
    int64_t t = now + s->beam_reads * 4;
    double phase = fmod((double)t, s->frame) / s->frame;
    double line_pos = phase * s->scanlines;                  /* CgaCard._status */
    int64_t line = (int64_t)line_pos;
    uint32_t status = 0;
    if (line >= s->visible_lines || line_pos - (double)line > 0.8)
        status |= 0x01;
    if (s->visible_lines + 24 <= line && line < s->visible_lines + 40)
        status |= 0x08;
    return status;
}

static uint32_t hook_in(uc_engine *uc, uint32_t port, int size, void *user)
{
    struct fast_state *s = user;
    s->port_reads++;
    s->changed = 1;                   /* a port's answer may depend on the time */
    if ((int32_t)port == s->status_port && size == 1) {
        s->native_status_reads++;
        return cga_status(s);
    }
    if (port == 0x21 && size == 1 && s->pic_native) {   /* Pic8259.read: the mask */
        s->native_mask_accesses++;
        return *s->master_imr & 0xFF;
    }
    return s->on_in(uc, port, size, 0);
}

static void read_probe_regs(uc_engine *uc, uint8_t *out)
{
    void *ptrs[PROBE_REGS];
    memset(out, 0, PROBE_REGS * 16);   /* narrow registers fill only their low bytes */
    for (int i = 0; i < PROBE_REGS; i++)
        ptrs[i] = out + 16 * i;
    uc_reg_read_batch(uc, (int *)probe_ids, ptrs, PROBE_REGS);
}

/* Every byte written since the last pass holds the value it had then. */
static int memory_as_at_last_pass(struct fast_state *s)
{
    for (int i = 0; i < s->written; i++)
        if (s->mem[s->log_address[i]] != s->log_old[i])
            return 0;
    return 1;
}

/* A pass through the watched address, before its instruction runs.  If the CPU
 * state (registers and memory) is what it was at the last pass, and nothing
 * outside the CPU took part in between (no port, no Python call), then the
 * next pass will do exactly the same again, and so on until the slice ends:
 * nothing outside the CPU can act before then.  So the whole passes that fit
 * in the slice are counted as run, and the rest of the slice runs as usual. */
static void probe_visit(uc_engine *uc, struct fast_state *s)
{
    uint8_t regs[PROBE_REGS * 16];
    read_probe_regs(uc, regs);
    if (s->visits > 0 && !s->changed && memcmp(regs, s->visit_regs, sizeof(regs)) == 0
            && memory_as_at_last_pass(s)) {
        int64_t period = s->executed - s->visit_at;
        int64_t passes = (s->budget - s->executed) / period;
        if (passes > 0) {
            s->executed += passes * period;
            s->int3_passed += passes * (s->int3_passed - s->visit_int3);
            s->native_interrupts += passes * (s->native_interrupts - s->visit_native);
            s->skipped += passes * period;
            s->loops_skipped++;
        }
        s->watch = -1;
        return;
    }
    if (++s->visits > PROBE_VISITS) {
        s->watch = -1;
        return;
    }
    memcpy(s->visit_regs, regs, sizeof(regs));
    s->visit_at = s->executed;
    s->visit_int3 = s->int3_passed;
    s->visit_native = s->native_interrupts;
    s->changed = 0;
    s->written = 0;
}

/* Every instruction, before it runs: count it, end the slice, watch for idle loops. */
static void hook_code(uc_engine *uc, uint64_t address, uint32_t size, void *user)
{
    struct fast_state *s = user;
    if ((int64_t)address == s->watch) {
        if (s->executed > PROBE_SPAN)     /* slices, and so probes, start at 0 */
            s->watch = -1;
        else
            probe_visit(uc, s);
    }
    if (s->executed >= s->budget) {
        uc_emu_stop(uc);              /* as emu_start's count does: this one does not run */
        return;
    }
    s->executed++;
}

/* Every memory write: logged while a probe watches. */
static void hook_write(uc_engine *uc, uc_mem_type type, uint64_t address, int size,
                       int64_t value, void *user)
{
    log_write(user, address, size);
}

/* Before a slice: watch ``address`` for an idle loop (-1: none). */
void pcemu_probe_start(struct fast_state *s, int64_t address)
{
    s->watch = address;
    s->visits = 0;
    s->written = 0;
    s->changed = 0;
}

/* PIT clock -> the first instruction count at which it has elapsed, and back
 * (Clock.instructions_for_pit and pit_clocks: floor and ceiling divisions). */
#define PIT_HZ 1193182
static int64_t floor_div(__int128 a, int64_t b)
{
    __int128 q = a / b;
    return (int64_t)((a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q);
}

/* Machine._timer_fired's reschedule: channel 0's next edge strictly after the
 * PIT clock of ``now`` (Pit8253.next_irq0_after, modes 2 and 3), as an
 * instruction count no earlier than ``now`` (Scheduler.at). */
static int64_t next_timer_due(const struct fast_state *s, int64_t now)
{
    int64_t pit_now = floor_div((__int128)now * PIT_HZ, s->ips);
    int64_t k = floor_div((__int128)pit_now - s->pit_start, s->pit_reload) + 1;
    __int128 edge = (__int128)s->pit_start + (__int128)k * s->pit_reload;
    int64_t due = -floor_div(-edge * s->ips, PIT_HZ);
    return due > now ? due : now;
}

/* After a slice that ended at instruction ``now`` with nothing for Python to
 * do, at linear address ``here`` with ``flags``: what Machine._run_slice and the
 * next step would do, here (Python's 8259 has no other request than IRQ 0).
 * Returns the next slice's budget, or 0 when another event is due or the
 * chain has run its span: Python's turn. */
static int64_t chain_on(uc_engine *uc, struct fast_state *s, int64_t now, int64_t here,
                        uint64_t flags)
{
    if ((s->other_due >= 0 && s->other_due <= now) || (s->chain_end >= 0 && now >= s->chain_end))
        return 0;
    s->clock_now = now;
    s->chained_slices++;
    if (s->timer_due >= 0 && s->timer_due <= now) {          /* _timer_fired */
        s->irq0_pending = 1;
        s->timer_due = next_timer_due(s, now);
        s->chain_fires++;
    }
    /* InterruptControllers.pending: IRQ 0 requested, unmasked, not in service */
    int waiting = s->irq0_pending && !(*s->master_imr & 1) && !(*s->master_isr & 1);
    if (waiting && (flags & FLAG_IF)) {                      /* _deliver_hardware_interrupt */
        s->irq0_pending = 0;
        if (!s->auto_eoi)
            *s->master_isr |= 1;
        pcemu_deliver(uc, s, (uint32_t)s->irq0_vector);
        s->chain_irq0s++;
        waiting = 0;
    }
    int64_t due = s->timer_due;       /* step's budget: to the next event, at most max_slice */
    if (s->other_due >= 0 && (due < 0 || s->other_due < due))
        due = s->other_due;
    int64_t budget = s->max_slice;
    if (due >= 0 && due - now < budget)
        budget = due - now > 1 ? due - now : 1;
    if (waiting) {                    /* IRQ 0 waits for STI: short slices, as step does */
        int64_t wait = here == s->if_wait_at ? 1 : s->if_poll_slice;
        if (wait < budget)
            budget = wait;
        s->if_wait_at = here;
        s->chain_sti_waits++;
    } else {
        s->if_wait_at = -1;
    }
    return budget;
}

/* One slice, as Cpu.run does it with the binding's emu_start: run from CS:IP for
 * ``budget`` instructions, watching ``watch`` for an idle loop; then read the
 * registers named by ``snap_ids`` into ``snap`` (FLAGS last), clear FLAGS bits
 * 12-15 as a real-mode 286 keeps them clear, and say whether the slice ended
 * on a HLT (Unicorn leaves IP past it).  On an error nothing is read.
 *
 * While s->chain is set, a slice that ended on its count is followed by the
 * next here (chain_on), each watching where the last one ended, until Python
 * has something to do; the snapshot is the last slice's, s->slice_budget its
 * budget, and s->clock_now its start.  A Python callback in a slice first
 * brings the machine up to date (Cpu.absorb_chain), and afterwards says again
 * whether C may go on (Machine._prepare_chain), or stops the chain. */
int pcemu_run_slice(uc_engine *uc, struct fast_state *s, int64_t budget, int64_t watch,
                    const int *snap_ids, uint64_t *snap, int count, int *halted)
{
    int ids[2] = {UC_X86_REG_CS, UC_X86_REG_IP};
    void *ptrs[16];
    if (count < 1 || count > 16)
        return UC_ERR_ARG;
    for (;;) {
        uint64_t cs = 0, ip = 0;
        void *at[2] = {&cs, &ip};
        uc_reg_read_batch(uc, ids, at, 2);
        uint64_t start = ((cs << 4) + (ip & 0xFFFF)) & 0xFFFFF;
        s->budget = budget;
        s->executed = 0;
        s->port_reads = 0;
        s->slice_budget = budget;
        pcemu_probe_start(s, watch);
        uc_err err = uc_emu_start(uc, start, 0xFFFFFFFF, 0, 0);
        if (err != UC_ERR_OK)
            return err;
        for (int i = 0; i < count; i++) {
            snap[i] = 0;                  /* 16-bit reads fill only the low bytes */
            ptrs[i] = &snap[i];
        }
        uc_reg_read_batch(uc, (int *)snap_ids, ptrs, count);
        uint64_t flags = snap[count - 1];
        if (flags & 0xF000) {
            flags &= ~(uint64_t)0xF000;
            uc_reg_write(uc, UC_X86_REG_FLAGS, &flags);
            snap[count - 1] = flags;
        }
        cs = ip = 0;
        uc_reg_read_batch(uc, ids, at, 2);
        *halted = s->mem[(((cs & 0xFFFF) << 4) + ((ip - 1) & 0xFFFF)) & 0xFFFFF] == 0xF4;
        if (!s->chain || *halted || s->executed < budget)
            return UC_ERR_OK;
        int64_t here = (int64_t)((((cs & 0xFFFF) << 4) + (ip & 0xFFFF)) & 0xFFFFF);
        int64_t next = chain_on(uc, s, s->clock_now + budget, here, flags);
        if (next == 0)
            return UC_ERR_OK;
        s->chain_instructions += budget;
        watch = here;
        budget = next;
    }
}

/* The size of struct fast_state, for the Python mirror's check (a different
 * PROBE_REGS or LOG_BYTES changes it too). */
int pcemu_state_size(void)
{
    return (int)sizeof(struct fast_state);
}

static void hook_out(uc_engine *uc, uint32_t port, int size, uint32_t value, void *user)
{
    struct fast_state *s = user;
    s->changed = 1;                   /* a device took part: not an idle pass */
    if (s->pic_native && size == 1) {
        if (port == 0x20 && (value & 0xFF) == 0x20) {
            int32_t isr = *s->master_isr;
            *s->master_isr = isr & (isr - 1);
            s->native_eois++;
            return;
        }
        if (port == 0x21 && *s->master_init == 0) {
            *s->master_imr = value & 0xFF;
            s->native_mask_accesses++;
            if (s->other_irr & ~value & 0xFF)
                s->chain = 0;         /* a request unmasked: Python's to present */
            return;
        }
    }
    s->on_out(uc, port, size, value, 0);
}

/* Install the hooks; returns a Unicorn error code (0 = UC_ERR_OK). */
int pcemu_fast_install(uc_engine *uc, struct fast_state *s, uc_hook *handles)
{
    s->watch = -1;
    s->video_trap = -1;
    uc_err err = uc_hook_add(uc, &handles[0], UC_HOOK_INTR, (void *)hook_interrupt, s, 1, 0);
    if (err == UC_ERR_OK)
        err = uc_hook_add(uc, &handles[1], UC_HOOK_INSN, (void *)hook_in, s, 1, 0, UC_X86_INS_IN);
    if (err == UC_ERR_OK)
        err = uc_hook_add(uc, &handles[2], UC_HOOK_INSN, (void *)hook_out, s, 1, 0, UC_X86_INS_OUT);
    if (err == UC_ERR_OK)
        err = uc_hook_add(uc, &handles[3], UC_HOOK_CODE, (void *)hook_code, s, 1, 0);
    /* Always installed: adding and removing it around each probe measured no cheaper. */
    if (err == UC_ERR_OK)
        err = uc_hook_add(uc, &handles[4], UC_HOOK_MEM_WRITE, (void *)hook_write, s, 1, 0);
    return err;
}
