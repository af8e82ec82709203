#!/usr/bin/env python3
"""cli.py - the command line of every hipvis binary, end to end.

usage: cli.py BUILD_DIR

One parser (src/cli) serves every tool; this checks what a user sees:
--help/--version exit 0 everywhere, unknown options named, --opt=value and
--opt value alike, --fail-on=none, analyze over a directory and over stdin,
--json that stays valid and carries "errors" for unreadable input, and a
non-ASCII path that comes back unchanged in the analyzer's JSON.
"""
import json
import os
import random
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from hvsuite import Suite  # noqa: E402


class Cli(Suite):
    def __init__(self, build):
        super().__init__(build, "cli")
        self.hipvis = os.path.join(self.build, "hipvis")
        self.sidecar = os.path.join(self.build, "hipvis-sidecar")
        self.tools = [self.hipvis, self.analyze, self.dump, self.sidecar]
        self.trace = None

    def run(self, argv, stdin=None, env_add=None):
        env = dict(os.environ)
        for k in ("LD_PRELOAD", "HIPVIS_OUTPUT"):
            env.pop(k, None)
        env.update(env_add or {})
        p = subprocess.run(argv, input=stdin, capture_output=True, env=env, timeout=120)
        return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")

    def make_trace(self):
        """A short decode loop on the runtime double: the same-epoch-write finding."""
        if self.trace:
            return self.trace
        self.trace = os.path.join(self.tmp, "decode.zst")
        env = {"LD_LIBRARY_PATH": self.double, "LD_PRELOAD": self.lib, "HIPVIS_OUTPUT": self.trace,
               "HIPVIS_QUIET": "1"}
        rc, out, err = self.run([os.path.join(self.apps, "decode_loop"), "--steps", "20"], env_add=env)
        if rc != 0 or not os.path.exists(self.trace):
            raise RuntimeError(f"decode_loop: rc={rc} {err.strip()}")
        return self.trace

    def case_help_version(self):
        for t in self.tools:
            name = os.path.basename(t)
            rc, out, _ = self.run([t, "--version"])
            self.check(rc == 0 and out.startswith(name + " "), f"{name} --version: exit 0, names itself",
                       f"rc={rc} {out!r}")
            for h in ("--help", "-h"):
                rc, out, _ = self.run([t, h])
                self.check(rc == 0 and out.startswith("usage: " + name), f"{name} {h}: usage on stdout, exit 0",
                           f"rc={rc} {out[:60]!r}")
        for sub in ("analyze", "dump", "sidecar"):
            rc, out, _ = self.run([self.hipvis, sub, "--version"])
            self.check(rc == 0 and out.startswith(f"hipvis-{sub} "), f"hipvis {sub} --version: exit 0",
                       f"rc={rc} {out!r}")
        rc, out, _ = self.run([self.hipvis, "run", "--help"])
        self.check(rc == 0 and "--output-dir" in out, "hipvis run --help: exit 0", f"rc={rc}")

    def case_unknown_option(self):
        for t in self.tools:
            name = os.path.basename(t)
            for bad in ("-x", "--bogus", "--bogus=1"):
                rc, out, err = self.run([t, bad])
                want = f"unknown option '{bad.split('=')[0]}'"
                self.check(rc == 2 and want in err and out == "", f"{name} {bad}: \"{want}\", exit 2",
                           f"rc={rc} {err.strip()!r}")
        rc, _, err = self.run([self.hipvis, "run", "-x", "true"])
        self.check(rc == 2 and "unknown option '-x'" in err, "hipvis run -x: unknown option named", err.strip())
        rc, _, err = self.run([self.analyze, "--json=yes", "x"])
        self.check(rc == 2 and "'--json' takes no value" in err, "a flag given a value is named", err.strip())
        rc, _, err = self.run([self.analyze, "--di", "x"])
        self.check(rc == 2 and "'--di' is ambiguous: --disable, --diagnose" in err, "an ambiguous prefix names the candidates",
                   err.strip())
        rc, _, err = self.run([self.analyze, "--diag", "--fail-on=none", "x.zst"])
        self.check(rc == 2 and "option" not in err, "an unambiguous prefix is the option (--diag)", err.strip())
        rc, _, err = self.run([self.sidecar, "--alerts"])
        self.check(rc == 2 and "'--alerts' needs a value" in err, "a missing value is named", err.strip())

    def case_value_forms(self):
        tr = self.make_trace()
        for form in (["--fail-on=none"], ["--fail-on", "none"]):
            rc, out, err = self.run([self.analyze, *form, tr])
            self.check(rc == 0 and "same-epoch-write" in out, f"analyze {' '.join(form)}: accepted, exit 0",
                       f"rc={rc} {err.strip()}")
        rc, _, _ = self.run([self.analyze, tr])
        self.check(rc == 1, "analyze without --fail-on: the finding exits 1", f"rc={rc}")
        rc, _, err = self.run([self.analyze, "--fail-on=sometimes", tr])
        self.check(rc == 2 and "expected error|warning|info|none" in err, "--fail-on=BAD names the accepted values",
                   err.strip())
        for form in (["--zstd-level=40"], ["--zstd-level", "40"]):
            rc, _, err = self.run([self.sidecar, *form])
            self.check(rc == 2 and "--zstd-level: bad value '40'" in err, f"sidecar {' '.join(form)}: bad value named",
                       err.strip())
        # Every tool that has --fail-on accepts none (the list grows with the tools).
        for t in self.tools:
            _, out, _ = self.run([t, "--help"])
            if "--fail-on" in out and t != self.analyze:
                rc, _, err = self.run([t, "--fail-on=none", tr])
                self.check("fail-on" not in err, f"{os.path.basename(t)} --fail-on=none accepted", err.strip())

    def case_directory_and_stdin(self):
        tr = self.make_trace()
        d = os.path.join(self.tmp, "dir")
        os.makedirs(os.path.join(d, "rank1"), exist_ok=True)
        shutil.copy(tr, os.path.join(d, "a.zst"))
        shutil.copy(tr, os.path.join(d, "rank1", "b.zst"))
        with open(os.path.join(d, "notes.txt"), "w") as f:
            f.write("not a trace\n")
        for argv in ([self.analyze], [self.hipvis, "analyze"]):
            rc, out, err = self.run([*argv, "--json", "--fail-on=none", d])
            doc = json.loads(out)
            paths = [t["path"] for t in doc["traces"]]
            self.check(rc == 0 and paths == [os.path.join(d, "a.zst"), os.path.join(d, "rank1", "b.zst")]
                       and doc["errors"] == [], f"{' '.join(os.path.basename(a) for a in argv)} DIR: both traces, "
                       "the text file skipped", f"rc={rc} {paths} {err.strip()}")
        with open(tr, "rb") as f:
            data = f.read()
        rc, out, err = self.run([self.analyze, "--json", "--fail-on=none", "-"], stdin=data)
        doc = json.loads(out)
        self.check(rc == 0 and [t["path"] for t in doc["traces"]] == ["<stdin>"] and doc["findings"],
                   "analyze -: reads the trace from stdin", f"rc={rc} {err.strip()}")
        rc, out, err = self.run([self.analyze, "--fail-on=none", "-"], stdin=data)
        self.check(rc == 0 and "same-epoch-write" in out, "analyze - (text)", f"rc={rc}")
        empty = os.path.join(self.tmp, "empty")
        os.makedirs(empty, exist_ok=True)
        rc, out, err = self.run([self.analyze, "--json", empty])
        doc = json.loads(out)
        self.check(rc == 2 and doc["errors"] and "no traces" in doc["errors"][0]["what"],
                   "an empty directory: exit 2, said in errors", f"rc={rc} {doc['errors']}")

    def case_json_errors(self):
        tr = self.make_trace()
        junk = os.path.join(self.tmp, "junk.zst")
        with open(junk, "w") as f:
            f.write("this is not a trace\n")
        missing = os.path.join(self.tmp, "missing.zst")
        for args, label in (([missing], "missing file"), ([junk], "foreign file"), ([tr, junk], "good + foreign")):
            rc, out, err = self.run([self.analyze, "--json", "--fail-on=none", *args])
            try:
                doc = json.loads(out)
            except ValueError as e:
                self.check(False, f"--json {label}: valid JSON", str(e))
                continue
            errs = doc.get("errors")
            self.check(rc == 2 and isinstance(errs, list) and len(errs) == 1 and errs[0]["path"] == args[-1]
                       and errs[0]["what"], f"--json {label}: valid JSON, errors names it, exit 2",
                       f"rc={rc} errors={errs}")
        rc, out, _ = self.run([self.analyze, "--json", "--fail-on=none", tr])
        self.check(rc == 0 and json.loads(out)["errors"] == [], "--json clean input: errors is []", f"rc={rc}")
        rc, out, _ = self.run([self.dump, "--json", junk])
        lines = [json.loads(x) for x in out.splitlines()]
        self.check(rc == 2 and lines and lines[-1]["type"] == "errors" and lines[-1]["errors"][0]["status"] == "foreign",
                   "dump --json on a foreign file: every line JSON, an errors line last", f"rc={rc} {out[:200]!r}")

    def case_non_ascii_path(self):
        tr = self.make_trace()
        weird = os.path.join(self.tmp, "трасса-ü-€-\U0001F600 \"q\".zst")
        shutil.copy(tr, weird)
        rc, out, err = self.run([self.analyze, "--json", "--fail-on=none", weird])
        doc = json.loads(out)
        self.check(rc == 0 and doc["traces"][0]["path"] == weird, "non-ASCII path round-trips in analyzer JSON",
                   f"rc={rc} {doc['traces'][0]['path'] if doc['traces'] else None!r}")
        rc, out, _ = self.run([self.analyze, "--json", "--fail-on=none", weird + ".missing"])
        doc = json.loads(out)
        self.check(rc == 2 and doc["errors"][0]["path"] == weird + ".missing", "... and in its errors", f"rc={rc}")
        # A name that is not UTF-8 at all still gives valid JSON (U+FFFD for the bad byte).
        bad = os.path.join(self.tmp.encode(), b"bad-\xff.zst")
        shutil.copy(tr, bad)
        p = subprocess.run([self.analyze.encode(), b"--json", b"--fail-on=none", bad], capture_output=True, timeout=60)
        doc = json.loads(p.stdout.decode("utf-8"))
        self.check(p.returncode == 0 and doc["traces"][0]["path"].endswith("bad-\ufffd.zst"),
                   "a path that is not UTF-8: valid JSON, U+FFFD for the bad byte", repr(p.stdout[:200]))
        pf = os.path.join(self.tmp, "p.json")
        rc, _, _ = self.run([self.analyze, "--fail-on=none", "--perfetto", pf, weird])
        with open(pf, encoding="utf-8") as f:
            json.load(f)
        self.check(rc == 0, "--perfetto of that trace is valid JSON", f"rc={rc}")

    def case_unusable_run(self):
        """The demo's command pasted without the double's library path: the
        program gets Debian's real runtime, which finds no device; every
        device call fails. That must never read as a clean run."""
        tr = os.path.join(self.tmp, "nodevice.zst")
        env = {"LD_PRELOAD": self.lib, "HIPVIS_OUTPUT": tr}
        env_run = dict(os.environ, **env)
        env_run.pop("LD_LIBRARY_PATH", None)
        p = subprocess.run([os.path.join(self.apps, "decode_loop"), "--steps", "5"], capture_output=True, env=env_run,
                           timeout=60)
        err = p.stderr.decode()
        if not os.path.exists(tr):
            print(f"  skip unusable run: decode_loop did not start without the double ({err.strip()[:100]})")
            return
        self.check(f"next: hipvis-analyze {tr}" in err, "libhipvis's exit line names the analyze command", err.strip())
        rc, out, err = self.run([self.analyze, "--fail-on=none", tr])
        self.check(rc == 2 and "UNUSABLE RUN" in out and "runtime calls failed" in out and "unusable run" in err,
                   "every device call failed: a loud warning and exit 2, even with --fail-on=none", f"rc={rc} {out[:400]}")
        rc, out, _ = self.run([self.analyze, tr])
        self.check(rc == 2 and "0 bugs" not in out and re.search(r"^verdict: not analyzed \(UNUSABLE RUN", out, re.M),
                   "... and its verdict is \"not analyzed\", with no bug count", out[-400:])
        rc, out, _ = self.run([self.analyze, "--json", tr])
        doc = json.loads(out)
        self.check(rc == 2 and doc["unusable"] and doc["errors"] and doc["errors"][0]["status"] == "unusable",
                   "... and in --json: unusable, with an errors entry", f"rc={rc} {doc.get('errors')}")
        # HIPVIS_QUIET=1 keeps the exit line off stderr.
        q = os.path.join(self.tmp, "quiet.zst")
        env_run.update(HIPVIS_OUTPUT=q, HIPVIS_QUIET="1", LD_LIBRARY_PATH=self.double)
        p = subprocess.run([os.path.join(self.apps, "decode_loop"), "--steps", "5"], capture_output=True, env=env_run,
                           timeout=60)
        self.check(p.returncode == 0 and b"hipvis" not in p.stderr, "HIPVIS_QUIET=1: no exit line", p.stderr.decode())

    def case_bad_inputs(self):
        """Every input and option that cannot be analyzed, and every launch that could not be traced: the
        exit status says so and nothing says "0 bugs". The table is printed for quoting."""
        tr = self.make_trace()
        d = os.path.join(self.tmp, "bad")
        os.makedirs(d, exist_ok=True)
        empty_file = os.path.join(d, "empty.zst")
        open(empty_file, "wb").close()
        noise = os.path.join(d, "noise.zst")
        with open(noise, "wb") as f:
            f.write(random.Random(7).randbytes(4096))
        empty_dir = os.path.join(d, "empty-dir")
        os.makedirs(empty_dir, exist_ok=True)
        no_traces = os.path.join(d, "no-traces")
        os.makedirs(no_traces, exist_ok=True)
        with open(os.path.join(no_traces, "notes.txt"), "w") as f:
            f.write("not a trace\n")
        cut = os.path.join(d, "cut.zst")
        with open(tr, "rb") as f:
            data = f.read()
        with open(cut, "wb") as f:
            f.write(data[:len(data) // 2])
        marker = os.path.join(d, "ran")
        prog = ["sh", "-c", f"touch {marker}"]
        runs = os.path.join(d, "runs")
        rows = [
            # (what, argv, env, expected exit, the command must not have run)
            ("missing file", [self.analyze, os.path.join(d, "missing.zst")], {}, 2, False),
            ("missing file --json", [self.analyze, "--json", os.path.join(d, "missing.zst")], {}, 2, False),
            ("empty file", [self.analyze, empty_file], {}, 2, False),
            ("random bytes", [self.analyze, noise], {}, 2, False),
            ("empty directory", [self.analyze, empty_dir], {}, 2, False),
            ("directory with no traces", [self.analyze, no_traces], {}, 2, False),
            ("truncated trace", [self.analyze, cut], {}, 1, False),
            ("unknown option", [self.analyze, "--bogus", tr], {}, 2, False),
            ("bad --fail-on value", [self.analyze, "--fail-on=sometimes", tr], {}, 2, False),
            ("hipvis run, bad HIPVIS_FLUSH_MS", [self.hipvis, "run", "-o", runs, "--", *prog],
             {"HIPVIS_FLUSH_MS": "0"}, 2, True),
            ("hipvis run, bad HIPVIS_PROBE", [self.hipvis, "run", "-o", runs, "--", *prog],
             {"HIPVIS_PROBE": "0x10"}, 2, True),
            ("hipvis run, HIPVIS_ENABLE=0", [self.hipvis, "run", "-o", runs, "--", *prog],
             {"HIPVIS_ENABLE": "0"}, 2, True),
            ("hipvis run -o with HIPVIS_OUTPUT", [self.hipvis, "run", "-o", runs, "--", *prog],
             {"HIPVIS_OUTPUT": os.path.join(d, "mine.%p.zst")}, 2, True),
            ("hipvis run, unwritable HIPVIS_OUTPUT", [self.hipvis, "run", "--", *prog],
             {"HIPVIS_OUTPUT": os.path.join(d, "no-such-dir", "t.%p.zst")}, 2, True),
            ("hipvis run --sidecar -o", [self.hipvis, "run", "--sidecar", "-o", runs, "--", *prog], {}, 2, True),
        ]
        table = []
        for what, argv, env, want, must_not_run in rows:
            if os.path.exists(marker):
                os.remove(marker)
            rc, out, err = self.run(argv, env_add=env)
            first = (out.strip() or err.strip()).splitlines()[0] if (out.strip() or err.strip()) else ""
            table.append((what, rc, first))
            self.check(rc == want, f"{what}: exit {want}", f"rc={rc} {first!r}")
            self.check("0 bugs" not in out and "0 bugs" not in err, f"{what}: nothing says \"0 bugs\"",
                       (out + err)[-400:])
            if "--json" in argv:
                doc = json.loads(out)
                self.check(doc["verdict"]["analyzed"] is False and doc["verdict"]["bugs"] is None
                           and doc["verdict"]["exit_status"] == 2, f"{what}: the JSON verdict is \"not analyzed\"",
                           str(doc.get("verdict")))
            elif argv[0] == self.analyze and want == 2 and "option" not in what and "fail-on" not in what:
                self.check(re.search(r"^verdict: not analyzed \(", out, re.M) is not None,
                           f"{what}: the verdict says not analyzed", out[-300:])
            if must_not_run:
                self.check(not os.path.exists(marker), f"{what}: the command was not started", err.strip())
                self.check(re.search(r"HIPVIS_\w+|-o|--sidecar", err) is not None, f"{what}: says which setting",
                           err.strip())
        w = max(len(t[0]) for t in table)
        print(f"  {'input':<{w}}  exit  first line of output")
        for what, rc, first in table:
            print(f"  {what:<{w}}  {rc:>4}  {first[:110]}")
        # --allow-untraced: the user's choice, the program runs (and the library says why it traces nothing).
        if os.path.exists(marker):
            os.remove(marker)
        rc, _, err = self.run([self.hipvis, "run", "--allow-untraced", "-o", runs, "--", *prog],
                              env_add={"HIPVIS_FLUSH_MS": "0"})
        self.check(rc == 0 and os.path.exists(marker), "hipvis run --allow-untraced: the command runs", err.strip())
        # Without -o, the user's HIPVIS_OUTPUT stands.
        mine = os.path.join(d, "mine.%p.zst")
        rc, out, err = self.run([self.hipvis, "run", "--", "sh", "-c", "echo $HIPVIS_OUTPUT"],
                                env_add={"HIPVIS_OUTPUT": mine, "HIPVIS_QUIET": "1"})
        self.check(rc == 0 and out.strip() == mine, "hipvis run without -o keeps the user's HIPVIS_OUTPUT",
                   f"rc={rc} {out.strip()} {err.strip()}")

    def case_unchecked_replays(self):
        """Kernels from an image hipvis cannot decode (ctypes_decode.py's placeholder bundle): every replay is
        unchecked. The verdict says so instead of "0 bugs": with the loop's hazard, the bug found on the pointer
        only inferred (exit 1) "in the 0 of N replays checked"; synchronized, no bug and exit 3. With the real
        code object the same loop's bug is found and every replay checked."""
        script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "apps", "ctypes_decode.py")
        hsaco = os.path.join(self.apps, "decode_kernels-gfx950.hsaco")
        traces = {}
        for name, extra in (("placeholder", []), ("synced", ["--sync-before-replay"]),
                            ("known", ["--code-object", hsaco])):
            out_path = os.path.join(self.tmp, f"ctypes-{name}.zst")
            env = {"LD_PRELOAD": self.lib, "HIPVIS_OUTPUT": out_path, "HIPVIS_QUIET": "1",
                   "HIPDOUBLE_LIB": os.path.join(self.double, "libamdhip64.so.5")}
            rc, _, err = self.run([sys.executable, script, "--steps", "40", *extra], env_add=env)
            if rc != 0 or not os.path.exists(out_path):
                raise RuntimeError(f"ctypes_decode {name}: rc={rc} {err.strip()[-300:]}")
            traces[name] = out_path
        unchecked = (r"found in the 0 of (\d+) replays checked; (\d+) unchecked \((\d+) ran a kernel whose argument "
                     r"layout is unknown")
        rc, out, err = self.run([self.analyze, traces["placeholder"]])
        verdict = next((ln for ln in out.splitlines() if ln.startswith("verdict:")), "")
        m = re.match(r"verdict: 1 bug \(\d+ finding groups?\) at or above warning, \d+ of them on pointers only "
                     r"inferred .* " + unchecked, verdict)
        self.check(rc == 1 and m and int(m.group(1)) > 0 and m.group(1) == m.group(2) == m.group(3),
                   "unknown layouts, the loop's hazard: the bug on the inferred pointer, and the unchecked replays "
                   "counted with why; exit 1", f"rc={rc} {verdict!r}")
        print(f"  {verdict}")
        rc, out, err = self.run([self.analyze, traces["synced"]])
        verdict = next((ln for ln in out.splitlines() if ln.startswith("verdict:")), "")
        m = re.match(r"verdict: 0 bugs \(0 finding groups\) at or above warning " + unchecked, verdict)
        self.check(rc == 3 and m and int(m.group(1)) > 0 and m.group(1) == m.group(2) == m.group(3),
                   "unknown layouts, synchronized: the verdict counts the unchecked replays and says why; exit 3",
                   f"rc={rc} {verdict!r}")
        self.check(not re.search(r"^verdict: 0 bugs \(0 finding groups\) at or above warning$", out, re.M)
                   and "only 0 of" in out.splitlines()[0],
                   "unknown layouts: no bare \"0 bugs\" verdict; the first line says how many replays were checked",
                   out.splitlines()[0])
        print(f"  {verdict}")
        rc, _, _ = self.run([self.analyze, "--no-fail-on-unchecked", traces["synced"]])
        self.check(rc == 0, "--no-fail-on-unchecked: exit 0", f"rc={rc}")
        rc, _, _ = self.run([self.analyze, "--no-fail-on-unchecked", "--fail-on-unchecked", traces["synced"]])
        self.check(rc == 3, "--fail-on-unchecked after it: exit 3 again (the last one counts)", f"rc={rc}")
        rc, out, _ = self.run([self.analyze, "--json", traces["synced"]])
        doc = json.loads(out)
        c, v, t = doc.get("coverage", {}), doc.get("verdict", {}), doc["traces"][0]
        self.check(rc == 3 and c.get("replays") == t["replays"] > 0 and c.get("replays_checked") == 0
                   and c.get("unknown_layout_nodes") == t["replays"] and c.get("replays_unknown_layout") == t["replays"]
                   and v.get("exit_status") == 3 and v.get("unchecked_replays") == t["replays"] and v.get("bugs") == 0
                   and "unchecked" in v.get("text", ""),
                   "--json: the coverage object and the verdict carry the same counts", f"rc={rc} {c} {v}")
        rc, out, _ = self.run([self.analyze, "--fail-on=none", traces["synced"]])
        self.check(rc == 3 and re.search(r"^coverage: 0 of \d+ replays checked; \d+ unchecked", out, re.M),
                   "--fail-on none: no verdict line, a coverage line says what was not checked; exit 3",
                   f"rc={rc} {out[-300:]}")
        rc, out, _ = self.run([self.analyze, traces["known"]])
        m = re.search(r"^verdict: 1 bug \(\d+ finding groups?\) at or above warning; (\d+) of (\d+) replays fully "
                      r"checked$", out, re.M)
        self.check(rc == 1 and "same-epoch-write" in out and m and m.group(1) == m.group(2),
                   "with the code object: the bug is found and every replay checked", f"rc={rc} {out[-300:]}")
        pf = os.path.join(self.tmp, "ctypes.json")
        rc, _, err = self.run([self.analyze, "--no-fail-on-unchecked", "--perfetto", pf, traces["synced"]])
        self.check(rc == 0 and f"Perfetto trace: {pf}" in err, "--perfetto says where it wrote", err.strip())

    def main(self):
        return self.run_cases([self.case_unusable_run, self.case_help_version, self.case_unknown_option, self.case_value_forms,
                               self.case_directory_and_stdin, self.case_json_errors, self.case_non_ascii_path,
                               self.case_bad_inputs, self.case_unchecked_replays])


if __name__ == "__main__":
    sys.exit(Cli(sys.argv[1] if len(sys.argv) > 1 else "build").main())
