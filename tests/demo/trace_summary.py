#!/usr/bin/env python3
"""trace_summary.py - the `make demo` views of a decode_loop trace.

usage: trace_summary.py DUMP TRACE APP_OUTPUT trace|step
       trace_summary.py DUMP TRACE APP_OUTPUT conclude ANALYZE_JSON

  trace     what the trace holds: process, totals, calls per API, the kernels
            decoded from the embedded code object, the graph execs' kernel
            nodes with their pointer arguments
  step      hipvis-dump's own lines for one decode step that follows a
            prefill: the pinned H2D copy of cu_seqlens_q, the graph launch,
            the blocking read-back
  conclude  the same-epoch-write finding of hipvis-analyze --json, in words,
            with the buffers named; exit 1 when there is none

Buffer names come from decode_loop --print-buffers (APP_OUTPUT); DUMP is
build/hipvis-dump. Standard library only.
"""
import collections
import json
import re
import subprocess
import sys

# What decode_kernels.hip calls the arguments (HIP code objects carry no
# argument names: clang emits none in the kernel metadata).
ARG_NAMES = {
    "_convert_req_index_to_global_index_kernel": ["qo_indptr", "tokens_per_req", "bs", "seed"],
    "_sample_kernel": ["tokens_per_req", "tokens", "bs"],
}


def records(dump, trace):
    out = subprocess.run([dump, "--json", trace], capture_output=True, text=True, check=False)
    if out.returncode != 0:
        sys.exit(f"trace_summary: {dump} --json {trace} exited {out.returncode}: {out.stderr.strip()}")
    return [json.loads(line) for line in out.stdout.splitlines() if line.strip()]


def buffers(app_output):
    names = {}
    with open(app_output) as f:
        for line in f:
            if line.startswith("decode_loop: thread=0 "):
                for k, v in re.findall(r"(\w+)=(0x[0-9a-f]+)", line):
                    names[int(v, 16)] = k
    return names


def name_of(names, addr):
    addr = int(addr, 16) if isinstance(addr, str) else addr
    return names.get(addr)


def label(names, addr):
    n = name_of(names, addr)
    return f"{addr} ({n})" if n else f"{addr}"


def arg_name(kernel, index):
    names = ARG_NAMES.get(kernel or "", [])
    return names[index] if 0 <= index < len(names) else None


def show_trace(recs, names, path):
    header = next(r for r in recs if r.get("type") == "header")
    footer = next((r for r in recs if r.get("type") == "footer"), None)
    calls = [r for r in recs if r.get("type") == "call"]
    print(f"   file     {path}")
    print(f"   process  pid {header['pid']}  {header['exe']}")
    print(f"   runtime  {header['runtime_path']}")
    if footer:
        dropped = sum(footer["dropped"].values())
        print(f"   footer   {footer['calls']} calls, {footer['records_written']} records written, "
              f"{dropped} dropped")
    kinds = collections.Counter(r.get("type") for r in recs if "seq" in r)
    print("   records  " + ", ".join(f"{n} {k}" for k, n in kinds.most_common()))
    print("   calls per API:")
    per_api = collections.Counter(r["api"] for r in calls)
    h2d = collections.Counter((r["api"], r.get("dir"), r.get("src_mem"), r.get("bytes"))
                              for r in calls if r.get("op") == "copy")
    for api, n in per_api.most_common():
        extra = [f"{c} {d} {b} B from {m}" for (a, d, m, b), c in h2d.items() if a == api]
        captured = sum(1 for r in calls if r["api"] == api and r.get("capturing"))
        if captured:
            extra.append(f"{captured} while capturing")
        print(f"      {api:<32} {n:>5}" + (f"   ({'; '.join(extra)})" if extra else ""))
    print("   kernels decoded from the registered fat binary (gfx950 code object):")
    for r in recs:
        if r.get("type") == "kernel":
            print(f"      {r['kernel']}  stub {r['func']}  {r['nargs']} args, "
                  f"{r['kernarg_bytes']} B kernarg  code object {r['code_object_hash']}")
    execs = collections.OrderedDict()
    for r in recs:
        if r.get("type") == "graph_node" and r.get("node_type") == "kernel":
            execs.setdefault(r["exec"], []).append(r)
        elif r.get("type") == "kargs" and r.get("owner_node") not in (None, "0x0"):
            for nodes in execs.values():
                for n in nodes:
                    if n["node"] == r["owner_node"]:
                        n["_args"] = r["args"]
    print(f"   graph execs instantiated: {len(execs)}; kernel nodes and pointer arguments:")
    for ex, nodes in execs.items():
        for n in nodes:
            args = ", ".join(
                f"arg {a['index']} {arg_name(n['kernel'], a['index']) or ''} = "
                f"{label(names, a['value'])} {a['access']}/{a['origin']}" for a in n.get("_args", []))
            print(f"      exec {ex} node {n['index']} {n['kernel']} grid {n['grid'][0]}: {args}")


