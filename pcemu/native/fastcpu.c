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
 * or without this library; only the cost differs.  The time of an instruction
 * is the slice's start plus the instructions executed before it and itself
 * (clock_now + executed, Machine._instr_now): a device sees the exact moment
 * of an IN or OUT, and Python may end the slice early (a sooner device event)
 * by lowering the budget.
 *
 * The reference machine (Machine(accelerate=False)) uses hook_count alone
 * (pcemu_count_install): the same count, and nothing else done here.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <unicorn/unicorn.h>
/* Generated at build time from pcemu/native/layout.py (pcemu/native/__init__.py writes
 * it): struct fast_state, the callbacks' types, the constants shared with Python
 * (BDA_*, FLAG_*, PIT_HZ, INSTRUCTIONS_PER_*, PROBE_REGS, LOG_BYTES, PASS_READS,
 * PURE_PER_PASS, the SVC_* services, the FAULT_* bits, ...) and the field offset table. */
#include "fast_state.h"

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
_Static_assert(sizeof(probe_ids) / sizeof(probe_ids[0]) == PROBE_REGS,
               "PROBE_REGS in pcemu/native/layout.py: the registers listed here");
/* A probe gives up after this many instructions, or passes, without finding a loop. */
#define PROBE_SPAN 4096
#define PROBE_VISITS 2
/* A probe that found no loop is armed again this many instructions later, at
 * most this many times a slice: a slice may hold several waits. */
#define REARM_GAP 16
#define REARMS 32
/* Faults a test injects (FAULT_* bits, pcemu.native.faults); 0 in every real run. */
static int faults;

/* The 286's prefix bytes (cpu.PREFIXES): segment overrides, LOCK, REPNE, REP. */
static int is_prefix(uint8_t b)
{
    return b == 0x26 || b == 0x2E || b == 0x36 || b == 0x3E || b == 0xF0 || b == 0xF2 || b == 0xF3;
}

/* The instruction that ran last, at ``last`` (-1: none known), was an STI: the 286
 * takes an interrupt only after the one that follows it (cpu.follows_sti). */
static int follows_sti(const struct fast_state *s, int64_t last)
{
    return last >= 0 && s->mem[last & 0xFFFFF] == 0xFB;
}
void pcemu_set_faults(int bits) { faults = bits; }

/* While a probe watches: remember the value each byte had at the last pass,
 * before it is first written (the write hook and put_byte call this).  log_mark
 * has a bit set for each address in the log, so a byte already logged costs one
 * test, not a search of the log. */
static void log_write(struct fast_state *s, uint64_t address, int size)
{
    if (s->watch < 0 || s->changed)
        return;
    for (int i = 0; i < size; i++) {
        uint32_t a = (uint32_t)(address + i) & 0xFFFFF;
        uint8_t bit = (uint8_t)(1u << (a & 7));
        if (s->log_mark[a >> 3] & bit)
            continue;
        if (s->written == LOG_BYTES) {
            s->changed = 1;
            return;
        }
        s->log_mark[a >> 3] |= bit;
        s->log_address[s->written] = a;
        s->log_old[s->written] = s->mem[a];
        s->written++;
    }
}

/* Empty the write log (a new pass begins). */
static void log_clear(struct fast_state *s)
{
    for (int i = 0; i < s->written; i++)
        s->log_mark[s->log_address[i] >> 3] = 0;
    s->written = 0;
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
    uint32_t flags = (uint32_t)((v[0] & FLAGS_286_MASK) | FLAGS_286_FIXED);
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
    if (VIDEO_GRAPHICS_MODE(mode))
        return 0;
    uint32_t columns = get_word(mem, BDA_COLUMNS);
    if (columns == 0)
        columns = 80;
    uint32_t cursor = get_word(mem, BDA_CURSORS + 2 * (page & 7));
    int64_t page_size = get_word(mem, BDA_PAGE_SIZE);
    int64_t base = (mode == VIDEO_MONO_MODE ? VIDEO_MONO_BASE : VIDEO_COLOUR_BASE)
                   + (int64_t)page * page_size;
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

static uint32_t get_dword(const uint8_t *mem, uint32_t address)
{
    return get_word(mem, address) | (get_word(mem, address + 2) << 16);
}

/* The registers a service trap looks at (order of trap_ids). */
enum { R_CS, R_IP, R_AX, R_BX, R_CX, R_DX, R_SS, R_SP, R_FLAGS, TRAP_REGS };
static const int trap_ids[TRAP_REGS] = {UC_X86_REG_CS, UC_X86_REG_IP, UC_X86_REG_AX,
    UC_X86_REG_BX, UC_X86_REG_CX, UC_X86_REG_DX, UC_X86_REG_SS, UC_X86_REG_SP, UC_X86_REG_FLAGS};

static void set_reg(uc_engine *uc, int id, uint64_t value)
{
    uc_reg_write(uc, id, &value);
}

/* A waiting service's answer (ROM waiting_service): CF clear live, so the stub
 * goes to its IRET (Machine._run_service clears it before the handler). */
static void wait_done(uc_engine *uc, const uint64_t *r)
{
    set_reg(uc, UC_X86_REG_FLAGS, r[R_FLAGS] & ~(uint64_t)FLAG_CF);
}

/* INT 10h: functions 02h, 08h and 09h in text modes, and 01h when the shape is set. */
static int video_service(uc_engine *uc, struct fast_state *s, const uint64_t *r)
{
    uint32_t ah = (r[R_AX] >> 8) & 0xFF, al = r[R_AX] & 0xFF;
    uint32_t bh = (r[R_BX] >> 8) & 0xFF, bl = r[R_BX] & 0xFF;
    if (ah == 0x01) {                 /* bios/video.py set_cursor_shape: nothing to change */
        uint32_t cx = r[R_CX] & 0xFFFF;
        if (get_word(s->mem, BDA_CURSOR_SHAPE) != cx || s->crtc[0x0A] != (cx >> 8)
                || s->crtc[0x0B] != (cx & 0xFF))
            return 0;
        s->service_calls[SVC_CURSOR_SHAPE]++;
        return 1;
    }
    if (ah == 0x02)
        video_set_cursor(s, bh, (r[R_DX] >> 8) & 0xFF, r[R_DX] & 0xFF);
    else if (ah == 0x08) {
        if (!video_read_cell(uc, s, bh))
            return 0;
    } else if (ah != 0x09 || !video_write_cells(s, bh, al, bl, (int64_t)(r[R_CX] & 0xFFFF)))
        return 0;
    s->changed = 1;                   /* the screen is no idle loop's business */
    s->native_services++;
    return 1;
}

/* A polling service's answer, as its Python handler gives it: the registers it sets
 * and whether it sets ZF in the FLAGS the caller gets back. */
struct answer {
    int registers;                /* 1: CX and DX set (and AX, with ax_set) */
    int ax_set;
    uint32_t ax, cx, dx;
    int zf;
    int counter;                  /* service_calls[counter] counts it */
};

/* The answer to INT ``intno`` (16h, 1Ah, 21h) with AX ``ax``, when C has it: 0 when
 * Python must answer.  No side effects.
 *  - INT 16h AH=01h/11h with nothing in the buffer (bios/keyboard.py key_available):
 *    ZF set;
 *  - INT 1Ah AH=00h with the midnight flag clear (bios/timer.py read_ticks);
 *  - INT 21h AH=2Ch and 2Ah (pcemu/dos/system.py get_time, get_date): DOS time follows
 *    the tick count, so Python's answer for this tick count, kept in the cache. */
static int polling_answer(const struct fast_state *s, uint32_t intno, uint32_t ax,
                          struct answer *a)
{
    const uint8_t *mem = s->mem;
    uint32_t ah = (ax >> 8) & 0xFF;
    int wrong = !!(faults & FAULT_NATIVE_ANSWERS);
    memset(a, 0, sizeof(*a));
    if (intno == 0x16) {
        if ((ah != 0x01 && ah != 0x11) || get_word(mem, BDA_KB_HEAD) != get_word(mem, BDA_KB_TAIL))
            return 0;
        a->zf = !wrong;
        a->counter = SVC_KEY_POLL;
        return 1;
    }
    if (intno == 0x1A) {
        if (ah != 0x00 || mem[BDA_TIMER_OVERFLOW])
            return 0;
        uint32_t ticks = get_dword(mem, BDA_TIMER_COUNT);
        a->registers = a->ax_set = 1;
        a->cx = ticks >> 16;
        a->dx = (ticks + wrong) & 0xFFFF;
        a->ax = ax & 0xFF00;
        a->counter = SVC_TICKS;
        return 1;
    }
    if ((ah != 0x2C && ah != 0x2A) || s->time_ticks < 0
            || get_dword(mem, BDA_TIMER_COUNT) != (uint32_t)s->time_ticks)
        return 0;
    a->registers = 1;
    if (ah == 0x2C) {
        a->cx = s->time_cx;
        a->dx = s->time_dx ^ wrong;
        a->counter = SVC_DOS_TIME;
    } else {
        a->ax_set = 1;
        a->cx = s->date_cx;
        a->dx = s->date_dx;
        a->ax = (ax & 0xFF00) | s->date_al;
        a->counter = SVC_DOS_DATE;
    }
    return 1;
}

/* The answer's registers, and its count. */
static void give_answer(uc_engine *uc, struct fast_state *s, const struct answer *a)
{
    if (a->registers) {
        set_reg(uc, UC_X86_REG_CX, a->cx);
        set_reg(uc, UC_X86_REG_DX, a->dx);
        if (a->ax_set)
            set_reg(uc, UC_X86_REG_AX, a->ax);
    }
    s->service_calls[a->counter]++;
}

/* ZF into the FLAGS word at linear address ``at`` (Machine.set_return_flag, as
 * Memory.write_word writes it). */
static void set_returned_zf(struct fast_state *s, uint32_t at)
{
    uint32_t flags = get_word(s->mem, at) | FLAG_ZF;
    put_byte(s, at, flags & 0xFF);
    put_byte(s, (at + 1) & 0xFFFFF, flags >> 8);
}

/* At the trap inside the ROM's stub of INT ``intno``: the stack holds the caller's frame. */
static int polling_service(uc_engine *uc, struct fast_state *s, uint32_t intno, const uint64_t *r)
{
    struct answer a;
    if (!polling_answer(s, intno, (uint32_t)(r[R_AX] & 0xFFFF), &a))
        return 0;
    if (a.zf)
        set_returned_zf(s, (((uint32_t)(r[R_SS] & 0xFFFF) << 4)
                            + ((uint32_t)(r[R_SP] + 4) & 0xFFFF)) & 0xFFFFF);
    give_answer(uc, s, &a);
    if (intno != 0x1A)
        wait_done(uc, r);
    return 1;
}

/* The INT FEh of a ROM trap: answer it here if it is one of the above. */
static int native_service(uc_engine *uc, struct fast_state *s)
{
    uint64_t r[TRAP_REGS];
    void *ptrs[TRAP_REGS];
    for (int i = 0; i < TRAP_REGS; i++) {
        r[i] = 0;
        ptrs[i] = &r[i];
    }
    uc_reg_read_batch(uc, (int *)trap_ids, ptrs, TRAP_REGS);
    int64_t at = (int64_t)((((uint32_t)r[R_CS] << 4) + (((uint32_t)r[R_IP] - TRAP_SIZE) & 0xFFFF)) & 0xFFFFF);
    if (at == s->video_trap)
        return video_service(uc, s, r);
    if (at == s->keyboard_trap)
        return polling_service(uc, s, 0x16, r);
    if (at == s->timeofday_trap)
        return polling_service(uc, s, 0x1A, r);
    if (at == s->dos_trap)
        return polling_service(uc, s, 0x21, r);
    return 0;
}

/* A program's INT 16h, 1Ah or 21h whose vector is still the ROM's and whose answer C
 * has: the ROM stub run whole here (bios/rom.py: STI, the trap, JNC, IRET for a
 * waiting service; the trap and IRET for another).  What stays of it is what it would
 * leave: the frame the INT pushed, below SP (FLAGS with ZF if the service set it, CS,
 * IP), the answer's registers, FLAGS as IRET pops them, and its instructions counted.
 * CS, IP and SP end where they began.  Not when the slice would end inside the stub,
 * or a probe watches inside it. */
static int rom_service_run_whole(uc_engine *uc, struct fast_state *s, uint32_t intno)
{
    int64_t trap = intno == 0x16 ? s->keyboard_trap : intno == 0x1A ? s->timeofday_trap
                 : intno == 0x21 ? s->dos_trap : -1;
    if (trap < 0 || (faults & FAULT_NO_RUN_WHOLE) || s->if_watch)
        return 0;                     /* (the stub's STI would let a waiting IRQ in) */
    int waiting = intno != 0x1A;
    int64_t entry = waiting ? trap - 1 : trap, stub = waiting ? 4 : 2;
    const uint8_t *mem = s->mem;
    int64_t vector = (((int64_t)get_word(mem, intno * 4 + 2) << 4) + get_word(mem, intno * 4)) & 0xFFFFF;
    if (vector != entry || s->executed + stub > s->budget
            || (s->watch >= entry && s->watch < entry + 9))
        return 0;
    enum { W_AX, W_FLAGS, W_CS, W_IP, W_SS, W_SP, W_REGS };
    static const int ids[W_REGS] = {UC_X86_REG_AX, UC_X86_REG_FLAGS, UC_X86_REG_CS,
                                    UC_X86_REG_IP, UC_X86_REG_SS, UC_X86_REG_SP};
    uint64_t v[W_REGS] = {0, 0, 0, 0, 0, 0};
    void *ptrs[W_REGS] = {&v[0], &v[1], &v[2], &v[3], &v[4], &v[5]};
    uc_reg_read_batch(uc, (int *)ids, ptrs, W_REGS);
    struct answer a;
    if ((v[W_FLAGS] & FLAG_TF) || !polling_answer(s, intno, (uint32_t)(v[W_AX] & 0xFFFF), &a))
        return 0;
    uint32_t base = (uint32_t)(v[W_SS] & 0xFFFF) << 4, sp = (uint32_t)(v[W_SP] & 0xFFFF);
    /* FLAGS as pcemu_deliver pushes them, with the service's ZF: what IRET pops */
    uint32_t flags = (uint32_t)((v[W_FLAGS] & FLAGS_286_MASK) | FLAGS_286_FIXED);
    if (a.zf)
        flags |= FLAG_ZF;
    put_word(s, base, sp - 2, flags);
    put_word(s, base, sp - 4, (uint32_t)v[W_CS]);
    put_word(s, base, sp - 6, (uint32_t)v[W_IP]);
    give_answer(uc, s, &a);
    set_reg(uc, UC_X86_REG_FLAGS, flags);
    s->native_interrupts++;
    s->executed += stub;
    s->last_address = -1;
    return 1;
}

static void hook_interrupt(uc_engine *uc, uint32_t intno, void *user)
{
    struct fast_state *s = user;
    /* an INT whose number C wrote (own_block_store): the number in memory, which a
     * block translated before may not hold (the INT ran last, so it raised this) */
    for (int i = 0; i < s->int_patched_count && !(faults & FAULT_INT_STALE); i++)
        if (s->last_address == s->int_patched[i] && s->mem[s->last_address] == 0xCD) {
            intno = s->mem[s->last_address + 1];
            break;
        }
    if (intno == TRAP_VECTOR && native_service(uc, s))
        return;
    if ((intno == 0x16 || intno == 0x1A || intno == 0x21) && s->native[intno]
            && rom_service_run_whole(uc, s, intno))
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
        int32_t before = s->changed;
        s->pure_call = 0;
        s->on_interrupt(uc, intno, 0);
        if (s->pure_call || (faults & FAULT_ALL_CALLS_PURE)) {  /* Python changed nothing */
            s->changed = before;
            s->pure_calls++;
        } else {
            s->changed = 1;           /* Python may change anything */
        }
        s->pure_call = 0;
        return;
    }
    pcemu_deliver(uc, s, intno);
    s->native_interrupts++;
}

