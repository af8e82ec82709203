#!/usr/bin/env python3
"""check_kernels.py - TEST-ONLY checks of a hipvis trace's kernel facts.

    check_kernels.py CHECK DUMP TRACE [ARGS...]

DUMP is hipvis-dump (the trace is read as JSON lines). The reference for
kernel layouts is llvm-readelf --notes, parsed by tests/codeobj/meta_check.py;
argument access follows the code-object spec (AMDGPUUsage, V3+ metadata):
.actual_access, else .access, else read when .is_const, else read_write.

Checks (each prints one "ok:" line or "FAIL:" lines and exits 1):
  kernels READELF HASHES ELF...   every kernel of the ELFs has HV_REC_KERNEL
                                  records with its kernarg size, explicit
                                  argument count and an ELF's hash (HASHES:
                                  co_extract --hash output); no other names
  module READELF ELF APP_OUT      kmod_app: eager launches (params, extra,
                                  Triton-style pointer) and the fork/join
                                  graph: nodes, edges, roots, arguments
  launch READELF ELF APP_OUT API KERNEL ARG...
                                  the one launch: its pointer arguments are
                                  the app's `addr` values named ARG ("-":
                                  by value), access as the metadata says
  traced API...                   each API has a call record (any result)
  bad [--real]                    kbad_app: parse errors named and counted
  gpa                             kgpa_app: hipGetProcAddress substitution
  same TRACE2                     the two traces define the same kernels
  notes REASON...                 a not_stored note for each reason, and no
                                  stored bytes for those objects
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "codeobj"))
from meta_check import parse_yaml  # noqa: E402

FAILS = []


def fail(msg):
    FAILS.append(msg)


def records(dump, trace):
    out = subprocess.check_output([dump, "--json", trace], text=True)
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def kernels_of(readelf, elf):
    js = json.loads(subprocess.check_output([readelf, "--notes", "--elf-output-style=JSON", elf]))
    texts = [n["AMDGPU Metadata"] for f in js for s in f["NoteSections"]
             for n in s["NoteSection"]["Notes"] if "AMDGPU Metadata" in n]
    return parse_yaml(texts[0])[1]


def explicit(kernel):
    return [a for a in kernel["args"] if not a[".value_kind"].startswith("hidden_")]


def access(arg):
    word = arg.get(".actual_access") or arg.get(".access")
    if word:
        return {"read_only": "read", "write_only": "write", "read_write": "read_write"}[word]
    return "read" if arg.get(".is_const") == "true" else "read_write"


def expected_kargs(kernel, values):
    """values: pointer value per explicit argument index (None: by value)."""
    want = []
    for i, a in enumerate(explicit(kernel)):
        if a[".value_kind"] == "global_buffer" and values[i]:
            want.append((i, int(a[".offset"]), access(a), "metadata", values[i]))
    return want


def got_kargs(rec):
    return [(a["index"], a["offset"], a["access"], a["origin"], int(a["value"], 16)) for a in rec["args"]]


def app_addrs(path):
    """The `addr name=0x...` line of an app's output."""
    for line in open(path):
        if line.startswith("addr "):
            return {k: int(v, 16) for k, v in (w.split("=") for w in line.split()[1:])}
    raise SystemExit("no addr line in " + path)


def after(recs, call, rtype):
    """Auxiliary records of type rtype that follow call record `call`."""
    return [r for r in recs if r.get("seq") == call["seq"] and r["type"] == rtype]


def calls(recs, api):
    return [r for r in recs if r["type"] == "call" and r["api"] == api]


# ---- checks ----------------------------------------------------------------

def check_kernels(recs, readelf, hashes, *elves):
    hash_of = {}
    for line in open(hashes):
        h, path = line.split()
        hash_of[os.path.abspath(path)] = h
    want = {}
    for elf in elves:
        for k in kernels_of(readelf, elf):
            want.setdefault(k[".name"], []).append((k, hash_of[os.path.abspath(elf)]))
    syms = [r for r in recs if r["type"] == "kernel"]
    seen = {}
    for s in syms:
        name = s["kernel"]
        if name not in want:
            fail("kernel record for %s, which no code object defines" % name)
            continue
        ok_hashes = [h for _, h in want[name]]
        k = want[name][0][0]
        if s["code_object_hash"] not in ok_hashes:
            fail("%s: code_object_hash %s not one of %s" % (name, s["code_object_hash"], ok_hashes))
        if s["kernarg_bytes"] != int(k[".kernarg_segment_size"]):
            fail("%s: kernarg_bytes %d, metadata %s" % (name, s["kernarg_bytes"], k[".kernarg_segment_size"]))
        if s["nargs"] != len(explicit(k)):
            fail("%s: nargs %d, metadata %d explicit" % (name, s["nargs"], len(explicit(k))))
        seen[name] = s["code_object_hash"]
    for name in want:
        if name not in seen:
            fail("no kernel record for %s" % name)
    return "%d kernels, %d kernel records match llvm-readelf" % (len(want), len(syms))


