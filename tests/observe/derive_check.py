#!/usr/bin/env python3
"""derive_check.py - the fields the library derived at each call, derived again by a reader.

    derive_check.py TRACE.jsonl     (hipvis-dump --json output; exit 1 on a mismatch)

Runs both reader models on one trace: derive_streams.py (epochs, capture
state, events' last records) and derive_kinds.py (memory kinds, copy
directions, kernel arguments' allocations), and prints what they do not give
back. check-observe and check-semantics run the same models on their traces.
"""
import json
import sys

import derive_kinds
import derive_streams


def mismatches(recs):
    """(seq, what, detail) for every field the library derived at a call that the models do not give back."""
    return derive_streams.mismatches(recs) + derive_kinds.mismatches(recs)


def main():
    with open(sys.argv[1]) as f:
        recs = [json.loads(line) for line in f if line.strip()]
    bad = mismatches(recs)
    for seq, what, detail in bad[:20]:
        print(f"derive_check: seq {seq} {what}: {detail}")
    print(f"derive_check: {sum(1 for r in recs if r.get('type') == 'call')} calls, "
          f"{sum(len(r.get('args', [])) for r in recs if r.get('type') == 'kargs')} kernel arguments, "
          f"{len(bad)} mismatches")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