/* fmod(t, frame) for 0 <= t < 2^53, exactly (the remainder is representable, so the
 * fused multiply-add of the right quotient gives it unrounded), without fmod's long
 * division: the quotient from one division is off by at most one, which the sign of
 * the remainder tells.  At EZT's menu fmod was a tenth of the time. */
static double frame_remainder(double t, double frame, double *quotient)
{
    double k = floor(t / frame);
    double r = fma(-k, frame, t);
    if (r < 0)
        r = fma(-(k -= 1), frame, t);
    else if (r >= frame)
        r = fma(-(k += 1), frame, t);
    *quotient = k;
    return r;
}

/* The beam at beam time ``t`` (CgaCard._status): the status port's bits, and where it
 * is: the frame's number, and a stretch of the frame over which those bits hold (a
 * visible line's display or blanking part, or one of the vertical blanking's three
 * parts), numbered in the order the beam crosses them; ``ahead`` is how far the
 * stretch still goes, in scan lines (a guess for status_passes, never trusted). */
struct beam {
    uint32_t status;
    double frame_no;
    int64_t stretch;
    double ahead;
};

static struct beam beam_at(const struct fast_state *s, int64_t t)
{
    struct beam b;
    double phase = (t >= 0 ? frame_remainder((double)t, s->frame, &b.frame_no)
                           : fmod((double)t, s->frame)) / s->frame;
    if (t < 0)
        b.frame_no = -1;              /* never in a run: the clock starts at 0 */
    double line_pos = phase * s->scanlines;
    int64_t line = (int64_t)line_pos;
    int late = line_pos - (double)line > 0.8;
    int64_t top = s->visible_lines;
    b.status = 0;
    if (line >= top || late)
        b.status |= 0x01;
    if (top + 24 <= line && line < top + 40)
        b.status |= 0x08;
    if (line < top) {
        b.stretch = 2 * line + late;
        b.ahead = (double)line + (late ? 1.0 : 0.8) - line_pos;
    } else {
        b.stretch = 2 * top + (line < top + 24 ? 0 : line < top + 40 ? 1 : 2);
        b.ahead = (double)(line < top + 24 ? top + 24 : line < top + 40 ? top + 40
                                                          : s->scanlines) - line_pos;
    }
    return b;
}

static uint32_t cga_status(struct fast_state *s)
{
    int64_t now = s->clock_now + s->executed;               /* Machine._instr_now */
    if (now != s->beam_base) {                               /* BeamClock.phase */
        s->beam_base = now;
        s->beam_reads = 0;
    }
    s->beam_reads += 1;
    return beam_at(s, now + s->beam_reads * INSTRUCTIONS_PER_STATUS_READ).status;
}


/* A wait on the status port: IN AL,DX at ``head``, then only instructions that
 * read and write AL and FLAGS alone (TEST, AND, OR, CMP of AL with an immediate or
 * itself; shifts and rotates of AL by 1) and conditional jumps, forward out of the
 * loop or, the last, back to ``head``.  Returns the end of its code, or 0.  A pass
 * through it that stays inside its code changes nothing but AL and FLAGS, and the
 * beam, which status_passes follows. */