def graph_shape(recs):
    inst = [c for c in calls(recs, "hipGraphInstantiate") if c["result"] == 0]
    if len(inst) != 1:
        fail("expected one instantiate, found %d" % len(inst))
        return None
    nodes = after(recs, inst[0], "graph_node")
    edges = [tuple(p) for e in after(recs, inst[0], "graph_edges") for p in e["pairs"]]
    kargs = {k["owner_node"]: k for k in after(recs, inst[0], "kargs")}
    label = {n["index"]: (n.get("kernel") if n["node_type"] == "kernel" else n["node_type"]) for n in nodes}
    return nodes, edges, kargs, label


def check_module(recs, readelf, elf, app_out):
    ks = {k[".name"]: k for k in kernels_of(readelf, elf)}
    a = app_addrs(app_out)
    values = {"producer": [a["in"], a["mid"], None], "accum": [a["acc"], a["in"], None],
              "consume": [a["mid"], a["acc"], a["out"], None]}
    eager = [c for c in calls(recs, "hipModuleLaunchKernel") if not c["captured"] and c["result"] == 0]
    forms = [(c["kernel"], c["form"]) for c in eager]
    if forms != [("producer", "params"), ("accum", "extra"), ("consume", "params")]:
        fail("eager launches %s: want producer params, accum extra, consume params (through dlsym)" % forms)
    for c in eager:
        got = [got_kargs(k) for k in after(recs, c, "kargs")]
        want = expected_kargs(ks[c["kernel"]], values[c["kernel"]])
        if got != [want]:
            fail("eager %s (%s): kargs %s, want %s" % (c["kernel"], c["form"], got, want))
    shape = graph_shape(recs)
    if not shape:
        return "no graph"
    nodes, edges, kargs, label = shape
    want_edges = {("host", "accum"), ("producer", "accum"), ("producer", "consume"), ("accum", "consume"),
                  ("consume", "event_record")}
    have_record = any(n["node_type"] == "event_record" for n in nodes)
    if not have_record:
        want_edges.discard(("consume", "event_record"))
    got_edges = {(label[f], label[t]) for f, t in edges}
    if got_edges != want_edges or len(edges) != len(want_edges):
        fail("edges %s, want %s" % (sorted(got_edges), sorted(want_edges)))
    roots = sorted(label[n["index"]] for n in nodes if all(t != n["index"] for _, t in edges))
    if roots != ["host", "producer"]:
        fail("roots %s, want host and producer" % roots)
    for n in nodes:
        if n["node_type"] != "kernel":
            continue
        got = got_kargs(kargs[n["node"]]) if n["node"] in kargs else []
        want = expected_kargs(ks[n["kernel"]], values[n["kernel"]])
        if got != want:
            fail("graph node %s: kargs %s, want %s" % (n["kernel"], got, want))
    return "3 eager launches and a %d-node fork/join graph (%d edges, roots %s) match the metadata" % (
        len(nodes), len(edges), "+".join(roots))


def check_launch(recs, readelf, elf, app_out, api, kernel, *arg_names):
    ks = {k[".name"]: k for k in kernels_of(readelf, elf)}
    a = app_addrs(app_out)
    launches = [c for c in calls(recs, api) if c["result"] == 0]
    if len(launches) != 1 or launches[0].get("kernel") != kernel:
        fail("want one successful %s of %s, got %s" % (api, kernel, [c.get("kernel") for c in launches]))
        return "no launch"
    got = [got_kargs(k) for k in after(recs, launches[0], "kargs")]
    want = expected_kargs(ks[kernel], [a.get(n) for n in arg_names])
    if got != [want]:
        fail("kargs %s, want %s" % (got, want))
    return "%s of %s traced, pointer arguments exact" % (api, kernel)


def check_traced(recs, *apis):
    for api in apis:
        if not calls(recs, api):
            fail("no %s record" % api)
    return " ".join(apis)


def notes_of(recs, call):
    return sorted((n["reason"], n["count"]) for n in after(recs, call, "codeobj_note"))


