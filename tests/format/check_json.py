#!/usr/bin/env python3
"""Checks `hipvis-dump --json` output read from stdin: every line one JSON
object; a header object first; records with the common keys and, for calls,
the op-class keys; seq order; a footer last when --footer is given. Prints
the number of record objects."""
import json
import sys

OP_KEYS = {
    "copy": ["dst", "src", "bytes", "kind", "dir", "src_mem", "dst_mem", "async"],
    "memset": ["dst", "bytes", "value", "elem_size"],
    "launch": ["func", "kernel", "grid", "block"],
    "graph": ["graph", "exec", "nnodes"],
    "event": ["event"],
    "sync": ["completed_stream", "completed_seq", "new_epoch"],
    "alloc": ["ptr", "bytes", "mem"],
    "module": ["module", "name"],
}
AUX_KEYS = {
    "string": ["id", "text"],
    "graph_node": ["exec", "graph", "node", "node_type"],
    "graph_edges": ["count", "pairs"],
    "kargs": ["func", "count", "args"],
    "drops": ["dropped"],
    "thread": ["event"],
    "epoch": ["stream", "epoch", "completed_seq"],
}


def is_hex(v):
    return isinstance(v, str) and v.startswith("0x") and int(v, 16) >= 0


def main():
    want_footer = "--footer" in sys.argv
    objs = [json.loads(line) for line in sys.stdin.read().splitlines()]
    assert objs and objs[0]["type"] == "header", "no header object first"
    assert objs[0]["format_version"] == 2 and isinstance(objs[0]["host"], str)
    if want_footer:
        f = objs.pop()
        assert f["type"] == "footer", "no footer object last"
        assert set(f["dropped"]) == {"ring_full", "too_large", "no_ring", "write_error", "fork_discard",
                                     "in_flight_at_exit"}, f["dropped"]
        assert f["dropped"]["ring_full"] == 1 and f["dropped"]["fork_discard"] == 2
    recs = objs[1:]
    last = 0
    for o in recs:
        for k in ("seq", "ts_ns", "tid", "type"):
            assert k in o, "missing %s in %r" % (k, o)
        assert o["seq"] >= last, "seq order"
        last = o["seq"]
        if o["type"] == "call":
            for k in ("api", "op", "result", "stream", "epoch", "device"):
                assert k in o, "call without %s" % k
            assert is_hex(o["stream"])
            for k in OP_KEYS.get(o["op"], []):
                assert k in o, "%s call without %s: %r" % (o["op"], k, o)
            for k in ("dst", "src", "ptr", "func", "graph", "exec", "event"):
                if k in o:
                    assert is_hex(o[k]), "%s not a hex string" % k
        for k in AUX_KEYS.get(o["type"], []):
            assert k in o, "%s record without %s" % (o["type"], k)
    print(len(recs))


if __name__ == "__main__":
    main()