static int64_t status_wait_end(const struct fast_state *s, int64_t head)
{
    if (head < 0 || head > 0x100000 - 32 || s->mem[head] != 0xEC)
        return 0;
    uint32_t p = (uint32_t)head + 1;
    int64_t exits = 0x7FFFFFFF;       /* the nearest forward target */
    for (int i = 0; i < 8; i++) {
        const uint8_t *c = s->mem + p;
        if (c[0] == 0xA8 || c[0] == 0x24 || c[0] == 0x0C || c[0] == 0x3C) {
            p += 2;                   /* TEST/AND/OR/CMP AL, imm8 */
        } else if ((c[0] == 0x84 || c[0] == 0x20 || c[0] == 0x22 || c[0] == 0x08
                    || c[0] == 0x0A) && c[1] == 0xC0) {
            p += 2;                   /* TEST/AND/OR AL, AL */
        } else if (c[0] == 0xD0 && (c[1] & 0xC7) == 0xC0 && (c[1] & 0x38) != 0x30) {
            p += 2;                   /* ROL, ROR, RCL, RCR, SHL, SHR, SAR AL, 1 */
        } else if (c[0] >= 0x70 && c[0] <= 0x7F) {
            int64_t target = (int64_t)p + 2 + (int8_t)c[1];
            p += 2;
            if (target == head)
                return exits >= (int64_t)p ? (int64_t)p : 0;
            if (target < (int64_t)p)
                return 0;
            if (target < exits)
                exits = target;
        } else {
            return 0;
        }
    }
    return 0;
}

static void wait_arm(struct fast_state *s, int64_t head, int64_t end);

static uint32_t hook_in(uc_engine *uc, uint32_t port, int size, void *user)
{
    struct fast_state *s = user;
    s->port_reads++;
    if ((int32_t)port == s->status_port && size == 1) {
        s->native_status_reads++;
        if (s->wait_end < 0 || s->watch != s->last_address) {
            int64_t end = status_wait_end(s, s->last_address);
            if (end)
                wait_arm(s, s->last_address, end);
        }
        uint32_t value = cga_status(s);
        /* the beam moves with time: a pass that reads the status port repeats only
         * while the port answers the same (probe_visit computes how long) */
        if (s->pass_reads < PASS_READS) {
            s->pass_offsets[s->pass_reads] = s->executed - s->visit_at;
            s->pass_values[s->pass_reads++] = (uint8_t)value;
        } else
            s->changed = 1;
        return value;
    }
    if (!(faults & FAULT_PORTS_IDLE))
        s->changed = 1;               /* a port's answer may depend on the time */
    if (port == PIC_MASTER_DATA && size == 1 && s->pic_native) {   /* Pic8259.read: the mask */
        s->native_mask_accesses++;
        return *s->master_imr & 0xFF;
    }
    return s->on_in(uc, port, size, 0);
}

/* The first ``count`` of probe_ids into ``out``, 16 bytes each. */
static void read_probe_regs(uc_engine *uc, uint8_t *out, int count)
{
    void *ptrs[PROBE_REGS];
    memset(out, 0, (size_t)count * 16);   /* narrow registers fill only their low bytes */
    for (int i = 0; i < count; i++)
        ptrs[i] = out + 16 * i;
    uc_reg_read_batch(uc, (int *)probe_ids, ptrs, count);
}

/* probe_ids up to GS: what a pass counted as shadow_skipped compares (a bound for the
 * write hook's policy, never a skip: the x87 and SSE registers cost most to read) */
#define SHADOW_REGS 16

/* Every byte written since the last pass holds the value it had then. */
static int memory_as_at_last_pass(struct fast_state *s)
{
    for (int i = 0; i < s->written; i++)
        if (s->mem[s->log_address[i]] != s->log_old[i])
            return 0;
    return 1;
}

/* A retrace wait reads the status port in every pass, and the beam moves with
 * time (cga_status).  Of at most ``passes`` further passes, how many would read
 * exactly the values the last pass read?  Pass j (from 0) would begin at
 * executed + j * period and make its reads where the last pass made them
 * (pass_offsets).  Those passes are computed, not run: the beam ends as their
 * reads would have left it.
 *
 * Read by read this is status_passes_stepwise.  Faster, and the same: the beam's
 * place (its frame and stretch, beam_at) only moves forward with time, and the
 * status is a function of it, so every read between two reads at one place reads
 * what they read.  So for each read of the pass, the passes are searched for the
 * first whose read is somewhere else, starting from where the beam's speed says the
 * stretch ends; at that new place the status may still be the same (a line's
 * blanking, then the vertical blanking), and the search goes on from there. */
static int64_t status_passes_stepwise(struct fast_state *s, int64_t passes, int64_t period)
{
    int64_t done = 0, executed = s->executed;
    for (; done < passes; done++) {
        int64_t reads = s->port_reads, base = s->beam_base, beam_reads = s->beam_reads;
        int same = 1;
        for (int i = 0; i < s->pass_reads && same; i++) {
            s->port_reads++;                                 /* hook_in */
            s->executed = executed + done * period + s->pass_offsets[i];
            same = cga_status(s) == s->pass_values[i];
        }
        s->executed = executed;
        if (!same && (faults & FAULT_STATUS_PASSES)) {
            done++;                   /* the injected fault: the pass that differs, skipped too */
            break;
        }
        if (!same) {
            s->port_reads = reads;
            s->beam_base = base;
            s->beam_reads = beam_reads;
            break;
        }
    }
    return done;
}

/* Added to status_passes' guesses by tests/test_native_contract.py (a wrong guess must
 * cost time only); 0 in every real run. */
static int64_t guess_bias;

static int same_place(struct beam a, struct beam b)
{
    return a.frame_no == b.frame_no && a.stretch == b.stretch;
}

/* Of the reads at beam times first + j * period, j = 0 .. limit - 1: the first j
 * that does not read ``value``, or limit. */
static int64_t first_other_read(const struct fast_state *s, int64_t first, int64_t period,
                                uint32_t value, int64_t limit)
{
    int64_t j = 0;
    while (j < limit) {
        struct beam at = beam_at(s, first + j * period);
        if (at.status != value)
            return j;
        /* lo: a pass known to read at this place; hi: one known not to, or limit */
        int64_t lo = j, hi = limit;
        double lines_per_instruction = s->scanlines / s->frame;
        double guess = at.ahead / lines_per_instruction / (double)period;
        int64_t g = j + 1 + (guess < (double)limit ? (int64_t)guess : limit) + guess_bias;
        if (g <= j)
            g = j + 1;
        if (g < limit) {
            if (same_place(beam_at(s, first + g * period), at)) {
                lo = g;               /* further than guessed: leaps, doubling */
                for (int64_t step = 1;; step *= 2) {
                    if (lo + step >= limit)
                        break;
                    if (!same_place(beam_at(s, first + (lo + step) * period), at)) {
                        hi = lo + step;
                        break;
                    }
                    lo += step;
                }
            } else {
                hi = g;
            }
        }
        if (hi - lo > 1) {            /* the guess is most often right: the pass before hi */
            if (same_place(beam_at(s, first + (hi - 1) * period), at))
                lo = hi - 1;
            else
                hi = hi - 1;
        }
        while (hi - lo > 1) {
            int64_t mid = lo + (hi - lo) / 2;
            if (same_place(beam_at(s, first + mid * period), at))
                lo = mid;
            else
                hi = mid;
        }
        j = hi;
    }
    return limit;
}

static int64_t status_passes(struct fast_state *s, int64_t passes, int64_t period)
{
    int64_t start = s->clock_now + s->executed;             /* the first pass begins */
    int64_t done;
    /* each read's time differs from the last read's (BeamClock.reads stays 1), and none
     * is before the clock's start: else read by read */
    if (start + s->pass_offsets[0] <= s->beam_base || start < 0 || (faults & FAULT_STEPWISE)) {
        done = status_passes_stepwise(s, passes, period);
    } else {
        done = passes;
        for (int i = 0; i < s->pass_reads && done > 0; i++)
            done = first_other_read(s, start + s->pass_offsets[i] + INSTRUCTIONS_PER_STATUS_READ,
                                    period, s->pass_values[i], done);
        if (done < passes && (faults & FAULT_STATUS_PASSES))
            done++;                   /* the injected fault: the pass that differs, skipped too */
        if (done > 0) {               /* the beam as the last read left it */
            s->port_reads += done * s->pass_reads;
            s->beam_base = start + (done - 1) * period + s->pass_offsets[s->pass_reads - 1];
            s->beam_reads = 1;
        }
    }
    s->native_status_reads += (uint64_t)(done * s->pass_reads);
    s->skipped_status_reads += (uint64_t)(done * s->pass_reads);
    return done;
}

/* Stop probing; look again a little later (a slice may hold several waits). */
static void probe_end(struct fast_state *s)
{
    s->watch = -1;
    s->wait_end = -1;
    s->rearm_at = s->rearms < REARMS ? s->executed + REARM_GAP : -1;
}

static void probe_arm(struct fast_state *s, int64_t address)
{
    s->wait_end = -1;
    s->watch = address;
    s->visits = 0;
    log_clear(s);
    s->changed = 0;
    s->pass_reads = 0;
    s->probe_began = s->executed;
    s->rearm_at = -1;
    s->rearms++;
}

/* Watch the status-port wait at ``head`` (its first read is running): a light probe,
 * which compares AL and FLAGS only, since nothing else can change in a pass that
 * stays inside the wait's code (hook_code ends the probe when one leaves it). */
