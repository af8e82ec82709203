#!/usr/bin/env python3
"""docs.py - the documentation says what the code does.

usage: docs.py BUILD_DIR   (from the repository root)

- the HIPVIS_* settings of the one table (src/common/envtab.c, as
  `hipvis run --help-env` prints it) are exactly the variables of README.md's
  configuration table and of hipvis(1)'s ENVIRONMENT section, with the same
  defaults, and every "HIPVIS_..." string literal under src/ is in the table;
- every long option of hipvis-analyze, hipvis-dump, hipvis-sidecar and
  hipvis run (from their own --help) appears in their man page;
- every analyzer rule (src/analyze/rules/*.c) has its section in
  docs/triage.md, which the reports' "next:" lines point at.
"""
import glob
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from hvsuite import Suite  # noqa: E402


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def code_variables():
    found = set()
    for path in glob.glob("src/**/*.c", recursive=True) + glob.glob("src/**/*.h", recursive=True):
        found.update(re.findall(r'"(HIPVIS_[A-Z0-9_]+)"', read(path)))
    return sorted(found)


def env_table(build):
    """({setting: default}, {name only the build and the tests read}) from hipvis run --help-env."""
    out = subprocess.run([os.path.join(build, "hipvis"), "run", "--help-env"], capture_output=True, text=True,
                         timeout=30).stdout
    settings = dict(re.findall(r"^  (HIPVIS_\w+)  \(default (.*)\)$", out, re.M))
    harness = set(re.findall(r"^  (HIPVIS_\w+) +\S", out, re.M)) - set(settings)
    return settings, harness


def man_text(name):
    # roff escapes the dashes of options: \-\-fail\-on
    return read(f"docs/man/{name}.1").replace("\\-", "-")


class Docs(Suite):
    def case_variables(self):
        settings, harness = env_table(self.build)
        self.check(len(settings) >= 10, f"{len(settings)} HIPVIS_* settings in hipvis run --help-env",
                   " ".join(settings))
        for v in code_variables():
            self.check(v in settings or v in harness, f"{v} (a string under src/) is in the HIPVIS_* table")
        # README.md: | `NAME` | accepted | `default` (or: unset) |
        readme = {}
        for line in read("README.md").splitlines():
            m = re.match(r"\| `(HIPVIS_\w+)` \|.*\| (?:`([^`]*)`|(unset)) \|$", line)
            if m:
                readme[m.group(1)] = m.group(2) if m.group(2) is not None else "unset"
        # hipvis(1): .TP / .B NAME / text ending "default \fBX\fR" (or "default unset").
        man = man_text("hipvis")
        env = man[man.index(".SH ENVIRONMENT"):]
        env = env[:env.index("\n.SH ", 1)]
        entries = {}
        for m in re.finditer(r"^\.TP\n\.B (HIPVIS_\w+)\n(.*?)(?=^\.TP|^\.PP|\Z)", env, re.M | re.S):
            d = re.search(r"default (?:\\fB(.*?)\\fR|(unset))", m.group(2))
            entries[m.group(1)] = (d.group(1) or d.group(2)) if d else None
        for where, doc in (("README.md's configuration table", readme), ("hipvis(1) ENVIRONMENT", entries)):
            for v, d in sorted(settings.items()):
                self.check(v in doc, f"{v} in {where}")
                if v in doc:
                    self.check(doc[v] == d, f"{v}: {where} says default {doc[v]}", f"the table says {d}")
            for v in sorted(set(doc) - set(settings)):
                self.check(False, f"{v} in {where} is a setting of the table (src/common/envtab.c)")

    def case_options(self):
        tools = [("hipvis-analyze", [os.path.join(self.build, "hipvis-analyze")]),
                 ("hipvis-dump", [os.path.join(self.build, "hipvis-dump")]),
                 ("hipvis-sidecar", [os.path.join(self.build, "hipvis-sidecar")]),
                 ("hipvis", [os.path.join(self.build, "hipvis"), "run"]),
                 ("hipvis", [os.path.join(self.build, "hipvis"), "experiment"])]
        for man, argv in tools:
            out = subprocess.run(argv + ["--help"], capture_output=True, text=True, timeout=30).stdout
            opts = sorted(set(re.findall(r"^\s+(?:-\w, )?--([a-z][a-z0-9-]*)", out, re.M)))
            text = man_text(man)
            self.check(len(opts) > 1, f"{' '.join(os.path.basename(a) for a in argv)} --help lists options",
                       out[:200])
            for o in opts:
                self.check(f"--{o}" in text, f"--{o} of {' '.join(os.path.basename(a) for a in argv)} in {man}(1)")

    def case_triage(self):
        rules = []
        for path in sorted(glob.glob("src/analyze/rules/*.c")):
            rules += re.findall(r'\.name\s*=\s*"([a-z0-9-]+)"', read(path))
        self.check(len(rules) >= 10, f"{len(rules)} rules in src/analyze/rules", " ".join(rules))
        triage = read("docs/triage.md")
        heads = set(re.findall(r"^## `?([a-z0-9-]+)`?\s*$", triage, re.M))
        for r in rules:
            self.check(r in heads, f"docs/triage.md has a section for {r} (the report's docs/triage.md#{r})")
        for part in ("what it means", "example", "name the buffer", "what to try"):
            n = len(re.findall(rf"^\*\*{part}", triage, re.M | re.I))
            self.check(n >= len(rules), f"docs/triage.md: every rule says '{part}'", f"{n} of {len(rules)}")

    def main(self):
        return self.run_cases([self.case_variables, self.case_options, self.case_triage])


if __name__ == "__main__":
    sys.exit(Docs(sys.argv[1] if len(sys.argv) > 1 else "build", "docs").main())
