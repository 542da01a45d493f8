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
 * Everything else (and everything, when Python listeners or port watchers are
 * attached) is handed to the Python callbacks, so behaviour is identical with
 * or without this library; only the cost differs.  Every IN is counted here,
 * because the machine's time within a slice counts port reads.
 */
#include <math.h>
#include <stdint.h>
#include <unicorn/unicorn.h>

typedef void (*intr_fallback)(uc_engine *uc, uint32_t intno, void *user);
typedef uint32_t (*in_fallback)(uc_engine *uc, uint32_t port, int size, void *user);

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
};

#define FLAG_TF 0x0100
#define FLAG_IF 0x0200

static void put_word(uint8_t *mem, uint32_t base, uint32_t offset, uint32_t word)
{
    mem[(base + (offset & 0xFFFF)) & 0xFFFFF] = word & 0xFF;
    mem[(base + ((offset + 1) & 0xFFFF)) & 0xFFFFF] = (word >> 8) & 0xFF;
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
    put_word(s->mem, base, sp - 2, flags);
    put_word(s->mem, base, sp - 4, cs);
    put_word(s->mem, base, sp - 6, ip);
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

static void hook_interrupt(uc_engine *uc, uint32_t intno, void *user)
{
    struct fast_state *s = user;
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
    if ((int32_t)port == s->status_port && size == 1) {
        s->native_status_reads++;
        return cga_status(s);
    }
    return s->on_in(uc, port, size, 0);
}

/* Install both hooks; returns a Unicorn error code (0 = UC_ERR_OK). */
int pcemu_fast_install(uc_engine *uc, struct fast_state *s, uc_hook *intr_handle, uc_hook *in_handle)
{
    uc_err err = uc_hook_add(uc, intr_handle, UC_HOOK_INTR, (void *)hook_interrupt, s, 1, 0);
    if (err != UC_ERR_OK)
        return err;
    return uc_hook_add(uc, in_handle, UC_HOOK_INSN, (void *)hook_in, s, 1, 0, UC_X86_INS_IN);
}