static void wait_arm(struct fast_state *s, int64_t head, int64_t end)
{
    int32_t rearms = s->rearms;
    probe_arm(s, head);
    s->rearms = rearms;               /* not one of the slice's REARMS */
    s->wait_end = end;
    s->waits_watched++;
}

/* The state repeats after ``period`` instructions: the whole passes that fit in the
 * slice (and read the status port as the last one did) are counted as run. */
static void skip_passes(struct fast_state *s, int64_t period)
{
    int64_t passes = (s->budget - s->executed) / period;
    uint64_t pure = s->pure_calls - s->visit_pure;
    if (pure > PURE_PER_PASS)
        passes = 0;
    if (passes > 0 && s->pass_reads > 0)
        passes = status_passes(s, passes, period);
    if (passes <= 0)
        return;
    s->executed += passes * period;
    s->int3_passed += passes * (s->int3_passed - s->visit_int3);
    s->native_interrupts += passes * (s->native_interrupts - s->visit_native);
    s->pure_calls += passes * pure;
    for (int i = 0; i < SERVICE_COUNTERS; i++)
        s->service_calls[i] += passes * (s->service_calls[i] - s->visit_calls[i]);
    s->skipped += passes * period;
    if (s->wait_end < 0)
        s->general_skipped += (uint64_t)(passes * period);
    s->loops_skipped++;
    if (pure && !(faults & FAULT_PURE_COUNTERS))
        s->on_skip((uint32_t)pure, (uint64_t)passes);
}

/* A pass through the watched address, before its instruction runs.  If the CPU
 * state (registers and memory) is what it was at the last pass, and nothing
 * outside the CPU took part in between (no port but the status port, no Python
 * call that could change or tell anything new), then the next pass will do
 * exactly the same again, and so on until the slice ends or the status port
 * answers otherwise: nothing outside the CPU can act before then.  So the whole
 * passes that fit are counted as run, and the rest of the slice runs as usual. */
static void probe_visit(uc_engine *uc, struct fast_state *s)
{
    uint8_t regs[PROBE_REGS * 16];
    size_t compared = sizeof(regs);
    int skip_regs = (faults & FAULT_REGS_IGNORED) ? 8 * 16 : 0;   /* EAX..ESP */
    if (s->wait_end >= 0) {           /* a status-port wait: only AL and FLAGS can change */
        static const int ids[2] = {UC_X86_REG_EAX, UC_X86_REG_EFLAGS};
        void *ptrs[2] = {regs, regs + 16};
        memset(regs, 0, 32);
        uc_reg_read_batch(uc, (int *)ids, ptrs, 2);
        compared = 32;
        skip_regs = skip_regs ? 16 : 0;
        if (*(uint64_t *)(regs + 16) & FLAG_TF)
            s->changed = 1;           /* a trap after each instruction */
    }
    /* the write log is complete only with the write hook on (light probes need none) */
    int logged = s->write_hooked || s->wait_end >= 0 || (faults & FAULT_UNHOOKED_PROBES);
    if (s->wait_end < 0) {
        int count = logged ? PROBE_REGS : SHADOW_REGS;
        read_probe_regs(uc, regs, count);
        compared = (size_t)count * 16;
    }
    if (s->visits > 0 && !s->changed
            && memcmp(regs + skip_regs, s->visit_regs + skip_regs, compared - skip_regs) == 0
            && (!logged || memory_as_at_last_pass(s))) {
        int64_t period = s->executed - s->visit_at;
        if (logged) {
            skip_passes(s, period);
            probe_end(s);
            return;
        }
        /* memory unknown: this pass is counted as one that would have been skipped if
         * memory repeated too, and the probe stays on the loop for the next */
        s->shadow_skipped += (uint64_t)period;
        s->probe_began = s->executed;
        s->visits = 0;
    }
    if (++s->visits > PROBE_VISITS) {
        probe_end(s);
        return;
    }
    memcpy(s->visit_regs, regs, compared);
    s->visit_at = s->executed;
    s->visit_int3 = s->int3_passed;
    s->visit_native = s->native_interrupts;
    s->visit_pure = s->pure_calls;
    memcpy(s->visit_calls, s->service_calls, sizeof(s->visit_calls));
    s->changed = 0;
    log_clear(s);
    s->pass_reads = 0;
}

/* A store Unicorn runs again after it wrote into its own translated block (QEMU
 * stops the block before the store, throws away every block holding the bytes
 * written, and runs the store again in a block of its own; emu_start's count, like
 * hook_code, counts both runs).  Turbo Pascal's Intr does this at every call: it
 * writes the interrupt number into its own INT instruction, and each call then
 * costs two translations, most of EZT's time.  C does what Unicorn's runs of such
 * a store leave, without making Unicorn translate again, when the store writes
 *  - what the bytes already hold: nothing is written; or
 *  - a new number into an INT instruction of the block (CD nn, found by decoding
 *    the block from its start): the byte is written into memory behind Unicorn's
 *    back, and hook_interrupt takes the number of an INT it lists (int_patched)
 *    from memory, not from the block translated before, which may hold the old one;
 * and in both cases IP goes past the store, the store is counted twice (the run
 * Unicorn stops and the run alone) and Unicorn goes on from the next instruction
 * in a new block, as it does after the run alone.  Only where that is provably what
 * Unicorn does: the bytes are inside the block being run (the block hook says
 * where it began and ends), the second count fits in the slice, no trace flag,
 * plain 16-bit MOVs below 1 MB, no Python hook on Unicorn.  Otherwise the store
 * runs. */
struct store {
    uint32_t target;          /* linear address written */
    int size;                 /* 1 or 2 bytes */
    uint32_t value;
    int length;               /* of the instruction */
};

enum { S_AX, S_CX, S_DX, S_BX, S_SP, S_BP, S_SI, S_DI, S_ES, S_CS, S_SS, S_DS, S_IP, S_FLAGS,
       STORE_REGS };
static const int store_ids[STORE_REGS] = {
    UC_X86_REG_AX, UC_X86_REG_CX, UC_X86_REG_DX, UC_X86_REG_BX, UC_X86_REG_SP, UC_X86_REG_BP,
    UC_X86_REG_SI, UC_X86_REG_DI, UC_X86_REG_ES, UC_X86_REG_CS, UC_X86_REG_SS, UC_X86_REG_DS,
    UC_X86_REG_IP, UC_X86_REG_FLAGS};

/* The store the instruction at linear ``at`` makes with registers ``r``: MOV moffs,AL/AX
 * (A2/A3), MOV r/m,reg (88/89) and MOV r/m,imm (C6/C7 /0) with a memory operand, after
 * at most one segment prefix.  0 for any other instruction. */
static int decode_store(const uint8_t *mem, uint32_t at, const uint64_t *r, struct store *st)
{
    uint32_t p = at, segment = S_DS;
    uint8_t op = mem[p];
    if (op == 0x26 || op == 0x2E || op == 0x36 || op == 0x3E) {
        segment = op == 0x26 ? S_ES : op == 0x2E ? S_CS : op == 0x36 ? S_SS : S_DS;
        op = mem[++p];
    }
    int prefixed = p != at;
    uint32_t offset;
    if (op == 0xA2 || op == 0xA3) {
        offset = mem[p + 1] | (mem[p + 2] << 8);
        st->size = op == 0xA2 ? 1 : 2;
        st->value = (uint32_t)r[S_AX] & (op == 0xA2 ? 0xFF : 0xFFFF);
        p += 3;
    } else if (op == 0x88 || op == 0x89 || op == 0xC6 || op == 0xC7) {
        uint8_t modrm = mem[p + 1];
        uint32_t mod = modrm >> 6, reg = (modrm >> 3) & 7, rm = modrm & 7;
        if (mod == 3 || ((op == 0xC6 || op == 0xC7) && reg != 0))
            return 0;
        static const int base1[8] = {S_BX, S_BX, S_BP, S_BP, S_SI, S_DI, S_BP, S_BX};
        static const int base2[8] = {S_SI, S_DI, S_SI, S_DI, -1, -1, -1, -1};
        p += 2;
        int32_t disp = 0;
        if (mod == 0 && rm == 6) {
            offset = mem[p] | (mem[p + 1] << 8);
            p += 2;
        } else {
            if (mod == 1) {
                disp = (int8_t)mem[p];
                p += 1;
            } else if (mod == 2) {
                disp = (int16_t)(mem[p] | (mem[p + 1] << 8));
                p += 2;
            }
            offset = (uint32_t)r[base1[rm]] + (base2[rm] >= 0 ? (uint32_t)r[base2[rm]] : 0)
                     + (uint32_t)disp;
            if (!prefixed && (rm == 2 || rm == 3 || rm == 6))
                segment = S_SS;               /* BP-based: SS by default */
        }
        offset &= 0xFFFF;
        st->size = (op & 1) ? 2 : 1;
        if (op == 0x88)
            st->value = reg < 4 ? (uint32_t)r[reg] & 0xFF : ((uint32_t)r[reg - 4] >> 8) & 0xFF;
        else if (op == 0x89)
            st->value = (uint32_t)r[reg] & 0xFFFF;   /* S_AX..S_DI follow the reg field */
        else if (op == 0xC6) {
            st->value = mem[p];
            p += 1;
        } else {
            st->value = mem[p] | (mem[p + 1] << 8);
            p += 2;
        }
    } else {
        return 0;
    }
    if (st->size == 2 && offset == 0xFFFF)
        return 0;                             /* a word across the segment's end */
    st->target = (((uint32_t)r[segment] & 0xFFFF) << 4) + offset;
    st->length = (int)(p - at);
    return st->target + st->size <= 0x100000;
}

