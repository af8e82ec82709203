#!/usr/bin/env python3
"""ctypes_decode.py - TEST-ONLY: the decode loop of decode_loop.c through ctypes.

Part of hipvis tests (tests/apps); runs on the HIP runtime test double
(tests/runtime-double), never installed. Kernels are Python callbacks
registered by name and reached the way Triton's AMD launcher does:
hipModuleLoadData + hipModuleGetFunction + hipModuleLaunchKernel. Each step
copies the pinned cu_seqlens_q (257 x int32) to the device on the null
stream and replays the graph captured for the batch size; every
--prefill-every steps an eager prefill writes cumulative values.

usage: ctypes_decode.py [LIB] [--steps N] [--prefill-every K] [--host-rewrite]
                        [--sync-before-replay] [--code-object FILE] [--call-log FILE]
                        [--regions] [--profile-window A:B] [--signal-window A:B] [--no-name]
                        [--features-off A:B:MASK]
LIB (or env HIPDOUBLE_LIB) is the path of the double's libamdhip64.so.5.
--code-object: the image given to hipModuleLoadData, e.g. the gfx950 code
object of tests/apps/decode_kernels.hip (a tracer then knows the kernel's
argument layout); default: a placeholder bundle header.
--call-log: writes one "api result" line per HIP runtime call the script
makes, in order (what a trace of the script must hold).
--regions: runs the loop inside hipvis.region("decode") with hipvis.mark("step")
at each step (no-ops when not traced).
--profile-window A:B: calls hipProfilerStart before step A and hipProfilerStop
before step B (what HIPVIS_START=profiler keys on).
--signal-window A:B: sends itself SIGUSR2 before steps A and B (for
HIPVIS_START=signal; without a SIGUSR2 handler that ends the process).
--features-off A:B:MASK: calls hipvis_measure_features_off(MASK) before step A
and hipvis_measure_features_off(0) before step B (under the tracer only).
Under the tracer cu_seqlens_q is named through the hipvis module (python/hipvis),
unless --no-name.
Prints one summary line with the stale-read count; exit 0 unless arguments
are wrong (2) or the library cannot be used (1).
"""
import argparse
import ctypes as C
import os
import signal
import sys

# The hipvis module of this checkout (python/hipvis): names cu_seqlens_q in
# the trace when the script runs under the tracer, does nothing otherwise.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
import hipvis  # noqa: E402

NREQ = 256
NSEQ = NREQ + 1
SIZES = (64, 128, 256)
KERNEL = b"_convert_req_index_to_global_index_kernel"


class Dim3(C.Structure):
    _fields_ = [("x", C.c_uint32), ("y", C.c_uint32), ("z", C.c_uint32)]


KernelFn = C.CFUNCTYPE(None, C.POINTER(C.c_void_p), Dim3, Dim3, C.c_void_p)


def expected_at(seed, b):
    if seed == 0:
        return b
    return sum(2 + (seed * 7 + j * 3) % 5 for j in range(b))


