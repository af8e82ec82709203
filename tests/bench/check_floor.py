#!/usr/bin/env python3
"""The record-floor builds (make bench-floor) do what their figures claim:
not a timing test, a behaviour one.

    check_floor.py BUILD_DIR

HV_RECORD_FLOOR=1 (BUILD-floor/libhipvis.so) must record one call record per
traced call, the same calls as the shipped library, each with only its
call-level fields (no stream, the arguments zeroed); HV_RECORD_FLOOR=2
(BUILD-floor-none) must record no call (the module registration hooks, which
are not generic wrappers, record in full in every build). HV_RECORD_FLOOR=3
(BUILD-floor-pick) records at the floor the calls of the APIs
HIPVIS_FLOOR_APIS names and every other call in full: with the launches and
synchronizes named, its copies must be the shipped library's but for their
epochs (the synchronizes that advance them are at the floor) and the named
calls at the floor; with "all" it must record as the floor build does, and
unset as the shipped library does. HV_RECORD_FLOOR=4 (BUILD-floor-raw) picks
the same way, its picked calls' floor records also holding the wrapper's
arguments as passed, one word each: with "all" every call record is the
shipped library's call with no stream and a copy's first three words its
destination, source and size; with hipMemcpyAsync named, those copies so
and every other call as shipped. All of them, like the shipped library,
must leave the traced program's output as it is without hipvis. The HV_LEAN
build with every bit (BUILD-lean, measure.h HV_LEAN) records the shipped
library's calls with no epoch (0 on every call and synchronize: the stream
table is never read), no launch's kargs record (graph nodes' remain) and
eager launches with no kernel and no stream. The demote build
(BUILD-demote, measure.h HV_DEMOTE) records what the shipped library
records (a cache hint after each commit, nothing else). The program
is the decode loop on the runtime double (copies, eager launches, graph
replays, synchronizes). The reader build (BUILD-reader: HV_RECORD_FLOOR=5
with HV_LEAN=5) records its named calls as the raw build does, the rest as
the shipped library but for epochs, and must take the shipped library's
Python sites: on tests/apps/ctypes_decode.py the same (call, reason) pairs.
"""
import collections
import json
import os
import re
import subprocess
import sys
import tempfile


def run(build, lib, trace, floor_apis=None):
    # Every build here, the shipped one included, against the full records
    # (HIPVIS_RECORD=full): the floor builds' figures are measured against them.
    env = dict(os.environ, LD_LIBRARY_PATH=os.path.join(build, "tests", "double"), HIPVIS_QUIET="1",
               HIPVIS_RECORD="full")
    env.pop("LD_PRELOAD", None)
    env.pop("HIPVIS_FLOOR_APIS", None)
    if floor_apis is not None:
        env["HIPVIS_FLOOR_APIS"] = floor_apis
    if lib:
        env.update(LD_PRELOAD=lib, HIPVIS_OUTPUT=trace)
    app = os.path.join(build, "tests", "apps", "decode_loop")
    out = subprocess.run([app, "--steps", "40", "--prefill-every", "8", "--print-buffers"], env=env,
                         stdout=subprocess.PIPE, check=True).stdout.decode()
    return re.sub(r"0x[0-9a-f]+", "ADDR", out)   # the buffers' addresses move from run to run (ASLR)


def calls(build, trace):
    out = subprocess.run([os.path.join(build, "hipvis-dump"), "--json", trace], stdout=subprocess.PIPE,
                         check=True).stdout.decode()
    recs = [json.loads(line) for line in out.splitlines()]
    return [r for r in recs if r.get("type") == "call"], [r for r in recs if r.get("type") == "kargs"]