static void read_store_regs(uc_engine *uc, uint64_t *r)
{
    void *ptrs[STORE_REGS];
    for (int i = 0; i < STORE_REGS; i++) {
        r[i] = 0;
        ptrs[i] = &r[i];
    }
    uc_reg_read_batch(uc, (int *)store_ids, ptrs, STORE_REGS);
}

/* Unicorn ran the instruction at ``at`` again: if it is a store, remember it. */
static void note_smc_site(uc_engine *uc, struct fast_state *s, int64_t at)
{
    if (at < 0 || at > 0x100000 - 16)
        return;
    for (int i = 0; i < s->smc_count; i++)
        if (s->smc_site[i] == at)
            return;
    /* a REP string instruction runs again at every step: a look at its opcode first */
    const uint8_t *code = s->mem + at;
    uint8_t op = code[0];
    if (op == 0x26 || op == 0x2E || op == 0x36 || op == 0x3E)
        op = code[1];
    if (op != 0xA2 && op != 0xA3 && op != 0x88 && op != 0x89 && op != 0xC6 && op != 0xC7)
        return;
    uint64_t r[STORE_REGS];
    struct store st;
    read_store_regs(uc, r);
    if (!decode_store(s->mem, (uint32_t)at, r, &st))
        return;
    if (s->smc_count < SMC_SITES)
        s->smc_site[s->smc_count++] = at;
    else
        s->smc_site[(s->smc_stores + (uint64_t)at) % SMC_SITES] = at;
}

/* The length of the instruction at linear ``at`` as a 286 decodes it in real mode
 * (16-bit operands and addresses), or 0 for one this decoder does not know (0Fh,
 * operand- or address-size prefixes, undefined opcodes): then nothing is patched. */
static int insn_length(const uint8_t *mem, uint32_t at)
{
    uint32_t p = at;
    uint8_t op;
    for (int prefixes = 0;; prefixes++) {
        op = mem[p & 0xFFFFF];
        if (!is_prefix(op))
            break;
        if (prefixes == 4)
            return 0;
        p++;
    }
    p++;
    int modrm = 0, imm = 0;
    if (op < 0x40) {
        switch (op & 7) {
        case 0: case 1: case 2: case 3: modrm = 1; break;
        case 4: imm = 1; break;
        case 5: imm = 2; break;
        default: if (op == 0x0F) return 0; break;     /* PUSH/POP seg, DAA, DAS, AAA, AAS */
        }
    } else if (op < 0x60 || op == 0x60 || op == 0x61 || (op >= 0x6C && op <= 0x6F)) {
    } else if (op == 0x62) { modrm = 1;
    } else if (op == 0x68) { imm = 2;
    } else if (op == 0x69) { modrm = 1; imm = 2;
    } else if (op == 0x6A) { imm = 1;
    } else if (op == 0x6B) { modrm = 1; imm = 1;
    } else if (op >= 0x70 && op <= 0x7F) { imm = 1;
    } else if (op == 0x80 || op == 0x82 || op == 0x83) { modrm = 1; imm = 1;
    } else if (op == 0x81) { modrm = 1; imm = 2;
    } else if (op >= 0x84 && op <= 0x8F) { modrm = 1;
    } else if (op >= 0x90 && op <= 0x9F) { if (op == 0x9A) imm = 4;
    } else if (op >= 0xA0 && op <= 0xA3) { imm = 2;
    } else if (op == 0xA8) { imm = 1;
    } else if (op == 0xA9) { imm = 2;
    } else if (op >= 0xA4 && op <= 0xAF) {
    } else if (op >= 0xB0 && op <= 0xB7) { imm = 1;
    } else if (op >= 0xB8 && op <= 0xBF) { imm = 2;
    } else if (op == 0xC0 || op == 0xC1 || op == 0xC6) { modrm = 1; imm = 1;
    } else if (op == 0xC2 || op == 0xCA) { imm = 2;
    } else if (op == 0xC4 || op == 0xC5) { modrm = 1;
    } else if (op == 0xC7) { modrm = 1; imm = 2;
    } else if (op == 0xC8) { imm = 3;
    } else if (op == 0xCD || op == 0xD4 || op == 0xD5) { imm = 1;
    } else if (op == 0xC3 || op == 0xC9 || op == 0xCB || op == 0xCC || op == 0xCE || op == 0xCF
               || op == 0xD7) {
    } else if ((op >= 0xD0 && op <= 0xD3) || (op >= 0xD8 && op <= 0xDF)) { modrm = 1;
    } else if (op >= 0xE0 && op <= 0xE7) { imm = 1;
    } else if (op == 0xE8 || op == 0xE9) { imm = 2;
    } else if (op == 0xEA) { imm = 4;
    } else if (op == 0xEB) { imm = 1;
    } else if ((op >= 0xEC && op <= 0xEF) || op == 0xF4 || op == 0xF5 || (op >= 0xF8 && op <= 0xFD)) {
    } else if (op == 0xF6 || op == 0xF7) {
        modrm = 1;
        if (((mem[p & 0xFFFFF] >> 3) & 7) < 2)
            imm = op == 0xF6 ? 1 : 2;                 /* TEST r/m, imm */
    } else if (op == 0xFE || op == 0xFF) { modrm = 1;
    } else {
        return 0;                                     /* 63h-67h, D6h, F1h */
    }
    if (modrm) {
        uint8_t m = mem[p & 0xFFFFF];
        uint32_t mod = m >> 6;
        p += 1 + (mod == 1 ? 1 : mod == 2 ? 2 : (mod == 0 && (m & 7) == 6) ? 2 : 0);
    }
    return (int)(p + imm - at);
}

/* Is ``target`` the number of an INT instruction (CD nn) of the block being run?
 * Decoded from the block's start, as Unicorn translated it (the bytes of a block
 * Unicorn still runs are the bytes it translated, but for INT numbers C wrote). */
static int int_number_in_block(const struct fast_state *s, uint32_t target)
{
    uint32_t p = (uint32_t)s->block_start;
    for (int i = 0; i < 256 && p + 1 < (uint32_t)s->block_end; i++) {
        if (p + 1 == target)
            return s->mem[p] == 0xCD;
        if (p + 1 > target)
            return 0;
        int length = insn_length(s->mem, p);
        if (length == 0)
            return 0;
        p += (uint32_t)length;
    }
    return 0;
}

/* Remember an INT whose number C wrote; 0 when the list is full. */
static int note_int_patched(struct fast_state *s, int64_t at)
{
    for (int i = 0; i < s->int_patched_count; i++)
        if (s->int_patched[i] == at)
            return 1;
    if (s->int_patched_count == SMC_SITES)
        return 0;
    s->int_patched[s->int_patched_count++] = at;
    return 1;
}

/* At a remembered store, before it runs (already counted once): answer it here when
 * it writes into the block being run what is there, or an INT number. */
static void own_block_store(uc_engine *uc, struct fast_state *s, int64_t at)
{
    if (at < s->block_start || at >= s->block_end || s->block_end > 0x100000
            || s->executed >= s->budget)
        return;
    uint64_t r[STORE_REGS];
    struct store st;
    read_store_regs(uc, r);
    if ((r[S_FLAGS] & FLAG_TF) || !decode_store(s->mem, (uint32_t)at, r, &st))
        return;
    if (st.target + st.size <= (uint64_t)s->block_start || st.target >= (uint64_t)s->block_end)
        return;                               /* not its own block: Unicorn runs on */
    int same = 1;
    for (int i = 0; i < st.size; i++)
        same &= s->mem[st.target + i] == ((st.value >> (8 * i)) & 0xFF);
    if (!same) {
        if (st.size != 1 || !int_number_in_block(s, st.target)
                || !note_int_patched(s, (int64_t)st.target - 1))
            return;
        log_write(s, st.target, 1);           /* as the write hook would */
        s->mem[st.target] = (uint8_t)st.value;
        s->smc_patches++;
    }
    if (!(faults & FAULT_SMC_SINGLE))
        s->executed++;                        /* the run alone */
    uint64_t ip = (r[S_IP] + (uint64_t)st.length) & 0xFFFF;
    uc_reg_write(uc, UC_X86_REG_IP, &ip);     /* Unicorn leaves the block before the store */
    s->block_start = -1;
    s->smc_stores++;
    if (s->watch >= 0)
        s->changed = 1;                       /* a pass with it is no idle pass */
}

/* A status-port wait (status_wait_end) run here from its IN at ``head``, before that
 * IN runs, to where it leaves its code or the slice's count ends: each instruction
 * counted as the code hook counts it, each read answered as hook_in answers it
 * (cga_status), AL and FLAGS computed as Unicorn computes them (QEMU's flags for
 * each operation, below), and passes that begin in the state the last one began
 * in, and would read what it read, computed in leaps (first_other_read).  Then AL,
 * FLAGS and IP are written, and Unicorn goes on from there in a new block.  At EZT's
 * menu 9,000 waits a virtual second, most of a few passes, had each run about five
 * INs in Unicorn (each with its state restored for the hook) before a probe could
 * skip the rest.  Not with the trap flag, while an IRQ waits for IF with IF set, with
 * DX not the status port, or too near a segment's end; a probe watching is ended (a
 * light one here) or spoilt. */
static uint32_t parity_flag(uint32_t result)
{
    return __builtin_parity(result & 0xFF) ? 0 : FLAG_PF;
}

static uint32_t sign_zero_parity(uint32_t r)
{
    r &= 0xFF;
    return (r & 0x80 ? FLAG_SF : 0) | (r == 0 ? FLAG_ZF : 0) | parity_flag(r);
}

#define ARITH_FLAGS (FLAG_CF | FLAG_PF | FLAG_AF | FLAG_ZF | FLAG_SF | FLAG_OF)