def check_bad(recs, *opts):
    real = "--real" in opts
    fat = calls(recs, "__hipRegisterFatBinary")
    want_fat = [[("HV_CO_ERR_BUNDLE_UNKNOWN_TRIPLE", 1), ("HV_CO_ERR_ELF_TRUNCATED", 1)], [("fatbin_bad_magic", 1)]]
    got_fat = [notes_of(recs, c) for c in fat]
    if got_fat != want_fat or [c["parse_errors"] for c in fat] != [2, 1]:
        fail("fat binaries: notes %s parse_errors %s, want %s" % (got_fat, [c["parse_errors"] for c in fat], want_fat))
    loads = calls(recs, "hipModuleLoad") + calls(recs, "hipModuleLoadData")
    loads.sort(key=lambda c: c["seq"])
    if real:
        want = [[]] * 4  # the real runtime refuses them: nothing decoded
    else:
        want = [[("HV_CO_ERR_ELF_TRUNCATED", 1)], [("HV_CO_ERR_ELF_TRUNCATED", 1)],
                [("HV_CO_ERR_BUNDLE_UNKNOWN_TRIPLE", 1)], [("HV_CO_ERR_MSGPACK_BAD", 1)]]
    got = [notes_of(recs, c) for c in loads]
    if got != want or [c["parse_errors"] for c in loads] != [len(w) for w in want]:
        fail("module loads: notes %s parse_errors %s, want %s" % (got, [c["parse_errors"] for c in loads], want))
    if not real:
        if loads[2]["nkernels"] != 3:
            fail("unknown.bundle: nkernels %d, want its good entry's 3" % loads[2]["nkernels"])
        syms = [r for r in recs if r["type"] == "kernel" and r["kernel"] == "producer"]
        if len(syms) != 1 or syms[0]["nargs"] != 3:
            fail("producer of the bundle with an unknown entry not bound: %s" % syms)
    return "%d bad images: every skip counted and named" % (len(fat) + len(loads))


def check_gpa(recs):
    names = {r["id"]: r["text"] for r in recs if r["type"] == "string"}
    looks = calls(recs, "hipGetProcAddress")
    got = [(names.get(int(c["raw"][0], 16)), int(c["raw"][3], 16), c["raw"][1] != c["raw"][2]) for c in looks]
    want = [("hipModuleLaunchKernel", 0, True), ("hipStreamSynchronize", 2, True), ("hipGetDeviceCount", 0, False)]
    if got != want:
        fail("lookups (name, flags, wrapper handed out) %s, want %s" % (got, want))
    last = max(c["seq"] for c in looks) if looks else 0
    for api in ("hipModuleLaunchKernel", "hipStreamSynchronize_spt"):
        if not [c for c in calls(recs, api) if c["seq"] > last and c["result"] == 0]:
            fail("no %s through the pointer hipGetProcAddress gave" % api)
    return "hipGetProcAddress hands out wrappers (the _spt one for per-thread), calls through them traced"


def kernel_set(recs):
    return sorted((r["kernel"], r["kernarg_bytes"], r["nargs"], r["code_object_hash"])
                  for r in recs if r["type"] == "kernel")


def check_same(recs, dump, trace2):
    other = records(dump, trace2)
    a, b = kernel_set(recs), kernel_set(other)
    if not a or a != b:
        fail("kernel records differ:\n  %s\n  %s" % (a, b))
    na = [c["nkernels"] for c in calls(recs, "__hipRegisterFatBinary")]
    nb = [c["nkernels"] for c in calls(other, "__hipRegisterFatBinary")]
    if na != nb or not na or not na[0]:
        fail("nkernels %s vs %s" % (na, nb))
    return "%d kernel records identical, nkernels %s" % (len(a), na)


def check_notes(recs, *reasons):
    notes = [r for r in recs if r["type"] == "codeobj_note" and r["kind"] == "not_stored"]
    for reason in reasons:
        hit = [n for n in notes if n["reason"] == reason]
        if not hit or any(n["value"] <= 0 for n in hit):
            fail("no not_stored note '%s' with bytes: %s" % (reason, notes))
    stored = {r["hash"] for r in recs if r["type"] == "codeobj"}
    if "disabled" in reasons and stored:
        fail("code-object bytes stored although disabled: %s" % stored)
    return "not stored, and said why: " + ", ".join(reasons)


CHECKS = {"kernels": check_kernels, "module": check_module, "launch": check_launch, "traced": check_traced,
          "bad": check_bad, "gpa": check_gpa, "notes": check_notes}


def main():
    check, dump, trace, args = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    recs = records(dump, trace)
    what = check_same(recs, dump, *args) if check == "same" else CHECKS[check](recs, *args)
    if FAILS:
        for f in FAILS:
            print("FAIL: %s: %s" % (check, f))
        return 1
    print("ok: %s: %s" % (check, what))
    return 0


if __name__ == "__main__":
    sys.exit(main())
