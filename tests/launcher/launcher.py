#!/usr/bin/env python3
"""launcher.py - `hipvis run` as users expect it, end to end on the runtime double.

usage: launcher.py BUILD_DIR

- names: NVTX ranges and marks (marks_app, NVTX v3 from the CUDA toolkit's
  headers) are recorded with no NVTX_INJECTION64_PATH set by hand; a value
  the user set is kept; roctx and the hipvis Python regions need nothing;
- end lines: one per trace the run made, with the counts of its footer and
  the hipvis-analyze command (the directory when it held nothing before);
  a killed process's trace is named as unfinished; the library's own end
  line is not repeated; nothing under --quiet or HIPVIS_QUIET=1;
- the command's end: its exit status, its death by a signal (the same
  signal), 127 / 126 when it cannot be run; SIGUSR1 / SIGTERM sent to the
  launcher reach the command, a terminal's Ctrl-C reaches it once;
- --delay / --duration: a delay past the program's end records no data
  call, a window records some but not all, a process started after the
  delay records everything (the window is counted from the launch).
"""
import fcntl
import os
import re
import select
import signal
import subprocess
import sys
import termios
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from hvsuite import Suite  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


class Launcher(Suite):
    def __init__(self, build):
        super().__init__(build, "launcher")
        self.hipvis = os.path.join(self.build, "hipvis")
        self.paced = os.path.join(self.build, "tests", "launcher", "paced_app")
        self.marks = os.path.join(self.build, "tests", "names", "marks_app")
        self.decode = os.path.join(self.apps, "decode_loop")
        self.n = 0

    def env(self, add=None):
        env = {k: v for k, v in os.environ.items()
               if not k.startswith("HIPVIS_") and k not in ("LD_PRELOAD", "NVTX_INJECTION64_PATH")}
        env["LD_LIBRARY_PATH"] = self.double + ":" + os.path.dirname(self.marks)
        env.update(add or {})
        return env

    def outdir(self):
        self.n += 1
        return os.path.join(self.tmp, f"run{self.n}")

    def run(self, opts, cmd, env_add=None, timeout=120):
        """hipvis run OPTS -- CMD: (exit status, stdout, stderr)."""
        p = subprocess.run([self.hipvis, "run", *opts, "--", *cmd], capture_output=True, text=True,
                           env=self.env(env_add), timeout=timeout)
        return p.returncode, p.stdout, p.stderr

    def traces(self, d):
        return sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".zst")) if os.path.isdir(d) else []

    def dumped(self, trace):
        return subprocess.run([self.dump, trace], capture_output=True, text=True, timeout=60).stdout

    # ---- names -------------------------------------------------------------

    def case_nvtx(self):
        if not os.path.exists(self.marks):
            self.check(False, "marks_app built (make test-programs)")
            return
        d = self.outdir()
        rc, out, err = self.run(["-v", "-o", d], [self.marks])
        tr = self.traces(d)
        self.check(rc == 0 and len(tr) == 1, "marks_app under hipvis run: one trace", err)
        self.check(f"NVTX_INJECTION64_PATH={self.lib}: NVTX ranges and marks are recorded" in err,
                   "-v says NVTX_INJECTION64_PATH was set to the preloaded library", err)
        got = re.findall(r" mark kind=(\d) source=(\d) depth=\d+ name=(\S+)", self.dumped(tr[0])) if tr else []
        roctx = [g for g in got if g[1] == "3"]
        self.check(len(roctx) == 11 and ("1", "3", "roctx-inner") in roctx,
                   "roctx ranges and marks recorded (interposed by name: nothing to set)", str(got))
        nvtx = [g for g in got if g[1] == "2"]
        if "nvtx off" in out:
            if os.environ.get("HIPVIS_REQUIRE_CUDA") == "1":
                self.check(False, "marks_app built with NVTX (HIPVIS_REQUIRE_CUDA=1, no nvtx3 headers)")
            else:
                print("  SKIPPED NVTX marks: no CUDA toolkit nvtx3 headers")
        else:
            self.check(nvtx[:2] == [("1", "2", "nvtx-decode"), ("3", "2", "nvtx-step")] and len(nvtx) == 6,
                       "NVTX push/mark/pop recorded with no NVTX_INJECTION64_PATH in the environment", str(nvtx))
            # A value the user set (another tool's injection) is kept.
            d = self.outdir()
            other = os.path.join(self.tmp, "not-a-tool.so")
            rc, out, err = self.run(["-v", "-o", d], [self.marks], {"NVTX_INJECTION64_PATH": other})
            tr = self.traces(d)
            got = re.findall(r" mark kind=\d source=2 ", self.dumped(tr[0])) if tr else ["?"]
            self.check(rc == 0 and not got and f"NVTX_INJECTION64_PATH={other} was set: kept" in err,
                       "a user's NVTX_INJECTION64_PATH is kept (and -v says so)", err)
            rc, _, err = self.run(["-o", self.outdir()], [self.marks], {"NVTX_INJECTION64_PATH": other})
            self.check(rc == 0 and "NVTX_INJECTION64_PATH" not in err, "... said only under -v", err)

    def case_regions(self):
        """ctypes_decode --regions: hipvis.region / hipvis.mark through the Python module."""
        d = self.outdir()
        app = os.path.join(ROOT, "tests", "apps", "ctypes_decode.py")
        rc, out, err = self.run(["-o", d], [sys.executable, app, os.path.join(self.double, "libamdhip64.so"),
                                            "--steps", "6", "--regions"],
                                {"HIPDOUBLE_LIB": os.path.join(self.double, "libamdhip64.so")})
        tr = self.traces(d)
        names = re.findall(r" mark kind=\d source=1 depth=\d+ name=(\S+)", self.dumped(tr[0])) if tr else []
        self.check(rc == 0 and "decode" in names and names.count("step") == 6,
                   "ctypes_decode --regions under hipvis run: region and marks recorded", f"rc={rc} {names} {err[-300:]}")

    # ---- end lines ---------------------------------------------------------

    def case_summary(self):
        d = self.outdir()
        rc, out, err = self.run(["-o", d], [self.decode, "--steps", "20"])
        tr = self.traces(d)
        foot = re.search(r"# footer calls=(\d+) records_made=\d+ records_written=(\d+)", self.dumped(tr[0])) if tr else None
        lines = [ln for ln in err.splitlines() if ln.startswith("hipvis: ") and "tracing pid" not in ln]
        want = None
        if foot:
            calls, recs = (f"{int(x):,}" for x in foot.groups())
            want = f"hipvis: trace {tr[0]}: {calls} calls, {recs} records, 0 dropped; next: hipvis-analyze {tr[0]}"
        self.check(rc == 0 and lines == [want], "one end line: the footer's calls and records, the next command",
                   f"want {want!r}\n{err}")
        self.check("records written" not in err and "hipvis: tracing pid" in err,
                   "the library's start line stays, its end line is not repeated", err)
        # Two processes into a fresh directory: a line each, a total, the directory.
        d = self.outdir()
        sh = f"{self.decode} --steps 5 >/dev/null && {self.decode} --steps 7 >/dev/null"
        rc, out, err = self.run(["-o", d], ["sh", "-c", sh])
        tr = self.traces(d)
        per = [ln for ln in err.splitlines() if ln.startswith("hipvis: trace ")]
        self.check(rc == 0 and len(tr) == 2 and [ln.split(":")[1].split()[-1] for ln in per] == tr,
                   "two processes: one line per trace, in pid order", err)
        self.check(re.search(rf"^hipvis: 2 traces: [\d,]+ calls, [\d,]+ records, 0 dropped; next: hipvis-analyze "
                             rf"{re.escape(d)}$", err, re.M) is not None,
                   "a fresh directory: the total, and hipvis-analyze DIR", err)
        # Into a directory that holds an older trace: only the new ones, by name.
        rc, out, err = self.run(["-o", d], ["sh", "-c", sh])
        new = [t for t in self.traces(d) if t not in tr]
        self.check(rc == 0 and len(new) == 2 and all(t not in err for t in tr) and
                   err.rstrip().endswith(f"next: hipvis-analyze {new[0]} {new[1]}"),
                   "a directory with older traces: only this run's, named one by one", err)
        # A process killed before it could write its footer.
        d = self.outdir()
        rc, out, err = self.run(["-o", d], ["sh", "-c", f"{self.paced} 20000 & sleep 1; kill -9 $!; wait; exit 0"])
        tr = self.traces(d)
        self.check(rc == 0 and len(tr) == 1 and
                   f"hipvis: trace {tr[0]}: no footer: its process did not finish (killed, or still running)" in err,
                   "a killed process's trace: named, without a footer", err)
        for opts, env, what in ((["--quiet"], None, "--quiet"), (["-q", "-v"], None, "-q -v"),
                                (["-v"], {"HIPVIS_QUIET": "1"}, "HIPVIS_QUIET=1 (with -v)")):
            rc, out, err = self.run([*opts, "-o", self.outdir()], [self.decode, "--steps", "5"], env)
            self.check(rc == 0 and "hipvis" not in err, f"{what}: no line from hipvis", err)
        rc, out, err = self.run(["-o", self.outdir()], [self.decode, "--steps", "5"], {"HIPVIS_END_LINE": "1"})
        self.check(rc == 0 and "records written" in err and "hipvis: trace " in err,
                   "HIPVIS_END_LINE=1 set by the user: kept (the library's line too)", err)
        rc, out, err = self.run(["-o", self.outdir()], ["true"])
        self.check(rc == 0 and "hipvis: no trace written to " in err, "no traced call: said", err)

    # ---- the command's end -------------------------------------------------

    def case_exit(self):
        rc, _, _ = self.run(["-q"], ["sh", "-c", "exit 7"])
        self.check(rc == 7, "the command's exit status", str(rc))
        for sig in (signal.SIGTERM, signal.SIGSEGV, signal.SIGKILL):
            rc, _, _ = self.run(["-q"], ["sh", "-c", f"kill -{sig.name[3:]} $$"])
            self.check(rc == -sig, f"a command killed by {sig.name}: the launcher dies of it too", str(rc))
        rc, _, err = self.run(["-q"], [os.path.join(self.tmp, "no-such-program")])
        self.check(rc == 127 and "no-such-program: No such file or directory" in err, "not found: 127", err)
        rc, _, err = self.run(["-q"], [ROOT + "/README.md"])
        self.check(rc == 126 and "Permission denied" in err, "not executable: 126", err)

    def start(self, code, extra=None):
        """hipvis run -q -- python3 -c CODE, once it printed "ready"."""
        p = subprocess.Popen([self.hipvis, "run", "-q", "--", sys.executable, "-c", code], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, env=self.env(), **(extra or {}))
        ready = select.select([p.stdout], [], [], 30)[0] and p.stdout.readline().strip() == "ready"
        return p, ready

    def case_forward(self):
        code = ("import signal, sys, time\n"
                "signal.signal(signal.SIGUSR1, lambda *a: sys.exit(3))\n"
                "print('ready', flush=True)\n"
                "time.sleep(30)\nsys.exit(1)\n")
        p, ready = self.start(code)
        p.send_signal(signal.SIGUSR1)
        rc = p.wait(timeout=30)
        self.check(ready and rc == 3, "SIGUSR1 sent to the launcher reaches the command", f"rc={rc}")
        p, ready = self.start("import time\nprint('ready', flush=True)\ntime.sleep(30)\n")
        t0 = time.monotonic()
        p.send_signal(signal.SIGTERM)
        rc = p.wait(timeout=30)
        self.check(ready and rc == -signal.SIGTERM and time.monotonic() - t0 < 10,
                   "SIGTERM sent to the launcher: the command dies of it, and so does the launcher", f"rc={rc}")

    def case_terminal(self):
        """Ctrl-C on a terminal signals the whole foreground group: the command
        gets it from the terminal, and the launcher must not add a second."""
        master, slave = os.openpty()

        def own_terminal():
            os.setsid()
            fcntl.ioctl(slave, termios.TIOCSCTTY, 0)

        code = ("import signal, sys, time\n"
                "n = [0]\n"
                "signal.signal(signal.SIGINT, lambda *a: n.__setitem__(0, n[0] + 1))\n"
                "print('ready', flush=True)\n"
                "end = time.monotonic() + 30\n"
                "while n[0] == 0 and time.monotonic() < end: time.sleep(0.05)\n"
                "time.sleep(1.0)\n"
                "print('sigint', n[0], flush=True)\n")
        p, ready = self.start(code, {"stdin": slave, "preexec_fn": own_terminal})
        os.close(slave)
        os.write(master, b"\x03")
        out = p.stdout.read()
        rc = p.wait(timeout=30)
        os.close(master)
        self.check(ready and rc == 0 and out.strip() == "sigint 1", "Ctrl-C on the terminal reaches the command once",
                   f"rc={rc} {out!r}")

    # ---- the window --------------------------------------------------------

    def memsets(self, d):
        tr = self.traces(d)
        return sum(self.dumped(t).count(" hipMemsetAsync(") for t in tr), tr

    def case_window(self):
        d = self.outdir()
        rc, out, err = self.run(["--delay", "30", "-o", d], [self.paced, "600"])
        got, tr = self.memsets(d)
        made = re.search(r"paced_app: (\d+) memsets", out)
        self.check(rc == 0 and made and int(made.group(1)) > 0 and got == 0 and len(tr) == 1,
                   "--delay past the program's end: no data call recorded, the program unchanged", f"{got} {out} {err}")
        d = self.outdir()
        rc, out, err = self.run(["-v", "--delay", "0.4", "--duration", "0.5", "-o", d], [self.paced, "1600", "5"])
        got, tr = self.memsets(d)
        made = int(re.search(r"paced_app: (\d+) memsets", out).group(1)) if "memsets" in out else 0
        self.check(rc == 0 and 0 < got < made, "--delay 0.4 --duration 0.5: some data calls recorded, not all",
                   f"{got} of {made}")
        marks = re.findall(r" mark kind=(\d) source=6 ", self.dumped(tr[0])) if tr else []
        self.check(marks == ["6", "7"], "the window's opening and closing are marks (source 6)", str(marks))
        self.check("data calls are recorded from 0.400 s after the launch for 0.500 s" in err,
                   "-v says the window", err)
        # Counted from the launch: a process that starts after the delay records all of it.
        d = self.outdir()
        rc, out, err = self.run(["--delay", "0.5", "-o", d], ["sh", "-c", f"sleep 1; exec {self.paced} 300"])
        got, _ = self.memsets(d)
        made = int(re.search(r"paced_app: (\d+) memsets", out).group(1)) if "memsets" in out else -1
        self.check(rc == 0 and got == made, "a process started after the delay records every data call "
                   "(the window is the job's, from the launch)", f"{got} of {made}")
        for bad in (["--delay", "-1"], ["--delay", "abc"], ["--delay", "1e12"], ["--duration", "0"],
                    ["--delay", "0x10"], ["--duration", "nan"]):
            rc, _, err = self.run(bad, ["true"])
            self.check(rc == 2 and f"{bad[0]}: bad value" in err, f"{' '.join(bad)}: refused, exit 2", err)
        rc, _, err = self.run(["--delay", "1", "-o", self.outdir()], [self.decode, "--steps", "3"],
                              {"HIPVIS_RECORD": "args"})
        self.check("HIPVIS_RECORD=args cannot be combined with HIPVIS_START_DELAY_MS" in err,
                   "HIPVIS_RECORD=args with --delay: refused by name", err)

    def main(self):
        return self.run_cases([self.case_nvtx, self.case_regions, self.case_summary, self.case_exit,
                               self.case_forward, self.case_terminal, self.case_window])


if __name__ == "__main__":
    sys.exit(Launcher(sys.argv[1] if len(sys.argv) > 1 else "build").main())