static int jump_taken(uint8_t op, uint32_t f)
{
    int cf = !!(f & FLAG_CF), zf = !!(f & FLAG_ZF), sf = !!(f & FLAG_SF),
        of = !!(f & FLAG_OF), pf = !!(f & FLAG_PF);
    int taken;
    switch ((op >> 1) & 7) {
    case 0: taken = of; break;
    case 1: taken = cf; break;
    case 2: taken = zf; break;
    case 3: taken = cf || zf; break;
    case 4: taken = sf; break;
    case 5: taken = pf; break;
    case 6: taken = sf != of; break;
    default: taken = zf || sf != of; break;
    }
    return (op & 1) ? !taken : taken;
}

/* One instruction of the wait's body (not the IN, not a jump) on AL and FLAGS. */
static void wait_step(const uint8_t *c, uint32_t *al, uint32_t *flags)
{
    uint32_t a = *al, f = *flags & ~(uint32_t)ARITH_FLAGS, r;
    switch (c[0]) {
    case 0xA8: *flags = f | sign_zero_parity(a & c[1]); return;          /* TEST AL,imm */
    case 0x24: *al = a & c[1]; *flags = f | sign_zero_parity(*al); return;  /* AND */
    case 0x0C: *al = a | c[1]; *flags = f | sign_zero_parity(*al); return;  /* OR */
    case 0x84: case 0x20: case 0x22: case 0x08: case 0x0A:           /* TEST/AND/OR AL,AL */
        *flags = f | sign_zero_parity(a);
        return;
    case 0x3C:                                                          /* CMP AL,imm */
        r = (a - c[1]) & 0xFF;
        *flags = f | sign_zero_parity(r) | (a < c[1] ? FLAG_CF : 0)
                 | ((a ^ c[1] ^ r) & 0x10 ? FLAG_AF : 0)
                 | (((a ^ c[1]) & (a ^ r)) & 0x80 ? FLAG_OF : 0);
        return;
    }
    /* D0 /n with AL: shifts and rotates by 1 */
    uint32_t keep = *flags & ~(uint32_t)(FLAG_CF | FLAG_OF), cf_in = !!(*flags & FLAG_CF), cf;
    switch ((c[1] >> 3) & 7) {
    case 0: r = ((a << 1) | (a >> 7)) & 0xFF; cf = r & 1;                /* ROL */
        *flags = keep | (cf ? FLAG_CF : 0) | (((r >> 7) ^ cf) & 1 ? FLAG_OF : 0);
        break;
    case 1: r = ((a >> 1) | (a << 7)) & 0xFF; cf = r >> 7;               /* ROR */
        *flags = keep | (cf ? FLAG_CF : 0) | (((r >> 6) ^ cf) & 1 ? FLAG_OF : 0);
        break;
    case 2: r = ((a << 1) | cf_in) & 0xFF;                               /* RCL */
        *flags = keep | (a & 0x80 ? FLAG_CF : 0) | ((a ^ r) & 0x80 ? FLAG_OF : 0);
        break;
    case 3: r = (a >> 1) | (cf_in << 7);                                 /* RCR */
        *flags = keep | (a & 1 ? FLAG_CF : 0) | ((a ^ r) & 0x80 ? FLAG_OF : 0);
        break;
    case 4: r = (a << 1) & 0xFF;                                         /* SHL */
        *flags = f | sign_zero_parity(r) | (a & 0x80 ? FLAG_CF : 0) | ((a ^ r) & 0x80 ? FLAG_OF : 0);
        break;
    case 5: r = a >> 1;                                                  /* SHR */
        *flags = f | sign_zero_parity(r) | (a & 1 ? FLAG_CF : 0) | ((a ^ r) & 0x80 ? FLAG_OF : 0);
        break;
    default: r = (a >> 1) | (a & 0x80);                                  /* SAR */
        *flags = f | sign_zero_parity(r) | (a & 1 ? FLAG_CF : 0) | ((a ^ r) & 0x80 ? FLAG_OF : 0);
        break;
    }
    *al = r;
}

static int run_wait(uc_engine *uc, struct fast_state *s, int64_t head, int64_t end)
{
    enum { V_EAX, V_EFLAGS, V_EDX, V_IP, V_REGS };
    static const int ids[V_REGS] = {UC_X86_REG_EAX, UC_X86_REG_EFLAGS, UC_X86_REG_EDX,
                                    UC_X86_REG_IP};
    uint64_t v[V_REGS] = {0, 0, 0, 0};
    void *ptrs[V_REGS] = {&v[0], &v[1], &v[2], &v[3]};
    uc_reg_read_batch(uc, (int *)ids, ptrs, V_REGS);
    /* an IRQ waiting for IF is taken at the next instruction (hook_code): not with IF
     * set then (with IF clear it stays clear: no instruction of a wait sets it) */
    if ((v[V_EFLAGS] & FLAG_TF) || (s->if_watch && (v[V_EFLAGS] & FLAG_IF))
            || (int32_t)(v[V_EDX] & 0xFFFF) != s->status_port
            || (v[V_IP] & 0xFFFF) + (uint64_t)(end - head) > 0xFFFF)
        return 0;
    if (s->watch >= 0) {
        if (s->wait_end >= 0)
            probe_end(s);             /* a light probe: this is its work */
        else
            s->changed = 1;           /* a general one: no idle pass with a wait in it */
    }
    uint32_t al = v[V_EAX] & 0xFF, flags = (uint32_t)v[V_EFLAGS];
    int64_t pc = head, last = s->last_address;
    int prev = 0;                     /* the last pass's start state and read, if any */
    uint32_t prev_al = 0, prev_flags = 0, prev_value = 0;
    int64_t prev_start = 0;
    for (;;) {
        if (pc == head) {             /* a pass begins */
            if (prev && al == prev_al && flags == prev_flags) {
                int64_t period = s->executed - prev_start;
                int64_t limit = (s->budget - s->executed) / period;
                int64_t first = s->clock_now + s->executed + 1;      /* its IN's time */
                int64_t n = limit > 0 ? first_other_read(s, first + INSTRUCTIONS_PER_STATUS_READ,
                                                         period, prev_value, limit) : 0;
                if (n < limit && (faults & FAULT_STATUS_PASSES))
                    n++;
                if (n > 0) {
                    s->executed += n * period;
                    s->port_reads += n;
                    s->native_status_reads += (uint64_t)n;
                    s->skipped_status_reads += (uint64_t)n;
                    s->skipped += n * period;
                    s->beam_base = first + (n - 1) * period;
                    s->beam_reads = 1;
                }
                prev = 0;
            } else {
                prev = 1;
                prev_al = al;
                prev_flags = flags;
                prev_start = s->executed;
            }
        }
        if (s->executed >= s->budget)
            break;                    /* as the code hook: this one does not run */
        s->executed++;
        last = pc;
        const uint8_t *c = s->mem + pc;
        if (c[0] == 0xEC) {           /* IN AL,DX: hook_in */
            s->port_reads++;
            s->native_status_reads++;
            prev_value = al = cga_status(s);
            pc += 1;
        } else if (c[0] >= 0x70 && c[0] <= 0x7F) {
            int64_t next = pc + 2;
            pc = jump_taken(c[0], flags) ? next + (int8_t)c[1] : next;
            if (pc != head && (pc < head || pc >= end))
                break;                /* out of the wait */
            if (pc == end)
                break;
        } else {
            wait_step(c, &al, &flags);
            pc += 2;
        }
    }
    if ((faults & FAULT_WAIT_RUN_COUNT) && s->executed > 0)
        s->executed--;
    uint64_t eax = (v[V_EAX] & ~(uint64_t)0xFF) | al;
    uint64_t eflags = flags, ip = ((v[V_IP] & 0xFFFF) + (uint64_t)(pc - head)) & 0xFFFF;
    uc_reg_write(uc, UC_X86_REG_EAX, &eax);
    uc_reg_write(uc, UC_X86_REG_EFLAGS, &eflags);
    uc_reg_write(uc, UC_X86_REG_IP, &ip);
    s->last_address = last;
    s->waits_run++;                   /* at the count's end, the code hook stops at pc */
    return 1;
}

/* Every block, before its first instruction: where it begins and ends. */
static void hook_block(uc_engine *uc, uint64_t address, uint32_t size, void *user)
{
    struct fast_state *s = user;
    s->block_start = (int64_t)address;
    s->block_end = (int64_t)address + size;
}

static int smc_listed(const struct fast_state *s, int64_t at)
{
    for (int i = 0; i < s->smc_count; i++)
        if (s->smc_site[i] == at)
            return 1;
    return 0;
}

/* JMP to itself (short, near): the one loop of a single instruction. */
static int self_jump(const struct fast_state *s, uint64_t address)
{
    const uint8_t *m = s->mem;
    uint8_t b = m[address & 0xFFFFF];
    if (b == 0xEB)
        return m[(address + 1) & 0xFFFFF] == 0xFE;
    return b == 0xE9 && m[(address + 1) & 0xFFFFF] == 0xFD && m[(address + 2) & 0xFFFFF] == 0xFF;
}

/* With if_watch set (an IRQ waits for the CPU to set IF), before each instruction:
 * has IF been set, so that the CPU takes the IRQ here?  Not right after an STI
 * (at ``before``): the 286 takes it only after the instruction that follows. */
static int interrupts_open(uc_engine *uc, const struct fast_state *s, int64_t before)
{
    uint64_t flags = 0;
    uc_reg_read(uc, UC_X86_REG_EFLAGS, &flags);
    return (flags & FLAG_IF) && !follows_sti(s, before);
}

