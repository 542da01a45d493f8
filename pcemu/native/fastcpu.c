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
 *  - Instructions are counted per translated block: a block hook, which
 *    Unicorn calls before the block runs, adds the block's instruction count
 *    (its bytes decoded by insn_length, the same decoder as pcemu/blocks.py)
 *    and, once the slice's budget is spent, stops the emulation there, before
 *    the block runs.  emu_start then needs no `count`, whose per-instruction
 *    hook costs most of Unicorn's speed.
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

#define LOOP_FIXED_MAX 1024

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
    int64_t executed;             /* instructions run in this slice (whole blocks) */
    int64_t budget;               /* stop at the first block boundary at or past it */
    uint32_t block_address;       /* the block running now (linear) and its count */
    int32_t block_count;
    int32_t counting;             /* 0: the block hook neither counts nor stops */
    int32_t loops_fixed;          /* entries used in loop_fixed */
    uint64_t blocks;              /* statistics */
    uint32_t loop_block;          /* a block to retranslate with a hook on its LOOPZ/LOOPNZ */
    uint32_t loop_insn;
    uint32_t loop_size;
    uint32_t block_halts;         /* the block counted last ends in HLT */
    uint32_t loop_fixed[LOOP_FIXED_MAX];  /* blocks already retranslated so */
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

/* The length of the instruction at ``address`` as Unicorn's x86 decoder reads
 * it in 16-bit mode (operand- and address-size prefixes switch to 32 bits).
 * pcemu/blocks.py is the same decoder in Python; keep the two in step. */
#define BYTE(i) (mem[(address + (i)) & 0xFFFFF])

static const uint8_t MODRM_1[32] = {      /* one-byte opcodes with a ModRM byte */
    0x0F, 0x0F, 0x0F, 0x0F, 0x0F, 0x0F, 0x0F, 0x0F,   /* 00-3F: x0-x3, x8-xB */
    0x00, 0x00, 0x00, 0x00, 0x0C, 0x0A, 0x00, 0x00,   /* 62 63 69 6B */
    0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,   /* 80-8F */
    0xF3, 0x00, 0x0F, 0xFF, 0x00, 0x00, 0xC0, 0xC0,   /* C0 C1 C4-C7, D0-D3, D8-DF, F6 F7, FE FF */
};

static int has_modrm_2(uint32_t op)      /* 0F xx */
{
    if (op >= 0x80 && op <= 0x8F) return 0;              /* Jcc rel */
    if (op >= 0xC8 && op <= 0xCF) return 0;              /* BSWAP */
    if (op >= 0x30 && op <= 0x37) return 0;              /* WRMSR RDTSC ... */
    switch (op) {
    case 0x05: case 0x06: case 0x07: case 0x08: case 0x09: case 0x0B: case 0x0E:
    case 0x77: case 0xA0: case 0xA1: case 0xA2: case 0xA8: case 0xA9: case 0xAA:
        return 0;
    }
    return 1;
}

static uint32_t modrm_length(const uint8_t *mem, uint32_t address, uint32_t at, int adsize32)
{
    uint32_t modrm = BYTE(at), mod = modrm >> 6, rm = modrm & 7, n = 1;
    if (mod == 3) return n;
    if (!adsize32) {
        if (mod == 0) return rm == 6 ? n + 2 : n;
        return n + (mod == 1 ? 1 : 2);
    }
    if (rm == 4) {                                        /* SIB */
        n++;
        if (mod == 0 && (BYTE(at + 1) & 7) == 5) return n + 4;
    }
    if (mod == 0) return rm == 5 ? n + 4 : n;
    return n + (mod == 1 ? 1 : 4);
}

