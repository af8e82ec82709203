#!/usr/bin/env python3
"""Counts records of a trace by api, from `hipvis-dump --json`, and checks
expectations given as NAME=COUNT or NAME>=COUNT. NAME may also be
footer.FIELD / footer.dropped.CAUSE (a footer value), `drops` (the largest
total carried by a drops record) or `records` (records read). Exits 1 on a
mismatch."""
import json, subprocess, sys

dump, trace, *expect = sys.argv[1:]
out = subprocess.run([dump, "--json", trace], capture_output=True, text=True)
counts, footer, drops, nrec = {}, None, 0, 0
for line in out.stdout.splitlines():
    rec = json.loads(line)
    if rec.get("type") == "footer":
        footer = rec
        continue
    nrec += 1
    if rec.get("type") == "drops":
        drops = max(drops, sum(rec["dropped"].values()))
    api = rec.get("api")
    if api:
        counts[api] = counts.get(api, 0) + 1
        if rec.get("result") is None:
            sys.exit(f"{trace}: record without result: {line}")
ok = True
for e in expect:
    if e == "footer":
        if footer is None:
            print(f"{trace}: no footer"); ok = False
        elif footer["records_written"] + sum(footer["dropped"].values()) != footer["records_made"]:
            print(f"{trace}: footer: written + dropped != made: {footer}"); ok = False
        continue
    if e == "nofooter":
        if footer is not None:
            print(f"{trace}: unexpected footer"); ok = False
        continue
    op = ">=" if ">=" in e else "="
    name, want = e.split(op)
    if name.startswith("footer."):
        got = footer or {}
        for k in name.split(".")[1:]:
            got = got.get(k, {}) if isinstance(got, dict) else None
        if not isinstance(got, int):
            print(f"{trace}: no {name}"); ok = False
            continue
    elif name == "drops":
        got = drops
    elif name == "records":
        got = nrec
    else:
        got = counts.get(name, 0)
    if (op == "=" and got != int(want)) or (op == ">=" and got < int(want)):
        print(f"{trace}: {name}: got {got}, want {op}{want}"); ok = False
print(f"{trace}: " + " ".join(f"{k}={v}" for k, v in sorted(counts.items())) + f" dump_rc={out.returncode}")
sys.exit(0 if ok else 1)
