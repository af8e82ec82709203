#!/usr/bin/env python3
"""names_e2e.py BUILD - names, Python lines and regions end to end (TEST-ONLY).

Runs tests/apps/ctypes_decode.py (ctypes, no torch) under LD_PRELOAD=libhipvis.so
on the HIP runtime double. The script names cu_seqlens_q with hipvis.name(),
copies it and replays graphs that read it. Checks, per CPython interpreter
found on this machine:
  - text report: the buffer line says "cu_seqlens_q"; the python line says
    "written at ctypes_decode.py:<copy line> ..., replayed at ctypes_decode.py:<replay line>";
  - JSON: findings[].buffer.name == "cu_seqlens_q", earlier.python / later.python
    hold frames with those lines, buffer.named_at the hipvis.name() line;
  - an interpreter whose layout hipvis does not know (3.10) gives a clean
    "no Python frames" and still names the buffer;
  - HIPVIS_PYFRAMES=0 records no Python stacks;
  - HIPVIS_PYFRAMES=first (the default, unset) records one stack per target
    and the report marks ops shown with the first call's lines; =1 records
    each site;
  - --regions: ops carry region "decode" and the "step" mark ordinal;
  - HIPVIS_START=profiler with --profile-window 4:12: only the window's data
    calls are recorded, the skipped ones are counted, findings stay;
  - marks_app: NVTX v3 ranges and marks through NVTX_INJECTION64_PATH and roctx
    through interposition are recorded in order, roctx values unchanged.
Prints one line per check and "N passed, N failed".
"""
import glob
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

BUILD = sys.argv[1] if len(sys.argv) > 1 else "build"
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
APP = os.path.join(ROOT, "tests", "apps", "ctypes_decode.py")
LIB = os.path.abspath(os.path.join(BUILD, "libhipvis.so"))
DBL = os.path.abspath(os.path.join(BUILD, "tests", "double", "libamdhip64.so.5"))
HSACO = os.path.abspath(os.path.join(BUILD, "tests", "apps", "decode_kernels-gfx950.hsaco"))
HSACO_NONAMES = os.path.abspath(os.path.join(BUILD, "tests", "apps", "decode_kernels-gfx950-nonames.hsaco"))
KERNEL = "_convert_req_index_to_global_index_kernel"
ARGNAME = f"qo_indptr (kernel arg 0 of {KERNEL})"
ANALYZE = os.path.abspath(os.path.join(BUILD, "hipvis-analyze"))
DUMP = os.path.abspath(os.path.join(BUILD, "hipvis-dump"))
SIDECAR = os.path.abspath(os.path.join(BUILD, "hipvis-sidecar"))

passed = failed = 0


def check(ok, what, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"  ok   {what}")
    else:
        failed += 1
        print(f"  FAIL {what}" + (f": {detail}" if detail else ""))


def line_of(pattern):
    with open(APP) as f:
        for i, text in enumerate(f, 1):
            if pattern in text:
                return i
    raise SystemExit(f"names_e2e: '{pattern}' not in {APP}")


PREFILL_COPY = line_of('self.check("hipMemcpyAsync", self.cu')
with open(APP) as _f:
    COPY = [i for i, t in enumerate(_f, 1) if 'self.check("hipMemcpyAsync", self.cu' in t][1]
REPLAY = line_of('self.check("hipGraphLaunch"')
NAMED = line_of('hipvis.name((self.cu.value')


def interpreters():
    found = []
    for p in ["/usr/bin/python3"] + sorted(glob.glob("/root/.pyenv/versions/3.*/bin/python3")) + \
             sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/3.*/bin/python3"))):
        # 3.10 stands for every older one (none has a known layout).
        old = re.search(r"/3\.([0-9])\.", p)
        if old:
            continue
        if os.access(p, os.X_OK) and os.path.realpath(p) not in [os.path.realpath(q) for q in found]:
            found.append(p)
    return found


