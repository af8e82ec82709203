#!/usr/bin/env python3
"""TEST-ONLY: checks a CUDA pass-through run against its trace.

usage: check_trace.py rt|drv OUTPUT TRACE_JSON

OUTPUT is what the test program printed ("symbol rc" per call); TRACE_JSON
is `hipvis-dump --json` of the trace. Every printed call must have exactly
one call record, in order, naming that symbol with that result; the trace
must be complete (footer, nothing dropped). `drv` adds the driver-side
checks: kernel names and layouts, pointer arguments (one packed in a struct),
the cuGetProcAddress substitution, and the graph inventory.
"""
import json
import sys

UNTRACED = {"cuInit"}  # called by the driver test, not intercepted


def fail(msg):
    print("check_trace: FAIL: " + msg)
    sys.exit(1)


def load(kind, out_path, json_path):
    expected, facts = [], {}
    for line in open(out_path):
        parts = line.split()
        if len(parts) == 2 and parts[1].lstrip("-").isdigit():
            if parts[0] == "errno":
                continue
            if parts[0] not in UNTRACED:
                expected.append((parts[0], int(parts[1])))
        elif len(parts) >= 2:
            for k, v in zip(parts[0::2], parts[1::2]):
                facts[k] = int(v, 0)
    recs = [json.loads(l) for l in open(json_path)]
    return expected, facts, recs


def check_common(expected, recs):
    calls = [r for r in recs if r.get("type") == "call"]
    got = [(r["api"], r["result"]) for r in calls]
    if got != expected:
        for i, (e, g) in enumerate(zip(expected, got)):
            if e != g:
                fail("call %d: program printed %s=%d, trace has %s=%d" % (i, e[0], e[1], g[0], g[1]))
        fail("%d calls printed, %d call records" % (len(expected), len(got)))
    footer = [r for r in recs if r.get("type") == "footer"]
    if not footer:
        fail("no footer: the trace was not closed")
    if footer[0]["calls"] != len(expected):
        fail("footer counts %d calls, expected %d" % (footer[0]["calls"], len(expected)))
    if any(footer[0]["dropped"].values()):
        fail("records dropped: %s" % footer[0]["dropped"])
    return calls


def check_rt(calls):
    # stream_calls runs three times: NULL stream (legacy), cudaStreamPerThread,
    # and compiled per-thread (NULL means this thread's stream).
    forms = [r["stream_form"] for r in calls if r["api"] in ("cudaMemcpyAsync", "cudaMemcpyAsync_ptsz")]
    if forms != ["legacy_null", "per_thread", "spt_null"]:
        fail("cudaMemcpyAsync stream forms %s" % forms)
    for r in calls:
        if r["api"].startswith("cudaMemcpyAsync") and r["dir"] != "H2H":
            # untracked pointers on both sides: host to host by address
            fail("cudaMemcpyAsync(Default) resolved to %s" % r["dir"])