uint32_t pcemu_insn_length(const uint8_t *mem, uint32_t address)
{
    uint32_t i = 0, op;
    int opsize32 = 0, adsize32 = 0;
    for (;;) {
        op = BYTE(i);
        if (op == 0x66) opsize32 = 1;                      /* repeated, still one switch */
        else if (op == 0x67) adsize32 = 1;
        else if (!(op == 0x26 || op == 0x2E || op == 0x36 || op == 0x3E || op == 0x64 ||
                   op == 0x65 || op == 0xF0 || op == 0xF2 || op == 0xF3)) break;
        if (++i >= 15) return i;          /* too long: #GP on the prefixes */
    }
    uint32_t z = opsize32 ? 4 : 2;        /* an immediate of the operand size */
    i++;
    if (op == 0x0F) {
        uint32_t op2 = BYTE(i++);
        if (op2 >= 0x80 && op2 <= 0x8F) return i + z;
        if (op2 == 0x38) return i + 1 + modrm_length(mem, address, i + 1, adsize32);
        if (op2 == 0x3A) return i + 1 + modrm_length(mem, address, i + 1, adsize32) + 1;
        if (!has_modrm_2(op2)) return i;
        if (op2 >= 0x20 && op2 <= 0x23) return i + 1;    /* MOV CR/DR: always a register */
        uint32_t n = i + modrm_length(mem, address, i, adsize32);
        if ((op2 >= 0x70 && op2 <= 0x73) || op2 == 0xA4 || op2 == 0xAC || op2 == 0xBA ||
            op2 == 0xC2 || op2 == 0xC4 || op2 == 0xC5 || op2 == 0xC6 || op2 == 0x0F)
            n += 1;
        return n;
    }
    uint32_t n = i;
    if (MODRM_1[op >> 3] & (1 << (op & 7)))
        n += modrm_length(mem, address, i, adsize32);
    switch (op) {
    case 0x04: case 0x0C: case 0x14: case 0x1C: case 0x24: case 0x2C: case 0x34: case 0x3C:
    case 0x6A: case 0x6B: case 0x80: case 0x82: case 0x83: case 0xA8: case 0xC0: case 0xC1:
    case 0xC6: case 0xCD: case 0xD4: case 0xD5: case 0xEB:
        return n + 1;
    case 0x05: case 0x0D: case 0x15: case 0x1D: case 0x25: case 0x2D: case 0x35: case 0x3D:
    case 0x68: case 0x69: case 0x81: case 0xA9: case 0xC7: case 0xE8: case 0xE9:
        return n + z;
    case 0xC2: case 0xCA:
        return n + 2;
    case 0xC8:
        return n + 3;
    case 0x9A: case 0xEA:
        return n + 2 + z;
    case 0xA0: case 0xA1: case 0xA2: case 0xA3:
        return n + (adsize32 ? 4 : 2);
    case 0xF6: case 0xF7:
        if (((BYTE(i) >> 3) & 7) < 2) return n + (op == 0xF6 ? 1 : z);
        return n;
    }
    if ((op >= 0x70 && op <= 0x7F) || (op >= 0xB0 && op <= 0xB7) || (op >= 0xE0 && op <= 0xE7))
        return n + 1;
    if (op >= 0xB8 && op <= 0xBF)
        return n + z;
    return n;
}
#undef BYTE

/* Instructions that start in the ``size`` bytes at ``address`` (a block);
 * ``last`` (if not NULL) gets the offset of the last one. */
static int32_t count_block(const uint8_t *mem, uint32_t address, uint32_t size, uint32_t *last)
{
    int32_t count = 0;
    uint32_t at = 0, start = 0;
    while (at < size) {
        start = at;
        at += pcemu_insn_length(mem, address + at);
        count++;
    }
    if (last)
        *last = start;
    return count;
}

int32_t pcemu_count_instructions(const uint8_t *mem, uint32_t address, uint32_t size)
{
    return count_block(mem, address, size, 0);
}

/* Unicorn 2.1.4 translates LOOPZ/LOOPNZ so that, when CX reaches 0, the lazy
 * flags of an earlier instruction of the same block are left unsaved: the
 * flags come out wrong.  A code hook on the LOOPZ/LOOPNZ makes the translator
 * save them first, so such blocks are retranslated with one (pcemu/blocks.py). */
static uint32_t opcode_at(const uint8_t *mem, uint32_t at)
{
    uint32_t op = 0;
    for (int i = 0; i < 14; i++, at++) {
        op = mem[at & 0xFFFFF];
        if (!(op == 0x26 || op == 0x2E || op == 0x36 || op == 0x3E || op == 0x64 || op == 0x65 ||
              op == 0x66 || op == 0x67 || op == 0xF0 || op == 0xF2 || op == 0xF3))
            break;
    }
    return op;
}