/* Every instruction, before it runs: count it, end the slice, watch for idle loops.
 * A new probe is armed where a jump back lands (a loop's head, most likely). */
static void hook_code(uc_engine *uc, uint64_t address, uint32_t size, void *user)
{
    struct fast_state *s = user;
    int64_t here = (int64_t)address, before = s->last_address;
    s->last_address = here;
    if (s->if_watch && interrupts_open(uc, s, before)) {
        uc_emu_stop(uc);              /* the IRQ is taken before this one runs */
        s->last_address = before;     /* (the last that ran: Cpu.after_sti, halted_at) */
        return;
    }
    if (here == before && s->smc_native && !self_jump(s, address))
        note_smc_site(uc, s, here);
    if (s->watch >= 0 && s->wait_end >= 0 && (here < s->watch || here >= s->wait_end)
            && !(faults & FAULT_WAIT_LEAVES))
        probe_end(s);                 /* out of the status-port wait */
    if (s->watch >= 0) {
        if (here == before && !self_jump(s, address) && !(faults & FAULT_REPEATS))
            s->changed = 1;   /* Unicorn ran it again after it wrote into translated code */
        if (s->executed - s->probe_began > PROBE_SPAN)
            probe_end(s);
        else if (here == s->watch)
            probe_visit(uc, s);
    } else if (s->rearm_at >= 0 && s->executed >= s->rearm_at && here < before
               && before - here <= PROBE_SPAN) {
        probe_arm(s, here);
        probe_visit(uc, s);
    }
    if (s->executed >= s->budget) {
        uc_emu_stop(uc);              /* as emu_start's count does: this one does not run */
        s->last_address = before;
        return;
    }
    /* IN AL,DX is one byte: its size first, not a look at guest memory for every instruction */
    if (size == 1 && s->mem[address & 0xFFFFF] == 0xEC && s->status_port >= 0
            && !(faults & FAULT_NO_WAIT_RUN)) {
        int64_t end = status_wait_end(s, here);
        if (end && run_wait(uc, s, here, end))
            return;
    }
    s->executed++;
    if (s->smc_count && s->smc_native && smc_listed(s, here))
        own_block_store(uc, s, here);
}

/* The reference machine's only hook: count every instruction and end the slice on its
 * budget or where an IRQ waiting for IF is taken, as hook_code does (emu_start's own
 * count is the same kind of hook), and remember the last instruction (a HLT ran only
 * if it was the last one). */
