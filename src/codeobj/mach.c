/* mach.c - EF_AMDGPU_MACH (low byte of e_flags) -> processor name.
 *
 * Used when a code object has no amdhsa.target in its metadata, and to
 * filter a fat binary by processor before decoding msgpack. Values from
 * LLVM's BinaryFormat/ELF.h (plus the two it has since retired). */
#include "codeobj/codeobj.h"

static const struct {
    unsigned char mach;
    const char *name;
} machs[] = {
    {0x020, "gfx600"},
    {0x021, "gfx601"},
    {0x022, "gfx700"},
    {0x023, "gfx701"},
    {0x024, "gfx702"},
    {0x025, "gfx703"},
    {0x026, "gfx704"},
    {0x028, "gfx801"},
    {0x029, "gfx802"},
    {0x02a, "gfx803"},
    {0x02b, "gfx810"},
    {0x02c, "gfx900"},
    {0x02d, "gfx902"},
    {0x02e, "gfx904"},
    {0x02f, "gfx906"},
    {0x030, "gfx908"},
    {0x031, "gfx909"},
    {0x032, "gfx90c"},
    {0x033, "gfx1010"},
    {0x034, "gfx1011"},
    {0x035, "gfx1012"},
    {0x036, "gfx1030"},
    {0x037, "gfx1031"},
    {0x038, "gfx1032"},
    {0x039, "gfx1033"},
    {0x03a, "gfx602"},
    {0x03b, "gfx705"},
    {0x03c, "gfx805"},
    {0x03d, "gfx1035"},
    {0x03e, "gfx1034"},
    {0x03f, "gfx90a"},
    {0x040, "gfx940"}, /* retired in LLVM 20, still in HIP 5.x fat binaries */
    {0x041, "gfx1100"},
    {0x042, "gfx1013"},
    {0x043, "gfx1150"},
    {0x044, "gfx1103"},
    {0x045, "gfx1036"},
    {0x046, "gfx1101"},
    {0x047, "gfx1102"},
    {0x048, "gfx1200"},
    {0x049, "gfx1250"},
    {0x04a, "gfx1151"},
    {0x04b, "gfx941"}, /* retired in LLVM 20 */
    {0x04c, "gfx942"},
    {0x04e, "gfx1201"},
    {0x04f, "gfx950"},
    {0x051, "gfx9-generic"},
    {0x052, "gfx10-1-generic"},
    {0x053, "gfx10-3-generic"},
    {0x054, "gfx11-generic"},
    {0x055, "gfx1152"},
    {0x058, "gfx1153"},
    {0x059, "gfx12-generic"},
    {0x05a, "gfx1251"},
    {0x05f, "gfx9-4-generic"},
};

const char *hv_co_proc_from_eflags(uint32_t e_flags)
{
    unsigned mach = e_flags & 0xffu;
    for (unsigned i = 0; i < sizeof(machs) / sizeof(machs[0]); i++)
        if (machs[i].mach == mach)
            return machs[i].name;
    return NULL;
}