def show_step(dump, trace, recs):
    calls = [r for r in recs if r.get("type") == "call" and not r.get("capturing")]
    # steps start with the H2D copy of cu_seqlens_q from pinned memory
    starts = [i for i, r in enumerate(calls)
              if r["api"] == "hipMemcpyAsync" and r.get("dir") == "H2D" and r.get("src_mem") == "host_pinned"]
    steps = [calls[a:b] for a, b in zip(starts, starts[1:] + [len(calls)])]
    pick = None
    # a prefill launches the kernels eagerly; the warm-up before the
    # captures does too, but is followed by hipStreamBeginCapture
    for prev, cur in zip(steps, steps[1:]):
        prefill = any(r["api"] == "hipLaunchKernel" for r in prev) and \
            not any(r["api"] == "hipStreamBeginCapture" for r in prev)
        if prefill and any(r["api"] == "hipGraphLaunch" for r in cur):
            pick = cur
            break
    if pick is None:
        sys.exit("trace_summary: no decode step after a prefill step in the trace")
    lo = pick[0]["seq"]
    hi = next((r["seq"] for r in pick if r["api"] == "hipMemcpyWithStream"), pick[-1]["seq"])
    print(f"   (records #{lo}..#{hi}: the first decode step after a prefill, which copied cumulative "
          f"values into the same buffer and launched the kernels eagerly)")
    out = subprocess.run([dump, trace], capture_output=True, text=True, check=False).stdout
    for line in out.splitlines():
        m = re.match(r"#(\d+) ", line)
        if m and lo <= int(m.group(1)) <= hi:
            print("   " + line)


def conclude(analysis, names):
    with open(analysis) as f:
        report = json.load(f)
    found = [g for g in report["findings"] if g["rule"] == "same-epoch-write"]
    if not found:
        print("demo: FAILED: hipvis-analyze reported no same-epoch-write", file=sys.stderr)
        return 1
    replays = sum(t["replays"] for t in report["traces"])
    total = sum(g["count"] for g in found)
    g = found[0]
    w, r, b = g["earlier"], g["later"], g["buffer"]
    buf = name_of(names, b["lo"]) or "buffer"
    src = name_of(names, w.get("src", "0x0"))
    an = arg_name(r.get("kernel"), r.get("arg_index", -1))
    execs = sorted({x["later"]["exec"] for x in found})
    print(f"same-epoch-write on {buf} [{b['lo']}, {b['hi']}) ({b['bytes']} B):")
    print(f"  written by {w['api']} {w['dir']} {w['bytes']} B from {w['src_mem']} "
          f"{src + ' ' if src else ''}{w['src']} on stream {w['stream']} ({w['engine']}),")
    print(f"  read by the replayed graph's kernel node {r['node_index']} "
          f"{r['kernel']} argument {r['arg_index']}{' (' + an + ')' if an else ''} "
          f"(access {r['access']}, from {r['origin']}) on the same stream,")
    print(f"  with no host-observed completion of that stream in between: {total} of {replays} replays, "
          f"in {len(execs)} graph execs (one per batch size). This is the ROCm/hip#3902 pattern.")
    return 0


def main(argv):
    if len(argv) < 5 or argv[4] not in ("trace", "step", "conclude"):
        print(__doc__, file=sys.stderr)
        return 2
    dump, trace, app_output, what = argv[1:5]
    names = buffers(app_output)
    if what == "conclude":
        return conclude(argv[5], names)
    recs = records(dump, trace)
    if what == "trace":
        show_trace(recs, names, trace)
    else:
        show_step(dump, trace, recs)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