static void hook_count(uc_engine *uc, uint64_t address, uint32_t size, void *user)
{
    struct fast_state *s = user;
    int64_t before = s->last_address;
    s->last_address = (int64_t)address;
    if ((s->if_watch && interrupts_open(uc, s, before)) || s->executed >= s->budget) {
        uc_emu_stop(uc);
        s->last_address = before;     /* the last instruction that ran */
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

/* A write Python makes during a pure call (the flags it returns on the stack). */
void pcemu_log_write(struct fast_state *s, uint64_t address, int size)
{
    log_write(s, address, size);
}

/* Before a slice: watch ``address`` for an idle loop (-1: none). */
void pcemu_probe_start(struct fast_state *s, int64_t address)
{
    s->rearms = 0;
    s->rearm_at = -1;
    if (address < 0) {
        s->watch = -1;
        return;
    }
    probe_arm(s, address);
}

/* PIT clock -> the first instruction count at which it has elapsed, and back
 * (Clock.instructions_for_pit and pit_clocks: floor and ceiling divisions). */
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
    int64_t due = -floor_div(-edge * s->ips, PIT_HZ) - !!(faults & FAULT_TIMER_EARLY);
    return due > now ? due : now;
}

/* After a slice that ended at instruction ``now`` with nothing for Python to
 * do, at linear address ``here`` with ``flags``: what Machine._run_slice and the
 * next step would do, here (Python's 8259 has no other request than IRQ 0).
 * Returns the next slice's budget, or 0 when another event is due or the
 * chain has run its span: Python's turn. */
static int64_t chain_on(uc_engine *uc, struct fast_state *s, int64_t now, uint64_t flags)
{
    if ((s->other_due >= 0 && s->other_due <= now) || (s->chain_end >= 0 && now >= s->chain_end))
        return 0;
    s->clock_now = now;
    s->executed = 0;                  /* the next slice's: the time an irq listener sees */
    s->chained_slices++;
    if (s->timer_due >= 0 && s->timer_due <= now) {          /* _timer_fired */
        s->irq0_pending = 1;
        s->timer_due = next_timer_due(s, now);
        s->chain_fires++;
    }
    /* InterruptControllers.pending: IRQ 0 requested, unmasked, not in service (one
     * behind itself in service waits for the EOI: request_let_through) */
    int waiting = s->irq0_pending && !(*s->master_imr & 1) && !(*s->master_isr & 1);
    /* a slice that ended right after an STI: the 286 runs one more instruction first
     * (Machine._deliver_hardware_interrupt) */
    int after_sti = follows_sti(s, s->last_address);
    if (waiting && (flags & FLAG_IF) && !after_sti) {        /* _deliver_hardware_interrupt */
        s->irq0_pending = 0;
        if (!s->auto_eoi)
            *s->master_isr |= 1;
        if (s->irq_watch)
            s->on_irq((uint32_t)s->irq0_vector);
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
    if (waiting && (flags & FLAG_IF)) {
        s->if_watch = 0;              /* the instruction after the STI, then IRQ 0 */
        return 1;
    }
    s->if_watch = waiting;            /* IRQ 0 waits for IF: the slice ends where it is set */
    if (waiting)
        s->chain_sti_waits++;
    return budget;
}

/* Did the slice end on a HLT (Unicorn leaves IP past it, at before + 1)?  Only if the
 * last instruction the code hook saw, at ``last``, was that HLT with its prefixes, if
 * any (LOCK HLT): a slice that ends on its count right after an instruction whose last
 * byte is F4h (JNE -12 is 75 F4) is no HLT.  As Cpu._just_halted; Unicorn's addresses
 * above 1 MB are the first 64 KB again. */
static int halted_at(const struct fast_state *s, int64_t last, int64_t before)
{
    int64_t start = last & 0xFFFFF;
    if (s->mem[before] != 0xF4 || start > before || before - start > 14)
        return 0;
    for (int64_t at = start; at < before; at++)
        if (!is_prefix(s->mem[at]))
            return 0;
    return 1;
}

/* The write hook's cost and gain.  While any memory hook is installed, Unicorn
 * translates every load and store to its slow path (a call, a look-up of the memory
 * region, and for a store the guest state restored from the block for the hook): at
 * EZT's menu about a third of the time.  Only the probes that compare memory need it
 * (status-port waits change no memory), and many programs' loops never repeat.  So
 * it is off at the start, and over windows of PROBE_WINDOW instructions:
 *  - while it is off, the probes still look for loops and count each pass that
 *    repeats the registers (shadow_skipped, a bound on what they would skip); once
 *    that reaches 1/PROBE_GAIN of a window within one, it goes on at the next slice,
 *    but not before probes_backoff has passed since it went off, which doubles (up to
 *    PROBES_OFF_MOST) each time it went on and no window paid for it;
 *  - while it is on, PROBES_DRY windows in a row in which those probes skipped less
 *    than 1/PROBE_GAIN of the instructions take it off.
 * Putting it on or off makes Unicorn translate everything again (uc_ctl_flush_tb:
 * blocks translated with it would stay slow, without it would miss writes), a few
 * milliseconds.  A hook deleted is removed at the end of the next emu_start, so that
 * flush waits for the slice after.  This decides only which loops are skipped, never
 * what a run computes: while the hook is off no probe that needs it skips.  Called
 * before each slice, at clock_now. */
#define PROBE_WINDOW 240000           /* instructions: a fifth of a virtual second */
#define PROBE_GAIN 8
#define PROBES_DRY 4                  /* windows in a row that gain too little */
#define PROBES_OFF_LEAST (PROBE_WINDOW / 4)
#define PROBES_OFF_MOST 38400000      /* 32 virtual seconds */
static void probe_window_start(struct fast_state *s, int64_t now)
{
    s->probe_window_end = now + PROBE_WINDOW;
    s->probe_window_skipped = s->general_skipped;
    s->probe_window_shadow = s->shadow_skipped;
}

static uc_err write_hook_on(uc_engine *uc, struct fast_state *s)
{
    uc_hook hook;
    uc_err err = uc_hook_add(uc, &hook, UC_HOOK_MEM_WRITE, (void *)hook_write, s, 1, 0);
    if (err != UC_ERR_OK)
        return err;
    s->write_hook = (uint64_t)hook;
    s->write_hooked = 1;
    s->write_flush = 0;
    s->probes_paid = 0;
    s->probes_dry = 0;
    uc_ctl_flush_tb(uc);
    s->write_hook_changes++;
    return UC_ERR_OK;
}

static uc_err write_hook_policy(uc_engine *uc, struct fast_state *s)
{
    int64_t now = s->clock_now;
    if (s->write_flush) {
        s->write_flush = 0;
        uc_ctl_flush_tb(uc);
    }
    if (faults & FAULT_WRITE_HOOK_PINNED) {
        probe_window_start(s, now);
        return s->write_hooked ? UC_ERR_OK : write_hook_on(uc, s);
    }
    if (s->probe_window_end < 0) {
        probe_window_start(s, now);
        return UC_ERR_OK;
    }
    if (!s->write_hooked) {
        uint64_t shadow = s->shadow_skipped - s->probe_window_shadow;
        if (shadow * PROBE_GAIN >= PROBE_WINDOW && now - s->probes_off_since >= s->probes_backoff) {
            probe_window_start(s, now);
            return write_hook_on(uc, s);
        }
        if (now >= s->probe_window_end)
            probe_window_start(s, now);
        return UC_ERR_OK;
    }
    if (now < s->probe_window_end)
        return UC_ERR_OK;
    int64_t window = now - (s->probe_window_end - PROBE_WINDOW);
    uint64_t gained = s->general_skipped - s->probe_window_skipped;
    probe_window_start(s, now);
    if ((int64_t)gained * PROBE_GAIN >= window) {
        s->probes_paid = 1;
        s->probes_dry = 0;
        return UC_ERR_OK;
    }
    if (++s->probes_dry < PROBES_DRY)
        return UC_ERR_OK;
    uc_err err = uc_hook_del(uc, (uc_hook)s->write_hook);
    if (err != UC_ERR_OK)
        return err;
    s->write_hooked = 0;
    s->write_flush = 1;
    s->watch = -1;
    if (s->probes_paid)
        s->probes_backoff = PROBES_OFF_LEAST;
    else if (s->probes_backoff < PROBES_OFF_MOST)
        s->probes_backoff *= 2;
    s->probes_off_since = now;
    s->write_hook_changes++;
    return UC_ERR_OK;
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
        s->last_address = -1;         /* a slice that begins where the last one stopped
                                       * runs that instruction for the first time */
        uc_err policy = write_hook_policy(uc, s);
        if (policy != UC_ERR_OK)
            return policy;
        pcemu_probe_start(s, watch);
        if (s->smc_count && !s->block_hooked) {
            /* a store rewrote its own block: from now on the block hook says where each
             * block begins and ends (own_block_store); a hook reaches only blocks
             * translated after it, so all are translated again.  Not before: it costs
             * a call in every block. */
            uc_hook block_hook;
            uc_err added = uc_hook_add(uc, &block_hook, UC_HOOK_BLOCK, (void *)hook_block, s, 1, 0);
            if (added != UC_ERR_OK)
                return added;
            s->block_hook = (uint64_t)block_hook;
            s->block_hooked = 1;
            s->block_start = -1;
            uc_ctl_flush_tb(uc);
        }
        uc_err err = uc_emu_start(uc, start, 0xFFFFFFFF, 0, 0);
        if (err != UC_ERR_OK)
            return err;
        for (int i = 0; i < count; i++) {
            snap[i] = 0;                  /* 16-bit reads fill only the low bytes */
            ptrs[i] = &snap[i];
        }
        uc_reg_read_batch(uc, (int *)snap_ids, ptrs, count);
        uint64_t flags = snap[count - 1];
        if (flags & FLAGS_IOPL_NT) {
            flags &= ~(uint64_t)FLAGS_IOPL_NT;
            uc_reg_write(uc, UC_X86_REG_FLAGS, &flags);
            snap[count - 1] = flags;
        }
        cs = ip = 0;
        uc_reg_read_batch(uc, ids, at, 2);
        /* A HLT ran only if it was the last instruction the code hook saw */
        int64_t before_ip = (int64_t)((((cs & 0xFFFF) << 4) + ((ip - 1) & 0xFFFF)) & 0xFFFFF);
        *halted = halted_at(s, s->last_address, before_ip);
        if (!s->chain || *halted || s->executed < budget)
            return UC_ERR_OK;
        int64_t here = (int64_t)((((cs & 0xFFFF) << 4) + (ip & 0xFFFF)) & 0xFFFFF);
        int64_t next = chain_on(uc, s, s->clock_now + budget, flags);
        if (next == 0)
            return UC_ERR_OK;
        s->chain_instructions += budget;
        watch = here;
        budget = next;
    }
}

/* Pic8259.highest_pending on the master: is a request presented to the CPU now? */
static int master_presents(const struct fast_state *s)
{
    int32_t requests = ((s->irq0_pending ? 1 : 0) | s->other_irr) & ~*s->master_imr & 0xFF;
    int32_t in_service = *s->master_isr;
    for (int line = 0; line < 8; line++) {
        if (in_service & (1 << line))
            return 0;
        if (requests & (1 << line))
            return 1;
    }
    return 0;
}

/* After an EOI or a mask written here (Machine._pic_written): a request the PIC now
 * presents is taken after this OUT if IF is set (the slice ends), else where the CPU
 * sets IF (the IF watch). */
static void request_let_through(uc_engine *uc, struct fast_state *s)
{
    if ((faults & FAULT_EOI_LATE) || !master_presents(s))
        return;
    uint64_t flags = 0;
    uc_reg_read(uc, UC_X86_REG_EFLAGS, &flags);
    if (flags & FLAG_IF) {
        s->budget = s->executed;      /* hook_code stops before the next instruction */
        s->chain = 0;                 /* Python's to present */
    } else {
        s->if_watch = 1;
    }
}

static void hook_out(uc_engine *uc, uint32_t port, int size, uint32_t value, void *user)
{
    struct fast_state *s = user;
    if (!(faults & FAULT_PORTS_IDLE))
        s->changed = 1;               /* a device took part: not an idle pass */
    if (s->pic_native && size == 1) {
        if (port == PIC_MASTER_COMMAND && (value & 0xFF) == PIC_NONSPECIFIC_EOI) {
            int32_t isr = *s->master_isr;
            *s->master_isr = isr & (isr - 1);
            s->native_eois++;
            request_let_through(uc, s);
            return;
        }
        if (port == PIC_MASTER_DATA && *s->master_init == 0) {
            *s->master_imr = value & 0xFF;
            s->native_mask_accesses++;
            if (s->other_irr & ~value & 0xFF)
                s->chain = 0;         /* a request unmasked: Python's to present */
            request_let_through(uc, s);
            return;
        }
    }
    s->on_out(uc, port, size, value, 0);
}

/* Install the hooks; returns a Unicorn error code (0 = UC_ERR_OK). */
int pcemu_fast_install(uc_engine *uc, struct fast_state *s, uc_hook *handles)
{
    s->watch = -1;
    s->video_trap = s->keyboard_trap = s->timeofday_trap = s->dos_trap = -1;
    s->time_ticks = -1;
    s->block_start = -1;
    s->wait_end = -1;
    uc_err err = uc_hook_add(uc, &handles[0], UC_HOOK_INTR, (void *)hook_interrupt, s, 1, 0);
    if (err == UC_ERR_OK)
        err = uc_hook_add(uc, &handles[1], UC_HOOK_INSN, (void *)hook_in, s, 1, 0, UC_X86_INS_IN);
    if (err == UC_ERR_OK)
        err = uc_hook_add(uc, &handles[2], UC_HOOK_INSN, (void *)hook_out, s, 1, 0, UC_X86_INS_OUT);
    if (err == UC_ERR_OK)
        err = uc_hook_add(uc, &handles[3], UC_HOOK_CODE, (void *)hook_code, s, 1, 0);
    /* Off at the start (handles[4] stays 0): write_hook_policy puts it on once the
     * probes find loops that would repay it. */
    s->write_hooked = 0;
    s->write_flush = 0;
    s->probe_window_end = -1;
    s->probes_off_since = 0;
    s->probes_backoff = 0;
    return err;
}

/* The reference machine's counter (hook_count): fills handles[0]; a Unicorn error code. */
int pcemu_count_install(uc_engine *uc, struct fast_state *s, uc_hook *handles)
{
    s->last_address = -1;
    return uc_hook_add(uc, &handles[0], UC_HOOK_CODE, (void *)hook_count, s, 1, 0);
}

/* ---- Test entry points: tests/test_native_contract.py only, never the machine. -----
 * Each reaches one static function that mirrors Python, so that the test can compare
 * the two on the same inputs. */
uint32_t pcemu_test_cga_status(struct fast_state *s) { return cga_status(s); }
double pcemu_test_frame_remainder(double t, double frame)
{
    double quotient;
    return frame_remainder(t, frame, &quotient);
}
int64_t pcemu_test_next_timer_due(const struct fast_state *s, int64_t now)
{
    return next_timer_due(s, now);
}
void pcemu_test_video_set_cursor(struct fast_state *s, uint32_t page, uint32_t row, uint32_t col)
{
    video_set_cursor(s, page, row, col);
}
int pcemu_test_text_cursor_cell(const struct fast_state *s, uint32_t page, int64_t *cell,
                                int64_t *page_end)
{
    return text_cursor_cell(s->mem, page, cell, page_end);
}
int pcemu_test_video_write_cells(struct fast_state *s, uint32_t page, uint32_t ch, uint32_t attr,
                                 int64_t count)
{
    return video_write_cells(s, page, ch, attr, count);
}
int pcemu_test_video_read_cell(uc_engine *uc, struct fast_state *s, uint32_t page)
{
    return video_read_cell(uc, s, page);
}
int pcemu_test_native_service(uc_engine *uc, struct fast_state *s) { return native_service(uc, s); }
uint32_t pcemu_test_port_in(uc_engine *uc, struct fast_state *s, uint32_t port, int size)
{
    return hook_in(uc, port, size, s);
}
void pcemu_test_port_out(uc_engine *uc, struct fast_state *s, uint32_t port, int size,
                         uint32_t value)
{
    hook_out(uc, port, size, value, s);
}
int pcemu_test_insn_length(const uint8_t *mem, uint32_t at) { return insn_length(mem, at); }
int64_t pcemu_test_status_passes(struct fast_state *s, int64_t passes, int64_t period,
                                 int64_t bias)
{
    guess_bias = bias;
    int64_t done = status_passes(s, passes, period);
    guess_bias = 0;
    return done;
}
int pcemu_test_halted_at(const struct fast_state *s, int64_t last, int64_t before)
{
    return halted_at(s, last, before);
}