static int needs_loop_fix(struct fast_state *s, uint32_t address, uint32_t last, int32_t count)
{
    if (count < 2 || s->loops_fixed >= LOOP_FIXED_MAX)
        return 0;                          /* first in its block: nothing unsaved (or no room:
                                              Python then keeps code hooks everywhere) */
    uint32_t op = opcode_at(s->mem, address + last);
    if (op != 0xE0 && op != 0xE1)
        return 0;
    for (int32_t i = 0; i < s->loops_fixed; i++)
        if (s->loop_fixed[i] == address + last)
            return 0;
    return 1;
}

static void no_op_code_hook(uc_engine *uc, uint64_t address, uint32_t size, void *user)
{
}

/* The fix for the LOOPZ/LOOPNZ at ``address``: a code hook there (the caller
 * then retranslates the blocks around it); returns a Unicorn error code. */
int pcemu_fix_loop(uc_engine *uc, struct fast_state *s, uint64_t address)
{
    uc_hook handle;
    uc_err err = uc_hook_add(uc, &handle, UC_HOOK_CODE, (void *)no_op_code_hook, s,
                             address, address);
    if (err == UC_ERR_OK && s->loops_fixed < LOOP_FIXED_MAX)
        s->loop_fixed[s->loops_fixed++] = (uint32_t)address;
    return err;
}

static void hook_block(uc_engine *uc, uint64_t address, uint32_t size, void *user)
{
    struct fast_state *s = user;
    if (!s->counting)
        return;
    if (s->executed >= s->budget) {          /* before the block runs: it will not */
        uc_emu_stop(uc);
        return;
    }
    uint32_t last;
    int32_t count = count_block(s->mem, (uint32_t)address, size, &last);
    if (needs_loop_fix(s, (uint32_t)address, last, count)) {
        s->loop_block = (uint32_t)address;   /* stop before it; Python retranslates it */
        s->loop_insn = (uint32_t)address + last;
        s->loop_size = size;
        uc_emu_stop(uc);
        return;
    }
    s->block_address = (uint32_t)address;
    s->block_count = count;
    s->block_halts = opcode_at(s->mem, (uint32_t)address + last) == 0xF4 ? size : 0;
    s->executed += count;
    s->blocks++;
}

/* A trap raised inside a block (INTO) ends it early: the instructions after
 * the one that trapped (IP is past it) did not run. */
static void end_block_before(struct fast_state *s, uint32_t linear_ip)
{
    int32_t ran = pcemu_count_instructions(s->mem, s->block_address,
                                           (linear_ip - s->block_address) & 0xFFFFF);
    if (ran < s->block_count)
        s->executed -= s->block_count - ran;
    s->block_count = ran;
}

static uint32_t linear_ip(uc_engine *uc)
{
    int ids[2] = {UC_X86_REG_CS, UC_X86_REG_IP};
    uint64_t v[2] = {0, 0};
    void *ptrs[2] = {&v[0], &v[1]};
    uc_reg_read_batch(uc, ids, ptrs, 2);
    return (uint32_t)((((v[0] & 0xFFFF) << 4) + (v[1] & 0xFFFF)));
}

static void hook_interrupt(uc_engine *uc, uint32_t intno, void *user)
{
    struct fast_state *s = user;
    if (intno == 4 && s->counting)
        end_block_before(s, linear_ip(uc));
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

/* Install the hooks; returns a Unicorn error code (0 = UC_ERR_OK). */
int pcemu_fast_install(uc_engine *uc, struct fast_state *s, uc_hook *intr_handle, uc_hook *in_handle,
                       uc_hook *block_handle)
{
    uc_err err = uc_hook_add(uc, intr_handle, UC_HOOK_INTR, (void *)hook_interrupt, s, 1, 0);
    if (err != UC_ERR_OK)
        return err;
    err = uc_hook_add(uc, block_handle, UC_HOOK_BLOCK, (void *)hook_block, s, 1, 0);
    if (err != UC_ERR_OK)
        return err;
    return uc_hook_add(uc, in_handle, UC_HOOK_INSN, (void *)hook_in, s, 1, 0, UC_X86_INS_IN);
}
