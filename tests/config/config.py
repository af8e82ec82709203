#!/usr/bin/env python3
"""config.py - one configuration path: the HIPVIS_* table and what reads it.

usage: config.py BUILD_DIR   (from the repository root)

- every HIPVIS_* name the code passes to getenv / secure_getenv / setenv /
  unsetenv (src/, tools/) is in the table (src/common/envtab.c), and the
  tracer (src/tracer) reads none outside its config module;
- every HIPVIS_* name the build and test scripts use (tests/, .ci/, the
  makefiles) is in the table, so a CI environment draws no warning;
- `hipvis run --help-env` lists every table entry with its default;
- an unknown HIPVIS_* name is named once, with the nearest known name, by
  the preload library and by `hipvis run` (not twice), and not under
  HIPVIS_QUIET=1;
- a bad value still names the variable and the accepted values and leaves
  no trace; a bad guard value disables guards only.
"""
import glob
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from hvsuite import Suite  # noqa: E402

ENVTAB = "src/common/envtab.c"
CONFIG = "src/tracer/core/config.c"


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def table_entries():
    """{name: default or None} of every entry, from the table's source."""
    out = {}
    for m in re.finditer(r'^\s*\[HV_ENV_\w+\]\s*=\s*\{"(HIPVIS_\w+)",\s*(.*?)\},?\s*$', read(ENVTAB), re.M | re.S):
        name, rest = m.group(1), m.group(2)
        d = re.match(r'(?:BOOL|NUMBER)\("([^"]*)"', rest) or re.match(r'HV_ENVT_\w+,\s*"([^"]*)"', rest)
        out[name] = d.group(1) if d else None
    return out


def sources(*tops, exts=(".c", ".h")):
    for top in tops:
        for path in sorted(glob.glob(f"{top}/**/*", recursive=True)):
            if path.endswith(exts) and os.path.isfile(path):
                yield path