def check_drv(calls, recs, facts):
    seqlens, out = facts["seqlens"], facts["out"]
    launches = [r for r in calls if r["op"] == "launch"]
    if [r["api"] for r in launches] != ["cuLaunchKernel", "cuLaunchKernel_ptsz", "cuLaunchKernel"]:
        fail("launches %s" % [r["api"] for r in launches])
    for r in launches:
        if r.get("kernel") != "triton_k" or r["kernarg_bytes"] != 32 or r["nptr"] != 2:
            fail("launch %d: kernel %s, %d argument bytes, %d pointers" %
                 (r["seq"], r.get("kernel"), r["kernarg_bytes"], r["nptr"]))
    if launches[1]["stream_form"] != "spt_null" or launches[2]["captured"] != 1:
        fail("per-thread launch or captured launch misrecorded")
    lookup = [r for r in calls if r["api"] == "cuGetProcAddress_v2"][0]
    if lookup["raw"][1] == lookup["raw"][2] or int(lookup["raw"][2], 16) == 0:
        fail("cuGetProcAddress_v2 handed out the driver's own function, not the wrapper")
    want = [(seqlens, seqlens, 0), (out + 64, out, 24)]
    kargs = [r for r in recs if r.get("type") == "kargs"]
    if len(kargs) != 4:
        fail("%d kargs records, expected 4 (3 launches, 1 graph node)" % len(kargs))
    for k in kargs:
        got = [(int(a["value"], 16), int(a["alloc_base"], 16), a["offset"]) for a in k["args"]]
        if got != want or any(a["origin"] != "inferred" for a in k["args"]):
            fail("kargs of seq %d: %s, expected %s" % (k["seq"], got, want))
    # The inventory's nodes (an exec-node setter's record names no graph).
    nodes = [r for r in recs if r.get("type") == "graph_node" and r.get("graph") not in ("0x0", 0)]
    if [n["node_type"] for n in nodes] != ["memcpy", "kernel"]:
        fail("graph nodes %s" % [n["node_type"] for n in nodes])
    if int(nodes[0]["dst"], 16) != seqlens or nodes[0]["bytes"] != 1028 or nodes[1].get("kernel") != "triton_k":
        fail("graph node contents: %s" % nodes)
    if kargs[-1]["owner_node"] != nodes[1]["node"]:
        fail("graph kernel node's arguments not tied to it")
    edges = [r for r in recs if r.get("type") == "graph_edges"]
    if len(edges) != 1 or edges[0]["pairs"] != [[0, 1]]:
        fail("graph edges %s" % edges)
    # Batch copies (docs/semantics.md C11, C12): one record per pair, exact
    # ranges, on the stream the driver accepted; the 12.8 form's failIdx
    # reached the driver's slot (it wrote 7 there).
    b = [(int(r["dst"], 16), r["bytes"], r["result"]) for r in calls if r["api"] == "cuMemcpyBatchAsync_v2"]
    if b != [(out, 256, 0), (out + 1024, 128, 0), (0, 0, 1)]:
        fail("cuMemcpyBatchAsync_v2 records %s" % b)
    b12 = [r for r in calls if r["api"] == "cuMemcpyBatchAsync"]
    if len(b12) != 1 or b12[0]["result"] != 0 or facts.get("failIdx") != 7:
        fail("cuMemcpyBatchAsync (12.8 form): %s, failIdx %s" % (b12, facts.get("failIdx")))
    b3 = [r for r in calls if r["api"] == "cuMemcpy3DBatchAsync_v2"]
    if len(b3) != 1 or (b3[0]["bytes"], b3[0]["dpitch"], b3[0]["height"]) != (256, 1024, 4):
        fail("cuMemcpy3DBatchAsync_v2: 4 rows of 64 B at pitch 1024 expected, got %s" % b3)
    info = [r for r in calls if r["api"] == "cuStreamGetCaptureInfo_v3"]
    if len(info) != 1 or info[0]["raw"][1] != "0x2a":
        fail("cuStreamGetCaptureInfo_v3 capture id: %s" % info)
    setp = [r for r in calls if r["api"] == "cuGraphExecMemcpyNodeSetParams"]
    upd = [r for r in recs if r.get("type") == "graph_node" and setp and r["seq"] == setp[0]["seq"]]
    if len(upd) != 1 or (int(upd[0]["dst"], 16), upd[0]["bytes"]) != (out + 2048, 512):
        fail("cuGraphExecMemcpyNodeSetParams: the node's new range expected, got %s" % upd)
    syncs = [r for r in calls if r["api"] == "cuStreamSynchronize"]
    if syncs[0].get("new_epoch") != 1:
        fail("cuStreamSynchronize did not advance the stream's epoch")


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("rt", "drv"):
        print(__doc__)
        return 2
    expected, facts, recs = load(*sys.argv[1:])
    if not expected:
        fail("the program printed no calls")
    calls = check_common(expected, recs)
    if sys.argv[1] == "rt":
        check_rt(calls)
    else:
        check_drv(calls, recs, facts)
    print("check_trace: %s: %d calls, each recorded with the runtime's result" % (sys.argv[1], len(expected)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
