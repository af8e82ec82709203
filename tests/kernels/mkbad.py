#!/usr/bin/env python3
"""mkbad.py - TEST-ONLY bad code objects made from a good one.

    mkbad.py GOOD.co OUTDIR

Writes, from a real gfx950 code object (clang-22):
  trunc.co       its first half: section headers past the end (ELF_TRUNCATED)
  badmp.co       its metadata note's msgpack made invalid: the first byte
                 becomes 0xc1, which msgpack never uses (MSGPACK_BAD)
  unknown.bundle an offload bundle with a host entry, an entry for a target
                 hipvis does not know (spirv64) and the good object: one
                 skip (BUNDLE_UNKNOWN_TRIPLE), its kernels still decoded
  trunc.bundle   a bundle whose gfx950 entry is trunc.co (ELF_TRUNCATED)
  fat_bad.bundle host + unknown entry + truncated entry, for a fat binary
"""
import struct
import sys

MAGIC = b"__CLANG_OFFLOAD_BUNDLE__"
GFX950 = "hipv4-amdgcn-amd-amdhsa--gfx950"
HOST = "host-x86_64-unknown-linux-gnu-"
SPIRV = "hipv4-spirv64-amd-amdhsa--amdgcnspirv"


def bundle(entries):
    """[(id, bytes)] -> clang offload bundle bytes (entries 8-aligned)."""
    head = len(MAGIC) + 8 + sum(24 + len(i) for i, _ in entries)
    off, table, data = (head + 7) & ~7, b"", b""
    for ident, blob in entries:
        pad = (-(off + len(data))) % 8
        data += b"\0" * pad
        table += struct.pack("<QQQ", off + len(data), len(blob), len(ident)) + ident.encode()
        data += blob
    out = MAGIC + struct.pack("<Q", len(entries)) + table
    return out + b"\0" * (((head + 7) & ~7) - len(out)) + data


def metadata_note_desc(elf):
    """Offset of the NT_AMDGPU_METADATA (32) note's descriptor."""
    shoff, = struct.unpack_from("<Q", elf, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", elf, 0x3A)
    for i in range(shnum):
        sh = shoff + i * shentsize
        sh_type, = struct.unpack_from("<I", elf, sh + 4)
        off, size = struct.unpack_from("<QQ", elf, sh + 0x18)
        pos = off
        while sh_type == 7 and pos + 12 <= off + size:
            namesz, descsz, ntype = struct.unpack_from("<III", elf, pos)
            desc = pos + 12 + ((namesz + 3) & ~3)
            if ntype == 32 and elf[pos + 12:pos + 12 + namesz].rstrip(b"\0") == b"AMDGPU":
                return desc
            pos = desc + ((descsz + 3) & ~3)
    raise SystemExit("no NT_AMDGPU_METADATA note")


def main():
    good = open(sys.argv[1], "rb").read()
    out = sys.argv[2]
    trunc = good[:len(good) // 2]
    bad = bytearray(good)
    bad[metadata_note_desc(good)] = 0xC1
    files = {
        "trunc.co": trunc,
        "badmp.co": bytes(bad),
        "unknown.bundle": bundle([(HOST, b""), (SPIRV, b"\x03\x02\x23\x07" * 16), (GFX950, good)]),
        "trunc.bundle": bundle([(HOST, b""), (GFX950, trunc)]),
        "fat_bad.bundle": bundle([(HOST, b""), (SPIRV, b"\x03\x02\x23\x07" * 16), (GFX950, trunc)]),
    }
    for name, data in files.items():
        with open("%s/%s" % (out, name), "wb") as f:
            f.write(data)


main()