def version(py):
    out = subprocess.run([py, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                         capture_output=True, text=True)
    return out.stdout.strip()


def traced(py, tmp, tag, extra_env=None, args=(), hsaco=HSACO):
    trace = os.path.join(tmp, f"{tag}.zst")
    env = dict(os.environ, LD_PRELOAD=LIB, HIPVIS_OUTPUT=trace, HIPVIS_QUIET="1")
    env.pop("HIPVIS_PYFRAMES", None)   # each run's mode is the default or what it asks
    env.update(extra_env or {})
    r = subprocess.run([py, APP, DBL, "--steps", "16", "--prefill-every", "8", "--code-object", hsaco, *args],
                       env=env, capture_output=True, text=True, timeout=120)
    if r.returncode != 0 or not os.path.exists(trace):
        return None, r.stdout + r.stderr
    return trace, r.stdout


def analyze(trace, json_mode):
    r = subprocess.run([ANALYZE, "--json", trace] if json_mode else [ANALYZE, trace],
                       capture_output=True, text=True, timeout=120)
    return r.stdout


def frames_have(frames, line):
    return any(fr.get("line") == line and fr.get("file", "").endswith("ctypes_decode.py") for fr in frames or [])


def first_mode(py, tmp):
    """HIPVIS_PYFRAMES=first, the default (unset here), on the alternating
    case: one stack per target at its first call, no reference records, and
    a finding whose op recorded none says its lines are the first call's; a
    bad value is named."""
    trace, out = traced(py, tmp, "first", None, ["--prefill-every", "2"])
    check(trace is not None, "HIPVIS_PYFRAMES unset (first): traced run", out)
    if not trace:
        return
    dump = subprocess.run([DUMP, trace], capture_output=True, text=True).stdout
    writes = re.findall(r"pystack nframes=(\d+) status=0 why=1 .*target=(0x[0-9a-f]+)", dump)
    per_target = {}
    for n, target in writes:
        per_target.setdefault(target, []).append(int(n))
    # A thread's very first site reads its frames outside the shared table
    # (sites.c): at most one more full stack for the target of that call.
    check(writes and all(int(n) > 0 for n, _ in writes) and all(len(v) <= 2 for v in per_target.values())
          and sum(len(v) for v in per_target.values()) <= len(per_target) + 1,
          f"first: full stacks only, once per write target ({per_target})")
    doc = json.loads(analyze(trace, True))
    same = [f for f in doc["findings"] if f["rule"] == "same-epoch-write"]
    firsts = [f for f in same if f["earlier"].get("python_from") == "first_call"]
    check(same and firsts and all(frames_have(f["earlier"].get("python"), COPY) for f in same),
          f"first: writes named by the first call's line {COPY}, marked first_call ({len(firsts)} of {len(same)})")
    # The text shows one occurrence per bug, here the target's first write
    # (lines its own): the caveat goes with the JSON's first group.
    text = analyze(trace, False)
    check(("(the lines of the first call on this target: HIPVIS_PYFRAMES=first" in text) ==
          (same[0]["earlier"].get("python_from") == "first_call" if same else False),
          "first: the text report's caveat as the JSON's first group says")
    trace, _ = traced(py, tmp, "all", {"HIPVIS_PYFRAMES": "1"}, ["--prefill-every", "2"])
    doc = json.loads(analyze(trace, True)) if trace else {"findings": []}
    check(trace and not any("python_from" in f.get("earlier", {}) for f in doc["findings"]),
          "HIPVIS_PYFRAMES=1: no finding says first_call")
    # Sidecar mode (left on in production) records the first call's by default.
    # Segments on a memory filesystem, as docs/sidecar.md asks (elsewhere the sidecar warns).
    seg = tempfile.mkdtemp(dir="/dev/shm" if os.path.isdir("/dev/shm") else tmp)
    outdir = os.path.join(tmp, "sidecar-out")
    os.makedirs(outdir, exist_ok=True)
    sc = subprocess.Popen([SIDECAR, "--dir", seg, "-o", outdir, "--no-analysis", "--nice", "0", "-q"])
    try:
        env = dict(os.environ, LD_PRELOAD=LIB, HIPVIS_SIDECAR="1", HIPVIS_SIDECAR_DIR=seg, HIPVIS_QUIET="1")
        env.pop("HIPVIS_PYFRAMES", None)
        subprocess.run([py, APP, DBL, "--steps", "16", "--prefill-every", "2", "--code-object", HSACO], env=env,
                       capture_output=True, text=True, timeout=120)
    finally:
        sc.terminate()   # SIGTERM: the sidecar drains what is left and closes its files
        sc.wait(timeout=60)
        shutil.rmtree(seg, ignore_errors=True)
    files = glob.glob(os.path.join(outdir, "*.zst"))
    doc = json.loads(analyze(files[0], True)) if files else {"findings": []}
    check(any(f.get("earlier", {}).get("python_from") == "first_call" for f in doc["findings"]),
          "HIPVIS_SIDECAR=1: Python frames of the first call by default", f"{len(files)} trace files")
    bad = subprocess.run([py, APP, DBL, "--steps", "1"], capture_output=True, text=True,
                         env=dict(os.environ, LD_PRELOAD=LIB, HIPVIS_PYFRAMES="sometimes",
                                  HIPVIS_OUTPUT=os.path.join(tmp, "badpy.zst")))
    check('HIPVIS_PYFRAMES="sometimes" is not accepted: expected 0 (off), 1 (every site) or first' in bad.stderr
          and bad.returncode == 0, "HIPVIS_PYFRAMES bad value named, program unchanged")


def one_interpreter(py, tmp):
    v = version(py)
    tag = f"py{v.replace('.', '')}"
    supported = v in ("3.11", "3.12", "3.13")
    print(f"{py} ({v}): {'frames expected' if supported else 'no frames expected'}")
    trace, out = traced(py, tmp, tag)
    check(trace is not None, f"{v}: traced run", out)
    if not trace:
        return
    text = analyze(trace, False)
    check(f'buffer   "cu_seqlens_q", read as {ARGNAME} 0x' in text,
          f"{v}: text names the buffer and its kernel argument", text[:600])
    doc = json.loads(analyze(trace, True))
    same = [f for f in doc["findings"] if f["rule"] == "same-epoch-write"]
    check(len(same) > 0, f"{v}: same-epoch-write found")
    check(all((f.get("buffer") or {}).get("name") == "cu_seqlens_q" and
              f["buffer"].get("name_source") == "hipvis_name" for f in same), f"{v}: JSON buffer.name")
    check(all((f["buffer"].get("kernel_arg") or {}).get("name") == "qo_indptr" and
              f["buffer"]["kernel_arg"].get("index") == 0 and f["buffer"]["kernel_arg"].get("kernel") == KERNEL
              and f["later"].get("arg_name") == "qo_indptr" for f in same),
          f"{v}: JSON buffer.kernel_arg and later.arg_name are qo_indptr")
    if supported:
        want = f"written at ctypes_decode.py:{COPY} in Decode.loop, replayed at ctypes_decode.py:{REPLAY} in Decode.loop"
        check(want in text, f"{v}: text: {want}", text[:1200])
        check(all(frames_have(f["earlier"].get("python"), COPY) for f in same), f"{v}: JSON earlier.python has line {COPY}")
        check(all(frames_have(f["later"].get("python"), REPLAY) for f in same), f"{v}: JSON later.python has line {REPLAY}")
        named = same[0]["buffer"].get("named_at") or {}
        check(named.get("line") == NAMED, f"{v}: JSON buffer.named_at line {NAMED}", str(named))
    else:
        check("no Python frames" in text, f"{v}: text says no Python frames", text[:600])
        check(all(f["earlier"].get("python") is None for f in same), f"{v}: JSON has no frames")


def arg_names(py, tmp):
    """Kernel argument names (HV_REC_KARG_NAMES) name a buffer hipvis_name()
    did not; a code object without names falls back to the Python line."""
    trace, out = traced(py, tmp, "argname", None, ["--no-name"])
    dump = subprocess.run([DUMP, trace], capture_output=True, text=True).stdout if trace else ""
    check(re.search(rf"karg_names func=0x[0-9a-f]+ .*kernel={KERNEL} count=4 args=\[\{{index=0 offset=0 size=8 kind=1 "
                    r"name=qo_indptr\} \{index=1 offset=8 size=8 kind=1 name=tokens_per_req\}", dump) is not None,
          "hipModuleGetFunction records the kernel's argument names and offsets once", out + dump[:300])
    check(dump.count(" karg_names ") == 1, "one karg_names record for one binding", str(dump.count(" karg_names ")))
    text = analyze(trace, False) if trace else ""
    check(f"buffer   qo_indptr (kernel arg 0 of {KERNEL}; allocated at ctypes_decode.py:" in text,
          "no hipvis_name: text names the buffer by its kernel argument, then the Python line", text[:600])
    doc = json.loads(analyze(trace, True)) if trace else {"findings": []}
    same = [f for f in doc["findings"] if f["rule"] == "same-epoch-write"]
    check(same and all(f["buffer"].get("name") == "qo_indptr" and f["buffer"].get("name_source") == "kernel_arg"
                       for f in same), "no hipvis_name: JSON buffer.name qo_indptr, name_source kernel_arg")

    trace, out = traced(py, tmp, "nonames", None, ["--no-name"], hsaco=HSACO_NONAMES)
    dump = subprocess.run([DUMP, trace], capture_output=True, text=True).stdout if trace else ""
    check(trace and " karg_names " not in dump and " kargs " in dump,
          "code object without argument names: no karg_names record, layout still exact", out)
    text = analyze(trace, False) if trace else ""
    m = re.search(r"buffer   \(allocated at ctypes_decode.py:(\d+) in \S+\) 0x", text)
    check(m is not None, "no names anywhere: text falls back to the Python allocation line", text[:600])
    doc = json.loads(analyze(trace, True)) if trace else {"findings": []}
    same = [f for f in doc["findings"] if f["rule"] == "same-epoch-write"]
    check(m and same and all(f["buffer"].get("name") is None and "kernel_arg" not in f["buffer"] and
                             "arg_name" not in f["later"] and
                             (f["buffer"].get("allocated_at") or {}).get("line") == int(m.group(1)) for f in same),
          "no names anywhere: JSON name null, no kernel_arg, allocated_at the same Python line")
    # A C program with neither hipvis_name nor Python frames: the argument
    # names alone make the analyzer read the trace for names.
    app = os.path.abspath(os.path.join(BUILD, "tests", "apps", "decode_loop"))
    ctrace = os.path.join(tmp, "c-argname.zst")
    subprocess.run([app, "--steps", "16"], capture_output=True, timeout=60,
                   env=dict(os.environ, LD_PRELOAD=LIB, HIPVIS_OUTPUT=ctrace, HIPVIS_QUIET="1",
                            LD_LIBRARY_PATH=os.path.dirname(DBL)))
    text = analyze(ctrace, False) if os.path.exists(ctrace) else ""
    check(f"buffer   {ARGNAME} 0x" in text, "C program, fat binary with argument names: buffer named qo_indptr",
          text[:600])
    trace, out = traced(py, tmp, "nonames-named", None, [], hsaco=HSACO_NONAMES)
    text = analyze(trace, False) if trace else ""
    check('buffer   "cu_seqlens_q" 0x' in text, "hipvis_name without argument names: the name alone", text[:600])


def experiment_argv(py, tmp):
    """The "next:" experiment command is the traced command line (recorded in
    the header), shell-quoted so that pasting it runs the same argv."""
    odd = os.path.join(tmp, "it's a dir")
    os.makedirs(odd, exist_ok=True)
    hsaco = os.path.join(odd, "k $x.hsaco")
    shutil.copyfile(HSACO, hsaco)
    trace, out = traced(py, tmp, "argv", None, [], hsaco=hsaco)
    argv = [py, APP, DBL, "--steps", "16", "--prefill-every", "8", "--code-object", hsaco]
    doc = json.loads(analyze(trace, True)) if trace else {"findings": [], "traces": [{}]}
    check(doc["traces"][0].get("argv") == argv, "JSON traces[].argv is the command line", str(doc["traces"][0].get("argv")))
    cmds = [(f.get("next") or {}).get("experiment") for f in doc.get("bugs", [])] + \
           re.findall(r'"experiment":("(?:[^"\\]|\\.)*")', json.dumps(doc))
    cmds = [json.loads(c) if c and c.startswith('"') else c for c in cmds if c]
    head = ["hipvis", "experiment", "-o", "hv-experiment", "--"]
    check(cmds and all(shlex.split(c) == head + argv for c in cmds),
          "JSON next.experiment: pasted into a shell, it is the traced argv (quotes, spaces, $ kept)", str(cmds[:1]))
    text = analyze(trace, False) if trace else ""
    line = [ln.split("   # ")[0].strip() for ln in text.splitlines() if "hipvis experiment -o" in ln]
    check(line and shlex.split(line[0].replace("next:", "", 1)) == head + argv,
          "text next: the experiment line is the traced command", "\n".join(line)[:400])
    trace, out = traced(py, tmp, "argvoff", {"HIPVIS_RECORD_ARGV": "0"})
    text = analyze(trace, False) if trace else ""
    check(re.search(r"hipvis experiment -o hv-experiment -- \S+ ARGS\.\.\.   # .*\(HIPVIS_RECORD_ARGV=0: arguments "
                    r"not recorded\)", text) is not None and "--code-object" not in text,
          "HIPVIS_RECORD_ARGV=0: no arguments in the trace, the suggestion says why", text[-900:])


def marks(tmp):
    """NVTX (injection) and roctx (interposition) marks from marks_app."""
    app = os.path.abspath(os.path.join(BUILD, "tests", "names", "marks_app"))
    if not os.path.exists(app):
        check(False, "marks_app built")
        return
    trace = os.path.join(tmp, "marks.zst")
    env = dict(os.environ, LD_PRELOAD=LIB, HIPVIS_OUTPUT=trace, HIPVIS_QUIET="1", NVTX_INJECTION64_PATH=LIB,
               LD_LIBRARY_PATH=os.path.dirname(DBL) + ":" + os.path.dirname(app))
    r = subprocess.run([app], env=env, capture_output=True, text=True, timeout=60)
    check(r.returncode == 0 and "roctx depths 0 0 0 0, range id 1" in r.stdout,
          "marks_app: roctx return values are the real library's", r.stdout + r.stderr)
    dump = subprocess.run([DUMP, trace], capture_output=True, text=True).stdout
    got = re.findall(r" mark kind=(\d) source=(\d) depth=(\d+) name=(\S+)", dump)
    if "nvtx off" in r.stdout:
        # Built without the CUDA toolkit's nvtx3 headers (none in Debian 12 main).
        if os.environ.get("HIPVIS_REQUIRE_CUDA") == "1":
            check(False, "marks_app built with NVTX (HIPVIS_REQUIRE_CUDA=1, no nvtx3 headers)")
        else:
            print("  SKIPPED NVTX marks: no CUDA toolkit nvtx3 headers; roctx tested alone")
        want = [("1", "3", "1", "roctx-inner"), ("2", "3", "0", "?")] * 4 + \
               [("4", "3", "0", "roctx-range"), ("3", "3", "0", "roctx-mark"), ("5", "3", "0", "?")]
        check(got == want, "roctx push/pop/start/mark/stop recorded in order", str(got))
    else:
        want = [("1", "2", "1", "nvtx-decode")] + [("3", "2", "1", "nvtx-step"), ("1", "3", "2", "roctx-inner"),
                                                    ("2", "3", "1", "?")] * 4 + \
               [("2", "2", "0", "?"), ("4", "3", "0", "roctx-range"), ("3", "3", "0", "roctx-mark"), ("5", "3", "0", "?")]
        check(got == want, "NVTX push/mark/pop and roctx push/pop/start/mark/stop recorded in order", str(got))
    dump_json = subprocess.run([DUMP, "--json", trace], capture_output=True, text=True).stdout
    check('"type":"mark"' in dump_json, "hipvis-dump --json shows marks")


def native_lines(tmp):
    """HIPVIS_STACKS=1 native frames get file:line from DWARF (libdw)."""
    app = os.path.abspath(os.path.join(BUILD, "tests", "apps", "decode_loop"))
    src = os.path.join(ROOT, "tests", "apps", "decode_loop.c")
    with open(src) as f:
        lines = [i for i, t in enumerate(f, 1) if "hipMemcpyAsync, c->cu, c->pinned" in t]
    trace = os.path.join(tmp, "native.zst")
    env = dict(os.environ, LD_PRELOAD=LIB, HIPVIS_OUTPUT=trace, HIPVIS_QUIET="1", HIPVIS_STACKS="1",
               LD_LIBRARY_PATH=os.path.dirname(DBL))
    subprocess.run([app, "--steps", "16", "--name-buffers"], env=env, capture_output=True, timeout=60)
    text = analyze(trace, False) if os.path.exists(trace) else ""
    check(any(f"at decode_loop.c:{n} " in text for n in lines), f"native stack frames at decode_loop.c:{lines}",
          text[:800])
    check(f'buffer   "cu_seqlens_q", read as {ARGNAME} 0x' in text,
          "C API: decode_loop names cu_seqlens_q (weak hipvis.h declarations); its fat binary names qo_indptr")
    doc = json.loads(analyze(trace, True)) if os.path.exists(trace) else {"findings": []}
    frames = [fr for f in doc["findings"] for fr in (f.get("earlier") or {}).get("stack", [])]
    check(any(fr.get("file", "").endswith("decode_loop.c") and fr.get("line") in lines for fr in frames),
          "JSON stack frames carry file and line")


def main():
    for need in (LIB, DBL, HSACO, HSACO_NONAMES, ANALYZE, DUMP):
        if not os.path.exists(need):
            print(f"names_e2e: {need} missing (make all test-programs)")
            return 2
    pys = interpreters()
    with tempfile.TemporaryDirectory() as tmp:
        for py in pys:
            one_interpreter(py, tmp)
        py = pys[0]
        trace, _ = traced(py, tmp, "noframes", {"HIPVIS_PYFRAMES": "0"})
        dump = subprocess.run([DUMP, trace], capture_output=True, text=True).stdout if trace else ""
        check(trace and " pystack " not in dump and " name " in dump, "HIPVIS_PYFRAMES=0: no stacks, names kept")

        # Prefill copies (same native site, same destination, another line)
        # between decode copies: each finding's write is the decode line.
        trace, _ = traced(py, tmp, "alternate", {"HIPVIS_PYFRAMES": "1"}, ["--prefill-every", "2"])
        doc = json.loads(analyze(trace, True)) if trace else {"findings": []}
        same = [f for f in doc["findings"] if f["rule"] == "same-epoch-write"]
        check(same and all(frames_have(f["earlier"].get("python"), COPY) and
                           not frames_have(f["earlier"].get("python"), PREFILL_COPY) for f in same),
              f"prefill copies from line {PREFILL_COPY} between: writes still at line {COPY}")
        dump = subprocess.run([DUMP, trace], capture_output=True, text=True).stdout if trace else ""
        refs = len(re.findall(r"pystack nframes=0 status=0 why=1 .* id=\d+", dump))
        check(refs > 0, f"alternating lines recorded as references to known stacks ({refs})")
        first_mode(py, tmp)

        trace, _ = traced(py, tmp, "regions", None, ["--regions"])
        doc = json.loads(analyze(trace, True)) if trace else {"findings": []}
        same = [f for f in doc["findings"] if f["rule"] == "same-epoch-write"]
        check(same and all(f["later"].get("region") == "decode" for f in same), "--regions: region decode on replays")
        check(same and all((f["later"].get("mark") or {}).get("name") == "step" and f["later"]["mark"]["count"] >= 1
                           for f in same), "--regions: step mark ordinal on replays")
        text = analyze(trace, False) if trace else ""
        check(re.search(r'region   decode, after mark "step" #\d+', text) is not None, "--regions: text region line")

        trace, _ = traced(py, tmp, "profiler", {"HIPVIS_START": "profiler"}, ["--profile-window", "4:12"])
        doc = json.loads(analyze(trace, True)) if trace else {"findings": [], "traces": [{}]}
        t = doc["traces"][0]
        # 16 steps, prefill at steps 7 and 15; window 4..11: 7 replays, 1 prefill launch.
        check(t.get("replays") == 7 and t.get("launches") == 1, "HIPVIS_START=profiler: window's replays only",
              f"replays={t.get('replays')} launches={t.get('launches')}")
        same = [f for f in doc["findings"] if f["rule"] == "same-epoch-write"]
        check(sum(f["count"] for f in same) == 7, "HIPVIS_START=profiler: findings inside the window stay")
        text = analyze(trace, False) if trace else ""
        check("HIPVIS_START: data calls outside the recorded window were not recorded (8 counted" in text,
              "HIPVIS_START=profiler: skipped calls counted", text[:500])
        trace, _ = traced(py, tmp, "signal", {"HIPVIS_START": "signal"}, ["--signal-window", "4:12"])
        doc = json.loads(analyze(trace, True)) if trace else {"findings": [], "traces": [{}]}
        t = doc["traces"][0]
        check(t.get("replays") == 7 and t.get("launches") == 1, "HIPVIS_START=signal: SIGUSR2 window's replays only",
              f"replays={t.get('replays')} launches={t.get('launches')}")
        bad = subprocess.run([py, APP, DBL, "--steps", "1"], capture_output=True, text=True,
                             env=dict(os.environ, LD_PRELOAD=LIB, HIPVIS_START="sometimes",
                                      HIPVIS_OUTPUT=os.path.join(tmp, "bad.zst")))
        check("HIPVIS_START=\"sometimes\" is not accepted: expected all, profiler or signal" in bad.stderr
              and bad.returncode == 0, "HIPVIS_START bad value named, program unchanged")
        arg_names(py, tmp)
        experiment_argv(py, tmp)
        marks(tmp)
        native_lines(tmp)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