class Decode:
    def __init__(self, lib, opts):
        self.hip = lib
        self.o = opts
        self.stats = {"reads": 0, "stale": 0, "first": None}
        self.calls = []
        self._setup_prototypes()

    def _setup_prototypes(self):
        h = self.hip
        vp, sz, u32 = C.c_void_p, C.c_size_t, C.c_uint
        protos = {
            "hipHostMalloc": [C.POINTER(vp), sz, u32],
            "hipMalloc": [C.POINTER(vp), sz],
            "hipFree": [vp],
            "hipHostFree": [vp],
            "hipMemcpyAsync": [vp, vp, sz, C.c_int, vp],
            "hipMemcpyWithStream": [vp, vp, sz, C.c_int, vp],
            "hipStreamCreateWithFlags": [C.POINTER(vp), u32],
            "hipStreamDestroy": [vp],
            "hipStreamSynchronize": [vp],
            "hipStreamBeginCapture": [vp, C.c_int],
            "hipStreamEndCapture": [vp, C.POINTER(vp)],
            "hipGraphInstantiateWithFlags": [C.POINTER(vp), vp, C.c_ulonglong],
            "hipGraphDestroy": [vp],
            "hipGraphExecDestroy": [vp],
            "hipGraphLaunch": [vp, vp],
            "hipModuleLoadData": [C.POINTER(vp), vp],
            "hipModuleGetFunction": [C.POINTER(vp), vp, C.c_char_p],
            "hipModuleLaunchKernel": [vp, u32, u32, u32, u32, u32, u32, u32, vp,
                                      C.POINTER(vp), C.POINTER(vp)],
            "hipProfilerStart": [],
            "hipProfilerStop": [],
        }
        for name, args in protos.items():
            fn = getattr(h, name)
            fn.argtypes = args
            fn.restype = C.c_int
        h.hipdouble_register_module_kernel.argtypes = [C.c_char_p, KernelFn, C.c_int,
                                                       C.POINTER(C.c_size_t), C.c_void_p]
        h.hipdouble_register_module_kernel.restype = C.c_int
        h.hipdouble_set_scalar_read.argtypes = [C.c_char_p, C.c_int]
        h.hipdouble_set_scalar_read.restype = C.c_int

    def call(self, name, *args):
        err = getattr(self.hip, name)(*args)
        self.calls.append((name, err))
        return err

    def check(self, name, *args):
        err = self.call(name, *args)
        if err != 0:
            raise RuntimeError(f"{name}:{err}")

    def kernel(self, args, grid, block, user):
        cu = C.cast(C.c_void_p.from_address(args[0]).value, C.POINTER(C.c_int32))
        bs = C.c_int32.from_address(args[2]).value
        seed = C.c_int32.from_address(args[3]).value
        bad = [(b, cu[b]) for b in range(bs + 1) if cu[b] != expected_at(seed, b)]
        self.stats["reads"] += 1
        if bad:
            self.stats["stale"] += 1
            if self.stats["first"] is None:
                b, got = bad[0]
                self.stats["first"] = f"bs:{bs},idx:{b},read:{got},expected:{expected_at(seed, b)}"

    def setup(self):
        self.kernel_cb = KernelFn(self.kernel)  # keep alive
        sizes = (C.c_size_t * 4)(8, 8, 4, 4)
        if self.hip.hipdouble_register_module_kernel(KERNEL, self.kernel_cb, 4, sizes, None):
            raise RuntimeError("hipdouble_register_module_kernel failed")
        self.hip.hipdouble_set_scalar_read(KERNEL, 0)
        self.pinned, self.cu, self.out = C.c_void_p(), C.c_void_p(), C.c_void_p()
        self.check("hipHostMalloc", C.byref(self.pinned), NSEQ * 4, 0)
        self.check("hipMalloc", C.byref(self.cu), NSEQ * 4)
        if not self.o.no_name:
            hipvis.name((self.cu.value, NSEQ * 4), "cu_seqlens_q")
        self.check("hipMalloc", C.byref(self.out), NREQ * 4)
        self.host = (C.c_int32 * NSEQ).from_address(self.pinned.value)
        self.cap = C.c_void_p()
        self.check("hipStreamCreateWithFlags", C.byref(self.cap), 1)
        image = b"__CLANG_OFFLOAD_BUNDLE__ triton image"
        if self.o.code_object:
            with open(self.o.code_object, "rb") as f:
                image = f.read()
        self.image = C.create_string_buffer(image, len(image))
        self.module, self.func = C.c_void_p(), C.c_void_p()
        self.check("hipModuleLoadData", C.byref(self.module), self.image)
        self.check("hipModuleGetFunction", C.byref(self.func), self.module, KERNEL)
        self.execs = []
        for bs in SIZES:
            graph, exe = C.c_void_p(), C.c_void_p()
            self.check("hipStreamBeginCapture", self.cap, 0)
            self.launch(self.cap, bs, 0)
            self.check("hipStreamEndCapture", self.cap, C.byref(graph))
            self.check("hipGraphInstantiateWithFlags", C.byref(exe), graph, 1)
            self.check("hipGraphDestroy", graph)
            self.execs.append(exe)

    def launch(self, stream, bs, seed):
        cu, out = C.c_void_p(self.cu.value), C.c_void_p(self.out.value)
        n, sd = C.c_int32(bs), C.c_int32(seed)
        params = (C.c_void_p * 4)(*(C.cast(C.byref(v), C.c_void_p) for v in (cu, out, n, sd)))
        self.check("hipModuleLaunchKernel", self.func, bs, 1, 1, 64, 1, 1, 0, stream, params,
                   None)

    def is_prefill(self, step):
        k = self.o.prefill_every
        return k > 0 and step % k == k - 1

    def prepare(self, step):
        seed = step % 1000 + 1 if self.is_prefill(step) else 0
        for b in range(NSEQ):
            self.host[b] = expected_at(seed, b)

    def run(self):
        if self.o.regions:
            with hipvis.region("decode"):
                self.loop()
        else:
            self.loop()

    def loop(self):
        prepared = False
        back = (C.c_int32 * NREQ)()
        window = [int(x) for x in self.o.profile_window.split(":")] if self.o.profile_window else None
        toggles = [int(x) for x in self.o.signal_window.split(":")] if self.o.signal_window else []
        feat = [int(x) for x in self.o.features_off.split(":")] if self.o.features_off else None
        feat_fn = getattr(C.CDLL(None), "hipvis_measure_features_off", None) if feat else None
        for step in range(self.o.steps):
            if feat_fn and step in (feat[0], feat[1]):
                feat_fn(C.c_uint(feat[2] if step == feat[0] else 0))
            if step in toggles:
                os.kill(os.getpid(), signal.SIGUSR2)
            if window and step == window[0]:
                self.check("hipProfilerStart")
            if window and step == window[1]:
                self.check("hipProfilerStop")
            if self.o.regions:
                hipvis.mark("step")
            prefill = self.is_prefill(step)
            if not prepared:
                self.prepare(step)
            prepared = False
            if prefill:
                # The same copy as a decode step's, from its own line (a
                # trace's Python lines must tell the two apart).
                self.check("hipMemcpyAsync", self.cu, self.pinned, NSEQ * 4, 1, None)
                self.launch(None, NREQ, step % 1000 + 1)
            else:
                self.check("hipMemcpyAsync", self.cu, self.pinned, NSEQ * 4, 1, None)
                if self.o.sync_before_replay:
                    self.check("hipStreamSynchronize", None)
                self.check("hipGraphLaunch", self.execs[step % len(SIZES)], None)
            if self.o.host_rewrite and step + 1 < self.o.steps:
                self.prepare(step + 1)
                prepared = True
            self.check("hipMemcpyWithStream", back, self.out, NREQ * 4, 2, None)

    def teardown(self):
        for exe in getattr(self, "execs", []):
            self.call("hipGraphExecDestroy", exe)
        for name, attr in (("hipStreamDestroy", "cap"), ("hipFree", "cu"), ("hipFree", "out"),
                           ("hipHostFree", "pinned")):
            if getattr(self, attr, None) is not None:
                self.call(name, getattr(self, attr))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("lib", nargs="?", default=os.environ.get("HIPDOUBLE_LIB", "libamdhip64.so.5"))
    ap.add_argument("--steps", type=int, default=100)
    ap.add_argument("--prefill-every", type=int, default=8)
    ap.add_argument("--host-rewrite", action="store_true")
    ap.add_argument("--sync-before-replay", action="store_true")
    ap.add_argument("--code-object")
    ap.add_argument("--call-log")
    ap.add_argument("--regions", action="store_true")
    ap.add_argument("--profile-window")
    ap.add_argument("--signal-window")
    ap.add_argument("--no-name", action="store_true")
    ap.add_argument("--features-off")
    opts = ap.parse_args()
    try:
        lib = C.CDLL(opts.lib)
        if lib.hipdouble_is_test_double() != 1:
            raise OSError("not the test double")
    except (OSError, AttributeError) as e:
        print(f"ctypes_decode: cannot use {opts.lib}: {e}", file=sys.stderr)
        return 1
    d = Decode(lib, opts)
    error = "none"
    try:
        d.setup()
        d.run()
    except RuntimeError as e:
        error = str(e)
    d.teardown()
    if opts.call_log:
        with open(opts.call_log, "w") as f:
            f.writelines(f"{name} {err}\n" for name, err in d.calls)
    s = d.stats
    print(f"ctypes_decode: steps={opts.steps} kernel_reads={s['reads']} stale_reads={s['stale']} "
          f"first_stale={s['first'] or 'none'} error={error}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