class Config(Suite):
    def __init__(self, build):
        super().__init__(build, "config")
        self.hipvis = os.path.join(self.build, "hipvis")
        self.table = table_entries()

    def env(self, add):
        e = {k: v for k, v in os.environ.items() if not k.startswith("HIPVIS_") and k != "LD_PRELOAD"}
        e["LD_LIBRARY_PATH"] = self.double
        e.update(add)
        return e

    def traced(self, add, argv=None, preload=True):
        """decode_loop (3 steps), preloaded unless argv runs it another way; (rc, stderr, traces)."""
        out = os.path.join(self.tmp, f"t{len(os.listdir(self.tmp))}")
        os.makedirs(out)
        e = self.env(add)
        if preload:
            e["LD_PRELOAD"] = self.lib
            e.setdefault("HIPVIS_OUTPUT", os.path.join(out, "hipvis.%p.zst"))
        cmd = (argv or []) + [os.path.join(self.apps, "decode_loop"), "--steps", "3"]
        if argv:
            cmd[cmd.index("OUT")] = out
        p = subprocess.run(cmd, env=e, capture_output=True, text=True, timeout=120)
        return p.returncode, p.stderr, glob.glob(os.path.join(out, "*.zst"))

    def case_table(self):
        t = self.table
        self.check(len(t) >= 30 and "HIPVIS_GUARD" in t and "HIPVIS_RING_KB" in t,
                   f"{len(t)} entries read from {ENVTAB}", " ".join(t))
        self.check(t.get("HIPVIS_RING_KB") == "4096" and t.get("HIPVIS_OUTPUT") == "hipvis.%p.zst" and
                   "HIPVIS_FLOOR_APIS" in t and t["HIPVIS_FLOOR_APIS"] is None,
                   "the table's defaults as the source writes them", str(t)[:300])

    def case_getenv_names(self):
        """Names passed to the environment calls are all in the table; the tracer reads none itself."""
        call = re.compile(r'\b(secure_getenv|getenv|setenv|unsetenv)\s*\(\s*"(HIPVIS_\w+)"')
        used = {}
        for path in sources("src", "tools"):
            for fn, name in call.findall(read(path)):
                used.setdefault(name, set()).add(f"{path}:{fn}")
        self.check(len(used) >= 5, f"{len(used)} HIPVIS_* names in getenv/setenv/unsetenv calls",
                   " ".join(sorted(used)))
        for name, where in sorted(used.items()):
            self.check(name in self.table, f"{name} ({', '.join(sorted(where))}) is in the table")
        # The tracer: no getenv of a HIPVIS_* name, literal or through the
        # table, outside src/tracer/core/config.c; no hv_env_value there.
        stray = []
        for path in sources("src/tracer"):
            if path == CONFIG:
                continue
            text = read(path)
            for m in re.finditer(r'\b(?:secure_)?getenv\s*\(([^;]*)', text):
                if "HIPVIS" in m.group(1) or "hv_env_table" in m.group(1):
                    stray.append(f"{path}: {m.group(0)[:80]}")
            if re.search(r'\bhv_env_value\s*\(', text):
                stray.append(f"{path}: hv_env_value")
        self.check(not stray, "the tracer reads HIPVIS_* only in its config module (src/tracer/core/config.c)",
                   "; ".join(stray))
        # And nothing reads a table name around the table: the only HIPVIS_*
        # getenv literal left would be a second list of names.
        lit = [w for n, ws in used.items() for w in ws if w.endswith(":getenv") or w.endswith(":secure_getenv")]
        self.check(not lit, "no getenv(\"HIPVIS_...\") literal in src/ or tools/ (hv_env_table names them)",
                   " ".join(sorted(lit)))

    def case_script_names(self):
        """Every HIPVIS_* name the build and the test scripts use is in the table."""
        # (tests/config itself spells unknown names on purpose.)
        files = [p for p in sources("tests", ".ci", exts=(".py", ".sh", ".mk", ".c", ".h", "run"))
                 if not p.startswith("tests/config/")]
        files += ["Makefile"] + sorted(glob.glob("src/**/module.mk", recursive=True)) + ["tools/module.mk"]
        names = {}
        for path in files:
            for n in re.findall(r"\bHIPVIS_[A-Z][A-Z0-9_]*", read(path)):
                names.setdefault(n, path)
        c_text = "".join(read(p) for p in sources("include", "src", "tests"))
        macros = set(re.findall(r"#\s*(?:define|ifndef|ifdef)\s+(HIPVIS_\w+)", c_text))
        macros |= set(re.findall(r"defined\s*\(\s*(HIPVIS_\w+)", c_text))
        make_vars = set(re.findall(r"^(HIPVIS_\w+)\s*:?=", read("Makefile"), re.M))
        # Not environment variables: a placeholder in a usage line.
        words = {"HIPVIS_ANALYZE": "tests/analyze/bench/bench_analyze.c's usage line"}
        missing = sorted(n for n in names if n not in self.table and n not in macros and n not in make_vars and
                         n not in words)
        self.check(len(names) >= 20, f"{len(names)} HIPVIS_* names in the build and test scripts")
        self.check(not missing, "every HIPVIS_* name the scripts use is in the table (no warning in CI)",
                   ", ".join(f"{n} ({names[n]})" for n in missing))

    def case_help_env(self):
        p = subprocess.run([self.hipvis, "run", "--help-env"], capture_output=True, text=True, timeout=30)
        self.check(p.returncode == 0 and p.stderr == "", "hipvis run --help-env: exit 0, nothing on stderr",
                   f"rc={p.returncode} {p.stderr[:200]}")
        settings = dict(re.findall(r"^  (HIPVIS_\w+)  \(default (.*)\)$", p.stdout, re.M))
        harness = set(re.findall(r"^  (HIPVIS_\w+) +\S", p.stdout, re.M)) - set(settings)
        listed = set(settings) | harness
        self.check(listed == set(self.table), "--help-env lists every table entry, once",
                   f"missing {sorted(set(self.table) - listed)}, extra {sorted(listed - set(self.table))}")
        for name, d in sorted(settings.items()):
            want = self.table.get(name) or "unset"
            self.check(d == want, f"--help-env: {name} default {d}", f"table says {want}")
        m = re.search(r"^  HIPVIS_RING_KB .*\n\s+accepts (.*)$", p.stdout, re.M)
        self.check(m is not None and m.group(1) == "an integer 16..1048576 that is a power of two",
                   "--help-env: accepted values (HIPVIS_RING_KB)", m.group(1) if m else p.stdout[:200])
        m = re.search(r"^  HIPVIS_GUARD .*\n\s+accepts (.*)$", p.stdout, re.M)
        self.check(m is not None and m.group(1).startswith("off, stream-sync, event-sync, event-sync-nofence"),
                   "--help-env: accepted words (HIPVIS_GUARD)", m.group(1) if m else "")
        p = subprocess.run([self.hipvis, "run", "--help"], capture_output=True, text=True, timeout=30)
        self.check("--help-env" in p.stdout, "hipvis run --help names --help-env")

    def case_unknown_names(self):
        line = "hipvis: HIPVIS_RING is not a hipvis setting (did you mean HIPVIS_RING_KB?)\n"
        rc, err, traces = self.traced({"HIPVIS_RING": "8192"})
        self.check(rc == 0 and err.count(line) == 1 and traces,
                   "preloaded: an unknown name is named once, with the nearest setting; tracing goes on", err)
        rc, err, _ = self.traced({"HIPVIS_RING": "8192", "HIPVIS_QUIET": "1"})
        self.check(rc == 0 and "HIPVIS_RING" not in err, "preloaded, HIPVIS_QUIET=1: no warning", err)
        rc, err, _ = self.traced({"HIPVIS_REQUIRE_CUDA": "1", "HIPVIS_WORK": "/tmp"})
        self.check(rc == 0 and "not a hipvis setting" not in err,
                   "the build's and the tests' own HIPVIS_* names draw no warning", err)
        rc, err, _ = self.traced({"HIPVIS_WIBBLE_WOBBLE_THING": "1"})
        self.check("HIPVIS_WIBBLE_WOBBLE_THING is not a hipvis setting (hipvis run --help-env lists them)" in err,
                   "no near name: pointed at --help-env", err)
        run = [self.hipvis, "run", "-o", "OUT", "--"]
        rc, err, traces = self.traced({"HIPVIS_RING": "8192"}, argv=run, preload=False)
        self.check(rc == 0 and err.count(line) == 1 and traces and err.index(line) < err.index("hipvis: tracing"),
                   "hipvis run: named once before the launch (the traced process does not repeat it)", err)
        rc, err, _ = self.traced({"HIPVIS_RING": "8192", "HIPVIS_QUIET": "1"}, argv=run, preload=False)
        self.check(rc == 0 and "HIPVIS_RING" not in err, "hipvis run, HIPVIS_QUIET=1: no warning", err)

    def case_bad_values(self):
        for var, val, want in (
                ("HIPVIS_FLUSH_MS", "0", 'hipvis: HIPVIS_FLUSH_MS="0" is not accepted: expected an integer 1..100; '
                                         "tracing disabled"),
                ("HIPVIS_START", "later", 'hipvis: HIPVIS_START="later" is not accepted: expected all, profiler or '
                                          "signal; tracing disabled"),
                ("HIPVIS_PROBE", "0x10", 'hipvis: HIPVIS_PROBE="0x10" is not accepted: expected off, auto, or up '
                                         "to 16 ADDR:LEN ranges separated by commas (LEN 1..4096); tracing disabled")):
            rc, err, traces = self.traced({var: val})
            self.check(rc == 0 and want in err and not traces,
                       f"{var}={val}: named with the accepted values, tracing off, the program unchanged", err)
        rc, err, traces = self.traced({"HIPVIS_GUARD": "bogus"})
        self.check(rc == 0 and "hipvis: HIPVIS_GUARD=bogus: expected off, stream-sync, event-sync, event-sync-nofence,"
                   " release-event or copy-sync; guards disabled" in err and traces,
                   "HIPVIS_GUARD=bogus: named, guards disabled, tracing goes on", err)
        rc, err, traces = self.traced({"HIPVIS_GUARD_WHEN": "sometimes"})
        self.check(rc == 0 and "hipvis: HIPVIS_GUARD_WHEN=sometimes: expected flagged or always; using flagged" in err
                   and traces, "HIPVIS_GUARD_WHEN=sometimes: named, flagged used, tracing goes on", err)

    def main(self):
        return self.run_cases([self.case_table, self.case_getenv_names, self.case_script_names, self.case_help_env,
                               self.case_unknown_names, self.case_bad_values])


if __name__ == "__main__":
    sys.exit(Config(sys.argv[1] if len(sys.argv) > 1 else "build").main())
