"""hipvis - name buffers, regions and steps in a hipvis trace from Python,
and read hipvis-analyze's report as typed objects (docs/python.md).

Works when the program runs under the tracer (LD_PRELOAD=libhipvis.so, or
`hipvis run -- python ...`); otherwise every function does nothing and
`hipvis.active()` is False, so the calls can stay in production code.

    import hipvis
    hipvis.name(cu_seqlens_q, "cu_seqlens_q")   # a torch tensor, or (ptr, nbytes)
    with hipvis.region("decode"):
        hipvis.mark("step")
        ...

The functions are the C API of include/hipvis/hipvis.h, reached through
ctypes in the library already loaded into the process: nothing is loaded
and the GIL is held only for the few instructions of each call.

    report = hipvis.analyze("hipvis.4242.zst")      # runs hipvis-analyze --json
    for f in report.findings:
        print(f.severity, f.rule, f.buffer.name if f.buffer else None)

`python -m hipvis run -- CMD` runs CMD traced (the hipvis launcher).
"""
import contextlib
import ctypes
import json
import os
import subprocess

from hipvis import _tools
from hipvis._tools import ToolNotFound
from hipvis._version import __version__
from hipvis.report import (SCHEMA, Buffer, Bug, Coverage, Diagnosis, Finding, Fix, Hypothesis, InputError,
                           NextSteps, Report, SchemaError, Side, Trace)

__all__ = ["active", "name", "region", "mark", "region_push", "region_pop", "record_this_thread",
           "analyze", "AnalyzeError", "ToolNotFound", "SchemaError", "SCHEMA", "__version__",
           "Report", "Finding", "Buffer", "Side", "Bug", "NextSteps", "Trace", "Coverage", "Diagnosis",
           "Hypothesis", "Fix", "InputError"]


def _load():
    try:
        lib = ctypes.CDLL(None)  # the process's global scope: the preloaded libhipvis.so
        fns = {}
        for sym, args in (("hipvis_name", [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_char_p]),
                          ("hipvis_region_push", [ctypes.c_char_p]),
                          ("hipvis_region_pop", []),
                          ("hipvis_mark", [ctypes.c_char_p]),
                          ("hipvis_record_this_thread", [ctypes.c_int])):
            fn = getattr(lib, sym)
            fn.argtypes = args
            fn.restype = None
            fns[sym] = fn
        return fns
    except (OSError, AttributeError):
        return None


_lib = _load()


def active():
    """True when the process runs under the hipvis tracer."""
    return _lib is not None


def _text(s):
    return s.encode("utf-8", "replace") if isinstance(s, str) else bytes(s)


def _range(obj, nbytes):
    if nbytes is not None:
        return int(obj), int(nbytes)
    if hasattr(obj, "data_ptr"):  # torch.Tensor: its storage range, as the kernels see it
        n = obj.nbytes if hasattr(obj, "nbytes") else obj.numel() * obj.element_size()
        return int(obj.data_ptr()), int(n)
    if isinstance(obj, tuple) and len(obj) == 2:
        return int(obj[0]), int(obj[1])
    if isinstance(obj, ctypes.c_void_p):
        return int(obj.value or 0), 0
    return int(obj), 0


def name(obj, label, nbytes=None):
    """Names a buffer: a torch tensor, a (ptr, nbytes) pair, or ptr with nbytes=.
    nbytes 0 names the whole allocation holding ptr. Returns obj."""
    if _lib is not None:
        ptr, n = _range(obj, nbytes)
        _lib["hipvis_name"](ptr, n, _text(label))
    return obj


def region_push(label):
    if _lib is not None:
        _lib["hipvis_region_push"](_text(label))


def region_pop():
    if _lib is not None:
        _lib["hipvis_region_pop"]()


@contextlib.contextmanager
def region(label):
    """with hipvis.region("decode"): ... - findings name the region around their calls."""
    region_push(label)
    try:
        yield
    finally:
        region_pop()


def mark(label):
    """An instant mark, e.g. once per step: findings say which step they are in."""
    if _lib is not None:
        _lib["hipvis_mark"](_text(label))


def record_this_thread(on):
    """False: stop recording this thread's calls (for in-process A/B timing); True: resume."""
    if _lib is not None:
        _lib["hipvis_record_this_thread"](1 if on else 0)


class AnalyzeError(RuntimeError):
    """hipvis-analyze gave no report (a bad option, a crash): its exit status
    and what it said on stderr."""

    def __init__(self, message, returncode=None, stderr=""):
        super().__init__(message)
        self.returncode = returncode
        self.stderr = stderr


def analyze(paths, *, diagnose=False, all_occurrences=False, disable=(), code_objects=(), analyzer=None,
            timeout=None):
    """Runs `hipvis-analyze --json --fail-on=none` on a trace, a directory of
    traces, or a list of them, and returns its Report.

    diagnose: also rank the hypotheses (Report.diagnoses); all_occurrences:
    every occurrence of each group (Finding.occurrences); disable: rule
    names to turn off; code_objects: code objects for --diagnose; analyzer:
    the hipvis-analyze to run (default: HIPVIS_ANALYZE, the install prefix,
    PATH, the checkout's build/). An input that cannot be read is in
    Report.errors, not an exception; no report at all raises AnalyzeError."""
    exe = analyzer or _tools.analyzer()
    if isinstance(paths, (str, bytes, os.PathLike)):
        paths = [paths]
    argv = [exe, "--json", "--fail-on=none"]
    if diagnose:
        argv.append("--diagnose")
    if all_occurrences:
        argv.append("--all")
    for r in disable:
        argv += ["--disable", r]
    for c in code_objects:
        argv += ["--code-object", os.fspath(c)]
    argv.append("--")
    argv += [os.fspath(p) for p in paths]
    proc = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    err = proc.stderr.decode("utf-8", "replace")
    try:
        doc = json.loads(proc.stdout)
    except ValueError:
        raise AnalyzeError(f"{exe} exited {proc.returncode} without a report: {err.strip()}",
                           proc.returncode, err) from None
    return Report.from_json(doc, exit_status=proc.returncode)
