"""derive_kinds.py - every memory kind and allocation a trace records, derived again from the records alone.

    (tests/observe/derive_check.py TRACE.jsonl runs it on a dump)

The companion of derive_streams.py for the other fields the library derives
at the call from its tables (src/tracer/core/allocmap.h): a copy's direction and
the memory kinds of both sides, and the allocation each pointer argument of a
kernel launch falls in. The rule, as a model:

- the allocations are those the allocation records made (a successful call
  that returned a pointer: its base, size and kind; the same base again
  replaces the entry) less those the successful frees removed;
- an address's kind is the kind of the allocation whose base is the last one
  at or below it, when the address is inside it; otherwise unknown;
- a copy's direction is the one its memcpy kind names (host-to-host .. device-
  to-device), or for the Default kind the one both sides' kinds give (device
  or managed memory is device memory); an unknown host side of a copy whose
  direction reads or writes host memory is pageable;
- a kernel argument's allocation (alloc_base, alloc_bytes) is the one its
  value falls in, none otherwise.
"""
import bisect

from derive_streams import word

KINDS = ("H2H", "H2D", "D2H", "D2D")


class AllocModel:
    def __init__(self):
        self.bases = []     # sorted
        self.entry = {}     # base -> (bytes, mem)

    def add(self, base, size, mem):
        if base not in self.entry:
            bisect.insort(self.bases, base)
        self.entry[base] = (size, mem)

    def remove(self, base):
        if base in self.entry:
            del self.entry[base]
            self.bases.remove(base)

    def find(self, addr):
        i = bisect.bisect_right(self.bases, addr)
        if i == 0:
            return None
        base = self.bases[i - 1]
        size, mem = self.entry[base]
        return (base, size, mem) if addr - base < size else None

    def kind(self, addr):
        a = self.find(addr)
        return a[2] if a else "unknown"


def copy_fields(m, r):
    """(dir, dst_mem, src_mem) as the reader derives them for copy record r."""
    dm, sm = m.kind(word(r["dst"])), m.kind(word(r["src"]))
    kind = r.get("kind", 4)
    if 0 <= kind < len(KINDS):
        d = KINDS[kind]
    else:
        dst_dev, src_dev = dm in ("device", "managed"), sm in ("device", "managed")
        d = ("D2D" if src_dev else "H2D") if dst_dev else ("D2H" if src_dev else "H2H")
    if d in ("H2D", "H2H") and sm == "unknown":
        sm = "host_pageable"
    if d in ("D2H", "H2H") and dm == "unknown":
        dm = "host_pageable"
    return d, dm, sm


def mismatches(records):
    """(seq, what, detail) for every memory kind or argument allocation the model does not give back."""
    m = AllocModel()
    bad = []
    for r in records:
        kind, op = r.get("type"), r.get("op")
        if kind == "kargs":
            for a in r.get("args", []):
                f = m.find(word(a["value"]))
                want = (f[0], f[1]) if f else (0, 0)
                got = (word(a["alloc_base"]), a["alloc_bytes"])
                if got != want:
                    bad.append((r.get("seq"), "kargs", f"argument {a['index']}: allocation {got} recorded, {want} derived"))
            continue
        if kind != "call":
            continue
        if op == "copy" and "dir" in r:
            got = (r["dir"], r["dst_mem"], r["src_mem"])
            want = copy_fields(m, r)
            if got != want:
                bad.append((r["seq"], r["api"], f"(dir, dst, src) {got} recorded, {want} derived"))
        elif op == "alloc" and word(r.get("ptr")):
            m.add(word(r["ptr"]), r["bytes"], r["mem"])
        elif op == "free" and r.get("result") == 0:
            m.remove(word(r.get("ptr")))
    return bad