def sites(build, lib, trace, floor_apis):
    """(api of the call, reason) of every Python stack a ctypes decode loop's trace holds."""
    env = dict(os.environ, LD_PRELOAD=lib, HIPVIS_OUTPUT=trace, HIPVIS_QUIET="1", HIPVIS_FLOOR_APIS=floor_apis,
               HIPVIS_RECORD="full")
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    subprocess.run([sys.executable, os.path.join(root, "tests", "apps", "ctypes_decode.py"),
                    os.path.join(build, "tests", "double", "libamdhip64.so.5"), "--steps", "12", "--prefill-every", "4"],
                   env=env, check=True, stdout=subprocess.DEVNULL)
    out = subprocess.run([os.path.join(build, "hipvis-dump"), "--json", trace], stdout=subprocess.PIPE,
                         check=True).stdout.decode()
    recs = [json.loads(line) for line in out.splitlines()]
    api = {r["seq"]: r["api"] for r in recs if r.get("type") == "call"}
    return collections.Counter((api.get(r["seq"]), r["why"]) for r in recs if r.get("type") == "pystack")


def main():
    build = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build")
    reader = os.path.abspath(build + "-reader/libhipvis.so")
    reader_apis = "hipMemcpyAsync+hipGraphLaunch+hipStreamSynchronize"
    pick = os.path.abspath(build + "-floor-pick/libhipvis.so")
    raw = os.path.abspath(build + "-floor-raw/libhipvis.so")
    floored = ("hipGraphLaunch", "hipStreamSynchronize", "hipLaunchKernel")
    arms = {"shipped": (os.path.join(build, "libhipvis.so"), None),
            "floor": (os.path.abspath(build + "-floor/libhipvis.so"), None),
            "none": (os.path.abspath(build + "-floor-none/libhipvis.so"), None),
            "pick": (pick, "+".join(floored)),
            "pick-all": (pick, "all"),
            "pick-unset": (pick, None),
            "raw-all": (raw, "all"),
            "raw-copy": (raw, "hipMemcpyAsync"),
            "lean": (os.path.abspath(build + "-lean/libhipvis.so"), None),
            "reader": (reader, reader_apis),
            "demote": (os.path.abspath(build + "-demote/libhipvis.so"), None)}
    failed = []
    with tempfile.TemporaryDirectory() as tmp:
        plain = run(build, None, None)
        got = {}
        kargs = {}
        for arm, (lib, floor_apis) in arms.items():
            trace = os.path.join(tmp, arm + ".zst")
            if run(build, lib, trace, floor_apis) != plain:
                failed.append(f"{arm}: the program's output differs from its output without hipvis")
            got[arm], kargs[arm] = calls(build, trace)
        # The Python sites, with the ctypes loop's copies, replays, synchronizes and kernel launches named.
        py_apis = reader_apis + "+hipModuleLaunchKernel"
        py_shipped = sites(build, os.path.join(build, "libhipvis.so"), os.path.join(tmp, "py-shipped.zst"), py_apis)
        py_reader = sites(build, reader, os.path.join(tmp, "py-reader.zst"), py_apis)
    shipped = collections.Counter(c["api"] for c in got["shipped"])
    floor = collections.Counter(c["api"] for c in got["floor"])
    if not shipped:
        failed.append("shipped: no call records (the test proves nothing)")
    if floor != shipped:
        failed.append(f"floor: call records by api differ from the shipped library's: {dict(floor - shipped)} more, "
                      f"{dict(shipped - floor)} fewer")
    with_stream = [c for c in got["floor"] if c.get("stream") != "0x0" or c.get("stream_form") != "none"]
    if with_stream:
        failed.append(f"floor: {len(with_stream)} call records name a stream, e.g. {with_stream[0]}")
    # The whole record is written, its arguments zeroed: a copy names no range.
    copies = [c for c in got["floor"] if c.get("op") == "copy"]
    if not copies or any(c["dst"] != "0x0" or c["src"] != "0x0" or c["bytes"] != 0 for c in copies):
        failed.append(f"floor: expected copies with zeroed arguments, got {copies[:1]}")
    # The module registration hooks (__hipRegisterFatBinary, __hipUnregisterFatBinary, ...) are not
    # generic wrappers: they record in full in every build.
    hooks = ("__hipRegister", "__hipUnregister", "__cudaRegister", "__cudaUnregister")
    wrapped = [c for c in got["none"] if not c["api"].startswith(hooks)]
    if wrapped:
        failed.append(f"none: {len(wrapped)} call records, e.g. {wrapped[0]}")
    # Launches and synchronizes at the floor, the rest in full: the copies as the shipped library
    # records them, but for the clock, the seq, the addresses (ASLR) and the epoch (no synchronize
    # advances it in this arm).
    def fields(c, drop=("ts_ns", "seq", "tid", "dst", "src", "epoch")):
        return {k: v for k, v in c.items() if k not in drop}
    full = [fields(c) for c in got["shipped"] if c["api"] == "hipMemcpyAsync"]
    part = [fields(c) for c in got["pick"] if c["api"] == "hipMemcpyAsync"]
    if not full or part != full:
        failed.append(f"pick: hipMemcpyAsync records differ from the shipped library's: {part[:1]} / {full[:1]}")
    others = [c for c in got["pick"] if c["api"] in floored]
    if not others or any(c.get("stream") != "0x0" for c in others):
        failed.append(f"pick: launches and synchronizes should be at the floor, got {others[:1]}")
    # "all": the floor build's records; unset: the shipped library's (but for what moves between runs).
    def same(a, b, drop):
        return [fields(c, drop) for c in got[a]] == [fields(c, drop) for c in got[b]]
    # What moves from run to run: the clock, the thread id, and addresses (ASLR): buffers, handles of
    # streams, events, graphs and modules, kernels' host functions.
    moving = ("ts_ns", "tid", "dst", "src", "ptr", "handle", "func", "function", "stream", "exec", "graph",
              "event", "module")
    if not same("pick-all", "floor", ("ts_ns", "tid", "module", "function")):   # the hooks' addresses
        failed.append("pick-all: the call records differ from the floor build's")
    if not got["pick-unset"] or not same("pick-unset", "shipped", moving):
        failed.append("pick-unset: the call records differ from the shipped library's")
    # The raw build: the call records the shipped library makes, each with no stream and its
    # arguments as passed (hipMemcpyAsync(dst, src, bytes, kind, stream): its first three words read as
    # the copy's dst, src and bytes); with one API named, that API so and the rest as shipped.
    raw_all = collections.Counter(c["api"] for c in got["raw-all"])
    if raw_all != shipped:
        failed.append(f"raw-all: call records by api differ from the shipped library's: {dict(raw_all - shipped)} "
                      f"more, {dict(shipped - raw_all)} fewer")
    if any(c.get("stream") != "0x0" for c in got["raw-all"]):
        failed.append("raw-all: a call record names a stream")
    def copy_words(arm):
        return [(c["dst"] != "0x0", c["src"] != "0x0", c["bytes"]) for c in got[arm] if c["api"] == "hipMemcpyAsync"]
    want = [(True, True, c["bytes"]) for c in got["shipped"] if c["api"] == "hipMemcpyAsync"]
    for arm in ("raw-all", "raw-copy"):
        if copy_words(arm) != want:
            failed.append(f"{arm}: hipMemcpyAsync records do not hold the arguments as passed: "
                          f"{copy_words(arm)[:2]} / {want[:2]}")
    if any(c.get("stream") != "0x0" or c.get("dst_mem") != "unknown" for c in got["raw-copy"]
           if c["api"] == "hipMemcpyAsync"):
        failed.append("raw-copy: a hipMemcpyAsync record carries what the raw build does not derive")
    # The calls not named as shipped, but for what moves from run to run.
    rest = lambda arm: [fields(c, moving) for c in got[arm] if c["api"] != "hipMemcpyAsync"]
    if not rest("raw-copy") or rest("raw-copy") != rest("shipped"):
        failed.append("raw-copy: the calls not named differ from the shipped library's")
    # The lean build: the same calls, no epoch derived at the call, no launch's pointer words written.
    lean = collections.Counter(c["api"] for c in got["lean"])
    if lean != shipped:
        failed.append(f"lean: call records by api differ from the shipped library's: {dict(lean - shipped)} more, "
                      f"{dict(shipped - lean)} fewer")
    if not any(c.get("epoch") for c in got["shipped"]):
        failed.append("shipped: no call record with a nonzero epoch (the lean check proves nothing)")
    epochs = [c for c in got["lean"] if c.get("epoch") or c.get("new_epoch")]
    if epochs:
        failed.append(f"lean: {len(epochs)} records with an epoch, e.g. {epochs[0]}")
    if not any(k["owner_node"] == "0x0" for k in kargs["shipped"]):
        failed.append("shipped: no launch kargs record (the lean check proves nothing)")
    if any(k["owner_node"] == "0x0" for k in kargs["lean"]):
        failed.append("lean: a launch's kargs record was written")
    # Bits 64 and 128: an eager launch's record has no kernel (name, layout) and no stream.
    launches = lambda arm: [c for c in got[arm] if c.get("op") == "launch" and not c.get("captured")]
    if not any(c.get("name_id") and c.get("stream") != "0x0" for c in launches("shipped")):
        failed.append("shipped: no eager launch with a kernel name and a stream (the lean check proves nothing)")
    named_launch = [c for c in launches("lean") if c.get("name_id") or c.get("stream") != "0x0"]
    if not launches("lean") or named_launch:
        failed.append(f"lean: expected eager launches with no kernel name and no stream, got {named_launch[:1]}")
    # The demote build (HV_DEMOTE, measure.h: a hint after each commit) records what the shipped
    # library records.
    if not got["demote"] or not same("demote", "shipped", moving):
        failed.append("demote: the call records differ from the shipped library's")
    # The reader build: its named calls raw (no stream, a copy's words as passed), every call without
    # an epoch, the eager launches with their kargs record, and the shipped library's Python sites.
    reader_calls = collections.Counter(c["api"] for c in got["reader"])
    if reader_calls != shipped:
        failed.append(f"reader: call records by api differ from the shipped library's: "
                      f"{dict(reader_calls - shipped)} more, {dict(shipped - reader_calls)} fewer")
    named = set(reader_apis.split("+"))
    if any(c.get("stream") != "0x0" for c in got["reader"] if c["api"] in named):
        failed.append("reader: a named call record names a stream")
    if copy_words("reader") != want:
        failed.append(f"reader: hipMemcpyAsync records do not hold the arguments as passed: {copy_words('reader')[:2]}")
    if [c for c in got["reader"] if c.get("epoch") or c.get("new_epoch")]:
        failed.append("reader: a record with an epoch (HV_LEAN=1 reads no stream table)")
    if not any(k["owner_node"] == "0x0" for k in kargs["reader"]):
        failed.append("reader: no eager launch's kargs record (the launches are not named: recorded in full)")
    if not py_shipped or not any(why == 1 for _, why in py_shipped) or py_reader != py_shipped:
        failed.append(f"reader: Python sites differ from the shipped library's: {sorted(py_reader.items(), key=str)} / "
                      f"{sorted(py_shipped.items(), key=str)}")
    for f in failed:
        print("check-floor: FAIL", f)
    if failed:
        return 1
    print(f"check-floor: floor build: the shipped library's {sum(shipped.values())} call records "
          f"({len(shipped)} APIs), none with a stream, copies with zeroed arguments; "
          f"no-record build: no call but module registrations; "
          f"picked build: with launches and synchronizes at the floor, hipMemcpyAsync as shipped "
          f"({len(full)} calls) and those at the floor, with all the floor build's records, unset the "
          f"shipped library's; raw build: every call with its arguments as passed and no stream, or "
          f"hipMemcpyAsync alone so; lean build: the same calls with no epoch, no launch kargs record and no launch kernel or stream; "
          f"reader build: its named calls raw, no epoch, the eager launches' kargs and the shipped library's "
          f"{sum(py_shipped.values())} Python stacks; demote build: the shipped library's records; "
          f"the program's output unchanged in all eleven")
    return 0


if __name__ == "__main__":
    sys.exit(main())
